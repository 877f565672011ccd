import PathModel

/// Runs a script read from a descriptor or held in memory, statement by statement as lines
/// arrive, with the script policy: stop at the first failure and, when that leaves something
/// unrun, say where.
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
        return run { _ in
            guard index < lines.count else { return .end }
            index += 1
            return .line(lines[index - 1])
        }
    }

    /// Runs the script read from `input` line by line, so that a pipe's commands run as they come.
    public func run(input: OpenFile) -> ExitStatus {
        var reader = LineReader(input: input)
        var readError: FileError?
        let status = run { waiting in
            do throws(FileError) { return try reader.nextLine(waiting: waiting) } catch {
                // Reading ahead only decides a message; its error is not the script's.
                guard waiting else { return .notYet }
                readError = error
                return .end
            }
        }
        if let readError {
            // Ctrl-C, SIGTERM or SIGHUP while the script waited for its next line.
            if readError.errno == .interrupted && shell.state.isCancelled() { return .interrupted }
            shell.stderr.line("shelf: " + Diagnostics.render(readError, phrase: "error reading"))
            shell.stderr.flush()
            return .failure
        }
        return status
    }

    /// Reads lines into whole statements and runs each as it is complete. `nextLine(true)`
    /// waits for a line; `nextLine(false)` answers `.notYet` rather than wait.
    private func run(nextLine: (_ waiting: Bool) -> LineRead) -> ExitStatus {
        var reader = StatementReader()
        var status = ExitStatus.success
        defer {
            shell.stdout.flush()
            shell.stderr.flush()
        }
        while case .line(var line) = nextLine(true) {
            let lineNumber = reader.lineNumber + 1
            if lineNumber == 1, line.starts(with: Self.byteOrderMark) { line.removeFirst(Self.byteOrderMark.count) }
            if lineNumber == 1, line.starts(with: [0x23, 0x21]) {  // #! line
                reader.skipLine()
                continue
            }
            if line.contains(0) {
                shell.stderr.line("shelf: \(origin):\(lineNumber): NUL byte in script")
                return .usage
            }
            guard let parsed = reader.add(line, aliases: shell.state.aliases) else { continue }
            if !shell.state.isInteractive {
                shell.state.history.append(Array(parsed.source.dropLast(parsed.source.last == 0x0A ? 1 : 0)))
            }
            let outcome = shell.run(parsed, origin: origin)
            shell.stdout.flush()
            shell.stderr.flush()
            status = outcome.status
            switch outcome {
            case .finished: continue
            case .exited(let exit): return exit
            case .syntaxError: return .usage
            case .stopped(let failed, let line, let leftUnrun):
                if leftUnrun || Self.moreFollows(nextLine) { shell.stderr.line("shelf: stopped at \(origin):\(line)") }
                return failed
            }
        }
        if let unfinished = reader.finish() {
            // The input ended inside a quote or after && : report it as the syntax error it is.
            _ = shell.run(unfinished, origin: origin)
            return .usage
        }
        return status
    }
}

extension ScriptRunner {
    /// A UTF-8 byte-order mark, skipped at the start of a script: it would otherwise be part of
    /// the first command's name, invisible in the message.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether the script goes on after the statement that stopped it: a line with something to
    /// run follows. Reads ahead without waiting: when the source is a pipe or terminal whose
    /// writer is still there but has sent nothing more, it cannot be known, and the answer is yes.
    private static func moreFollows(_ nextLine: (_ waiting: Bool) -> LineRead) -> Bool {
        while true {
            switch nextLine(false) {
            case .line(let line):
                guard let tokens = try? Lexer.tokenize(line),
                    tokens.allSatisfy({ $0.kind == .newline || $0.kind == .separator })
                else { return true }
            case .end: return false
            case .notYet: return true
            }
        }
    }
}

/// A line of a script, or why there is none yet.
enum LineRead {
    /// A line, with its newline unless it is the last and has none.
    case line([UInt8])
    /// The end of the script.
    case end
    /// No whole line has arrived, and waiting was not wanted.
    case notYet
}

/// Reads lines (with their newline) from a descriptor through a buffer.
struct LineReader {
    let input: OpenFile
    private var buffer: [UInt8] = []
    private var start = 0
    private var finished = false

    init(input: OpenFile) { self.input = input }

    /// The next line; without `waiting`, `.notYet` when reading it would wait for input.
    mutating func nextLine(waiting: Bool) throws(FileError) -> LineRead {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start...newline])
                start = newline + 1
                return .line(line)
            }
            if finished {
                guard start < buffer.count else { return .end }
                let line = Array(buffer[start...])
                start = buffer.count
                return .line(line)
            }
            if !waiting && !input.isReadable { return .notYet }
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
