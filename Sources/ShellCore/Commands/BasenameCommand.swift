/// `basename NAME [SUFFIX]` or `basename -a [-s SUFFIX] NAME...`: strip the directory (and a
/// suffix) from names, as text; nothing is looked up on disk.
public struct BasenameCommand: ShellCommand {
    public static let name = "basename"
    public static let summary = "Print NAME with any leading directory components removed, and a trailing SUFFIX if given."
    public static let synopsis = "NAME [SUFFIX] | -a [-s SUFFIX] [-z] NAME..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case multiple, suffix, zero
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            "a", "multiple", key: .multiple, help: "support multiple arguments and treat each as a NAME"),
        OptionSpec(
            "s", "suffix", value: .required, valueName: "SUFFIX", key: .suffix,
            help: "remove a trailing SUFFIX; implies -a"),
        OptionSpec("z", "zero", key: .zero, help: "end each output line with NUL, not newline"),
    ]

    /// The names to strip.
    public var names: [Argument]
    /// The suffix to remove when it is not the whole remaining name.
    public var suffix: [UInt8]?
    /// End each name with NUL.
    public var zeroTerminated: Bool
    public var operands: [Argument] {
        get { names }
        set { names = newValue }
    }

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        zeroTerminated = arguments.has(.zero)
        var names = arguments.operands
        guard !names.isEmpty else { throw .invalid(Messages.missingOperand) }
        if let suffix = arguments.bytes(.suffix) {
            self.suffix = suffix
        } else if !arguments.has(.multiple) {
            guard names.count <= 2 else { throw .invalid(Messages.extraOperand(names[2].bytes)) }
            if names.count == 2 { suffix = names.removeLast().bytes }
        }
        self.names = names
    }

    public func run(in context: CommandContext) -> ExitStatus {
        for name in names {
            context.stdout.write(bytes: Self.strip(name.bytes, suffix: suffix))
            context.stdout.write(byte: zeroTerminated ? 0x00 : 0x0A)
        }
        return .success
    }

    /// The last component of `path` (trailing slashes aside; `/` for slashes only), without
    /// `suffix` unless that is all of it.
    static func strip(_ path: [UInt8], suffix: [UInt8]?) -> [UInt8] {
        var end = path.endIndex
        while end > 0, path[end - 1] == 0x2F { end -= 1 }
        if end == 0 { return path.isEmpty ? [] : [0x2F] }
        let start = path[..<end].lastIndex(of: 0x2F).map { $0 + 1 } ?? 0
        var base = Array(path[start..<end])
        if let suffix, !suffix.isEmpty, suffix.count < base.count, base.suffix(suffix.count).elementsEqual(suffix) {
            base.removeLast(suffix.count)
        }
        return base
    }

    private enum Messages {
        static let missingOperand = "missing operand"
        static func extraOperand(_ bytes: [UInt8]) -> String { "extra operand \(Quoting.always(bytes))" }
    }
}
