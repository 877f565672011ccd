import PathModel
import Testing

@testable import ShellCore

/// rmdir against GNU rmdir on twin fixtures: `e` empty, `n` holding a file, a chain `a/b/c` whose
/// `a` holds a file too, and a file `f`; the same output, messages, status and tree afterwards.
@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/rmdir"), "needs GNU coreutils"))
struct RmdirCommandTests {
    static let rows: [(name: String, line: String)] = [
        ("an empty directory", "rmdir e"),
        ("a directory holding something", "rmdir n e"),
        ("--ignore-fail-on-non-empty is quiet about it", "rmdir --ignore-fail-on-non-empty n e"),
        ("abbreviated", "rmdir --ignore n"),
        ("-v still says what it tries", "rmdir -v --ignore-fail-on-non-empty n e"),
        ("-p stops quietly at an ancestor holding something", "rmdir -p --ignore-fail-on-non-empty a/b/c"),
        ("-p -v", "rmdir -pv --ignore-fail-on-non-empty a/b/c"),
        ("-v names an operand with its trailing slash", "rmdir -pv --ignore-fail-on-non-empty a/b/c/ e/"),
        ("-p without it reports the ancestor", "rmdir -p a/b/c"),
        ("a file is still reported", "rmdir --ignore-fail-on-non-empty f"),
        ("a missing directory is still reported", "rmdir --ignore-fail-on-non-empty nope e"),
        ("a directory holding something with a trailing slash", "rmdir --ignore-fail-on-non-empty n/"),
        ("-p on a full directory leaves its parents", "rmdir -p --ignore-fail-on-non-empty a/b"),
    ]

    static func build(in root: File) throws {
        try (root + "e").makeDirectory()
        try (root + "a/b/c").makeDirectory(intermediates: true)
        try (root + "a/x").write(text: "x\n")
        try (root + "n").makeDirectory()
        try (root + "n/f").write(text: "f\n")
        try (root + "f").write(text: "f\n")
    }

    @Test(arguments: rows)
    func matchesGNU(_ name: String, _ line: String) throws {
        try TwinRun(line, build: Self.build) { $0.kind.rawValue }.expectSame(line, name)
    }
}
