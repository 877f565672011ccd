/// `tail [-n [+]N | -c [+]N] [-q | -v] [FILE]...`: write the last part of files; a regular file
/// is read backwards from its end, only as far as needed.
public struct TailCommand: ShellCommand {
    public static let name = "tail"
    public static let summary =
        "Print the last 10 lines of each FILE; with no FILE, or when FILE is -, read standard input."
    public static let synopsis = "[-n [+]N | -c [+]N] [-q | -v] [FILE]..."
    public static let options = [
        OptionSpec(
            "c", "bytes", value: .required, valueName: "[+]N",
            help: "print the last N bytes; with a leading '+', from byte N on"),
        OptionSpec(
            "n", "lines", value: .required, valueName: "[+]N",
            help: "print the last N lines; with a leading '+', from line N on"),
        OptionSpec("q", "quiet", help: "never print headers giving file names"),
        OptionSpec("v", "verbose", help: "always print headers giving file names"),
    ]

    /// What to write of each input.
    public var portion: FilePortion
    /// Headers: never (`-q`), always (`-v`), or when there are several inputs.
    public var quiet: Bool
    public var verbose: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments) throws(UsageError) {
        let choice = arguments.last(of: ["bytes", "lines"]) ?? "lines"
        let unit: FilePortion.Unit = choice == "bytes" ? .bytes : .lines
        let text = arguments.value(choice) ?? "10"
        let fromStart = text.hasPrefix("+")
        guard let count = FilePortion.count(text.dropFirst(fromStart || text.hasPrefix("-") ? 1 : 0)) else {
            throw UsageError(unit == .bytes ? Messages.invalidBytes(text) : Messages.invalidLines(text))
        }
        portion = FilePortion(unit: unit, part: fromStart ? .from(count) : .last(count))
        let headers = arguments.last(of: ["quiet", "verbose"])
        quiet = headers == "quiet"
        verbose = headers == "verbose"
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        portion.run(operands: operands, verbose: verbose, quiet: quiet, in: context)
    }

    private enum Messages {
        static func invalidLines(_ text: String) -> String { "invalid number of lines: \(Quoting.always(text))" }
        static func invalidBytes(_ text: String) -> String { "invalid number of bytes: \(Quoting.always(text))" }
    }
}
