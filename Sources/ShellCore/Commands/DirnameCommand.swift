/// `dirname [-z] NAME...`: strip the last component from names, as text; nothing is looked up
/// on disk.
public struct DirnameCommand: ShellCommand {
    public static let name = "dirname"
    public static let summary =
        "Print each NAME with its last component and trailing slashes removed; '.' when NAME has no slash."
    public static let synopsis = "[-z] NAME..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case zero
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("z", "zero", key: .zero, help: "end each output line with NUL, not newline")
    ]

    /// End each name with NUL.
    public var zeroTerminated: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        zeroTerminated = arguments.has(.zero)
        operands = arguments.operands
        guard !operands.isEmpty else { throw .invalid(Messages.missingOperand) }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        for operand in operands {
            context.stdout.write(bytes: Self.directory(of: operand.bytes))
            context.stdout.write(byte: zeroTerminated ? 0x00 : 0x0A)
        }
        return .success
    }

    /// `path` without its last component and the slashes around it: `.` when nothing is left of
    /// a relative path, `/` of an absolute one.
    static func directory(of path: [UInt8]) -> [UInt8] {
        var end = path.endIndex
        while end > 0, path[end - 1] == 0x2F { end -= 1 }
        guard let slash = path[..<end].lastIndex(of: 0x2F) else {
            return path.first == 0x2F ? [0x2F] : [0x2E]
        }
        var cut = slash
        while cut > 0, path[cut - 1] == 0x2F { cut -= 1 }
        return cut == 0 ? [0x2F] : Array(path[..<cut])
    }

    private enum Messages {
        static let missingOperand = "missing operand"
    }
}
