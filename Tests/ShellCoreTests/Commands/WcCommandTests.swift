import PathModel
import Testing

@testable import ShellCore

/// wc against GNU wc on twin fixtures: text with tabs, carriage returns and control bytes, a file
/// without a final newline, an empty one, one larger than a read, odd names, a directory, and
/// NUL-separated lists of names for `--files0-from`.
@Suite(
    .serialized, .enabled(if: ReferenceTool.isInstalled("/usr/bin/wc"), "needs GNU coreutils"))
struct WcCommandTests {
    static let rows: [(name: String, line: String)] = [
        ("the default counts", "wc a"),
        ("one count of one file is not padded", "wc -l a"),
        ("several files and a total", "wc a bin nonl empty"),
        ("-L with tabs, carriage returns and form feeds", "wc -L a ctl"),
        ("control bytes start no word", "wc -w bin"),
        ("-m counts bytes in the C locale", "wc -m bin"),
        ("all five columns in GNU's order", "wc -Lmcwl a bin ctl"),
        ("a missing file and a good one", "wc nope a"),
        ("a directory", "wc d"),
        ("a directory among files", "wc -l d a"),
        ("a name with a space", "wc 'a b' a"),
        ("a name with a newline is quoted", "wc n?l"),
        ("a name that is not UTF-8", "wc raw?"),
        ("an empty operand", "wc ''"),
        ("a trailing slash on a file", "wc a/"),
        ("a file larger than one read", "wc -lwcL big"),
        ("--files0-from", "wc --files0-from=list"),
        ("--files0-from with an empty name", "wc -l --files0-from=holes"),
        ("--files0-from naming one file", "wc -w --files0-from=one"),
        ("--files0-from a missing list", "wc --files0-from=nope"),
        ("--files0-from a directory", "wc --files0-from=d"),
        ("--files0-from a lone NUL", "wc --files0-from=nul"),
    ]

    /// Builds the fixture below `root`.
    static func build(in root: File) throws {
        let texts: [(String, String)] = [
            ("a", "hello world\nfoo\tbar baz\n"), ("bin", "\u{1} a\n\0b"), ("nonl", "x\ny"), ("empty", ""),
            ("ctl", "a\tb\rcc\u{c}ddd\u{b}x\n"), ("a b", "one two\n"), ("list", "a\0bin\0nonl\0"),
            ("holes", "a\0\0bin"), ("one", "a"), ("nul", "\0"),
        ]
        for (name, text) in texts { try (root + name).write(text: text) }
        try root.appending(name: Array("n\nl".utf8)).write(text: "x")
        try root.appending(name: [0x72, 0x61, 0x77, 0xFF]).write(bytes: [0x80, 0x41, 0x20, 0x42, 0x0A])
        let line = "word\tanother  x, y\u{7}z\r\n"
        try (root + "big").write(text: String(repeating: line, count: 9_000))
        try (root + "d").makeDirectory()
    }

    @Test(arguments: rows)
    func matchesGNU(_ name: String, _ line: String) throws {
        try TwinRun(line, build: Self.build) { _ in "" }.expectSame(line, name)
    }

    @Test("Names and --files0-from together are a usage error, in GNU's words")
    func namesAndListTogether() throws {
        let twins = try TwinRun("wc --files0-from=list a", build: Self.build) { _ in "" }
        let lines = { (text: String) in text.split(separator: "\n").prefix(2) }
        #expect(lines(twins.ours.stderr) == lines(twins.theirs.stderr))
        #expect(twins.ours.status == .usage)
    }

    @Test("Counts carry across reads", arguments: [1, 2, 3, 7])
    func countsAcrossChunks(_ size: Int) {
        let text = Array("ab cd\tef\n\u{1}gh ij\r\nkl".utf8)
        var whole = WcCommand.Counter()
        text.withUnsafeBufferPointer { whole.count($0) }
        var pieces = WcCommand.Counter()
        for start in stride(from: 0, to: text.count, by: size) {
            let piece = Array(text[start..<min(start + size, text.count)])
            piece.withUnsafeBufferPointer { pieces.count($0) }
        }
        #expect(pieces.finished == whole.finished)
        #expect(whole.finished.words == 6)
        #expect(whole.finished.lines == 2)
    }
}
