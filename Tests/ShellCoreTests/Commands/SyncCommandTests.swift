@_spi(FaultInjection) import PathModel
import Testing

@testable import ShellCore

/// sync against GNU sync on twin fixtures (a file `f`, a directory `d`): what it can be seen to
/// do is its messages and status. Nothing here flushes a whole file system (`sync` alone, `-f`):
/// on a machine shared with builds that stalls every other test's writes for a minute; `-f` is
/// run with its `syncfs` failing by injection instead, which never reaches the kernel.
@Suite(
    .serialized, .enabled(if: ReferenceTool.isInstalled("/usr/bin/sync"), "needs GNU coreutils"))
struct SyncCommandTests {
    static let rows: [(name: String, line: String)] = [
        ("a file", "sync f"),
        ("a directory", "sync d"),
        ("-d", "sync -d f d"),
        ("-d needs a FILE", "sync -d"),
        ("-d and -f together", "sync -d -f f"),
        ("a missing file and a good one", "sync nope f"),
        ("a trailing slash on a file", "sync f/"),
        ("an empty operand", "sync ''"),
    ]

    static func build(in root: File) throws {
        try (root + "f").write(text: "x\n")
        try (root + "d").makeDirectory()
    }

    @Test(arguments: rows)
    func matchesGNU(_ name: String, _ line: String) throws {
        try TwinRun(line, build: Self.build) { _ in "" }.expectSame(line, name)
    }

    /// A FIFO with no writer is opened without waiting, and cannot be synced (the kernel's EINVAL).
    @Test(.needsLocalFileSystem("FIFOs are made by the kernel"), arguments: ["sync p", "sync -d p"])
    func aFIFOIsNotWaitedFor(_ line: String) throws {
        let build = { (root: File) throws in
            try Self.build(in: root)
            try makeNode(root + "p", .fifo)
        }
        try TwinRun(line, build: build) { _ in "" }.expectSame(line, line)
    }

    @Test(
        "A failing sync is reported, and the next FILE is still synced",
        .needsLocalFileSystem("faults are injected"),
        arguments: ["sync a b", "sync -d a b", "sync -f a b"])
    func failingSync(_ line: String) throws {
        let shell = TestShell()
        try shell.write("a", "x\n")
        try shell.write("b", "y\n")
        let failing = FaultPlan { call, _ in call == .fsync ? .ioError : nil }
        let result = FaultPlan.$current.withValue(failing) { shell.run(line) }
        #expect(
            result.stderr
                == "sync: error syncing 'a': Input/output error\nsync: error syncing 'b': Input/output error\n"
        )
        #expect(result.status == .failure)
    }
}
