import PathModel
import Testing

@testable import ShellCore

/// `--dry-run`: shelf's dry run says what GNU's tool says it did (`-c`, or `-v` where asked) on
/// a twin fixture, and leaves its own fixture exactly as it was: every entry's kind, mode, owner,
/// group, size, times, contents and link target.
@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/chmod"), "needs GNU coreutils"))
struct DryRunTests {
    /// Shelf's line, and GNU's line that does what it says would be done.
    static let rows: [(line: String, reference: String)] = [
        ("chmod --dry-run 700 a b", "chmod -c 700 a b"),
        ("chmod --dry-run -v u+x a run", "chmod -v u+x a run"),
        ("chmod --dry-run -R go-w s", "chmod -c -R go-w s"),
        ("chmod --dry-run -R -v a+rX s", "chmod -v -R a+rX s"),
        ("chmod --dry-run 644 nope a", "chmod -c 644 nope a"),
        ("chmod --dry-run --reference=run a b", "chmod -c --reference=run a b"),
        ("chmod --dry-run u+s,g+s run", "chmod -c u+s,g+s run"),
        ("chmod --dry-run -c 755 run", "chmod -c 755 run"),
        ("chown --dry-run 1:1 a s", "chown -c 1:1 a s"),
        ("chown --dry-run -R 1 s", "chown -c -R 1 s"),
        ("chown --dry-run -v root a", "chown -v root a"),
        ("chown --dry-run -h 2 l", "chown -c -h 2 l"),
        ("chown --dry-run --from=0 3 a b", "chown -c --from=0 3 a b"),
        ("chgrp --dry-run -R 1 s", "chgrp -c -R 1 s"),
        ("chgrp --dry-run -v 0 a nope", "chgrp -v 0 a nope"),
    ]

    /// `a` (0644), `b` (0600), `run` (0755), `s/` with `s/q` and `s/t/r`, `l` a symlink to `a`.
    static func build(in root: File) throws {
        for (path, text, mode) in [
            ("a", "a\n", 0o644), ("b", "b\n", 0o600), ("run", "#!/bin/sh\n", 0o755), ("s/q", "q\n", 0o664),
            ("s/t/r", "r\n", 0o640),
        ] {
            let file = root + path
            try file.parent.makeDirectory(intermediates: true)
            try file.write(text: text)
            try file.setPermissions(UInt32(mode))
        }
        try (root + "s").setPermissions(0o775)
        try (root + "s/t").setPermissions(0o700)
        try (root + "l").makeSymlink(to: "a")
    }

    /// Everything about an entry a change could touch.
    static func describe(_ info: FileInfo) -> String {
        "\(info.kind.rawValue) \(String(info.permissions, radix: 8)) \(info.userID):\(info.groupID) \(info.size) "
            + "\(info.modificationTime.seconds).\(info.modificationTime.nanoseconds) "
            + "\(info.changeTime.seconds).\(info.changeTime.nanoseconds)"
    }

    @Test(arguments: rows)
    func saysWhatGNUDidAndChangesNothing(_ line: String, _ reference: String) throws {
        let shell = TestShell()
        let root = shell.directory.file
        try Self.build(in: root)
        let before = try TwinRun.snapshot(root, Self.describe) + treeSnapshot(root)
        let ours = shell.runConfined(line)
        #expect(try TwinRun.snapshot(root, Self.describe) + treeSnapshot(root) == before, "\(line)")
        let twin = TemporaryDirectory(onLocalDisk: true)
        defer { twin.remove() }
        try Self.build(in: twin.file)
        let theirs = try ReferenceTool.run("/bin/bash", ["-c", reference], in: twin.file)
        // GNU goes through a directory in the kernel's order, shelf in byte order.
        let lines = { (text: String) in text.split(separator: "\n").sorted() }
        #expect(lines(ours.stdout) == lines(theirs.stdout), "\(line)")
        #expect(ours.stderr == theirs.stderr, "\(line)")
        #expect(ours.status == theirs.status, "\(line)")
    }
}
