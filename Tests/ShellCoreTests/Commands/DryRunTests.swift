import PathModel
import Testing

@testable import ShellCore

/// `--dry-run`: shelf's dry run says what GNU's tool says it did (`-c`, or `-v` where asked) on
/// a twin fixture, and leaves its own fixture exactly as it was: every entry's kind, mode, owner,
/// group, size, times, contents and link target.
@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/mkdir"), "needs GNU coreutils"))
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
        ("mkdir --dry-run x y", "mkdir -v x y"),
        ("mkdir --dry-run -v x", "mkdir -v x"),
        ("mkdir --dry-run -p m/n/o", "mkdir -pv m/n/o"),
        ("mkdir --dry-run -p p/q/r", "mkdir -pv p/q/r"),
        ("mkdir --dry-run a", "mkdir -v a"),
        ("mkdir --dry-run -p a", "mkdir -pv a"),
        ("mkdir --dry-run -p a/g/h", "mkdir -pv a/g/h"),
        ("mkdir --dry-run no/x", "mkdir -v no/x"),
        ("mkdir --dry-run a/x", "mkdir -v a/x"),
        ("mkdir --dry-run dang", "mkdir -v dang"),
        ("mkdir --dry-run -p dang/x", "mkdir -pv dang/x"),
        ("mkdir --dry-run -p s s/e", "mkdir -pv s s/e"),
        ("mkdir --dry-run z z", "mkdir -v z z"),
        ("mkdir --dry-run z z/y", "mkdir -v z z/y"),
        ("mkdir --dry-run -p z z/y/x", "mkdir -pv z z/y/x"),
        ("mkdir --dry-run s/", "mkdir -v s/"),
        ("mkdir --dry-run -p n/", "mkdir -pv n/"),
        ("mkdir --dry-run -m 700 x", "mkdir -v -m 700 x"),
        ("rmdir --dry-run e", "rmdir -v e"),
        ("rmdir --dry-run -v e", "rmdir -v e"),
        ("rmdir --dry-run s", "rmdir -v s"),
        ("rmdir --dry-run --ignore-fail-on-non-empty s e", "rmdir -v --ignore-fail-on-non-empty s e"),
        ("rmdir --dry-run -p p/q/r", "rmdir -pv p/q/r"),
        ("rmdir --dry-run -p s/t", "rmdir -pv s/t"),
        ("rmdir --dry-run a nope l dang", "rmdir -v a nope l dang"),
        ("rmdir --dry-run e e", "rmdir -v e e"),
        ("rmdir --dry-run p/q/r p/q p", "rmdir -v p/q/r p/q p"),
        ("rmdir --dry-run p/q p/q/r", "rmdir -v p/q p/q/r"),
        ("rmdir --dry-run -p p/q/r/ e/", "rmdir -pv p/q/r/ e/"),
        ("mv --dry-run a x", "mv -v a x"),
        ("mv --dry-run a b", "mv -v a b"),
        ("mv --dry-run -v a b run e", "mv -v a b run e"),
        ("mv --dry-run -b a b", "mv -vb a b"),
        ("mv --dry-run --backup=t a b", "mv -v --backup=t a b"),
        ("mv --dry-run -n a b", "mv -vn a b"),
        ("mv --dry-run nope a e", "mv -v nope a e"),
        ("mv --dry-run s s/t", "mv -v s s/t"),
        ("mv --dry-run a l", "mv -v a l"),
        ("mv --dry-run -t e a l dang", "mv -v -t e a l dang"),
        ("mv --dry-run -T s e", "mv -vT s e"),
        ("mv --dry-run -T e s", "mv -vT e s"),
        ("mv --dry-run -T e p", "mv -vT e p"),
        ("mv --dry-run -t e a a", "mv -v -t e a a"),
        ("mv --dry-run -t e s s/q", "mv -v -t e s s/q"),
    ]

    /// `a` (0644), `b` (0600), `run` (0755), `s/` with `s/q` and `s/t/r`, `l` a symlink to `a`,
    /// `dang` one to nothing, and the empty directories `e/` and `p/q/r/`.
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
        try (root + "dang").makeSymlink(to: "nowhere")
        try (root + "e").makeDirectory()
        try (root + "p/q/r").makeDirectory(intermediates: true)
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
