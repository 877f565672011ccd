/// `help [COMMAND]`: list the commands, or show one command's usage and options.
public struct HelpCommand: ShellCommand {
    public static let name = "help"
    public static let summary = "List shelf's commands, or show how to use one."
    public static let synopsis = "[COMMAND]"
    public static let options: [OptionSpec] = []

    public var operands: [Argument]

    public init(_ arguments: ParsedArguments) throws(UsageError) {
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        guard let topic = operands.first else {
            context.stdout.line("shelf commands (help COMMAND for details):")
            let width = Command.all.map { $0.name.count }.max() ?? 0
            for type in Command.all {
                context.stdout.line("  " + type.name + String(repeating: " ", count: width - type.name.count + 2) + type.summary)
            }
            return .success
        }
        var status = ExitStatus.success
        for operand in [topic] + operands.dropFirst() {
            guard let type = Command.type(named: operand.text) else {
                context.error("no help topics match '\(operand.text)'")
                status = .failure
                continue
            }
            context.stdout.write(HelpText.render(type))
        }
        return status
    }
}
