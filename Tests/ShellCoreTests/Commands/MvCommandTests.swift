import Glibc
import PathModel
import Testing

@testable import ShellCore

@Suite struct MvCommandTests {
    static let rows: [FixtureRow] = [
        FixtureRow(
            name: "no operand", line: "mv",
            stderr: "mv: missing file operand\nTry 'help mv' for more information.\n", status: .usage,
            coreutils: .differs("GNU points to 'mv --help' and exits 1")),
        FixtureRow(
            name: "no destination", line: "mv a",
            stderr: "mv: missing destination file operand after 'a'\nTry 'help mv' for more information.\n",
            status: .usage, coreutils: .differs("GNU points to 'mv --help' and exits 1")),
        FixtureRow(
            name: "several sources, missing target", line: "mv a b nodir",
            stderr: "mv: target 'nodir': No such file or directory\n", status: .failure),
        FixtureRow(
            name: "several sources, file target", line: "mv a b empty",
            stderr: "mv: target 'empty': Not a directory\n", status: .failure),
        FixtureRow(
            name: "same file", line: "mv a a", stderr: "mv: 'a' and 'a' are the same file\n", status: .failure
        ),
        FixtureRow(
            name: "same file spelled apart", line: "mv a ./a",
            stderr: "mv: 'a' and './a' are the same file\n", status: .failure),
        FixtureRow(
            name: "into its own subdirectory", line: "mv s s/t",
            stderr: "mv: cannot move 's' to a subdirectory of itself, 's/t/s'\n", status: .failure),
        FixtureRow(
            name: "into itself", line: "mv s s",
            stderr: "mv: cannot move 's' to a subdirectory of itself, 's/s'\n", status: .failure),
        FixtureRow(
            name: "into itself through a symlink", line: "mv s ls",
            stderr: "mv: cannot move 's' to a subdirectory of itself, 'ls/s'\n", status: .failure),
        FixtureRow(
            name: "directory onto a non-empty directory", line: "mv s e",
            stderr: "mv: cannot move 's' to 'e/s': Directory not empty\n", status: .failure),
        FixtureRow(
            name: "directory onto a file", line: "mv s f",
            stderr: "mv: cannot overwrite non-directory 'f/s' with directory 's'\n", status: .failure),
        FixtureRow(
            name: "directory onto a file named as such", line: "mv d a",
            stderr: "mv: cannot overwrite non-directory 'a' with directory 'd'\n", status: .failure),
        FixtureRow(
            name: "file onto a directory", line: "mv f/s e",
            stderr: "mv: cannot overwrite directory 'e/s' with non-directory\n", status: .failure),
        FixtureRow(
            name: "missing source", line: "mv nope x",
            stderr: "mv: cannot stat 'nope': No such file or directory\n", status: .failure),
        FixtureRow(
            name: "empty source", line: "mv '' x",
            stderr: "mv: cannot stat '': No such file or directory\n", status: .failure),
        FixtureRow(
            name: "file to a new name with a slash", line: "mv b nodir/",
            stderr: "mv: cannot move 'b' to 'nodir/': Not a directory\n", status: .failure),
        FixtureRow(
            name: "file onto a file with a slash", line: "mv a f/s/",
            stderr: "mv: cannot stat 'f/s/': Not a directory\n", status: .failure),
        FixtureRow(
            name: "symlink to a directory with a slash", line: "mv ls/ x",
            stderr: "mv: cannot move 'ls/' to 'x': Not a directory\n", status: .failure),
        FixtureRow(
            name: "file source with a slash", line: "mv b/ x",
            stderr: "mv: cannot stat 'b/': Not a directory\n", status: .failure),
        FixtureRow(
            name: "dangling symlink with a slash", line: "mv dang/ x",
            stderr: "mv: cannot stat 'dang/': No such file or directory\n", status: .failure),
        FixtureRow(
            name: "same name twice into a directory", line: "mkdir x && cp a x/q && mv s/t/q x/q d",
            stderr: "mv: will not overwrite just-created 'd/q' with 'x/q'\n", status: .failure),
        FixtureRow(name: "verbose rename", line: "mv -v a c", stdout: "renamed 'a' -> 'c'\n"),
        FixtureRow(
            name: "verbose into a directory", line: "mv -v a s/t/q d//",
            stdout: "renamed 'a' -> 'd/a'\nrenamed 's/t/q' -> 'd/q'\n"),
        FixtureRow(
            name: "symlink moved, not followed", line: "mv -v ls d", stdout: "renamed 'ls' -> 'd/ls'\n"),
        FixtureRow(name: "directory with a slash", line: "mv -v s/ n", stdout: "renamed 's/' -> 'n'\n"),
        FixtureRow(
            name: "directory onto an empty directory", line: "mv -v s/t d", stdout: "renamed 's/t' -> 'd/t'\n"
        ),
        FixtureRow(name: "replaces a file", line: "mv a b"),
        FixtureRow(name: "replaces a symlink, not its target", line: "mv b la"),
        FixtureRow(name: "no clobber", line: "mv -n a b"),
        FixtureRow(name: "last of -f -i -n wins", line: "mv -if a b"),
        FixtureRow(
            name: "interactive without a terminal", line: "mv -i a b",
            stderr: "mv: not overwriting 'b' (no terminal to ask)\n",
            coreutils: .differs("GNU reads the answer from standard input")),
        FixtureRow(
            name: "one failure, the others still move", line: "mv nope a d",
            stderr: "mv: cannot stat 'nope': No such file or directory\n", status: .failure),
    ]

    @Test(arguments: rows) func messagesAndStatuses(_ row: FixtureRow) throws {
        try row.check()
    }

    @Test(arguments: rows) func matchesGNUmv(_ row: FixtureRow) throws {
        try row.compareWithCoreutils(tool: "mv")
    }

    @Test func renameKeepsTheTreeAndItsSymlinks() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        let before = try treeSnapshot(shell.path("s"))
        #expect(shell.run("mv s moved").status == .success)
        #expect(!shell.path("s").exists)
        #expect(try treeSnapshot(shell.path("moved")) == before)
    }

    @Test func sameFileThroughAHardLinkKeepsBoth() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        try shell.path("hard").makeHardLink(to: shell.path("a"))
        let result = shell.run("mv a hard")
        #expect(result.stderr == "mv: 'a' and 'hard' are the same file\n")
        #expect(shell.path("a").exists && shell.path("hard").exists)
    }

    @Test func interactiveAsksAndFollowsTheAnswers() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        let answers = ScriptedAnswers(["mv: overwrite 'b'? ": false, "mv: overwrite 'empty'? ": true])
        answers.install(in: shell)
        let result = shell.run("mv -i a b && mv -iv a empty")
        #expect(answers.questions == ["mv: overwrite 'b'? ", "mv: overwrite 'empty'? "])
        #expect(result.stdout == "renamed 'a' -> 'empty'\n")
        #expect(try shell.path("b").readText() == "b\n")
        #expect(try shell.path("empty").readText() == "a\n")
    }

    @Test func noClobberAndNoTerminalKeepEveryExistingFile() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        try shell.write("x/a", "old a\n")
        try shell.write("x/b", "old b\n")
        let result = shell.run("mv -n a x && mv -i b empty x")
        #expect(result.stderr == "mv: not overwriting 'x/b' (no terminal to ask)\n")
        #expect(result.status == .success)
        #expect(try shell.path("x/a").readText() == "old a\n")
        #expect(try shell.path("x/b").readText() == "old b\n")
        #expect(shell.path("a").exists && shell.path("b").exists)
        #expect(!shell.path("empty").exists)
    }

    /// A directory on another file system than the test shell's, or nil when there is none.
    private static func otherFileSystem() throws -> TemporaryDirectoryElsewhere? {
        let shm = File(path: "/dev/shm")
        guard shm.isDirectory, try shm.info().device != File(path: "/tmp").info().device else { return nil }
        return TemporaryDirectoryElsewhere(in: shm)
    }

    @Test(.needsLocalFileSystem("/dev/shm is another file system on disk"))
    func acrossFileSystemsCopiesThenRemoves() throws {
        guard let elsewhere = try Self.otherFileSystem() else { return }
        defer { elsewhere.remove() }
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        let before = try treeSnapshot(shell.path("s"))
        let target = elsewhere.file.string
        let result = shell.run("mv -v s a \(target)")
        #expect(result.status == .success)
        #expect(result.stderr == "")
        #expect(!shell.path("s").exists && !shell.path("a").exists)
        #expect(try treeSnapshot(elsewhere.file + "s") == before)
        #expect(try (elsewhere.file + "a").readText() == "a\n")
        let lines = result.stdout.split(separator: "\n").map(String.init).sorted()
        #expect(
            lines
                == [
                    "copied 'a' -> '\(target)/a'", "copied 's/l' -> '\(target)/s/l'",
                    "copied 's/t/q' -> '\(target)/s/t/q'",
                    "created directory '\(target)/s'", "created directory '\(target)/s/t'", "removed 'a'",
                    "removed 's/l'", "removed 's/t/q'", "removed directory 's'", "removed directory 's/t'",
                ])
    }

    @Test(
        "Across file systems a symlink or FIFO at the destination is replaced, never written through",
        .needsLocalFileSystem("/dev/shm is another file system on disk"))
    func acrossFileSystemsReplacesTheDestinationEntry() throws {
        guard let elsewhere = try Self.otherFileSystem() else { return }
        defer { elsewhere.remove() }
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        try makeNode(shell.path("fifo"), .fifo)
        for name in ["la", "dang", "fifo"] { try (elsewhere.file + name).write(text: "moved \(name)\n") }
        let from = elsewhere.file.string
        let result = shell.run("mv \(from)/la la && mv \(from)/dang dang && mv \(from)/fifo fifo")
        #expect(result.stderr == "")
        #expect(result.status == .success)
        for name in ["la", "dang", "fifo"] {
            #expect(try shell.path(name).info().kind == .regular, "\(name)")
            #expect(try shell.path(name).readText() == "moved \(name)\n")
        }
        #expect(try shell.path("a").readText() == "a\n")
        #expect(!shell.path("nowhere").exists)
    }

    @Test(.needsLocalFileSystem("/dev/shm is another file system on disk"))
    func acrossFileSystemsMatchesGNUmv() throws {
        guard coreutilsInstalled("mv"), let elsewhere = try Self.otherFileSystem() else { return }
        defer { elsewhere.remove() }
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        let twin = TemporaryDirectory()
        defer { twin.remove() }
        try TransferFixture.build(in: twin.file)
        try (elsewhere.file + "ours/e/full").makeDirectory(intermediates: true)
        try (elsewhere.file + "theirs/e/full").makeDirectory(intermediates: true)
        try (elsewhere.file + "ours/e/full/s").write(text: "")
        try (elsewhere.file + "theirs/e/full/s").write(text: "")
        for (name, expectedStatus) in [("a", 0), ("s/t", 0), ("la", 0), ("s", 1)] {
            let ours = shell.run("mv -v \(name) \(elsewhere.file.string)/ours/e/full")
            let theirs = try runCoreutils(
                "mv -v \(name) \(elsewhere.file.string)/theirs/e/full", in: twin.file)
            #expect(
                ours.status.code == theirs.status && theirs.status == expectedStatus, "status of mv \(name)")
            #expect(
                ours.stderr == theirs.stderr.replacingOccurrences(of: "/theirs/", with: "/ours/"),
                "stderr of mv \(name)")
            #expect(
                ours.stdout.split(separator: "\n").sorted()
                    == theirs.stdout.replacingOccurrences(of: "/theirs/", with: "/ours/").split(
                        separator: "\n"
                    ).sorted(),
                "stdout of mv \(name)")
        }
        #expect(try treeSnapshot(shell.directory.file) == treeSnapshot(twin.file))
        #expect(try treeSnapshot(elsewhere.file + "ours") == treeSnapshot(elsewhere.file + "theirs"))
    }

    @Test(.needsLocalFileSystem("/dev/shm is another file system on disk"))
    func interruptedMoveAcrossFileSystemsKeepsTheSourceAndLeavesNothingBehind() throws {
        guard let elsewhere = try Self.otherFileSystem() else { return }
        defer { elsewhere.remove() }
        let shell = TestShell()
        for index in 0..<20 {
            try shell.write("tree/\(index)/file", String(repeating: "\(index)", count: 1000))
        }
        let before = try treeSnapshot(shell.path("tree"))
        let cancel = CancelAfter(polls: 12)
        cancel.install(in: shell)
        let result = shell.run("mv tree \(elsewhere.file.string)")
        #expect(result.status == .interrupted)
        #expect(result.stderr == "")
        #expect(try treeSnapshot(shell.path("tree")) == before)
        #expect(try treeSnapshot(elsewhere.file) == [])
    }
}

/// A private temporary directory under `parent` (another file system), removed by `remove()`.
struct TemporaryDirectoryElsewhere {
    let file: File

    init(in parent: File) {
        var template = Array((parent.string + "/shelf-test-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        file = File(cString: made!)
    }

    func remove() {
        do { try file.delete() } catch { Issue.record(error) }
    }
}
