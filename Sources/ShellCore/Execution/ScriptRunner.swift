import PathModel

/// Runs a script read from a descriptor or held in memory, statement by statement as lines
/// arrive, with the script policy: stop at the first failure and say where.
public struct ScriptRunner {
    /// The shell that runs the statements.
    public let shell: Shell
    /// How messages name the source: `-c`, `stdin`, or the script's path.
    public let origin: String

    /// A runner for `shell`, naming its source `origin`.
    public init(shell: Shell, origin: String) {
        self.shell = shell
        self.origin = origin
    }

    /// Runs all of `source` and returns the status the process should exit with.
    public func run(source: [UInt8]) -> ExitStatus {
        var lines = source.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) + [0x0A] }
        if source.last == 0x0A || source.isEmpty { lines.removeLast() }
        var index = 0
        return run { () -> [UInt8]? in
            guard index < lines.count else { return nil }
            index += 1
            return lines[index - 1]
        }
    }

    /// Runs the script read from `input` line by line, so that a pipe's commands run as they come.
    public func run(input: OpenFile) -> ExitStatus {
        var reader = LineReader(input: input)
        var readError: FileError?
        let status = run { () -> [UInt8]? in
            do throws(FileError) { return try reader.nextLine() } catch {
                readError = error
                return nil
            }
        }
        if let readError {
            shell.stderr.line("shelf: " + Diagnostics.render(readError, phrase: "error reading"))
            shell.stderr.flush()
            return .failure
        }
        return status
    }

    /// Gathers lines into complete statements (an open quote or a trailing `&&` waits for more)
    /// and runs them.
    private func run(nextLine: () -> [UInt8]?) -> ExitStatus {
        var pending: [UInt8] = []
        var pendingStart = 1
        var lineNumber = 0
        var status = ExitStatus.success
        defer {
            shell.stdout.flush()
            shell.stderr.flush()
        }
        while let line = nextLine() {
            lineNumber += 1
            if pending.isEmpty { pendingStart = lineNumber }
            if lineNumber == 1, line.starts(with: [0x23, 0x21]) { continue }  // #! line
            if line.contains(0) {
                shell.stderr.line("shelf: \(origin):\(lineNumber): NUL byte in script")
                return .usage
            }
            pending += line
            if Parser.needsMoreInput(pending) { continue }
            let source = pending
            pending = []
            if !shell.state.isInteractive {
                shell.state.history.append(String(decoding: source.dropLast(source.last == 0x0A ? 1 : 0), as: UTF8.self))
            }
            let outcome = shell.run(source, origin: origin, firstLine: pendingStart)
            shell.stdout.flush()
            shell.stderr.flush()
            status = outcome.status
            switch outcome {
            case .finished: continue
            case .exited(let exit): return exit
            case .syntaxError: return .usage
            case .stopped(let failed, let line):
                if shell.stdout.error?.errno == .brokenPipe { return failed }
                shell.stderr.line("shelf: stopped at \(origin):\(line)")
                return failed
            }
        }
        if !pending.isEmpty {
            // The input ended inside a quote or after && : report it as the syntax error it is.
            _ = shell.run(pending, origin: origin, firstLine: pendingStart)
            return .usage
        }
        return status
    }
}

/// Reads lines (with their newline) from a descriptor through a buffer.
struct LineReader {
    let input: OpenFile
    private var buffer: [UInt8] = []
    private var start = 0
    private var finished = false

    init(input: OpenFile) { self.input = input }

    mutating func nextLine() throws(FileError) -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start...newline])
                start = newline + 1
                return line
            }
            if finished {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                return line
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = try input.read(into: &chunk)
            if count == 0 { finished = true } else { buffer += chunk[..<count] }
        }
    }
}
