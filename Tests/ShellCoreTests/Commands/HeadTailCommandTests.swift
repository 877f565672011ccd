import PathModel
import Testing

@testable import ShellCore

/// head and tail against GNU coreutils on files with and without a final newline, an empty
/// file, a large file (tail reads it from the end), a directory, a missing file, and operands
/// ending in a slash, which name directories.
@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/tail"), "needs GNU coreutils"))
struct HeadTailCommandTests {
    static let lines: [(tool: String, arguments: [String])] = [
        ("head", ["four"]), ("head", ["-n", "2", "four"]), ("head", ["-n", "-2", "four"]),
        ("head", ["-c", "3", "four"]),
        ("head", ["-c", "-3", "four"]), ("head", ["four", "missing", "nonl"]), ("head", ["-v", "four"]),
        ("head", ["-q", "four", "nonl"]), ("head", ["-n", "1K", "numbers"]),
        ("head", ["-n", "-99995", "numbers"]),
        ("head", ["-c", "-100000000", "numbers"]), ("head", ["dir"]), ("head", ["empty", "four"]),
        ("head", ["-n", "0", "four"]), ("head", ["-c", "1KB", "numbers"]),
        ("tail", ["four"]), ("tail", ["-n", "2", "four"]), ("tail", ["-n", "+3", "four"]),
        ("tail", ["-c", "3", "four"]),
        ("tail", ["-c", "+3", "four"]), ("tail", ["four", "four"]), ("tail", ["nonl"]),
        ("tail", ["-n", "1", "nonl"]),
        ("tail", ["empty"]), ("tail", ["-n", "0", "four"]), ("tail", ["-n", "+0", "four"]), ("tail", ["dir"]),
        ("tail", ["missing"]), ("tail", ["-n", "5", "numbers"]), ("tail", ["-n", "70000", "numbers"]),
        ("tail", ["-n", "+99990", "numbers"]), ("tail", ["-c", "100", "numbers"]),
        ("tail", ["-n", "1b", "numbers"]),
        ("tail", ["-n", "3", "blank-lines"]), ("tail", ["-n", "-2", "four"]),
        ("head", ["four/"]), ("head", ["-n", "1", "link/"]), ("head", ["dir/"]),
        ("head", ["four", "four/"]), ("tail", ["four/"]), ("tail", ["-n", "1", "link/"]), ("tail", ["dir/"]),
        ("tail", ["-c", "2", "four/"]),
        ("head", ["-n", "+2", "four"]), ("head", ["-c", "+3", "four"]), ("tail", ["-c", "+7", "four"]),
        ("tail", ["-n", "+1", "four", "nonl"]), ("tail", ["-c", "+1K", "numbers"]),
        // Past the end, and past any offset a file can have (passed over, not read).
        ("tail", ["-c", "+99999999", "four"]), ("tail", ["-c", "+9223372036854775809", "four"]),
        ("tail", ["-c", "+9E", "four"]),
        // GNU's older spelling of the count, as the first argument.
        ("head", ["-3", "four"]), ("head", ["-3c", "four"]), ("head", ["-1k", "numbers"]),
        ("head", ["-2b", "numbers"]), ("head", ["-2cl", "four"]), ("head", ["-1v", "four"]),
        ("head", ["-1q", "four", "nonl"]), ("head", ["-3", "-v", "four"]), ("head", ["-0", "four"]),
        ("tail", ["-1", "four"]), ("tail", ["+3", "four"]), ("tail", ["-3c", "four"]), ("tail", ["+2c", "nonl"]),
        ("tail", ["-1b", "numbers"]), ("tail", ["-l", "numbers"]), ("tail", ["+3", "four", "nonl"]),
        ("tail", ["-"]), ("tail", ["-n", "-2", "four"]),
        // Lines that end with NUL.
        ("head", ["-z", "zeros"]), ("head", ["-z", "-n", "2", "zeros"]), ("head", ["-z", "-n", "-1", "zeros"]),
        ("head", ["-zn", "1", "mixed"]), ("head", ["-2z", "zeros"]), ("head", ["--zero-terminated", "-n", "-2", "mixed"]),
        ("head", ["-z", "-n", "1", "four"]), ("head", ["-z", "-c", "3", "zeros"]), ("head", ["-z", "-n", "3", "znumbers"]),
        ("tail", ["-z", "zeros"]), ("tail", ["-z", "-n", "2", "zeros"]), ("tail", ["-z", "-n", "+2", "zeros"]),
        ("tail", ["-z", "-n", "1", "mixed"]), ("tail", ["-z", "-n", "3", "znumbers"]),
        ("tail", ["-z", "-n", "+99998", "znumbers"]), ("tail", ["-z", "four"]), ("tail", ["-z", "-n", "-1", "nonl"]),
        ("tail", ["--zero-terminated", "-n", "70000", "znumbers"]),
    ]

    @Test(.needsLocalFileSystem("GNU head and tail read the fixture from disk"), arguments: lines)
    func matchesGNU(_ tool: String, _ arguments: [String]) throws {
        let shell = TestShell()
        try shell.write("four", "a\nb\nc\nd\n")
        try shell.write("nonl", "x\ny")
        try shell.write("empty")
        try shell.write("blank-lines", "\n\n\n\n\n")
        try shell.write("zeros", "a\u{0}b\u{0}c\u{0}d\u{0}")
        try shell.write("mixed", "a\nb\u{0}c\nd\u{0}e")
        try shell.write("znumbers", (1...100_000).map(String.init).joined(separator: "\u{0}") + "\u{0}")
        try shell.write("numbers", (1...100_000).map(String.init).joined(separator: "\n") + "\n")
        try shell.path("dir").makeDirectory()
        try shell.path("link").makeSymlink(to: "four")
        let expected = try ReferenceTool.run("/usr/bin/" + tool, arguments, in: shell.directory.file)
        let result = shell.run(ReferenceTool.commandLine(tool, arguments))
        #expect(result.stdout == expected.stdout, "\(tool) \(arguments)")
        #expect(result.stderr == expected.stderr, "\(tool) \(arguments)")
        #expect(result.status == expected.status, "\(tool) \(arguments)")
    }

    @Test(
        "Bad counts",
        arguments: [
            ("head -n x four", "head: invalid number of lines: 'x'"),
            ("tail -c 5Q four", "tail: invalid number of bytes: '5Q'"),
            ("head -v -3 four", "head: invalid trailing option -- 3"),
            ("head -2x four", "head: invalid trailing option -- x"),
            ("tail -2 four four", "tail: option used in invalid context -- 2"),
            ("tail -n 1 -5 four", "tail: option used in invalid context -- 5"),
        ])
    func badCounts(_ line: String, _ message: String) throws {
        let shell = TestShell()
        try shell.write("four", "a\n")
        let result = shell.run(line)
        #expect(result.stderr.hasPrefix(message + "\n"))
        #expect(result.status == .usage)
    }
}
