/// `tail [-n [+]N | -c [+]N] [-q | -v] [FILE]...`: write the last part of files; a regular file
/// is read backwards from its end, only as far as needed.
public struct TailCommand: ShellCommand {
    public static let name = "tail"
    public static let summary =
        "Print the last 10 lines of each FILE; with no FILE, or when FILE is -, read standard input."
    public static let synopsis = "[-n [+]N | -c [+]N] [-q | -v] [FILE]..."
    /// The keys its options are read back by, which head and tail share.
    public typealias Option = FilePortion.Option
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            "c", "bytes", value: .required, valueName: "[+]N",
            key: .bytes, help: "print the last N bytes; with a leading '+', from byte N on"),
        OptionSpec(
            "n", "lines", value: .required, valueName: "[+]N",
            key: .lines, help: "print the last N lines; with a leading '+', from line N on"),
        OptionSpec("q", "quiet", key: .quiet, help: "never print headers giving file names"),
        OptionSpec("v", "verbose", key: .verbose, help: "always print headers giving file names"),
    ]

    /// What to write of each input.
    public var portion: FilePortion
    /// Never print headers (`-q`).
    public var quiet: Bool
    /// Always print headers (`-v`); without either, headers come when there are several inputs.
    public var verbose: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        portion = try FilePortion.parse(arguments, sign: "+", signed: { .from($0) }, plain: { .last($0) })
        (quiet, verbose) = FilePortion.headers(arguments)
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        portion.run(operands: operands, verbose: verbose, quiet: quiet, in: context)
    }
}
