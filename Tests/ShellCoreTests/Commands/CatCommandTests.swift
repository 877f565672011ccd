import Glibc
import PathModel
import Testing

@testable import ShellCore

/// cat against GNU cat: an operand ending in a slash names a directory, as the kernel reads it.
@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/cat"), "needs GNU coreutils"))
struct CatCommandTests {
    static let rows: [[String]] = [
        ["f"], ["f/"], ["link/"], ["link"], ["d/"], ["dlink/"], ["fifo/"], ["f", "f/", "f"], ["missing/"],
    ]

    @Test(
        .needsLocalFileSystem("GNU cat reads the fixture from disk, and FIFOs are the kernel's"),
        arguments: rows)
    func matchesGNU(_ arguments: [String]) throws {
        let shell = TestShell()
        try shell.write("f", "text\n")
        try shell.path("link").makeSymlink(to: "f")
        try shell.path("d").makeDirectory()
        try shell.path("dlink").makeSymlink(to: "d")
        // Nobody writes to it: `fifo/` must fail at once, as the kernel refuses it, never wait.
        #expect(mkfifo(shell.path("fifo").string, 0o644) == 0)
        let expected = try ReferenceTool.run("/usr/bin/cat", arguments, in: shell.directory.file)
        let result = shell.run(ReferenceTool.commandLine("cat", arguments))
        #expect(result.stdout == expected.stdout, "cat \(arguments)")
        #expect(result.stderr == expected.stderr, "cat \(arguments)")
        #expect(result.status == expected.status, "cat \(arguments)")
    }
}
