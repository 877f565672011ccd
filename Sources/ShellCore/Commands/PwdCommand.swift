import PathModel

/// `pwd [-L|-P]`: print the shell's current directory.
public struct PwdCommand: ShellCommand {
    public static let name = "pwd"
    public static let summary = "Print the name of the current working directory."
    /// It takes no operands.
    public static let operandCompletion = OperandCompletion.nothing
    public static let synopsis = "[-L|-P]"
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case logical, physical
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            "L", "logical", key: .logical, help: "print the directory as reached, with symlinks (default)"),
        OptionSpec("P", "physical", key: .physical, help: "print the directory with all symlinks resolved"),
    ]

    /// Whether to resolve symlinks.
    public var physical: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        physical = arguments.last(of: [.logical, .physical]) == .physical
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        guard operands.isEmpty else {
            context.error(Messages.tooMany)
            return .failure
        }
        var directory = context.state.cwd
        if physical {
            do { directory = try directory.resolvingSymlinks() } catch {
                context.report(error, Messages.cannotResolve)
                return .failure
            }
        }
        context.stdout.write(bytes: context.state.spelling(of: directory))
        context.stdout.line()
        return .success
    }

    private enum Messages {
        static let tooMany = "too many arguments"
        static let cannotResolve = "cannot resolve"
    }
}
