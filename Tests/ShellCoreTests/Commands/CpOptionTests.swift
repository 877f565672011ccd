import Glibc
import PathModel
import Testing

@testable import ShellCore

/// cp's -t, -T, backups, -P/-L/-H/-d/-a, --preserve and --no-preserve, hard links kept, -l, -s,
/// --remove-destination, --parents and --update against GNU's on twin fixtures:
/// `TransferFixture` with `a` older than `b`, `ha` a second name of `f/s`, `s/t/hq` of `s/t/q`,
/// `s/dl` a symlink that leads nowhere, and `run` an executable.
@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/cp"), "needs GNU coreutils"))
struct CpOptionTests {
    static let rows: [(name: String, line: String)] = [
        ("-t", "cp -t d a b"),
        ("-t, verbose, a directory without -r", "cp -v -t d a s"),
        ("--target-directory=", "cp --target-directory=d a"),
        ("-t a missing directory", "cp -t nope a"),
        ("-t a file", "cp -t a b"),
        ("-T a file onto a directory", "cp -vT a d"),
        ("-T to a new name", "cp -vT a new"),
        ("-T a tree onto a directory", "cp -rvT s d"),
        ("-b", "cp -vb a b"),
        ("--backup=numbered, twice", "cp -v --backup=numbered a b && cp -v --backup=numbered empty b"),
        ("--backup=existing with a numbered one", "cp --backup=t a b && cp -v --backup=nil empty b"),
        ("-S implies a backup", "cp -v -S .bak a b"),
        ("--backup=none makes none", "cp -v -b --backup=none a b"),
        ("-b with nothing to back up", "cp -vb a new"),
        ("-b inside a tree", "cp -r s x && cp -rvbT s x"),
        ("-b of a symlink destination keeps the link", "cp -vb b la"),
        ("-P copies the link", "cp -P la x"),
        ("-P copies a dangling link", "cp -vP dang x"),
        ("-d copies the link", "cp -d la x"),
        ("-r copies a linked operand as a link", "cp -r ls x"),
        ("-rH follows the operand only", "cp -rvH ls x"),
        ("-rL follows every link", "cp -rL s x"),
        ("-L with a dangling link", "cp -vL dang x"),
        ("-H then -P", "cp -r -H -P ls x"),
        ("-a keeps hard links, links and times", "cp -a s x"),
        ("-r does not keep hard links", "cp -r s x"),
        ("-rd keeps hard links, not times", "cp -rd s x"),
        ("-d with two names of one file", "cp -d f/s ha d"),
        ("--preserve=links with -r", "cp -r --preserve=links s x"),
        ("--preserve alone", "cp --preserve a x"),
        ("--preserve=timestamps", "cp --preserve=timestamps run x"),
        ("--preserve abbreviated", "cp --preserve=time,mo run x"),
        ("-p then --no-preserve=timestamps", "cp -p --no-preserve=timestamps run x"),
        ("--no-preserve=mode", "cp --no-preserve=mode run x"),
        ("--no-preserve=mode onto an existing file", "cp --no-preserve=mode run b"),
        ("--no-preserve=mode of a tree", "cp -r --no-preserve=mode s x"),
        ("--no-preserve=mode then -p", "cp --no-preserve=mode -p run x"),
        ("-a --no-preserve=all", "cp -a --no-preserve=all s x"),
        ("-l", "cp -lv a x"),
        ("-l onto a file", "cp -lv a b"),
        ("-l -f onto a file", "cp -flv a b"),
        ("-l --remove-destination", "cp -l --remove-destination a b"),
        ("-rl follows links inside", "cp -rl s x"),
        ("-rlP keeps links inside", "cp -rlP s x"),
        ("-s", "cp -sv a x"),
        ("-s into another directory", "cp -s a d/"),
        ("-s onto a file", "cp -sv a b"),
        ("-s -f onto a file", "cp -sfv a b"),
        ("-rs of a relative tree", "cp -rs s x"),
        ("--remove-destination", "cp -v --remove-destination a b"),
        ("--remove-destination replaces a symlink", "cp --remove-destination b la"),
        ("without it a symlink is written through", "cp b la"),
        ("-s verbose into another directory", "cp -sv a d/"),
        ("--parents verbose, a directory omitted", "cp -v --parents a s/t d"),
        ("--parents", "cp -v --parents s/t/q d"),
        ("--parents of a directory", "cp -rv --parents s/t d"),
        ("--parents with -t", "cp --parents -t d s/t/q f/s"),
        ("--parents of a directory without -r", "cp --parents s/t d"),
        ("-u leaves a newer destination", "cp -vu a b"),
        ("-u replaces an older one", "cp -vu b run"),
        ("-u leaves one as old", "cp -vu empty b"),
        ("--update is -u", "cp -v --update b run"),
        ("--reflink=auto copies where blocks cannot be shared", "cp -v --reflink=auto a x"),
        ("--reflink=never", "cp -r --reflink=never s x"),
        ("a source named twice is copied once, with a warning", "cp a a d"),
        ("a source named twice by two spellings", "cp -v a ./a a d"),
        ("a directory named twice", "cp -r s s d"),
        ("a directory named twice without -r", "cp s s d"),
        ("with -b a source named twice is a just-created file", "cp -b a a d"),
        ("two names of one file are two sources", "cp f/s ha a d"),
    ]

    /// Rows whose options GNU coreutils 9.1 spells otherwise: shelf's line and GNU's.
    static let respelled: [(name: String, line: String, reference: String)] = [
        ("--update=none is -n", "cp -v --update=none b run", "cp -v -n b run"),
        ("--update=older is -u", "cp -v --update=older b run", "cp -v -u b run"),
        ("--update=all replaces", "cp -v --update=all a b", "cp -v a b"),
        ("--update=all after -u", "cp -u --update=all a b", "cp a b"),
    ]

    static func build(in root: File) throws {
        try TransferFixture.build(in: root)
        try (root + "run").write(text: "#!/bin/sh\n")
        try (root + "run").setPermissions(0o755)
        try (root + "ha").makeHardLink(to: root + "f/s")
        try (root + "s/t/hq").makeHardLink(to: root + "s/t/q")
        try (root + "s/dl").makeSymlink(to: "nowhere")
        // Modes set, not left to how each volume applies the umask to the fixture.
        for directory in ["d", "e", "e/s", "f", "s", "s/t"] { try (root + directory).setPermissions(0o755) }
        for file in ["a", "b", "empty", "e/s/x", "f/s", "s/t/q"] { try (root + file).setPermissions(0o644) }
        for (name, seconds) in [
            ("a", 1_000_000_000), ("b", 1_500_000_000), ("empty", 1_500_000_000), ("run", 1_200_000_000),
            ("s/t/q", 1_300_000_000), ("s/t", 1_400_000_000), ("s", 1_100_000_000),
        ] {
            let time = Timestamp(seconds: Int64(seconds), nanoseconds: 0)
            try (root + name).setTimes(access: time, modification: time, followSymlinks: false)
        }
    }

    /// Each entry as its kind, mode, links and time (the fixture's own, or `now` for one set by
    /// the copy), and a file's size.
    static func describe(_ info: FileInfo) -> String {
        let seconds = info.modificationTime.seconds
        let time = seconds < 1_600_000_000 ? "\(seconds)" : "now"
        switch info.kind {
        case .regular:
            return "file \(info.size) \(String(info.permissions, radix: 8)) x\(info.linkCount) \(time)"
        case .directory: return "directory \(String(info.permissions, radix: 8)) \(time)"
        default: return info.kind.rawValue
        }
    }

    @Test(arguments: rows)
    func matchesGNU(_ name: String, _ line: String) throws {
        try TwinRun(line, build: Self.build, describe: Self.describe).expectSame(line, name, anyOrder: true)
    }

    @Test(arguments: respelled)
    func matchesGNUSpelledOtherwise(_ name: String, _ line: String, _ reference: String) throws {
        try TwinRun(line, reference: reference, build: Self.build, describe: Self.describe)
            .expectSame(line, name)
    }

    /// The tree the into-itself rows copy: files beside a directory holding a file and another
    /// directory, and a file `a` beside it.
    static func buildNested(in root: File) throws {
        for name in ["a", "s/a", "s/m", "s/z", "s/t/b", "s/t/k/deep"] {
            try (root + name).parent.makeDirectory(intermediates: true)
            try (root + name).write(text: name + "\n")
        }
        for directory in ["s", "s/t", "s/t/k"] { try (root + directory).setPermissions(0o750) }
    }

    /// A directory copied into itself: as GNU, the copy goes on until it meets the first
    /// directory it made, says so and stops that operand (status 1), keeping what it copied.
    /// What GNU copied by then depends on the order its file system lists entries in (inode
    /// order on ext4, where directories' inodes are spread), so only the messages and status are
    /// compared with GNU; shelf's copy is the one its order gives (files first, then
    /// directories, each by name), `copied` below the destination.
    @Test(arguments: [
        ("cp -r s s/t", "s/t/s", ["a", "m", "z", "t", "t/b", "t/k", "t/k/deep"]),
        ("cp -rp s s/t", "s/t/s", ["a", "m", "z", "t", "t/b", "t/k", "t/k/deep"]),
        ("cp -r s s/t/k", "s/t/k/s", ["a", "m", "z", "t", "t/b", "t/k", "t/k/deep"]),
        ("cp -r s/ s/t/k/", "s/t/k/s", ["a", "m", "z", "t", "t/b", "t/k", "t/k/deep"]),
        // The listing of s is read before s/s is made in it: everything is copied.
        ("cp -r s s", "s/s", ["a", "m", "z", "t", "t/b", "t/k", "t/k/deep"]),
        ("cp -r s s/t/new", "s/t/new", ["a", "m", "z", "t", "t/b", "t/k", "t/k/deep"]),
        ("cp -r a s s/t", "s/t/s", ["a", "m", "z", "t", "t/a", "t/b", "t/k", "t/k/deep"]),
    ])
    func intoItselfStopsWhereItMeetsItself(_ line: String, _ destination: String, _ copied: [String]) throws {
        let run = try TwinRun(line, build: Self.buildNested, describe: Self.describe)
        #expect(run.ours.stderr == run.theirs.stderr, "\(line)")
        #expect(run.ours.status == run.theirs.status, "\(line)")
        #expect(run.ours.status == .failure, "\(line)")
        let prefix = destination + "/"
        let made = run.ourTree.map { $0.prefix { $0 != " " } }.filter { $0.hasPrefix(prefix) }.map { $0.dropFirst(prefix.count) }
        #expect(made.map(String.init) == copied.sorted(), "\(line)")
        // The rest of the tree is as it was, and as GNU left it.
        let elsewhere = { (tree: [String]) in tree.filter { !$0.hasPrefix(prefix) && !$0.hasPrefix(destination + " ") } }
        #expect(elsewhere(run.ourTree) == elsewhere(run.theirTree), "\(line)")
    }

    /// With -v, each file and directory is told as it is copied, in shelf's order.
    @Test func intoItselfTellsWhatItCopied() throws {
        let run = try TwinRun("cp -rv s s/t", build: Self.buildNested, describe: Self.describe)
        #expect(
            run.ours.stdout == """
                's' -> 's/t/s'
                's/a' -> 's/t/s/a'
                's/m' -> 's/t/s/m'
                's/z' -> 's/t/s/z'
                's/t' -> 's/t/s/t'
                's/t/b' -> 's/t/s/t/b'
                's/t/k' -> 's/t/s/t/k'
                's/t/k/deep' -> 's/t/s/t/k/deep'

                """)
        #expect(run.ours.stderr == run.theirs.stderr)
        #expect(run.ours.status == run.theirs.status)
    }

    @Test(arguments: [
        "cp -bn a b", "cp -t d -T a", "cp -T a b c", "cp --backup=bogus a b", "cp --parents a b",
        "cp --parents -T a d", "cp --preserve=bogus a x", "cp --no-preserve=bogus a x", "cp --reflink=x a y",
        "cp --sparse=x a y", "cp --sparse a y",
    ])
    func usageErrorsMatchGNU(_ line: String) throws {
        try TwinRun(line, build: Self.build, describe: Self.describe).expectSameUsageError(line)
    }

    @Test(
        "Words that are not for --update, and attributes shelf does not copy, are refused",
        arguments: [
            (
                "cp --update=bogus a b",
                "cp: invalid argument 'bogus' for '--update'\nValid arguments are:\n  - 'all'\n  - 'none'\n  - 'older'\n"
            ),
            ("cp --preserve=xattr a x", "cp: cannot preserve 'xattr': not supported\n"),
            ("cp --preserve=mode,context a x", "cp: cannot preserve 'context': not supported\n"),
        ])
    func refusals(_ line: String, _ message: String) throws {
        let shell = TestShell()
        try Self.build(in: shell.directory.file)
        let result = shell.run(line)
        #expect(result.stderr == message + "Try 'help cp' for more information.\n")
        #expect(result.status == .usage)
        #expect(!(shell.directory.file + "x").exists)
    }

    /// Where the file system cannot share blocks, GNU leaves an empty destination behind and
    /// shelf what was there (nothing, or the old file): the same messages and status.
    @Test(arguments: [
        "cp --reflink=always a x", "cp --reflink a b", "cp -r --reflink=always s x", "cp --reflink=al a x",
    ])
    func reflinkAlwaysSaysWhatGNUSays(_ line: String) throws {
        let run = try TwinRun(line, build: Self.build, describe: Self.describe)
        let lines = { (text: String) in text.split(separator: "\n").sorted() }
        #expect(lines(run.ours.stdout) == lines(run.theirs.stdout), "\(line)")
        #expect(lines(run.ours.stderr) == lines(run.theirs.stderr), "\(line)")
        #expect(run.ours.status == run.theirs.status, "\(line)")
    }

    /// In `t/`: `sp`, 1 MiB with one byte of data in its middle and holes around it; `zeros`,
    /// 256 KiB of written zeros and a line; `mixed`, a line, 300,000 zeros, a line, 20,000 zeros.
    static func buildSparseFiles(in root: File) throws {
        try (root + "t").makeDirectory()
        try (root + "t/zeros").write(bytes: [UInt8](repeating: 0, count: 262_144) + Array("end\n".utf8))
        try (root + "t/mixed").write(
            bytes: Array("start\n".utf8) + [UInt8](repeating: 0, count: 300_000) + Array("mid\n".utf8)
                + [UInt8](repeating: 0, count: 20_000))
        let descriptor = open((root + "t/sp").string, O_WRONLY | O_CREAT, 0o644)
        defer { close(descriptor) }
        guard descriptor >= 0, ftruncate(descriptor, 1 << 20) == 0, pwrite(descriptor, "x", 1, 1 << 19) == 1 else {
            throw NodeError(description: "sparse file: \(String(cString: strerror(errno)))")
        }
    }

    @Test(
        .needsLocalFileSystem("holes are the kernel's, and GNU's copies are compared block for block"),
        arguments: ["never", "auto", "always"].flatMap { when in
            ["sp", "zeros", "mixed"].map { "cp --sparse=\(when) t/\($0) x" } + ["cp -r --sparse=\(when) t x"]
        })
    func sparseCopiesTakeTheBlocksGNUsTake(_ line: String) throws {
        let describe = { (info: FileInfo) in
            info.kind == .regular ? "file \(info.size) in \(info.blocks) blocks" : info.kind.rawValue
        }
        try TwinRun(line, build: Self.buildSparseFiles, describe: describe).expectSame(line, "sparse")
    }

    @Test(
        .needsLocalFileSystem("holes are the kernel's"), arguments: ["never", "auto", "always"])
    func sparseCopiesHoldTheSourceBytes(_ when: String) throws {
        let shell = TestShell()
        let root = shell.directory.file
        try Self.buildSparseFiles(in: root)
        #expect(shell.run("cp -r --sparse=\(when) t x").status == .success)
        for name in ["sp", "zeros", "mixed"] {
            #expect(try (root + "x/\(name)").readBytes() == (root + "t/\(name)").readBytes(), "\(name)")
        }
    }

    @Test("--no-preserve=xattr keeps what shelf keeps anyway")
    func noPreserveXattr() throws {
        let line = "cp --no-preserve=xattr,context -p run x"
        try TwinRun(line, build: Self.build, describe: Self.describe).expectSame(line, "no xattr")
    }
}
