import PathModel

/// `cat [-AbeEnstTuv] [FILE...]`: write files to standard output, optionally numbering lines,
/// squeezing blank ones and making invisible bytes visible, as GNU cat does.
public struct CatCommand: ShellCommand {
    public static let name = "cat"
    public static let summary =
        "Concatenate FILE(s) to standard output; with no FILE, or when FILE is -, read standard input."
    public static let synopsis = "[-AbeEnstTuv] [FILE]..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case showAll, numberNonblank, nonprintingAndEnds, showEnds, number, squeezeBlank, nonprintingAndTabs
        case showTabs, unbuffered, showNonprinting
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("A", "show-all", key: .showAll, help: "equivalent to -vET"),
        OptionSpec(
            "b", "number-nonblank", key: .numberNonblank, help: "number nonempty output lines, overrides -n"),
        OptionSpec("e", key: .nonprintingAndEnds, help: "equivalent to -vE"),
        OptionSpec("E", "show-ends", key: .showEnds, help: "display $ at end of each line"),
        OptionSpec("n", "number", key: .number, help: "number all output lines"),
        OptionSpec("s", "squeeze-blank", key: .squeezeBlank, help: "suppress repeated empty output lines"),
        OptionSpec("t", key: .nonprintingAndTabs, help: "equivalent to -vT"),
        OptionSpec("T", "show-tabs", key: .showTabs, help: "display TAB characters as ^I"),
        OptionSpec("u", key: .unbuffered, help: "(ignored)"),
        OptionSpec(
            "v", "show-nonprinting", key: .showNonprinting,
            help: "use ^ and M- notation, except for line ends and TAB"),
    ]

    /// Number lines: all of them, or only non-blank ones.
    public enum Numbering: Sendable { case none, all, nonBlank }

    /// How the output is rewritten; all off copies the bytes unchanged.
    public struct Rendering: Sendable, Equatable {
        /// Which lines get numbers.
        public var numbering: Numbering = .none
        /// Write `$` before each newline (`-E`), and a carriage return before one as `^M`.
        public var showEnds = false
        /// Write a tab as `^I` (`-T`).
        public var showTabs = false
        /// Write control bytes as `^X`, DEL as `^?` and bytes from 128 as `M-` and the rest (`-v`).
        public var showNonprinting = false
        /// Write one empty line for each run of them (`-s`).
        public var squeezeBlank = false

        /// Whether the bytes go out unchanged.
        var isPlain: Bool { self == Rendering() }
    }

    /// How the output is rewritten.
    public var rendering: Rendering
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        var rendering = Rendering()
        rendering.numbering =
            arguments.has(.numberNonblank) ? .nonBlank : arguments.has(.number) ? .all : .none
        let given = Set(arguments.options.map(\.key))
        rendering.showEnds = !given.isDisjoint(with: [.showAll, .nonprintingAndEnds, .showEnds])
        rendering.showTabs = !given.isDisjoint(with: [.showAll, .nonprintingAndTabs, .showTabs])
        rendering.showNonprinting =
            !given.isDisjoint(with: [.showAll, .nonprintingAndEnds, .nonprintingAndTabs, .showNonprinting])
        rendering.squeezeBlank = given.contains(.squeezeBlank)
        self.rendering = rendering
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        var status = ExitStatus.success
        var formatter = LineFormatter(rendering: rendering)
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
                    context.report(error, as: operand.bytes)
                    status = .failure
                    continue
                }
            }
            defer { if input != context.stdin { input.close() } }
            do {
                let info = try input.info()
                if info.kind == .directory {
                    context.error(
                        Diagnostics.renderBare(
                            FileError(.read, operand.file, .isDirectory), as: operand.bytes))
                    status = .failure
                    continue
                }
                if info.kind == .regular, info.identity == outputIdentity {
                    context.error("\(Quoting.bare(operand.bytes)): \(Messages.inputIsOutput)")
                    status = .failure
                    continue
                }
                if rendering.isPlain, let output = context.stdout.descriptorForDirectWrite() {
                    do {
                        try input.copyAll(to: output, isCancelled: { context.isCancelled })
                    } catch  where error.path == output.file && error.operation == .write {
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
                        if context.stdout.isBroken {
                            return Self.outputFailed(context.stdout.error!, context)
                        }
                    }
                }
            } catch {
                context.report(error, as: operand.bytes)
                status = .failure
            }
        }
        formatter.finish(into: context.stdout)
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

    /// Numbers lines, squeezes blank ones and makes bytes visible, carrying its state across
    /// reads and files as GNU cat does (numbering goes on, a run of blank lines spans files).
    struct LineFormatter {
        let rendering: Rendering
        var lineNumber = 0
        var atLineStart = true
        /// Empty lines written since the last line with something in it (counted up to 2).
        var blankLines = 0
        /// A carriage return held back under `-E` until the next byte says whether it ends a line.
        var heldCarriageReturn = false

        init(rendering: Rendering) { self.rendering = rendering }

        mutating func format(_ bytes: ArraySlice<UInt8>, into output: OutputStream) {
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + bytes.count / 4)
            for byte in bytes { append(byte, to: &out) }
            output.write(bytes: out)
        }

        /// Writes what is still held back at the end of the input: a carriage return is one.
        mutating func finish(into output: OutputStream) {
            guard heldCarriageReturn else { return }
            heldCarriageReturn = false
            output.write(byte: 0x0D)
        }

        private mutating func append(_ byte: UInt8, to out: inout [UInt8]) {
            if heldCarriageReturn {
                heldCarriageReturn = false
                out.append(contentsOf: byte == 0x0A ? [0x5E, 0x4D] : [0x0D])
            }
            if byte == 0x0A {
                if atLineStart {
                    blankLines = min(blankLines + 1, 2)
                    if rendering.squeezeBlank && blankLines == 2 { return }
                    if rendering.numbering == .all { appendLineNumber(to: &out) }
                }
                if rendering.showEnds { out.append(0x24) }
                out.append(0x0A)
                atLineStart = true
                return
            }
            if atLineStart {
                atLineStart = false
                blankLines = 0
                if rendering.numbering != .none { appendLineNumber(to: &out) }
            }
            if byte == 0x09 {
                out.append(contentsOf: rendering.showTabs ? [0x5E, 0x49] : [0x09])
            } else if rendering.showNonprinting {
                appendVisible(byte, to: &out)
            } else if byte == 0x0D && rendering.showEnds {
                heldCarriageReturn = true
            } else {
                out.append(byte)
            }
        }

        private mutating func appendLineNumber(to out: inout [UInt8]) {
            lineNumber += 1
            let digits = String(lineNumber)
            out.append(
                contentsOf: Array(
                    (String(repeating: " ", count: max(0, 6 - digits.count)) + digits + "\t").utf8))
        }

        /// `^X` for a control byte, `^?` for DEL, `M-` and the same for a byte from 128.
        private func appendVisible(_ byte: UInt8, to out: inout [UInt8]) {
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
    }

    private enum Messages {
        static let inputIsOutput = "input file is output file"
    }
}
