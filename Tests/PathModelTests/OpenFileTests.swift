import Glibc
import Synchronization
import SystemPackage
import Testing

@_spi(FaultInjection) @testable import PathModel

@Suite("OpenFile")
struct OpenFileTests {
    @Test("open(.truncate), write, then open(.read) and read it back")
    func writeThenRead() throws {
        try withScratch { dir in
            let file = dir + "a"
            let output = try file.open(.truncate)
            try output.write(Array("hello, world".utf8)[...])
            output.close()
            let input = try file.open(.read)
            defer { input.close() }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = try input.read(into: &buffer)
            #expect(Array(buffer[..<count]) == Array("hello, world".utf8))
            #expect(try input.read(into: &buffer) == 0)
            #expect(try input.info().size == 12)
            #expect(!input.isTerminal)
        }
    }

    @Test("open(.append) adds to the end; open(.truncate) cuts")
    func appendAndTruncate() throws {
        try withScratch { dir in
            let file = dir + "a"
            try file.write(text: "one ")
            let appending = try file.open(.append)
            try appending.write(Array("two".utf8)[...])
            appending.close()
            #expect(try file.readText() == "one two")
            try file.open(.truncate).close()
            #expect(try file.readBytes() == [])
        }
    }

    @Test("open(.read) of a missing file is .open ENOENT")
    func openMissing() throws {
        try withScratch { dir in
            let missing = dir + "missing"
            #expect(throws: FileError(.open, missing, .noSuchFileOrDirectory)) { try missing.open(.read) }
        }
    }

    @Test(
        "copyAll copies everything from the offset on, by whichever way the kernel allows",
        arguments: [
            ("copy_file_range", nil, nil, SyscallName.copyFileRange),
            ("sendfile when copy_file_range refuses", Errno.invalidArgument, nil, SyscallName.sendfile),
            ("read and write when both refuse", Errno.noFunction, Errno.invalidArgument, SyscallName.read),
        ] as [(String, Errno?, Errno?, SyscallName)])
    func copyAll(_ way: String, copyFileRangeFault: Errno?, sendfileFault: Errno?, finalCall: SyscallName) throws {
        try withScratch { dir in
            var random = PseudoRandomBytes(seed: 3)
            let bytes = random.bytes(400_000)
            let source = dir + "source"
            try source.write(bytes: bytes)
            let input = try source.open(.read)
            defer { input.close() }
            var skip = [UInt8](repeating: 0, count: 10)
            #expect(try input.read(into: &skip) == 10)
            let output = try (dir + "destination").open(.truncate)
            let log = CallLog()
            let plan = FaultPlan { name, _ in
                log.record(name)
                switch name {
                case .copyFileRange: return copyFileRangeFault
                case .sendfile: return sendfileFault
                default: return nil
                }
            }
            try injecting(plan) { try input.copyAll(to: output) }
            output.close()
            #expect(try (dir + "destination").readBytes() == Array(bytes.dropFirst(10)))
            #expect(log.names.last(where: { $0 != .write }) == finalCall, "\(way)")
        }
    }

    @Test("copyAll into a pipe and into /dev/null goes through sendfile")
    func copyAllToPipeAndDevice() throws {
        try withScratch { dir in
            var random = PseudoRandomBytes(seed: 4)
            let bytes = random.bytes(300_000)
            let source = dir + "source"
            try source.write(bytes: bytes)
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            defer { Glibc.close(ends[0]) }
            let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, which Glibc's Swift module does not export
            #expect(fcntl(ends[1], setPipeSize, 1 << 20) >= 300_000, "the pipe holds the whole copy")
            let input = try source.open(.read)
            defer { input.close() }
            let log = CallLog()
            let plan = FaultPlan { name, _ in
                log.record(name)
                return nil
            }
            try injecting(plan) { try input.copyAll(to: OpenFile(descriptor: ends[1], file: File(path: "pipe"))) }
            Glibc.close(ends[1])
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while case let count = Glibc.read(ends[0], &buffer, buffer.count), count > 0 {
                received += buffer[..<count]
            }
            #expect(received == bytes)
            #expect(log.names.contains(.sendfile) && !log.names.contains(.read))

            let null = try File(path: "/dev/null").open(.truncate)
            defer { null.close() }
            let again = try source.open(.read)
            defer { again.close() }
            try again.copyAll(to: null)
            #expect(try again.read(into: &buffer) == 0, "everything was consumed")
        }
    }

    @Test("openReplacement: commit replaces atomically, discard leaves the old file")
    func replacement() throws {
        try withScratch { dir in
            let file = dir + "a"
            try file.write(text: "old")
            try file.setPermissions(0o640)

            let discarded = try file.openReplacement()
            try discarded.output.write(Array("never".utf8)[...])
            discarded.discard()
            #expect(try file.readText() == "old")
            #expect(leftoverTemporaries(in: dir).isEmpty)

            let replacement = try file.openReplacement()
            try replacement.output.write(Array("new".utf8)[...])
            #expect(try file.readText() == "old")
            try replacement.commit()
            #expect(try file.readText() == "new")
            #expect(try file.info().permissions == 0o640)
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }
}

/// The system calls a fault plan saw, in order.
final class CallLog: Sendable {
    private let calls = Mutex<[SyscallName]>([])

    func record(_ name: SyscallName) { calls.withLock { $0.append(name) } }

    var names: [SyscallName] { calls.withLock { $0 } }
}
