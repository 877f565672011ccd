import ArgumentParser
import ShellCore

/// shelf's own command line.
struct Options: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shelf",
        abstract: "An interactive file shell whose commands run in-process.",
        discussion:
            "Without -c or SCRIPT, commands are read from standard input, interactively when standard "
            + "input and output are terminals (or with -i). See `man shelf`, and `help` inside the shell.",
        version: "shelf \(ShelfVersion.number)")

    @Option(
        name: .customShort("c"), parsing: .unconditional,
        help: ArgumentHelp("Run COMMANDS, then exit.", valueName: "COMMANDS"))
    var commands: String?

    @Flag(name: .customShort("i"), help: "Be interactive even when not on a terminal.")
    var interactive = false

    @Flag(help: "In a script, go on after a failing command instead of stopping.")
    var keepGoing = false

    @Flag(help: "Neither read nor write the history file.")
    var noHistory = false

    @Option(
        help: ArgumentHelp(
            "Run as if DIR were /: nothing outside it can be read or changed, through .., absolute paths or symlinks.",
            valueName: "DIR"))
    var root: String?

    @Flag(help: "Refuse every command that would change the disk (cp, mv, rm, mkdir, touch, ln, > and >>).")
    var readOnly = false

    @ArgumentParser.Argument(
        parsing: .captureForPassthrough,
        help: ArgumentHelp("A script to run (- for standard input), and words after it.", valueName: "SCRIPT"))
    var script: [String] = []

    /// The options of this invocation; `--help` and `--version` are answered and usage errors
    /// reported (status 2) here.
    static func parseOrExit(_ arguments: [String]) -> Options {
        do {
            let options = try parse(arguments)
            // Words after SCRIPT are the script's own, whatever they look like; before it, a word
            // with a dash is an option shelf does not know (or --help and --version).
            if let first = options.script.first, first.hasPrefix("-"), first != "-" {
                switch first {
                case "-h", "--help":
                    print(helpMessage())
                    ProcessEnvironment.exit(.success)
                case "--version":
                    print(configuration.version)
                    ProcessEnvironment.exit(.success)
                default:
                    throw ValidationError("Unknown option '\(first)'")
                }
            }
            return options
        } catch {
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                ProcessEnvironment.exit(.success)
            }
            ProcessEnvironment.fail("shelf: \(message(for: error))\nTry 'shelf --help' for more information.")
        }
    }
}
