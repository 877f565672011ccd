import PathModel

/// `truncate -s SIZE | -r RFILE [-c] [-o] [--dry-run] FILE...`: cut or extend each FILE to a size, as GNU
/// truncate does, creating missing files unless `-c`.
public struct TruncateCommand: ShellCommand {
    public static let name = "truncate"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Shrink or extend the size of each FILE to the specified size."
    public static let synopsis = "[-c] [-o] [--dry-run] (-s SIZE | -r RFILE [-s RELATIVE-SIZE]) FILE..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case dryRun, noCreate, ioBlocks, reference, size
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("c", "no-create", key: .noCreate, help: "do not create any files"),
        OptionSpec(
            nil, "dry-run", key: .dryRun,
            help: "print each file that would be created or resized, and its sizes, and change nothing"),
        OptionSpec(
            "o", "io-blocks", key: .ioBlocks, help: "treat SIZE as a number of IO blocks instead of bytes"),
        OptionSpec(
            "r", "reference", value: .required, valueName: "RFILE", key: .reference,
            help: "base size on RFILE"),
        OptionSpec(
            "s", "size", value: .required, valueName: "SIZE", key: .size,
            help: "set or adjust the file size by SIZE bytes"),
    ]

    /// How SIZE applies to a file's current size.
    public enum Adjustment: Sendable, Hashable {
        /// SIZE itself.
        case set
        /// Current size plus SIZE (`+`, `-`, which SIZE's sign carries).
        case extend
        /// At most SIZE (`<`).
        case atMost
        /// At least SIZE (`>`).
        case atLeast
        /// Rounded down to a multiple of SIZE (`/`).
        case roundDown
        /// Rounded up to a multiple of SIZE (`%`).
        case roundUp
    }

    /// SIZE as given (`-s`): the number and how it applies; nil with `-r` alone.
    public var size: (amount: Int64, adjustment: Adjustment)?
    /// Why SIZE is not a size, in GNU's words (not a usage error: status 1).
    var sizeError: String?
    /// The file whose size is the base (`-r`).
    public var reference: Argument?
    /// Leave missing files missing (`-c`).
    public var noCreate: Bool
    /// SIZE counts the file's IO blocks, not bytes (`-o`).
    public var inBlocks: Bool
    /// Say which files would be created or resized, and change nothing (`--dry-run`).
    public var dryRun: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        noCreate = arguments.has(.noCreate)
        inBlocks = arguments.has(.ioBlocks)
        dryRun = arguments.has(.dryRun)
        reference = arguments.bytes(.reference).map { Argument(bytes: $0) }
        operands = arguments.operands
        if let text = arguments.bytes(.size) {
            switch try Self.parseSize(text) {
            case .success(let parsed): size = parsed
            case .failure(let error):
                // GNU reads SIZE as it meets -s and stops there, before any other check.
                sizeError = error.message
                return
            }
        }
        guard size != nil || reference != nil else { throw .invalid(Messages.sizeOrReference) }
        if reference != nil, let size, size.adjustment == .set {
            throw .invalid(Messages.relativeWithReference)
        }
        if inBlocks && size == nil { throw .invalid(Messages.blocksWithoutSize) }
        guard !operands.isEmpty else { throw .invalid(Messages.missingOperand) }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        if let sizeError {
            context.error(sizeError)
            return .failure
        }
        var referenceSize: Int64?
        if let reference {
            do {
                referenceSize = Int64(
                    clamping: try context.resolve(reference).info(followSymlinks: true).size)
            } catch {
                context.error("\(Messages.cannotStat) \(Quoting.always(reference.bytes)): \(error.reason)")
                return .failure
            }
        }
        var status = ExitStatus.success
        // In a dry run, the sizes earlier operands would have given.
        var sizedEarlier: [File: Int64] = [:]
        for operand in operands {
            if context.isCancelled { return .interrupted }
            let file = context.resolve(operand)
            if dryRun {
                if !rehearse(operand, file, base: referenceSize, sizedEarlier: &sizedEarlier, in: context) {
                    status = .failure
                }
                continue
            }
            let output: OpenFile
            do {
                if operand.hasTrailingSlash {
                    try Self.refuseDirectorySpelling(operand, at: file, creating: !noCreate)
                }
                output = try file.open(noCreate ? .modify : .append)
            } catch {
                // A missing FILE with -c is no error (a missing directory on the way is one too).
                if noCreate && error.errno == .noSuchFileOrDirectory { continue }
                context.error(
                    "\(Messages.cannotOpen) \(Quoting.always(operand.bytes)) \(Messages.forWriting): \(error.reason)"
                )
                status = .failure
                continue
            }
            guard resize(output, named: operand, base: referenceSize, in: context) else {
                output.close()
                status = .failure
                continue
            }
            // Finished, not just closed: on object storage that is when the object is sent.
            do {
                try output.finish()
            } catch {
                context.error("\(Messages.failedToClose) \(Quoting.always(operand.bytes)): \(error.reason)")
                status = .failure
            }
        }
        return status
    }

    /// `x/` names a directory, which cannot be opened for writing: the kernel's answer to
    /// `open(2)` on such a name, `EISDIR` when it may create (whatever is there), else `EISDIR`
    /// for a directory, `ENOENT` for nothing and `ENOTDIR` for anything else.
    private static func refuseDirectorySpelling(_ operand: Argument, at file: File, creating: Bool)
        throws(FileError)
    {
        if !creating {
            let info = try operand.info(at: file, followSymlinks: true)
            guard info.kind == .directory else { throw FileError(.open, operand.file, .notDirectory) }
        }
        throw FileError(.open, operand.file, .isDirectory)
    }

    /// Sets the size of the open `output` as asked; false, after saying why, when it cannot.
    private func resize(_ output: OpenFile, named operand: Argument, base: Int64?, in context: CommandContext)
        -> Bool
    {
        let name = Quoting.always(operand.bytes)
        let info: FileInfo
        do {
            info = try output.info()
        } catch {
            context.error("\(Messages.cannotFstat) \(name): \(error.reason)")
            return false
        }
        let current = Int64(clamping: info.size)
        guard let newSize = resultingSize(from: current, blockSize: info.blockSize, base: base, name, context) else {
            return false
        }
        return set(output, to: newSize, name, context)
    }

    /// What a dry run says of `operand` (the file `file`): `size of 'f' changed from 3 to 10`
    /// (`kept at 3` when it stays), `created 'f' of size 10` for a file it would create, or
    /// the run's message for one it could not open. Returns false when the run would fail.
    private func rehearse(
        _ operand: Argument, _ file: File, base: Int64?, sizedEarlier: inout [File: Int64],
        in context: CommandContext
    ) -> Bool {
        let name = Quoting.always(operand.bytes)
        let key = file.normalized
        var current: Int64?
        let blockSize: UInt32
        do throws(FileError) {
            if operand.hasTrailingSlash {
                try Self.refuseDirectorySpelling(operand, at: file, creating: !noCreate)
            }
            do throws(FileError) {
                let info = try file.info(followSymlinks: true)
                if info.kind == .directory { throw FileError(.open, file, .isDirectory) }
                current = sizedEarlier[key] ?? Int64(clamping: info.size)
                blockSize = info.blockSize
            } catch  where error.errno == .noSuchFileOrDirectory && sizedEarlier[key] == nil {
                if noCreate { return true }
                let directory = try file.parent.info(followSymlinks: true)
                guard directory.kind == .directory else { throw FileError(.open, file, .notDirectory) }
                blockSize = directory.blockSize
            }
        } catch {
            if noCreate && error.errno == .noSuchFileOrDirectory { return true }
            context.error("\(Messages.cannotOpen) \(name) \(Messages.forWriting): \(error.reason)")
            return false
        }
        guard let newSize = resultingSize(from: current ?? 0, blockSize: blockSize, base: base, name, context) else {
            return false
        }
        sizedEarlier[key] = newSize
        if let current {
            let change = current == newSize ? "\(Messages.keptAt) \(current)" : "\(Messages.changedFrom) \(current) to \(newSize)"
            context.stdout.line("\(Messages.sizeOf) \(name) \(change)")
        } else {
            context.stdout.line("\(Messages.created) \(name) \(Messages.ofSize) \(newSize)")
        }
        return true
    }

    /// The size SIZE (or the reference's `base`) gives a file of `current` bytes whose IO blocks
    /// are `blockSize` bytes; nil, after saying why, when it overflows.
    private func resultingSize(
        from current: Int64, blockSize: UInt32, base: Int64?, _ name: String, _ context: CommandContext
    ) -> Int64? {
        guard let (given, adjustment) = size else { return max(0, base ?? 0) }
        var amount = given
        if inBlocks {
            let (product, overflow) = amount.multipliedReportingOverflow(by: Int64(blockSize))
            guard !overflow else {
                context.error("\(Messages.overflowIn) \(given) * \(blockSize) \(Messages.byteBlocksFor) \(name)")
                return nil
            }
            amount = product
        }
        let current = base ?? current
        let newSize: Int64
        switch adjustment {
        case .set: newSize = amount
        case .atLeast: newSize = max(current, amount)
        case .atMost: newSize = min(current, amount)
        case .roundDown: newSize = current / amount * amount
        case .roundUp:
            let remainder = current % amount
            newSize = remainder == 0 ? current : current - remainder + amount
        case .extend:
            let (sum, overflow) = current.addingReportingOverflow(amount)
            guard !overflow else {
                context.error("\(Messages.overflowExtending) \(name)")
                return nil
            }
            newSize = sum
        }
        return max(0, newSize)
    }

    /// Cuts or extends `output` to `size` bytes; false, after saying why, when it cannot.
    private func set(_ output: OpenFile, to size: Int64, _ name: String, _ context: CommandContext) -> Bool {
        do {
            try output.truncate(to: UInt64(max(0, size)))
            return true
        } catch {
            context.error(
                "\(Messages.failedToTruncate) \(name) \(Messages.at) \(size) \(Messages.bytes): \(error.reason)"
            )
            return false
        }
    }

    /// Reads SIZE as GNU truncate does: white space, then at most one of `<`, `>`, `/`, `%`,
    /// then a signed decimal number (a sign makes it relative), then an optional unit: `K`, `M`,
    /// `G`, `T`, `P`, `E` (also `k`, `m`, `g`, `t`) as powers of 1024, or of 1000 when followed by
    /// `B` (`KB`), of 1024 by `iB` (`KiB`).
    /// - Returns: the size, or GNU's words for an invalid number or a division by zero.
    /// - Throws: `UsageError` for several modifiers.
    static func parseSize(_ bytes: [UInt8]) throws(UsageError) -> Result<(Int64, Adjustment), SizeError> {
        var rest = bytes.drop { isSpace($0) }
        var adjustment = Adjustment.set
        let modifiers: [UInt8: Adjustment] = [
            0x3C: .atMost, 0x3E: .atLeast, 0x2F: .roundDown, 0x25: .roundUp,
        ]
        if let first = rest.first, let found = modifiers[first] {
            adjustment = found
            rest = rest.dropFirst().drop { isSpace($0) }
        }
        if let sign = rest.first, sign == 0x2B || sign == 0x2D {
            guard adjustment == .set else { throw .invalid(Messages.multipleModifiers) }
            adjustment = .extend
        }
        let text = Array(rest)
        guard let value = number(text) else {
            return .failure(SizeError(message: "\(Messages.invalidNumber) \(Quoting.always(text))"))
        }
        guard let amount = value else {
            return .failure(
                SizeError(
                    message: "\(Messages.invalidNumber) \(Quoting.always(text)): \(Messages.valueTooLarge)"))
        }
        if amount == 0 && (adjustment == .roundDown || adjustment == .roundUp) {
            return .failure(SizeError(message: Messages.divisionByZero))
        }
        return .success((amount, adjustment))
    }

    /// A SIZE that is not one, in GNU's words.
    struct SizeError: Error {
        var message: String
    }

    /// The signed number `text` with its unit: nil when it is not one, `.some(nil)` when it is
    /// too large.
    private static func number(_ text: [UInt8]) -> Int64?? {
        var index = 0
        var negative = false
        if index < text.count, text[index] == 0x2B || text[index] == 0x2D {
            negative = text[index] == 0x2D
            index += 1
        }
        let digitsStart = index
        var magnitude: Int64 = 0
        var tooLarge = false
        while index < text.count, (0x30...0x39).contains(text[index]) {
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(text[index] - 0x30))
            if overflow || overflow2 { tooLarge = true } else { magnitude = sum }
            index += 1
        }
        guard index > digitsStart else { return nil }
        var multiplier: Int64 = 1
        if index < text.count {
            let powers: [UInt8: Int] = [
                0x4B: 1, 0x6B: 1, 0x4D: 2, 0x6D: 2, 0x47: 3, 0x67: 3, 0x54: 4, 0x74: 4, 0x50: 5, 0x45: 6,
                0x5A: 7, 0x59: 8,
            ]
            guard let power = powers[text[index]] else { return nil }
            index += 1
            var base: Int64 = 1024
            if index < text.count {
                if text[index] == 0x42 || text[index] == 0x44 {
                    base = 1000
                    index += 1
                } else if text[index] == 0x69, index + 1 < text.count, text[index + 1] == 0x42 {
                    index += 2
                }
            }
            guard index == text.count else { return nil }
            for _ in 0..<power {
                let (product, overflow) = multiplier.multipliedReportingOverflow(by: base)
                if overflow { tooLarge = true } else { multiplier = product }
            }
        }
        let (result, overflow) = magnitude.multipliedReportingOverflow(by: multiplier)
        if tooLarge || overflow { return .some(nil) }
        return .some(negative ? -result : result)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    private enum Messages {
        static let sizeOrReference = "you must specify either '--size' or '--reference'"
        static let relativeWithReference = "you must specify a relative '--size' with '--reference'"
        static let blocksWithoutSize = "'--io-blocks' was specified but '--size' was not"
        static let missingOperand = "missing file operand"
        static let multipleModifiers = "multiple relative modifiers specified"
        static let invalidNumber = "Invalid number:"
        static let valueTooLarge = "Value too large for defined data type"
        static let divisionByZero = "division by zero"
        static let cannotStat = "cannot stat"
        static let cannotOpen = "cannot open"
        static let forWriting = "for writing"
        static let cannotFstat = "cannot fstat"
        static let overflowIn = "overflow in"
        static let byteBlocksFor = "byte blocks for file"
        static let overflowExtending = "overflow extending size of file"
        static let failedToTruncate = "failed to truncate"
        static let failedToClose = "failed to close"
        static let at = "at"
        static let bytes = "bytes"
        static let sizeOf = "size of"
        static let changedFrom = "changed from"
        static let keptAt = "kept at"
        static let created = "created"
        static let ofSize = "of size"
    }
}
