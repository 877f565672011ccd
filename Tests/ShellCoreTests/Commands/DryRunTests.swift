import PathModel
import Testing

@testable import ShellCore

/// `--dry-run`: shelf's dry run says what GNU's tool says it did (`-c`, or `-v` where asked) on
/// a twin fixture, and leaves its own fixture exactly as it was: every entry's kind, mode, owner,
/// group, size, times, contents and link target. touch and truncate, which GNU gives no `-v`,
/// say what GNU's run changed on the twin.
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
        ("rm --dry-run a b", "rm -v a b"),
        ("rm --dry-run -v a", "rm -v a"),
        ("rm --dry-run -r s", "rm -rv s"),
        ("rm --dry-run -R s/t e", "rm -Rv s/t e"),
        ("rm --dry-run nope a", "rm -v nope a"),
        ("rm --dry-run -f nope a", "rm -fv nope a"),
        ("rm --dry-run s", "rm -v s"),
        ("rm --dry-run -d e s", "rm -dv e s"),
        ("rm --dry-run -d p/q/r p/q p", "rm -dv p/q/r p/q p"),
        ("rm --dry-run a a", "rm -v a a"),
        ("rm --dry-run -r s s/q", "rm -rv s s/q"),
        ("rm --dry-run -r s/t s", "rm -rv s/t s"),
        ("rm --dry-run -r s/q s/t/r s s", "rm -rv s/q s/t/r s s"),
        ("rm --dry-run -rf s s/t/r nope", "rm -rfv s s/t/r nope"),
        ("rm --dry-run l dang", "rm -v l dang"),
        ("rm --dry-run l/", "rm -v l/"),
        ("rm --dry-run -r .", "rm -rv ."),
        ("rm --dry-run -r p/q/r/ p", "rm -rv p/q/r/ p"),
        ("rm --dry-run -I a b", "rm -Iv a b"),
        ("ln --dry-run a x", "ln -v a x"),
        ("ln --dry-run -s a x", "ln -sv a x"),
        ("ln --dry-run a b", "ln -v a b"),
        ("ln --dry-run -f a b", "ln -fv a b"),
        ("ln --dry-run -sf run l", "ln -sfv run l"),
        ("ln --dry-run -s a b run e", "ln -sv a b run e"),
        ("ln --dry-run -s a no/x", "ln -sv a no/x"),
        ("ln --dry-run -s a a/x", "ln -sv a a/x"),
        ("ln --dry-run nope x", "ln -v nope x"),
        ("ln --dry-run s x", "ln -v s x"),
        ("ln --dry-run -b a b", "ln -bv a b"),
        ("ln --dry-run --backup=numbered -s run b", "ln -sv --backup=numbered run b"),
        ("ln --dry-run -t e a a", "ln -v -t e a a"),
        ("ln --dry-run -sr s/q e", "ln -srv s/q e"),
        ("ln --dry-run -s a dang", "ln -sv a dang"),
        ("ln --dry-run a", "ln -v a"),
        ("cp --dry-run a x", "cp -v a x"),
        ("cp --dry-run a b", "cp -v a b"),
        ("cp --dry-run -r s x", "cp -rv s x"),
        ("cp --dry-run -r s e", "cp -rv s e"),
        ("cp --dry-run -a s p", "cp -av s p"),
        ("cp --dry-run s x", "cp -v s x"),
        ("cp --dry-run nope a e", "cp -v nope a e"),
        ("cp --dry-run -n a b", "cp -vn a b"),
        ("cp --dry-run -b a b", "cp -vb a b"),
        ("cp --dry-run --backup=t -r s/t s", "cp -v --backup=t -r s/t s"),
        ("cp --dry-run a a", "cp -v a a"),
        ("cp --dry-run -s a y", "cp -sv a y"),
        ("cp --dry-run -l a y", "cp -lv a y"),
        ("cp --dry-run -rl s y", "cp -rlv s y"),
        ("cp --dry-run --parents s/t/r e", "cp -v --parents s/t/r e"),
        ("cp --dry-run -t e a b l", "cp -v -t e a b l"),
        ("cp --dry-run -P l dang e", "cp -vP l dang e"),
        ("cp --dry-run --remove-destination a b", "cp -v --remove-destination a b"),
        ("cp --dry-run -u a b", "cp -vu a b"),
        ("cp --dry-run a b x", "cp -v a b x"),
        ("cp --dry-run -r s/t e/x/", "cp -rv s/t e/x/"),
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

    /// Runs the dry run `line` on a fixture `build` makes, expecting the fixture unchanged, then
    /// `reference` with bash on a twin, after `examine` has looked at the twin; gives both
    /// transcripts and what `afterwards` finds in the twin.
    static func twinRuns<Found>(
        _ line: String, _ reference: String, build: (File) throws -> Void,
        examine: (File) throws -> Void = { _ in }, afterwards: (File) throws -> Found
    ) throws -> (ours: Transcript, theirs: Transcript, found: Found) {
        let shell = TestShell()
        let root = shell.directory.file
        try build(root)
        let before = try TwinRun.snapshot(root, describe) + treeSnapshot(root)
        let ours = shell.runConfined(line)
        #expect(try TwinRun.snapshot(root, describe) + treeSnapshot(root) == before, "\(line)")
        let twin = TemporaryDirectory(onLocalDisk: true)
        defer { twin.remove() }
        try build(twin.file)
        try examine(twin.file)
        let theirs = try ReferenceTool.run("/bin/bash", ["-c", reference], in: twin.file)
        return (ours, theirs, try afterwards(twin.file))
    }

    @Test(arguments: rows)
    func saysWhatGNUDidAndChangesNothing(_ line: String, _ reference: String) throws {
        let (ours, theirs, _) = try Self.twinRuns(line, reference, build: Self.build, afterwards: { _ in () })
        // GNU goes through a directory in the kernel's order, shelf in byte order.
        let lines = { (text: String) in text.split(separator: "\n").sorted() }
        #expect(lines(ours.stdout) == lines(theirs.stdout), "\(line)")
        #expect(ours.stderr == theirs.stderr, "\(line)")
        #expect(ours.status == theirs.status, "\(line)")
    }

    /// touch and truncate lines, and the GNU run whose changes to the twin they describe.
    static let changeRows: [(line: String, reference: String)] = [
        ("touch --dry-run a new", "touch a new"),
        ("touch --dry-run -c a new", "touch -c a new"),
        ("touch --dry-run -m e s/q", "touch -m e s/q"),
        ("touch --dry-run -a b", "touch -a b"),
        ("touch --dry-run no/x a", "touch no/x a"),
        ("touch --dry-run a/x", "touch a/x"),
        ("touch --dry-run -h l dang", "touch -h l dang"),
        ("touch --dry-run -h new", "touch -h new"),
        ("touch --dry-run -d 2020-01-01 run", "touch -d 2020-01-01 run"),
        ("touch --dry-run -r nope a", "touch -r nope a"),
        ("touch --dry-run x x", "touch x x"),
        ("touch --dry-run e/", "touch e/"),
        ("touch --dry-run a/", "touch a/"),
        ("truncate --dry-run -s 0 a", "truncate -s 0 a"),
        ("truncate --dry-run -s 2 a", "truncate -s 2 a"),
        ("truncate --dry-run -s +5 a b", "truncate -s +5 a b"),
        ("truncate --dry-run -s 10 new", "truncate -s 10 new"),
        ("truncate --dry-run -c -s 10 new a", "truncate -c -s 10 new a"),
        ("truncate --dry-run -s '<1' run", "truncate -s '<1' run"),
        ("truncate --dry-run -s %4 run s/q", "truncate -s %4 run s/q"),
        ("truncate --dry-run -r run a new", "truncate -r run a new"),
        ("truncate --dry-run -s 3 e", "truncate -s 3 e"),
        ("truncate --dry-run -s 3 no/x a", "truncate -s 3 no/x a"),
        ("truncate --dry-run -s 3 dang", "truncate -s 3 dang"),
        ("truncate --dry-run -s 1 l", "truncate -s 1 l"),
        ("truncate --dry-run -r nope a", "truncate -r nope a"),
    ]

    /// What a change could show on an entry that is not read by the snapshot: kind, size,
    /// modification time, and for a file that is not a directory the access time (a
    /// directory's is changed by listing it).
    static func describeTimes(_ info: FileInfo) -> String {
        let access = info.kind == .directory ? "" : " \(info.accessTime.seconds).\(info.accessTime.nanoseconds)"
        return "\(info.kind.rawValue) \(info.size) \(info.modificationTime.seconds).\(info.modificationTime.nanoseconds)"
            + access
    }

    /// The lines shelf's dry run gives for what `reference` did to the twin at `root`: for each
    /// operand in turn (the words after the options, as `reference` writes them), `created` for
    /// what appeared, and for what changed touch's `changed times of` or truncate's `size of`.
    static func expectedLines(_ reference: String, before: [String: FileInfo], root: File) throws -> [String] {
        let words = reference.split(separator: " ").map { $0.replacingOccurrences(of: "'", with: "") }
        let truncating = words[0] == "truncate"
        let noDereference = words.contains("-h")
        var operands: [String] = []
        var index = 1
        while index < words.count {
            let word = words[index]
            if ["-s", "-r", "-d"].contains(word) {
                index += 2
                continue
            }
            if !word.hasPrefix("-") { operands.append(word) }
            index += 1
        }
        var lines: [String] = []
        var seen: Set<String> = []
        for operand in operands {
            let file = root + operand
            let after = try? file.info(followSymlinks: !noDereference)
            let repeated = !seen.insert(operand).inserted
            guard let after else { continue }
            let quoted = Quoting.always(Array(operand.utf8))
            if repeated {
                // Touched again, made or not by its first time (only touch rows repeat an operand).
                lines.append("changed times of \(quoted)")
                continue
            }
            guard let earlier = before[operand] else {
                lines.append(truncating ? "created \(quoted) of size \(after.size)" : "created \(quoted)")
                continue
            }
            guard describeTimes(earlier) != describeTimes(after) else { continue }
            if !truncating {
                lines.append("changed times of \(quoted)")
            } else if earlier.size == after.size {
                lines.append("size of \(quoted) kept at \(after.size)")
            } else {
                lines.append("size of \(quoted) changed from \(earlier.size) to \(after.size)")
            }
        }
        return lines
    }

    /// The fixture of `build`, every entry's times set back to 2001 so that any change shows.
    static func buildAged(in root: File) throws {
        try build(in: root)
        for path in ["a", "b", "run", "s/q", "s/t/r", "s/t", "s", "e", "p/q/r", "p/q", "p"] {
            try (root + path).setTimes(access: .init(seconds: 1_000_000_000), modification: .init(seconds: 1_000_000_000))
        }
        for link in ["l", "dang"] {
            try (root + link).setTimes(
                access: .init(seconds: 1_000_000_000), modification: .init(seconds: 1_000_000_000),
                followSymlinks: false)
        }
    }

    @Test(arguments: changeRows)
    func saysWhatGNUChangedAndChangesNothing(_ line: String, _ reference: String) throws {
        var infos: [String: FileInfo] = [:]
        let noDereference = reference.contains(" -h ")
        let (ours, theirs, expected) = try Self.twinRuns(
            line, reference, build: Self.buildAged,
            examine: { twin in
                for name in ["a", "b", "run", "s/q", "e", "l", "dang", "new", "x", "no/x", "a/x", "e/", "a/"] {
                    infos[name] = try? (twin + name).info(followSymlinks: !noDereference)
                }
            },
            afterwards: { twin in try Self.expectedLines(reference, before: infos, root: twin) })
        #expect(ours.stdout.split(separator: "\n").map(String.init) == expected, "\(line)")
        #expect(ours.stderr == theirs.stderr, "\(line)")
        #expect(ours.status == theirs.status, "\(line)")
    }
}
