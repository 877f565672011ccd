/// `unset [-v] NAME...`: remove shell variables.
public struct UnsetCommand: ShellCommand {
    public static let name = "unset"
    public static let summary = "Remove each variable NAME from the shell (and from programs' environment)."
    /// Its operands are variable names.
    public static let operandCompletion = OperandCompletion.nothing
    public static let synopsis = "[-v] NAME..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case variables
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("v", key: .variables, help: "each NAME is a variable (the default: there is nothing else to unset)")
    ]

    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        var status = ExitStatus.success
        for operand in operands {
            guard Variable.isName(operand.bytes) else {
                context.stderr.line("shelf: \(Self.name): \(Quoting.always(operand.bytes)): \(Messages.notIdentifier)")
                status = .failure
                continue
            }
            context.state.environment[operand.text] = nil
            context.state.exportedNames.remove(operand.bytes)
        }
        return status
    }

    private enum Messages {
        static let notIdentifier = "not a valid identifier"
    }
}
