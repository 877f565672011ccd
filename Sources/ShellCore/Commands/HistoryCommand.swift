/// `history`: the lines run in this session, numbered.
public struct HistoryCommand: ShellCommand {
    public static let name = "history"
    public static let summary = "List the command lines run so far, numbered."
    /// It takes no operands.
    public static let operandCompletion = OperandCompletion.nothing
    public static let synopsis = ""

    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Never>) throws(UsageError) {
        operands = arguments.operands
        guard operands.isEmpty else { throw .invalid("too many arguments") }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        for (index, line) in context.state.history.enumerated() {
            let number = String(index + 1)
            context.stdout.write(String(repeating: " ", count: max(0, 5 - number.count)) + number + "  ")
            context.stdout.write(bytes: line)
            context.stdout.line()
        }
        return .success
    }
}
