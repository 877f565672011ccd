import PathModel
import Testing

@testable import ShellCore

/// echo against GNU echo (/usr/bin/echo, not bash's): which leading words are options, and every
/// escape `-e` interprets, given the same words.
@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/echo"), "needs GNU coreutils"))
struct EchoCommandTests {
    static let rows: [(name: String, arguments: [String])] = [
        ("plain words", ["a", "b"]),
        ("escapes are left alone by default", ["a\\nb\\tc"]),
        ("-e interprets the letter escapes", ["-e", "\\a\\b\\e\\f\\n\\r\\t\\v\\\\|"]),
        ("-E after -e leaves them alone", ["-e", "-E", "a\\nb"]),
        ("-e after -E interprets them", ["-Ee", "a\\nb"]),
        ("option letters bundle", ["-neE", "x\\n"]),
        ("-e \\c ends the output, newline and all", ["-e", "one\\ctwo", "three"]),
        ("\\0 and up to three octal digits", ["-e", "\\0101|\\01010|\\0|\\08"]),
        ("octal without the 0", ["-e", "\\101\\1010|\\7|\\8"]),
        ("octal beyond a byte wraps", ["-e", "\\0777|\\777"]),
        ("\\x and one or two hex digits", ["-e", "\\x41\\x414|\\xa|\\xG|\\x"]),
        ("unknown escapes stay", ["-e", "\\q\\u00e9\\"]),
        ("a word with another letter ends the options", ["-ex", "-e", "a\\n"]),
        ("a lone dash is a word", ["-", "-e", "a\\n"]),
        ("-- is a word", ["--", "-e"]),
        ("-e and -n", ["-e", "-n", "a\\tb"]),
        ("words after the first are not options", ["a", "-n"]),
        ("empty words", ["-e", "", "\\n", ""]),
    ]

    @Test(arguments: rows)
    func matchesGNU(_ name: String, _ arguments: [String]) throws {
        let shell = TestShell()
        // GNU echo reads nothing; it runs in the root directory, whatever volume shelf is on.
        let expected = try ReferenceTool.run("/usr/bin/echo", arguments, in: File(path: "/"))
        let result = shell.run(ReferenceTool.commandLine("echo", arguments))
        #expect(result.stdout == expected.stdout, "\(name): echo \(arguments)")
        #expect(result.stderr == expected.stderr, "\(name): echo \(arguments)")
        #expect(result.status == expected.status, "\(name): echo \(arguments)")
    }

    @Test("A byte an escape makes is written as it is, even one that is not UTF-8")
    func escapedBytes() {
        let shell = TestShell()
        shell.run("echo -ne '\\xff\\0376\\x00'")
        #expect(shell.stdout.contents == [0xFF, 0xFE, 0x00])
    }
}
