/// `command NAME [WORD]...`: run the program NAME from PATH, even when a built-in has that name.
public struct CommandCommand: ShellCommand {
    public static let name = "command"
    public static let summary = "Run the program NAME found in PATH, even when a built-in has that name."
    public static let synopsis = "NAME [WORD]..."
    /// `command ls --help` asks ls for its help.
    public static let takesHelpOption = false
    /// Its first operand is a program, the others are anything.
    public static let operandCompletion = OperandCompletion.files

    /// The program's name and its words, as typed.
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Never>) throws(UsageError) {
        operands = arguments.operands
    }

    /// `command` with these words: how the shell runs a name that no built-in has.
    init(operands: [Argument]) { self.operands = operands }

    /// Every word is the program's, options included (`command ls -l`).
    public static func parse(_ arguments: [Argument]) throws(UsageError) -> CommandCommand {
        try CommandCommand(ParsedArguments(options: [], operands: arguments))
    }

    public func run(in context: CommandContext) -> ExitStatus {
        guard !operands.isEmpty else { return .success }
        return ProgramRunner.run(operands.map(\.bytes), in: context)
    }
}
