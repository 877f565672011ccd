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

    @Test("copyAll copies everything from the offset on", arguments: [nil, Errno.noFunction])
    func copyAll(_ copyFileRangeFault: Errno?) throws {
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
            let plan = FaultPlan { name, _ in name == .copyFileRange ? copyFileRangeFault : nil }
            try injecting(plan) { try input.copyAll(to: output) }
            output.close()
            #expect(try (dir + "destination").readBytes() == Array(bytes.dropFirst(10)))
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
