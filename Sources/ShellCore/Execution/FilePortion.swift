import PathModel

/// How much of each input `head` or `tail` writes, and the loop over inputs they share: opening
/// each operand (`-` is standard input), `==> NAME <==` headers, GNU's messages and status.
public struct FilePortion: Sendable {
    /// The keys of the options head and tail read a portion and headers from.
    public enum Option: Hashable, Sendable {
        case bytes, lines, quiet, verbose, follow, followByName, retry, sleepInterval, zeroTerminated
    }

    /// Whether counts are of lines or of bytes.
    public enum Unit: Sendable { case lines, bytes }

    /// Which part of the input.
    public enum Part: Sendable {
        /// The first N units (`head -n N`).
        case first(UInt64)
        /// All but the last N units (`head -n -N`).
        case allButLast(UInt64)
        /// The last N units (`tail -n N`).
        case last(UInt64)
        /// From unit N on, counting from 1 (`tail -n +N`).
        case from(UInt64)
    }

    /// Lines or bytes.
    public let unit: Unit
    /// Which part.
    public let part: Part
    /// What ends a line: a newline, or NUL with `-z`.
    public let delimiter: UInt8

    /// A portion of inputs, in lines that end with `delimiter`.
    public init(unit: Unit, part: Part, delimiter: UInt8 = 0x0A) {
        self.unit = unit
        self.part = part
        self.delimiter = delimiter
    }

    /// The portion `-n N` or `-c N` asks for (10 lines by default): a count with the `sign` this
    /// command gives a meaning to (`-` for head, `+` for tail) is `signed`, any other `plain`;
    /// lines end with NUL with `-z`.
    /// - Throws: `UsageError` for a count that is not a number.
    static func parse(
        _ arguments: ParsedArguments<Option>, sign: Character, signed: (UInt64) -> Part, plain: (UInt64) -> Part
    ) throws(UsageError) -> FilePortion {
        let choice = arguments.last(of: [.bytes, .lines]) ?? .lines
        let unit: Unit = choice == .bytes ? .bytes : .lines
        let text = arguments.value(choice) ?? "10"
        let marked = text.first == sign
        guard let count = count(text.dropFirst(marked || text.hasPrefix("+") || text.hasPrefix("-") ? 1 : 0)) else {
            throw .invalid("invalid number of \(unit == .bytes ? "bytes" : "lines"): \(Quoting.always(text))")
        }
        return FilePortion(
            unit: unit, part: marked ? signed(count) : plain(count),
            delimiter: arguments.has(.zeroTerminated) ? 0 : 0x0A)
    }

    /// `-q` (never) or `-v` (always print headers), whichever came last.
    static func headers(_ arguments: ParsedArguments<Option>) -> (quiet: Bool, verbose: Bool) {
        let choice = arguments.last(of: [.quiet, .verbose])
        return (choice == .quiet, choice == .verbose)
    }

    /// Parses a count as GNU's head and tail do: digits with an optional multiplier suffix
    /// (`b` 512, `K` 1024, `KB` 1000, `M`, `MB`, `G`, `GB`…); the sign was taken off already.
    static func count(_ text: Substring) -> UInt64? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let value = UInt64(digits) else { return nil }
        let suffix = text.dropFirst(digits.count)
        guard let multiplier = multipliers[String(suffix)] else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? .max : product
    }

    private static let multipliers: [String: UInt64] = {
        var table: [String: UInt64] = ["": 1, "b": 512]
        for (power, letter) in ["K", "M", "G", "T", "P", "E"].enumerated() {
            table[letter] = UInt64(1) << (10 * (power + 1))
            table[letter + "iB"] = UInt64(1) << (10 * (power + 1))
            var decimal: UInt64 = 1
            for _ in 0...power { decimal *= 1000 }
            table[letter + "B"] = decimal
        }
        table["kB"] = 1000
        return table
    }()

    /// Writes the portion of every operand, with headers when there are several (or `verbose`);
    /// with `following`, then writes what is added to them until Ctrl-C (`tail -f`).
    func run(
        operands: [Argument], verbose: Bool, quiet: Bool, following: TailFollower.Mode? = nil,
        in context: CommandContext
    ) -> ExitStatus {
        let inputs = operands.isEmpty ? [Argument("-")] : operands
        let headers = !quiet && (verbose || inputs.count > 1)
        var status = ExitStatus.success
        var first = true
        var follower = following.map {
            TailFollower(mode: $0, headers: headers, operandCount: inputs.count, context: context)
        }
        for (number, operand) in inputs.enumerated() {
            if context.isCancelled { return .interrupted }
            let standardInput = operand.bytes == [0x2D]
            let shown = standardInput ? "standard input" : operand.text
            let input: OpenFile
            do {
                input = standardInput ? context.stdin : try context.openForReading(operand)
            } catch {
                if context.isInterruption(error) { return .interrupted }
                context.stdout.flush()
                context.error("\(Messages.cannotOpen) \(Quoting.always(operand.bytes)) \(Messages.forReading): \(error.reason)")
                status = .failure
                follower?.add(missing: operand, number: number)
                continue
            }
            var kept = false
            defer { if !standardInput && !kept { input.close() } }
            if headers {
                context.stdout.write((first ? "" : "\n") + "==> \(shown) <==\n")
            }
            first = false
            do {
                let position = try write(
                    input, to: context.stdout, passingOver: !standardInput, isCancelled: { context.isCancelled })
                if follower != nil, !standardInput, let position {
                    follower?.add(operand, number: number, input: input, position: position)
                    kept = true
                }
            } catch {
                if context.isInterruption(error) { return .interrupted }
                context.stdout.flush()
                context.error("\(Messages.errorReading) \(Quoting.always(standardInput ? Array(shown.utf8) : operand.bytes)): \(error.reason)")
                status = .failure
            }
            if context.stdout.isBroken { break }
        }
        if var follower, !context.stdout.isBroken {
            status = follower.run(status: status)
        }
        context.stdout.flush()
        if let error = context.stdout.error, error.errno != .brokenPipe {
            context.error("write error: \(error.reason)")
            return .failure
        }
        return status
    }

    /// Writes this portion of one input; for a regular file, returns the offset read up to
    /// (where what is added later starts), else nil. With `passingOver` (a file opened for this
    /// alone, whose offset no one else shares), the bytes before a `+N` of bytes are passed
    /// over, not read.
    @discardableResult
    func write(
        _ input: OpenFile, to output: OutputStream, passingOver: Bool, isCancelled: () -> Bool
    ) throws(FileError) -> UInt64? {
        let info = try input.info()
        if info.kind == .directory { throw FileError(.read, input.file, .isDirectory) }
        if case .last(let count) = part, info.kind == .regular {
            return try writeEnd(of: input, size: info.size, count: count, to: output)
        }
        var reader = ChunkReader(input: input)
        switch part {
        case .first(let count):
            var left = count
            while left > 0, let chunk = try reader.next(isCancelled) {
                let end = prefixEnd(chunk, &left)
                output.write(bytes: chunk[..<end])
            }
        case .from(let start):
            var skip = start > 0 ? start - 1 : 0
            // The bytes of a regular file are passed over rather than read, as GNU tail seeks
            // (on object storage, only the rest is fetched). Past the end there is nothing to
            // write, and what is added later starts at the offset asked for, as after GNU's lseek.
            if passingOver, unit == .bytes, info.kind == .regular {
                guard skip < info.size else { return skip }
                reader.start(at: skip)
                skip = 0
            }
            while let chunk = try reader.next(isCancelled) {
                let begin = skip > 0 ? prefixEnd(chunk, &skip) : chunk.startIndex
                output.write(bytes: chunk[begin...])
            }
        case .allButLast(let count):
            // Keep back what could still be among the last `count` units; write the rest.
            var pending: [UInt8] = []
            while let chunk = try reader.next(isCancelled) {
                pending += chunk
                let keep = suffixStart(pending, count)
                if keep > 0 {
                    output.write(bytes: pending[..<keep])
                    pending.removeFirst(keep)
                }
            }
        case .last(let count):
            var pending: [UInt8] = []
            while let chunk = try reader.next(isCancelled) {
                pending += chunk
                let keep = suffixStart(pending, count)
                if keep > 1 << 16 { pending.removeFirst(keep) }
            }
            output.write(bytes: pending[suffixStart(pending, count)...])
        }
        return info.kind == .regular ? reader.consumed : nil
    }

    /// The end of the first `left` units of `chunk`, taking them off `left`.
    private func prefixEnd(_ chunk: ArraySlice<UInt8>, _ left: inout UInt64) -> Int {
        switch unit {
        case .bytes:
            let take = Int(min(UInt64(chunk.count), left))
            left -= UInt64(take)
            return chunk.startIndex + take
        case .lines:
            var index = chunk.startIndex
            while left > 0, let newline = chunk[index...].firstIndex(of: delimiter) {
                left -= 1
                index = newline + 1
            }
            return left > 0 ? chunk.endIndex : index
        }
    }

    /// Where the last `count` units of `bytes` start (a last line need not end with a delimiter).
    private func suffixStart(_ bytes: [UInt8], _ count: UInt64) -> Int {
        switch unit {
        case .bytes:
            return bytes.count - Int(min(UInt64(bytes.count), count))
        case .lines:
            guard count > 0 else { return bytes.count }
            var seen: UInt64 = 0
            var index = bytes.endIndex
            if index > 0, bytes[index - 1] == delimiter { index -= 1 }
            while index > 0 {
                if bytes[index - 1] == delimiter {
                    seen += 1
                    if seen == count { return index }
                }
                index -= 1
            }
            return 0
        }
    }

    /// `tail` of a regular file: read backwards from the end only as far as needed.
    private func writeEnd(of input: OpenFile, size: UInt64, count: UInt64, to output: OutputStream) throws(FileError)
        -> UInt64
    {
        var start: UInt64
        switch unit {
        case .bytes:
            start = size - min(size, count)
        case .lines:
            start = 0
            var seen: UInt64 = 0
            var end = size
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var skippedFinalNewline = false
            scan: while end > 0, count > 0 {
                let length = Int(min(UInt64(buffer.count), end))
                let offset = end - UInt64(length)
                let read = try input.read(into: &buffer, at: offset)
                guard read == length else { break }
                var index = length
                while index > 0 {
                    index -= 1
                    guard buffer[index] == delimiter else { continue }
                    if !skippedFinalNewline && offset + UInt64(index) == size - 1 {
                        skippedFinalNewline = true
                        continue
                    }
                    seen += 1
                    if seen == count {
                        start = offset + UInt64(index) + 1
                        break scan
                    }
                }
                end = offset
            }
            if count == 0 { start = size }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset = start
        while true {
            let read = try input.read(into: &buffer, at: offset)
            if read == 0 { break }
            output.write(bytes: buffer[..<read])
            offset += UInt64(read)
        }
        return offset
    }

    private enum Messages {
        static let cannotOpen = "cannot open"
        static let forReading = "for reading"
        static let errorReading = "error reading"
    }
}

/// Reads an input in chunks of 64 KiB.
private struct ChunkReader {
    let input: OpenFile
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    /// How far into the input the reads came (from where they started).
    var consumed: UInt64 = 0
    /// Whether the reads go by offset, from `consumed`, rather than from the input's own offset.
    private var readsAtOffsets = false

    init(input: OpenFile) { self.input = input }

    /// Starts the reads `offset` bytes into a regular file, as lseek(2) would.
    mutating func start(at offset: UInt64) {
        consumed = offset
        readsAtOffsets = true
    }

    /// The next chunk, or nil at the end (or when cancelled).
    mutating func next(_ isCancelled: () -> Bool) throws(FileError) -> ArraySlice<UInt8>? {
        if isCancelled() { return nil }
        let count = try readsAtOffsets ? input.read(into: &buffer, at: consumed) : input.read(into: &buffer)
        consumed += UInt64(count)
        return count == 0 ? nil : buffer[..<count]
    }
}
