/// `tail [-n [+]N | -c [+]N] [-q | -v] [-z] [-f | -F] [FILE]...`: write the last part of files; a
/// regular file is read backwards from its end, only as far as needed. With `-f`, what is added
/// to the files is written as it comes, until Ctrl-C.
public struct TailCommand: ShellCommand {
    public static let name = "tail"
    public static let summary =
        "Print the last 10 lines of each FILE; with no FILE, or when FILE is -, read standard input."
    public static let synopsis = "[-n [+]N | -c [+]N] [-q | -v] [-z] [-f | -F | --follow[=HOW]] [--retry] [-s N] [FILE]..."
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
        OptionSpec("z", "zero-terminated", key: .zeroTerminated, help: "line delimiter is NUL, not newline"),
        OptionSpec(
            "f", "follow", value: .optional, valueName: "HOW", key: .follow,
            help: "then write what is added to the files, until Ctrl-C; HOW is descriptor (the default) or name"),
        OptionSpec("F", key: .followByName, help: "as --follow=name --retry"),
        OptionSpec(nil, "retry", key: .retry, help: "keep trying to open a file that is missing or goes away"),
        OptionSpec(
            "s", "sleep-interval", value: .required, valueName: "N", key: .sleepInterval,
            help: "with -f, check the files every N seconds (default 1.0)"),
    ]

    /// What to write of each input.
    public var portion: FilePortion
    /// Never print headers (`-q`).
    public var quiet: Bool
    /// Always print headers (`-v`); without either, headers come when there are several inputs.
    public var verbose: Bool
    /// How to follow the files after their last part (`-f`, `-F`); nil not to.
    var following: TailFollower.Mode?
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        portion = try FilePortion.parse(arguments, sign: "+", signed: { .from($0) }, plain: { .last($0) })
        (quiet, verbose) = FilePortion.headers(arguments)
        operands = arguments.operands
        let followsName = arguments.has(.followByName) || arguments.value(.follow) == "name"
        if let how = arguments.value(.follow), !["name", "descriptor"].contains(how) {
            throw .invalid(Messages.invalidFollow(how))
        }
        var interval = 1.0
        if let text = arguments.value(.sleepInterval) {
            guard let seconds = Double(text), seconds >= 0, seconds.isFinite, text.allSatisfy(\.isASCII) else {
                throw .invalid(Messages.invalidInterval(text))
            }
            interval = seconds
        }
        if arguments.has(.follow) || arguments.has(.followByName) {
            following = TailFollower.Mode(
                byName: followsName, retry: arguments.has(.retry) || arguments.has(.followByName), interval: interval)
        }
    }

    /// Parses with the option table, reading GNU's older count spelling first (`tail -5`,
    /// `tail +2`).
    /// - Throws: `UsageError` with GNU's wording.
    public static func parse(_ arguments: [Argument]) throws(UsageError) -> TailCommand {
        try TailCommand(CountShorthand.parse(arguments, for: .tail, specs: options))
    }

    public func run(in context: CommandContext) -> ExitStatus {
        portion.run(operands: operands, verbose: verbose, quiet: quiet, following: following, in: context)
    }
}

extension TailCommand {
    fileprivate enum Messages {
        static func invalidFollow(_ how: String) -> String {
            "invalid argument \(Quoting.always(how)) for '--follow'\nValid arguments are:\n  - 'name'\n  - 'descriptor'"
        }
        static func invalidInterval(_ text: String) -> String {
            "invalid number of seconds: \(Quoting.always(text))"
        }
    }
}
