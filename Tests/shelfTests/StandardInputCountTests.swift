import Foundation
import Testing

/// wc and du reading standard input through the built binary, against GNU's fed the same pipe in
/// the same directory: counts, column widths (7 for a pipe), names and `--files0-from=-`.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/wc"), "needs GNU coreutils"))
struct StandardInputCountTests {
    @Test(arguments: [
        ("wc", "hello world\nfoo\n"), ("wc -l", "a\nb\nc\n"), ("wc -", "x y\n"), ("wc -c - a", "12345"),
        ("wc -L", "\tab\n"), ("wc --files0-from=-", "a\u{0}b\u{0}"),
        ("wc -l --files0-from=-", "a\u{0}-\u{0}"), ("du --files0-from=-", "a\u{0}b"),
        ("du -c --files0-from=-", "a\u{0}-\u{0}b\u{0}"), ("du --files0-from=-", "a\u{0}\u{0}b\u{0}"),
        ("du --files0-from=- --files0-from=-", ""),
    ])
    func matchesGNU(_ line: String, _ input: String) throws {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "one two\nthree\n".write(
            to: directory.appendingPathComponent("a"), atomically: true, encoding: .utf8)
        try "b\n".write(to: directory.appendingPathComponent("b"), atomically: true, encoding: .utf8)
        let ours = try ScriptTests.shelf(["-c", line], input: input, in: directory)
        let theirs = try ScriptTests.run("/bin/sh", ["-c", line], input: input, in: directory)
        #expect(ours.stdout == theirs.stdout, "\(line)")
        #expect(ours.stderr == theirs.stderr, "\(line)")
        #expect(ours.status == theirs.status, "\(line)")
    }
}
