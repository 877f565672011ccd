import PathModel

/// The FILEs a command reads from a file of names, each ended by a NUL (`--files0-from=F`; F `-`
/// is standard input), with GNU's rules for them: no operands besides, no empty name, no `-`
/// in a list read from standard input. wc and du take their FILEs so.
struct NameList {
    /// The file the names were read from, as given.
    let source: Argument
    /// The names, in the list's order; a last NUL ends the last name and makes no empty one.
    let names: [Argument]
    /// Whether the list is a regular file, whose names GNU knows all before it starts.
    let isRegularFile: Bool

    /// Whether the list is standard input.
    var isStandardInput: Bool { source.bytes == [0x2D] }

    /// Reads the list from `source`; nil, after saying why in GNU's words, when it cannot be
    /// opened or read.
    static func read(_ source: Argument, in context: CommandContext) -> NameList? {
        let list: OpenFile
        if source.bytes == [0x2D] {
            list = context.stdin
        } else {
            do { list = try context.openForReading(source) } catch {
                context.error(
                    "\(Messages.cannotOpen) \(Quoting.always(source.bytes)) \(Messages.forReading): \(error.reason)")
                return nil
            }
        }
        defer { if list != context.stdin { list.close() } }
        do {
            let isRegular = try list.info().kind == .regular
            var bytes = try list.readAll()
            if bytes.isEmpty { return NameList(source: source, names: [], isRegularFile: isRegular) }
            // A lone NUL is one empty name.
            if bytes.last == 0 { bytes.removeLast() }
            let names = bytes.split(separator: 0, omittingEmptySubsequences: false)
            return NameList(source: source, names: names.map { Argument(bytes: Array($0)) }, isRegularFile: isRegular)
        } catch {
            context.error("\(Quoting.bare(source.bytes)): \(Messages.readError): \(error.reason)")
            return nil
        }
    }

    /// Whether the name at `index` may be used; when not (empty, or `-` in a list from standard
    /// input), says so in GNU's words, after what was written so far, and returns false.
    func accepts(_ index: Int, in context: CommandContext) -> Bool {
        let name = names[index].bytes
        guard name.isEmpty || isStandardInput && name == [0x2D] else { return true }
        context.stdout.flush()
        if name.isEmpty {
            context.error("\(Quoting.bare(source.bytes)):\(index + 1): \(Messages.zeroLengthName)")
        } else {
            context.error(Messages.noStandardInputName)
        }
        return false
    }

    /// GNU's usage error for an operand given with `--files0-from`.
    static func operandWithList(_ operand: Argument) -> UsageError {
        .invalid("\(Messages.extraOperand) \(Quoting.always(operand.bytes))\n\(Messages.cannotCombine)")
    }

    private enum Messages {
        static let extraOperand = "extra operand"
        static let cannotCombine = "file operands cannot be combined with --files0-from"
        static let zeroLengthName = "invalid zero-length file name"
        static let noStandardInputName = "when reading file names from stdin, no file name of '-' allowed"
        static let cannotOpen = "cannot open"
        static let forReading = "for reading"
        static let readError = "read error"
    }
}
