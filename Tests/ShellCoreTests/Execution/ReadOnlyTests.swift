import PathModel
import Testing

@testable import ShellCore

/// `--read-only`: every command that changes the disk, and every redirection, is refused before
/// it touches anything; the others run as usual.
@Suite struct ReadOnlyTests {
    @Test(
        "Commands that change the disk are refused and change nothing",
        arguments: ["cp a b", "mv a b", "rm a", "rm -rf d", "rmdir d/e", "mkdir n", "touch a", "touch n", "ln a n",
                    "ln -s a n", "echo x > n", "cat a >> a", "ls > n"])
    func refused(_ line: String) throws {
        let shell = TestShell()
        try shell.write("a", "content\n")
        try shell.path("d/e").makeDirectory(intermediates: true)
        shell.state.isReadOnly = true
        let before = try treeSnapshot(shell.directory.file)
        let result = shell.run(line)
        #expect(result.status == .failure, "\(line)")
        #expect(result.stderr.contains("read-only"), "\(line)")
        #expect(try treeSnapshot(shell.directory.file) == before, "\(line)")
        #expect(try shell.path("a").readText() == "content\n")
    }

    @Test("Commands that only read still run", arguments: ["cat a", "ls", "stat -c %s a", "find . -name a", "du -s d", "tree d", "head -n 1 a", "cd d"])
    func allowed(_ line: String) throws {
        let shell = TestShell()
        try shell.write("a", "content\n")
        try shell.path("d/e").makeDirectory(intermediates: true)
        shell.state.isReadOnly = true
        #expect(shell.run(line).status == .success, "\(line)")
    }

    @Test("The message names the command")
    func message() {
        let shell = TestShell()
        shell.state.isReadOnly = true
        #expect(shell.run("mkdir x").stderr == "shelf: mkdir: refused: it changes the disk, and this shell is read-only (--read-only)\n")
    }
}
