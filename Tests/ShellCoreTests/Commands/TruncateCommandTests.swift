import PathModel
import Testing

@testable import ShellCore

/// truncate against GNU truncate on twin fixtures (`f` of 5 bytes, `r` of 13, a directory `d`):
/// the same messages, status and file sizes afterwards.
@Suite(
    .serialized, .enabled(if: ReferenceTool.isInstalled("/usr/bin/truncate"), "needs GNU coreutils"))
struct TruncateCommandTests {
    static let rows: [(name: String, line: String)] = [
        ("a size", "truncate -s 10 f"),
        ("a smaller size", "truncate -s 2 f r"),
        ("a missing file is created", "truncate -s 7 new"),
        ("-c leaves a missing file missing", "truncate -c -s 3 nope"),
        ("a missing directory on the way", "truncate -s 3 nodir/x"),
        ("-c and a missing directory", "truncate -c -s 3 nodir/x"),
        ("a directory", "truncate -s 3 d"),
        ("K", "truncate -s 1K k"),
        ("KB is 1000", "truncate -s 1KB kb"),
        ("KiB is 1024", "truncate -s 1KiB kib"),
        ("lower-case k", "truncate -s 2k lk"),
        ("M", "truncate -s 1M m"),
        ("an unknown unit", "truncate -s 1b b"),
        ("a fraction", "truncate -s 1.5K h"),
        ("not a number", "truncate -s abc f"),
        ("too large", "truncate -s 99999999999999999999 f"),
        ("8E overflows", "truncate -s 8E e"),
        ("+ extends", "truncate -s ' +3' f"),
        ("- reduces", "truncate -s -2 f r"),
        ("- below zero stops at zero", "truncate -s -20 f"),
        ("> at least", "truncate -s '>20' f r"),
        ("< at most", "truncate -s '<4' f r"),
        ("% rounds up", "truncate -s %8 f r"),
        ("/ rounds down", "truncate -s /5 f r"),
        ("/0 is a division by zero", "truncate -s /0 f"),
        ("--reference", "truncate -r r f"),
        ("--reference with a relative size", "truncate -r r -s +1 f"),
        ("--reference to a missing file", "truncate -r nope f"),
        ("-o counts IO blocks", "truncate -o -s 1 o"),
        ("a trailing slash on a file", "truncate -s 3 f/"),
        ("a trailing slash on a directory", "truncate -s 3 d/"),
        ("a trailing slash on nothing", "truncate -s 3 new/"),
        ("-c and a trailing slash on a file", "truncate -c -s 3 f/"),
        ("-c and a trailing slash on nothing", "truncate -c -s 3 new/"),
        ("an invalid size with no file", "truncate -s abc"),
    ]

    static func build(in root: File) throws {
        try (root + "f").write(text: "hello")
        try (root + "r").write(text: "0123456789abc")
        try (root + "d").makeDirectory()
    }

    /// Runs `line` on twin fixtures, snapshotting each regular file's size.
    static func twins(_ line: String) throws -> TwinRun {
        try TwinRun(line, build: build) { $0.kind == .regular ? "\($0.size)" : $0.kind.rawValue }
    }

    @Test(arguments: rows)
    func matchesGNU(_ name: String, _ line: String) throws {
        try Self.twins(line).expectSame(line, name)
    }

    @Test(arguments: [
        "truncate f", "truncate -o f", "truncate -s 5", "truncate -r f -s 5 g", "truncate -s '<-5' f",
    ])
    func usageErrorsMatchGNU(_ line: String) throws {
        try Self.twins(line).expectSameUsageError(line)
    }
}
