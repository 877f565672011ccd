@_spi(FaultInjection) import PathModel
import Testing

@testable import ShellCore

/// ln against GNU ln: each row runs in a fresh fixture (a file `a`, a directory `d`, a symlink
/// `ld` to it), once in shelf and once in bash with coreutils, then compares output, messages,
/// status and what `ls -l` shows afterwards.
@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/ln"), "needs GNU coreutils"))
struct LnCommandTests {
    static let lines = [
        "ln a b; ln a b", "ln -s a b", "ln nope c", "ln d e", "ln -f a a", "ln -s x y", "ln a d", "ln -s a ld",
        "ln -sfn a ld", "ln a b c", "ln a b; ln -sf a b", "ln a", "ln -v a v1", "ln -sv a v2", "ln -s a b d",
        "ln -f a b; ln -f a b", "ln -sf ../a d/up", "ln -n -s a ld", "ln a nodir/x", "ln -s a nodir/x", "ln a z/",
        "ln -s a z/", "ln -s a a/",
    ]

    @Test(arguments: lines)
    func matchesGNU(_ line: String) throws {
        let mine = TestShell(interactive: false)
        // GNU's twin is on disk whatever volume shelf runs on.
        let theirs = TemporaryDirectory(onLocalDisk: true)
        defer { theirs.remove() }
        for root in [mine.directory.file, theirs.file] {
            try (root + "a").write(text: "x\n")
            try (root + "d").makeDirectory()
            try (root + "ld").makeSymlink(to: "d")
        }
        // bash goes on after a failing command; so does shelf with --keep-going.
        mine.state.stopOnError = false
        let result = mine.run(line)
        let expected = try ReferenceTool.run("/bin/bash", ["-c", line], in: theirs.file)
        #expect(result.stdout == expected.stdout, "\(line)")
        #expect(result.stderr == expected.stderr, "\(line)")
        #expect(result.status == expected.status, "\(line)")
        #expect(try Self.snapshot(mine.directory.file) == Self.snapshot(theirs.file), "\(line)")
    }

    /// Each entry of the fixture and of `d`: name, kind, link count and symlink target.
    static func snapshot(_ root: File) throws -> [String] {
        var lines: [String] = []
        for directory in [root, root + "d"] {
            for name in try directory.childNames().sorted() {
                let info = try (directory + name).info()
                let target = info.kind == .symlink ? try (directory + name).linkTarget().string : ""
                lines.append("\(directory == root ? "" : "d/")\(name) \(info.kind) \(info.linkCount) \(target)")
            }
        }
        return lines
    }

    @Test(
        "ln -f keeps the old link when the new one cannot be made",
        .needsLocalFileSystem("faults are injected into syscalls"))
    func forceKeepsTheOldLinkOnFailure() throws {
        let shell = TestShell()
        try shell.write("a", "x\n")
        try shell.path("b").makeSymlink(to: "old")
        let failing = FaultPlan { name, _ in name == .symlink ? .ioError : nil }
        let result = FaultPlan.$current.withValue(failing) { shell.run("ln -sf a b") }
        #expect(result.status == .failure)
        #expect(result.stderr == "ln: failed to create symbolic link 'b': Input/output error\n")
        #expect(try shell.path("b").linkTarget() == File(path: "old"))
        #expect(try shell.directory.file.childNames().sorted() == ["a", "b"])
    }

    @Test func missingOperand() {
        let result = TestShell().run("ln")
        #expect(result.stderr == "ln: missing file operand\nTry 'help ln' for more information.\n")
        #expect(result.status == .usage)
    }
}
