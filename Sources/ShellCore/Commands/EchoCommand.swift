/// `echo [-n] WORD...`: print words separated by spaces.
public struct EchoCommand: ShellCommand {
    public static let name = "echo"
    public static let summary = "Print the words, separated by spaces, and a newline."
    public static let synopsis = "[-n] [WORD]..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case noNewline
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("n", key: .noNewline, help: "do not print the trailing newline")
    ]
    /// `echo --help` prints `--help`, as in bash.
    public static let takesHelpOption = false

    /// Whether to leave out the newline.
    public var omitNewline: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        omitNewline = arguments.has(.noNewline)
        operands = arguments.operands
    }

    /// As in bash, leading words made only of `-n` letters are options; anything else is printed.
    public static func parse(_ arguments: [Argument]) throws(UsageError) -> EchoCommand {
        var omit = false
        var rest = arguments[...]
        while let first = rest.first, first.pattern == nil, first.bytes.count >= 2, first.bytes[0] == 0x2D,
            first.bytes.dropFirst().allSatisfy({ $0 == 0x6E })
        {
            omit = true
            rest = rest.dropFirst()
        }
        return try EchoCommand(ParsedArguments(options: omit ? [(.noNewline, nil)] : [], operands: Array(rest)))
    }

    public func run(in context: CommandContext) -> ExitStatus {
        for (index, operand) in operands.enumerated() {
            if index > 0 { context.stdout.write(" ") }
            context.stdout.write(bytes: operand.bytes)
        }
        if !omitNewline { context.stdout.line() }
        return .success
    }
}
