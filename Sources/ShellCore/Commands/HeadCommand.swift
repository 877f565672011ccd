/// `head [-n [-]N | -c [-]N] [-q | -v] [-z] [FILE]...`: write the first part of files.
public struct HeadCommand: ShellCommand {
    public static let name = "head"
    public static let summary =
        "Print the first 10 lines of each FILE; with no FILE, or when FILE is -, read standard input."
    public static let synopsis = "[-n [-]N | -c [-]N] [-q | -v] [-z] [FILE]..."
    /// The keys its options are read back by, which head and tail share.
    public typealias Option = FilePortion.Option
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            "c", "bytes", value: .required, valueName: "[-]N",
            key: .bytes, help: "print the first N bytes; with a leading '-', all but the last N bytes"),
        OptionSpec(
            "n", "lines", value: .required, valueName: "[-]N",
            key: .lines, help: "print the first N lines; with a leading '-', all but the last N lines"),
        OptionSpec("q", "quiet", key: .quiet, help: "never print headers giving file names"),
        OptionSpec("v", "verbose", key: .verbose, help: "always print headers giving file names"),
        OptionSpec("z", "zero-terminated", key: .zeroTerminated, help: "line delimiter is NUL, not newline"),
    ]

    /// What to write of each input.
    public var portion: FilePortion
    /// Never print headers (`-q`).
    public var quiet: Bool
    /// Always print headers (`-v`); without either, headers come when there are several inputs.
    public var verbose: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        portion = try FilePortion.parse(arguments, sign: "-", signed: { .allButLast($0) }, plain: { .first($0) })
        (quiet, verbose) = FilePortion.headers(arguments)
        operands = arguments.operands
    }

    /// Parses with the option table, reading GNU's older count spelling first (`head -5`,
    /// `head -2c`).
    /// - Throws: `UsageError` with GNU's wording.
    public static func parse(_ arguments: [Argument]) throws(UsageError) -> HeadCommand {
        try HeadCommand(CountShorthand.parse(arguments, for: .head, specs: options))
    }

    public func run(in context: CommandContext) -> ExitStatus {
        portion.run(operands: operands, verbose: verbose, quiet: quiet, in: context)
    }
}
