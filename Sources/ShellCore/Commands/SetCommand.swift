/// `set [-e | +e]`: whether a failing command stops a script; without options, list variables.
public struct SetCommand: ShellCommand {
    public static let name = "set"
    public static let summary = "Stop scripts at the first failure (-e, the default) or keep going (+e); alone, list variables."
    /// Its operands are -e and +e.
    public static let operandCompletion = OperandCompletion.nothing
    public static let synopsis = "[-e | +e]"
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case stopOnError
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("e", key: .stopOnError, help: "stop a script at the first failing command")
    ]

    /// The requested policy, if any: true for `-e`, false for `+e`.
    public var stopOnError: Bool?
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        operands = arguments.operands
        stopOnError = arguments.has(.stopOnError) ? true : nil
    }

    /// Reads `-e` and `+e` in order, so that the last one given wins.
    public static func parse(_ arguments: [Argument]) throws(UsageError) -> SetCommand {
        var command = try SetCommand(ParsedArguments<Option>())
        for argument in arguments {
            switch argument.text {
            case "-e": command.stopOnError = true
            case "+e": command.stopOnError = false
            default: throw .invalid("invalid argument '\(argument.text)'")
            }
        }
        return command
    }

    public func run(in context: CommandContext) -> ExitStatus {
        if let stopOnError {
            context.state.stopOnError = stopOnError
            return .success
        }
        for (name, value) in context.state.environment.sorted {
            context.stdout.write(bytes: name)
            context.stdout.write(byte: 0x3D)
            if Quoting.needsQuoting(value) { context.stdout.write(Quoting.always(value)) } else { context.stdout.write(bytes: value) }
            context.stdout.line()
        }
        return .success
    }
}
