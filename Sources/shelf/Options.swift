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

    /// What the parsed options ask for.
    var invocation: Invocation {
        Invocation(
            commands: commands, interactive: interactive, keepGoing: keepGoing, noHistory: noHistory, root: root,
            readOnly: readOnly, script: script)
    }

    /// What this command line asks for; `--help` and `--version` are answered and usage errors
    /// reported (status 2) here.
    static func parseOrExit(_ arguments: [String]) -> Invocation {
        if let invocation = Invocation(plain: arguments) { return invocation }
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
            return options.invocation
        } catch {
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                ProcessEnvironment.exit(.success)
            }
            ProcessEnvironment.fail("shelf: \(message(for: error))\nTry 'shelf --help' for more information.")
        }
    }
}

/// What one run of shelf is asked to do: the options of its command line, whichever way they
/// were read.
struct Invocation {
    /// `-c COMMANDS`.
    var commands: String? = nil
    /// `-i`.
    var interactive = false
    /// `--keep-going`.
    var keepGoing = false
    /// `--no-history`.
    var noHistory = false
    /// `--root DIR`.
    var root: String? = nil
    /// `--read-only`.
    var readOnly = false
    /// SCRIPT and the words after it.
    var script: [String] = []
}

extension Invocation {
    /// The command lines that programs and scripts use most, read without the argument parser,
    /// whose reflection takes longer than the rest of starting up: no arguments, `-c COMMANDS`,
    /// and `SCRIPT [WORD...]` where SCRIPT is `-` or does not start with a dash. These mean what
    /// the parser would make of them. Nil for anything else, which the parser reads.
    init?(plain arguments: [String]) {
        switch arguments.first {
        case nil:
            break
        case "-c" where arguments.count == 2:
            commands = arguments[1]
        case let first? where first == "-" || !first.hasPrefix("-"):
            script = arguments
        default:
            return nil
        }
    }
}
