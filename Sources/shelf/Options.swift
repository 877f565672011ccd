import Glibc
import PathModel
import ShellCore

/// What one run of shelf is asked to do: the options of its command line, read as the bytes the
/// kernel handed over, so that a `-c` line, a script path, its words and `--root DIR` reach the
/// shell exactly as typed even when they are not UTF-8.
struct Invocation: Equatable {
    /// `-c COMMANDS`.
    var commands: [UInt8]? = nil
    /// `-i`.
    var interactive = false
    /// `--keep-going`.
    var keepGoing = false
    /// `--no-history`.
    var noHistory = false
    /// `--root DIR`.
    var root: [UInt8]? = nil
    /// `--read-only`.
    var readOnly = false
    /// `--no-programs`.
    var noPrograms = false
    /// `--rc FILE`: the start-up file to run first, in any session.
    var startupFile: [UInt8]? = nil
    /// `--norc`: run no start-up file.
    var noStartupFile = false
    /// SCRIPT and the words after it; with `-c`, the words after the options (`$0`, `$1`...).
    var script: [[UInt8]] = []
    /// `--help` or `--version`: print this and exit successfully.
    var answer: String? = nil

    /// Why a command line was rejected: the message after `shelf: `.
    struct Problem: Error, Equatable {
        var message: String
    }

    /// Reads `arguments` (without the program name). Options come before SCRIPT; every word from
    /// SCRIPT on belongs to the script. A word of short options may bundle them (`-ic CMDS`), and
    /// `-c` takes the next word whatever it looks like.
    /// - Throws: `Problem` for an unknown option or a missing value.
    init(arguments: [[UInt8]]) throws(Problem) {
        var index = 0
        func value(for option: String) throws(Problem) -> [UInt8] {
            guard index < arguments.count else { throw Problem(message: "Missing value for '\(option)'") }
            index += 1
            return arguments[index - 1]
        }
        while index < arguments.count {
            let word = arguments[index]
            guard word.count > 1, word[0] == UInt8(ascii: "-") else { break }
            index += 1
            if word == Array("--".utf8) { break }
            if word[1] == UInt8(ascii: "-") {
                let (name, inline) = Self.split(word)
                switch name {
                case "--keep-going" where inline == nil: keepGoing = true
                case "--no-history" where inline == nil: noHistory = true
                case "--read-only" where inline == nil: readOnly = true
                case "--no-programs" where inline == nil: noPrograms = true
                case "--norc" where inline == nil: noStartupFile = true
                case "--help" where inline == nil: answer = Self.help
                case "--version" where inline == nil: answer = "shelf \(ShelfVersion.number)\n"
                case "--root":
                    if let inline { root = inline } else { root = try value(for: "--root <DIR>") }
                case "--rc":
                    if let inline { startupFile = inline } else { startupFile = try value(for: "--rc <FILE>") }
                default: throw Problem(message: "Unknown option '\(Self.spelled(word))'")
                }
                if answer != nil { return }
                continue
            }
            for (offset, letter) in word.dropFirst().enumerated() {
                switch letter {
                case UInt8(ascii: "i"): interactive = true
                case UInt8(ascii: "h"):
                    answer = Self.help
                    return
                case UInt8(ascii: "c"):
                    let rest = Array(word.dropFirst(offset + 2))
                    commands = try rest.isEmpty ? value(for: "-c <COMMANDS>") : rest
                default: throw Problem(message: "Unknown option '-\(Self.spelled([letter]))'")
                }
                if commands != nil { break }
            }
        }
        script = Array(arguments[index...])
    }

    /// `--name=value` split at its first `=`; the name alone when there is none.
    private static func split(_ word: [UInt8]) -> (String, [UInt8]?) {
        guard let equals = word.firstIndex(of: UInt8(ascii: "=")) else { return (spelled(word), nil) }
        return (spelled(Array(word[..<equals])), Array(word[(equals + 1)...]))
    }

    private static func spelled(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The text of `shelf --help`.
    static let help = """
        USAGE: shelf [-c COMMANDS] [-i] [--keep-going] [--no-history] [--rc FILE | --norc] [--root DIR] [--read-only] [--no-programs] [SCRIPT [WORD]...]

        An interactive file shell whose commands run in-process.

        Without -c or SCRIPT, commands are read from standard input, interactively when standard
        input and output are terminals (or with -i). See `man shelf`, and `help` inside the shell.

        A path may be s3://BUCKET/KEY, an object of S3-compatible storage, configured as AWS's
        tools are (AWS_ACCESS_KEY_ID, AWS_ENDPOINT_URL, ~/.aws): see docs/remote.md.

        ARGUMENTS:
          SCRIPT [WORD]...      A script to run (- for standard input); its words are $1, $2...

        OPTIONS:
          -c COMMANDS           Run COMMANDS, then exit.
          -i                    Be interactive even when not on a terminal (and run the start-up
                                file, with -c or SCRIPT too).
          --keep-going          In a script, go on after a failing command instead of stopping.
          --no-history          Neither read nor write the history file.
          --rc FILE             Run FILE first, in any session (instead of the start-up file
                                ~/.config/shelf/rc that an interactive session, or -i, runs).
          --norc                Run no start-up file.
          --root DIR            Run as if DIR (or s3://BUCKET/PREFIX) were /: nothing outside it
                                can be read or changed, through .., absolute paths or symlinks;
                                programs are refused.
          --read-only           Refuse every command that would change the disk (cp, mv, rm, mkdir,
                                touch, ln, > and the other redirections that write), and programs.
          --no-programs         Run built-in commands only: refuse programs and !.
          --version             Show the version.
          -h, --help            Show help information.

        """

    /// The arguments this process was started with, as the kernel gave them, without the
    /// program name.
    static var processArguments: [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
    }

    /// This process's command line; `--help` and `--version` are answered and usage errors
    /// reported (status 2) here.
    static func fromProcessOrExit() -> Invocation {
        do {
            let invocation = try Invocation(arguments: processArguments)
            if let answer = invocation.answer {
                try? OpenFile.standardOutput.write(Array(answer.utf8)[...])
                ProcessEnvironment.exit(.success)
            }
            return invocation
        } catch {
            ProcessEnvironment.fail("shelf: \(error.message)\nTry 'shelf --help' for more information.")
        }
    }
}
