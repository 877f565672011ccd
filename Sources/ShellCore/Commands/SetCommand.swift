/// `set [-e | +e] [-u] [-o NAME]`: whether a failing command stops a script; without options,
/// list variables.
public struct SetCommand: ShellCommand {
    public static let name = "set"
    public static let summary = "Stop scripts at the first failure (-e, the default) or keep going (+e); alone, list variables."
    /// Its operands are -e and +e.
    public static let operandCompletion = OperandCompletion.nothing
    public static let synopsis = "[-e | +e] [-u] [-o errexit | +o errexit] [-o nounset] [-o pipefail]"
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

    /// Reads `-e` and `+e` in order, so that the last one given wins, and takes the options of
    /// sh's usual preamble that shelf's behaviour already has (`set -euo pipefail`): `-u` and
    /// `-o nounset` (an unset variable is always an error), `-o pipefail` (a pipeline fails when
    /// any command in it fails), `-o errexit` and `+o errexit` as `-e` and `+e`. Letters may be
    /// grouped (`-eu`); `o` takes the next argument as its name.
    public static func parse(_ arguments: [Argument]) throws(UsageError) -> SetCommand {
        var command = try SetCommand(ParsedArguments<Option>())
        var index = 0
        while index < arguments.count {
            let text = arguments[index].text
            index += 1
            guard text.count > 1, let sign = text.first, sign == "-" || sign == "+" else {
                throw .invalid(Messages.invalidArgument(text))
            }
            let on = sign == "-"
            for letter in text.dropFirst() {
                switch letter {
                case "e": command.stopOnError = on
                case "u" where on: break
                case "o":
                    guard index < arguments.count else { throw .invalid(Messages.missingName(sign)) }
                    let name = arguments[index].text
                    index += 1
                    switch (name, on) {
                    case ("errexit", _): command.stopOnError = on
                    case ("nounset", true), ("pipefail", true): break
                    case ("nounset", false), ("pipefail", false): throw .invalid(Messages.alwaysOn(name))
                    default: throw .invalid(Messages.invalidName(name))
                    }
                case "u": throw .invalid(Messages.alwaysOn("nounset"))
                default: throw .invalid(Messages.invalidOption(sign, letter))
                }
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

    private enum Messages {
        static func invalidArgument(_ text: String) -> String { "invalid argument '\(text)'" }
        static func invalidOption(_ sign: Character, _ letter: Character) -> String {
            "\(sign)\(letter): invalid option (shelf's set takes -e, +e, -u and -o)"
        }
        static func missingName(_ sign: Character) -> String { "\(sign)o: option name required" }
        static func invalidName(_ name: String) -> String {
            "\(name): invalid option name (shelf's set -o takes errexit, nounset and pipefail)"
        }
        static func alwaysOn(_ name: String) -> String { "\(name) cannot be turned off in shelf" }
    }
}
