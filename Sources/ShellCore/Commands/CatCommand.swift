import PathModel

/// `cat [-n] [-b] [-A] [FILE...]`: write files to standard output.
public struct CatCommand: ShellCommand {
    public static let name = "cat"
    public static let summary = "Concatenate FILE(s) to standard output; with no FILE, or when FILE is -, read standard input."
    public static let synopsis = "[-n] [-b] [-A] [FILE]..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case showAll, numberNonblank, number
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            "A", "show-all", key: .showAll,
            help: "show tabs as ^I, line ends as $, other control bytes as ^X and M-"),
        OptionSpec(
            "b", "number-nonblank", key: .numberNonblank, help: "number nonempty output lines, overrides -n"),
        OptionSpec("n", "number", key: .number, help: "number all output lines"),
    ]

    /// Number lines: all of them, or only non-blank ones.
    public enum Numbering: Sendable { case none, all, nonBlank }

    /// Which lines get numbers.
    public var numbering: Numbering
    /// Make tabs, line ends and control bytes visible.
    public var showAll: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        numbering = arguments.has(.numberNonblank) ? .nonBlank : arguments.has(.number) ? .all : .none
        showAll = arguments.has(.showAll)
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        var status = ExitStatus.success
        var formatter = LineFormatter(numbering: numbering, showAll: showAll)
        let inputs = operands.isEmpty ? [Argument("-")] : operands
        let outputIdentity = Self.regularFileIdentity(of: context.stdout)
        for operand in inputs {
            if context.isCancelled { return .interrupted }
            let input: OpenFile
            if operand.bytes == [0x2D] {
                input = context.stdin
            } else {
                do {
                    input = try context.openForReading(operand)
                } catch {
                    context.error(Diagnostics.renderBare(error, as: operand.bytes))
                    status = .failure
                    continue
                }
            }
            defer { if input != context.stdin { input.close() } }
            do {
                let info = try input.info()
                if info.kind == .directory {
                    context.error(Diagnostics.renderBare(FileError(.read, operand.file, .isDirectory), as: operand.bytes))
                    status = .failure
                    continue
                }
                if info.kind == .regular, info.identity == outputIdentity {
                    context.error("\(Quoting.bare(operand.bytes)): \(Messages.inputIsOutput)")
                    status = .failure
                    continue
                }
                if numbering == .none && !showAll, let output = context.stdout.descriptorForDirectWrite() {
                    do {
                        try input.copyAll(to: output, isCancelled: { context.isCancelled })
                    } catch where error.path == output.file && error.operation == .write {
                        if error.errno == .canceled { return .interrupted }
                        context.stdout.recordDirectWriteError(error)
                        return Self.outputFailed(error, context)
                    }
                } else {
                    var buffer = [UInt8](repeating: 0, count: 1 << 16)
                    while true {
                        if context.isCancelled { return .interrupted }
                        let count = try input.read(into: &buffer)
                        if count == 0 { break }
                        formatter.format(buffer[..<count], into: context.stdout)
                        if context.stdout.isBroken { return Self.outputFailed(context.stdout.error!, context) }
                    }
                }
            } catch {
                context.error(Diagnostics.renderBare(error, as: operand.bytes))
                status = .failure
            }
        }
        context.stdout.flush()
        if let error = context.stdout.error { return Self.outputFailed(error, context) }
        return status
    }

    /// The identity of the output when it is a regular file (reading it into itself would never end).
    private static func regularFileIdentity(of output: OutputStream) -> FileIdentity? {
        guard let file = output.descriptorForDirectWrite() else { return nil }
        do {
            let info = try file.info()
            return info.kind == .regular ? info.identity : nil
        } catch {
            return nil  // An output that cannot be examined cannot be compared; cat goes on as GNU cat does.
        }
    }

    /// A closed pipe ends `cat` quietly, as with GNU cat killed by SIGPIPE; other write errors are reported.
    private static func outputFailed(_ error: FileError, _ context: CommandContext) -> ExitStatus {
        if error.errno != .brokenPipe { context.error("write error: \(error.reason)") }
        return .failure
    }

    /// Numbers lines and makes bytes visible, carrying state across reads and files.
    struct LineFormatter {
        let numbering: Numbering
        let showAll: Bool
        var lineNumber = 0
        var atLineStart = true

        mutating func format(_ bytes: ArraySlice<UInt8>, into output: OutputStream) {
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + bytes.count / 4)
            for byte in bytes {
                if atLineStart {
                    atLineStart = false
                    if numbering == .all || (numbering == .nonBlank && byte != 0x0A) {
                        lineNumber += 1
                        let digits = String(lineNumber)
                        out.append(contentsOf: Array((String(repeating: " ", count: max(0, 6 - digits.count)) + digits + "\t").utf8))
                    }
                }
                if byte == 0x0A {
                    if showAll { out.append(0x24) }
                    out.append(0x0A)
                    atLineStart = true
                    continue
                }
                guard showAll else {
                    out.append(byte)
                    continue
                }
                var value = byte
                if value >= 0x80 {
                    out.append(contentsOf: [0x4D, 0x2D])  // M-
                    value -= 0x80
                }
                if value < 0x20 {
                    out.append(contentsOf: [0x5E, value + 0x40])
                } else if value == 0x7F {
                    out.append(contentsOf: [0x5E, 0x3F])
                } else {
                    out.append(value)
                }
            }
            output.write(bytes: out)
        }
    }

    private enum Messages {
        static let inputIsOutput = "input file is output file"
    }
}
