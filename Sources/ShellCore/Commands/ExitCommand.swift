/// `exit [N]`: end the shell with status N (the last command's status by default).
public struct ExitCommand: ShellCommand {
    public static let name = "exit"
    public static let summary = "Leave the shell with status N, or with the last command's status."
    /// Its operand is a status.
    public static let operandCompletion = OperandCompletion.nothing
    public static let synopsis = "[N]"

    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Never>) throws(UsageError) {
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        guard operands.count <= 1 else {
            context.error(Messages.tooMany)
            return .failure
        }
        guard let operand = operands.first else {
            context.state.exitRequest = context.state.lastStatus
            return context.state.lastStatus
        }
        guard let number = Int(operand.text) else {
            context.error("\(operand.text): \(Messages.numericRequired)")
            context.state.exitRequest = .usage
            return .usage
        }
        let status = ExitStatus(Int32(truncatingIfNeeded: number & 0xFF))
        context.state.exitRequest = status
        return status
    }

    private enum Messages {
        static let tooMany = "too many arguments"
        static let numericRequired = "numeric argument required"
    }
}
