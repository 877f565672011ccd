@_spi(FaultInjection) import PathModel
import Testing

@testable import ShellCore

/// df where GNU df has no twin: a volume that is no file system of the kernel's, a file system
/// that fails to answer (the tables of mounted tmpfs against GNU df are in `MountedFixtureTests`).
@Suite struct DfCommandTests {
    @Test(
        "On the in-memory volume a FILE is reported as statfs would report it, and the others shown",
        .enabled(if: TestVolume.isMemory, "the in-memory pass of make test"))
    func memoryVolume() throws {
        let shell = TestShell()
        try shell.write("f", "x\n")
        let result = shell.run("df f nope")
        #expect(result.stderr == "df: nope: No such file or directory\ndf: f: Operation not supported\n")
        #expect(result.stdout == "")
        #expect(result.status == .failure)
    }

    @Test(
        "A file system that fails to answer is reported, and the status is 1",
        .needsLocalFileSystem("faults are injected into syscalls"))
    func failingStatfs() throws {
        let shell = TestShell()
        try shell.write("f", "x\n")
        let plan = FaultPlan { name, _ in name == .statfs ? .ioError : nil }
        let result = FaultPlan.$current.withValue(plan) { shell.run("df f") }
        #expect(result.stderr == "df: f: Input/output error\n")
        #expect(result.stdout == "")
        #expect(result.status == .failure)
    }

    @Test(
        "The share used rounds up, and is - for nothing",
        arguments: [(0, 0, "-"), (0, 5, "0%"), (1, 999, "1%"), (1, 1, "50%"), (2, 1, "67%"), (5, 0, "100%")])
    func percent(_ used: UInt64, _ available: UInt64, _ shown: String) {
        #expect(DfCommand.percent(used, of: used + available) == shown)
    }
}
