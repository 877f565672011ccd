/// `unalias [-a] NAME...`: remove aliases.
public struct UnaliasCommand: ShellCommand {
    public static let name = "unalias"
    public static let summary = "Remove each alias NAME, or with -a every alias."
    /// Its operands are alias names.
    public static let operandCompletion = OperandCompletion.nothing
    public static let synopsis = "[-a] NAME..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case all
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("a", key: .all, help: "remove every alias")
    ]

    /// Whether `-a` was given.
    public var all: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        all = arguments.has(.all)
        operands = arguments.operands
        if !all && operands.isEmpty { throw .invalid(Messages.missingName) }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        if all { context.state.aliases.removeAll() }
        var status = ExitStatus.success
        for operand in operands where !all {
            guard context.state.aliases[operand.bytes] != nil else {
                context.stderr.line("shelf: \(Self.name): \(Quoting.bare(operand.bytes)): \(Messages.notFound)")
                status = .failure
                continue
            }
            context.state.aliases[operand.bytes] = nil
        }
        return status
    }

    private enum Messages {
        static let notFound = "not found"
        static let missingName = "missing alias name"
    }
}
