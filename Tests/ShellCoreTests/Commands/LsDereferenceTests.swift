import PathModel
import Testing

@testable import ShellCore

/// `ls -L`, `-H` and `--dereference-command-line-symlink-to-dir` against GNU ls on the listing
/// fixture (`link` to a file, `dirlink` to a directory, `dangling` to nothing).
@Suite struct LsDereferenceTests {
    static let parsingRows: [(String, [String], LsCommand.Dereference?)] = [
        ("none given", ["-l"], nil),
        ("-L", ["-L"], .always),
        ("--dereference", ["--dereference"], .always),
        ("-H", ["-H"], .operands),
        ("--dereference-command-line", ["--dereference-command-line"], .operands),
        ("the symlink-to-dir word", ["--dereference-command-line-symlink-to-dir"], .operandDirectories),
        ("-H after -L wins", ["-L", "-H"], .operands),
        ("-L after -H wins", ["-HL"], .always),
        ("the word after -L wins", ["-L", "--dereference-command-line-symlink-to-dir"], .operandDirectories),
    ]

    @Test(arguments: parsingRows)
    func parsesTheLastGiven(_ name: String, _ arguments: [String], _ expected: LsCommand.Dereference?) throws {
        let command = try LsCommand.parse(arguments.map(Argument.init))
        #expect(command.dereference == expected, "\(name)")
    }

    static let comparisonRows: [(String, [String])] = [
        ("-L lists a dangling entry by its name, unexamined", ["-L"]),
        ("-lL describes what links lead to, a dangling one with question marks", ["-lL"]),
        ("-lL of a directory without dangling links", ["-lL", "d"]),
        ("-L of a dangling operand", ["-L", "dangling", "a.txt"]),
        ("-lL of operands", ["-lL", "link", "dirlink", "a.txt"]),
        ("-LR goes into linked directories", ["-LR"]),
        ("-LF examines links", ["-LF"]),
        ("-L with colours", ["-L", "--color=always"]),
        ("-L with -i", ["-Li", "link", "a.txt"]),
        ("-Li of a directory", ["-Li", "."]),
        ("-Ls", ["-Ls"]),
        ("-L --group-directories-first", ["-L", "--group-directories-first"]),
        ("-lL --json-free time order", ["-lLt"]),
        ("-H follows operands", ["-lH", "link", "dirlink"]),
        ("-H of a dangling operand", ["-H", "dangling"]),
        ("-lH of a dangling operand", ["-lH", "dangling", "link"]),
        ("-H leaves entries alone", ["-lH", "."]),
        ("-dH", ["-dH", "dirlink", "link"]),
        ("-dlH", ["-dlH", "dirlink", "link"]),
        ("-HF", ["-HF", "dirlink"]),
        ("-HR goes into an operand link but not into linked entries", ["-HR", "dirlink", "."]),
        (
            "--dereference-command-line-symlink-to-dir with -l",
            ["-l", "--dereference-command-line-symlink-to-dir", "dirlink", "link", "dangling"]
        ),
        ("--dereference-command-line-symlink-to-dir with -d", ["-d", "--dereference-command-line-symlink-to-dir", "dirlink"]),
        ("--dereference-command-line-symlink-to-dir with -ld", ["-ld", "--dereference-command-line-symlink-to-dir", "dirlink"]),
        ("--dereference-command-line-symlink-to-dir with -F", ["-F", "--dereference-command-line-symlink-to-dir", "dirlink"]),
        ("-H after -L", ["-L", "-H", "-l"]),
        ("-L after -H", ["-H", "-L", "-l", "d", "link"]),
        ("--dereference", ["--dereference", "-1"]),
        ("--dereference-command-line", ["--dereference-command-line", "-l", "link"]),
    ]

    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: comparisonRows)
    func matchesGNULs(_ name: String, _ arguments: [String]) throws {
        try expectListingSameAsGNU(arguments, name)
    }

    static let barePathRows: [[String]] = [
        ["-L"], ["-L", "."], ["-L", "dirlink"], ["-H", "dirlink"], ["-H", "dangling", "d"],
        ["--dereference-command-line-symlink-to-dir", "dirlink"], ["-L", "dangling", "d"],
    ]

    /// A plain listing on a pipe writes names without examining them. GNU ls does not examine
    /// them with these options either (so `-L` reports no dangling entry there), but an operand
    /// is examined as each option says; each row must give GNU's output, messages and status.
    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: barePathRows)
    func dereferencingOptionsKeepTheBarePath(_ arguments: [String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell()
        try makeListingFixture(shell)
        let expected = try ReferenceTool.run("/usr/bin/ls", arguments, in: shell.directory.file)
        let actual = shell.run(ReferenceTool.commandLine("ls", arguments))
        #expect(actual.stdout == expected.stdout, "\(arguments)")
        #expect(actual.stderr == expected.stderr, "\(arguments)")
        #expect(actual.status == expected.status, "\(arguments)")
    }
}
