import PathModel

/// `wc [-c] [-m] [-l] [-w] [-L] [FILE...]` or `wc ... --files0-from=F`: count the lines, words
/// and bytes of each FILE, as GNU wc does under `LC_ALL=C`, with its column widths and `total`.
public struct WcCommand: ShellCommand {
    public static let name = "wc"
    public static let summary =
        "Print newline, word and byte counts for each FILE, and a total line if more than one FILE is given."
    public static let synopsis = "[-c] [-m] [-l] [-w] [-L] [FILE... | --files0-from=F]"
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case bytes, chars, lines, words, maxLineLength, files0From
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("c", "bytes", key: .bytes, help: "print the byte counts"),
        OptionSpec("m", "chars", key: .chars, help: "print the character counts"),
        OptionSpec("l", "lines", key: .lines, help: "print the newline counts"),
        OptionSpec(
            nil, "files0-from", value: .required, valueName: "F", key: .files0From,
            help: "read the FILEs from F, each ended by a NUL; F - is standard input"),
        OptionSpec("L", "max-line-length", key: .maxLineLength, help: "print the maximum display width"),
        OptionSpec("w", "words", key: .words, help: "print the word counts"),
    ]

    /// One count wc can show, in the order of its columns.
    public enum Column: Sendable, CaseIterable {
        case lines, words, chars, bytes, maxLineLength
    }

    /// The columns to show, in column order.
    public var columns: [Column]
    /// The file that names the FILEs, NUL-separated (`--files0-from`); `-` is standard input.
    public var namesFile: Argument?
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        let asked: [(Column, Option)] = [
            (.lines, .lines), (.words, .words), (.chars, .chars), (.bytes, .bytes),
            (.maxLineLength, .maxLineLength),
        ]
        columns = asked.filter { arguments.has($0.1) }.map(\.0)
        if columns.isEmpty { columns = [.lines, .words, .bytes] }
        namesFile = arguments.bytes(.files0From).map { Argument(bytes: $0) }
        operands = arguments.operands
        if namesFile != nil, let extra = operands.first { throw NameList.operandWithList(extra) }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        var status = ExitStatus.success
        let inputs: [Argument]
        /// Whether the FILEs are known before counting (for the column width).
        var namesKnown = true
        var list: NameList?
        if let namesFile {
            guard let names = NameList.read(namesFile, in: context) else { return .failure }
            list = names
            inputs = names.names
            namesKnown = names.isRegularFile
        } else {
            inputs = operands.isEmpty ? [Argument(bytes: [0x2D])] : operands
        }
        let width = namesKnown ? columnWidth(inputs, in: context) : 1
        var total = Counts()
        for (index, input) in inputs.enumerated() {
            if context.isCancelled { return .interrupted }
            if let list, !list.accepts(index, in: context) {
                status = .failure
                continue
            }
            if input.bytes.isEmpty {
                context.error(Messages.zeroLengthName)
                status = .failure
                continue
            }
            guard let counts = count(input, in: context, status: &status) else { continue }
            total.add(counts)
            // Standard input read for want of a FILE has no name.
            write(
                counts, name: operands.isEmpty && namesFile == nil ? nil : input.bytes, width: width,
                to: context.stdout)
        }
        if context.isCancelled { return .interrupted }
        if inputs.count > 1 {
            write(total, name: Array(Messages.total.utf8), width: width, to: context.stdout)
        }
        return context.isCancelled ? .interrupted : status
    }

    /// GNU's column width: wide enough for the sum of the regular files' sizes, at least 7 when
    /// an input is not a regular file (standard input, a directory), and 1 for a single count
    /// of a single input.
    private func columnWidth(_ inputs: [Argument], in context: CommandContext) -> Int {
        if inputs.count == 1 && columns.count == 1 { return 1 }
        var minimum = 1
        var regularTotal: UInt64 = 0
        for input in inputs {
            let info: FileInfo?
            if input.bytes == [0x2D] {
                info = try? context.stdin.info()
            } else {
                info = try? context.resolve(input).info(followSymlinks: true)
            }
            guard let info else { continue }
            if info.kind == .regular { regularTotal += info.size } else { minimum = 7 }
        }
        return max(minimum, String(regularTotal).count)
    }

    /// The counts of one input (standard input for `-`); nil, after saying why, when it
    /// cannot be opened. An error while reading is reported and what was read is counted.
    private func count(_ input: Argument, in context: CommandContext, status: inout ExitStatus) -> Counts? {
        let file: OpenFile
        if input.bytes == [0x2D] {
            file = context.stdin
        } else {
            do { file = try context.openForReading(input) } catch {
                context.report(error, as: input.bytes)
                status = .failure
                return nil
            }
        }
        defer { if file != context.stdin { file.close() } }
        var counter = Counter()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        do {
            while !context.isCancelled {
                let read = try file.read(into: &buffer)
                if read == 0 { break }
                buffer.withUnsafeBufferPointer { counter.count(UnsafeBufferPointer(rebasing: $0[..<read])) }
            }
        } catch {
            // Broken off by Ctrl-C: no count, no word; the caller sees the interrupt.
            if context.isInterruption(error) { return nil }
            context.error(
                Diagnostics.renderBare(error.reworded(as: error.operation, input.file), as: input.bytes))
            status = .failure
        }
        return counter.finished
    }

    /// Writes one line: the chosen counts right-aligned in `width`, then the name byte for byte
    /// (quoted when it holds a newline, which would break the line, as GNU does).
    private func write(_ counts: Counts, name: [UInt8]?, width: Int, to output: OutputStream) {
        var line = Array(
            columns.map { column -> String in
                let digits = String(counts[column])
                return String(repeating: " ", count: max(0, width - digits.count)) + digits
            }.joined(separator: " ").utf8)
        if let name {
            line.append(0x20)
            line += name.contains(0x0A) ? Array(Quoting.ifNeeded(name).utf8) : name
        }
        line.append(0x0A)
        output.write(bytes: line)
    }

    /// What wc counts in one input.
    struct Counts: Sendable, Hashable {
        var lines: UInt64 = 0
        var words: UInt64 = 0
        var bytes: UInt64 = 0
        /// The widest line, tabs to multiples of 8 and control bytes of no width.
        var maxLineLength: UInt64 = 0

        /// The count a column shows; characters are bytes, as in the C locale.
        subscript(column: Column) -> UInt64 {
            switch column {
            case .lines: return lines
            case .words: return words
            case .chars, .bytes: return bytes
            case .maxLineLength: return maxLineLength
            }
        }

        /// Adds another input's counts (the widest line is the wider of the two).
        mutating func add(_ other: Counts) {
            lines += other.lines
            words += other.words
            bytes += other.bytes
            maxLineLength = max(maxLineLength, other.maxLineLength)
        }
    }

    /// Counts bytes as they come, in chunks, as GNU wc does in the C locale: a word is a run of
    /// printable bytes between white space (other bytes neither start nor end one).
    struct Counter {
        private var counts = Counts()
        private var inWord = false
        private var linePosition: UInt64 = 0

        mutating func count(_ bytes: UnsafeBufferPointer<UInt8>) {
            counts.bytes += UInt64(bytes.count)
            for byte in bytes {
                switch byte {
                case 0x0A, 0x0D, 0x0C:
                    if byte == 0x0A { counts.lines += 1 }
                    counts.maxLineLength = max(counts.maxLineLength, linePosition)
                    linePosition = 0
                    inWord = false
                case 0x09:
                    linePosition += 8 - linePosition % 8
                    inWord = false
                case 0x20:
                    linePosition += 1
                    inWord = false
                case 0x0B:
                    inWord = false
                case 0x21...0x7E:
                    linePosition += 1
                    if !inWord {
                        counts.words += 1
                        inWord = true
                    }
                default:
                    break
                }
            }
        }

        /// The counts, the last line's width included.
        var finished: Counts {
            var result = counts
            result.maxLineLength = max(result.maxLineLength, linePosition)
            return result
        }
    }

    private enum Messages {
        static let zeroLengthName = "invalid zero-length file name"
        static let total = "total"
    }
}
