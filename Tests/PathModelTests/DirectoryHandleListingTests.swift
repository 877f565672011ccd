import PathModel
import Testing

/// Streaming listings and per-entry examination through a `DirectoryHandle`, as `ls` uses them.
@Suite struct DirectoryHandleListingTests {
    /// A private temporary directory (mode 0700).
    private func makeDirectory() throws -> File {
        let directory = File.temporary + "pathmodel-handle-\(UInt64.random(in: .min ... .max))"
        try directory.makeDirectory(mode: 0o700)
        return directory
    }

    private func remove(_ directory: File) {
        do { try directory.delete() } catch { Issue.record("could not remove \(directory.string): \(error)") }
    }

    @Test func examinesEntriesByName() throws {
        let directory = try makeDirectory()
        defer { remove(directory) }
        try (directory + "file").write(text: "hello")
        try (directory + "link").makeSymlink(to: "file")
        try (directory + "sub").makeDirectory()
        let handle = try DirectoryHandle(directory)
        var names: [[UInt8]] = []
        try handle.forEachEntry(at: []) { names.append($0.name) }
        #expect(
            names.sorted { bytesPrecede($0, $1) } == [
                Array("file".utf8), Array("link".utf8), Array("sub".utf8),
            ])
        let file = try handle.info(at: Array("file".utf8))
        #expect(file.kind == .regular)
        #expect(file.size == 5)
        let link = try handle.info(at: Array("link".utf8))
        #expect(link.kind == .symlink)
        #expect(try handle.linkTarget(at: Array("link".utf8)) == Array("file".utf8))
        #expect(try handle.info(at: Array("link".utf8), followSymlinks: true).kind == .regular)
        #expect(try handle.info(at: Array("..".utf8)).kind == .directory)
        #expect(try handle.info(at: []).kind == .directory)
    }

    @Test func reportsTheEntrysFullPath() throws {
        let directory = try makeDirectory()
        defer { remove(directory) }
        let handle = try DirectoryHandle(directory)
        #expect(throws: FileError(.stat, directory + "missing", .noSuchFileOrDirectory)) {
            try handle.info(at: Array("missing".utf8))
        }
        #expect(throws: FileError(.list, directory + "missing", .noSuchFileOrDirectory)) {
            try handle.forEachEntry(at: Array("missing".utf8)) { _ in }
        }
    }

    @Test func failsOnWhatIsNotADirectory() throws {
        let directory = try makeDirectory()
        defer { remove(directory) }
        try (directory + "file").write(text: "")
        #expect(throws: FileError(.list, directory + "file", .notDirectory)) {
            try DirectoryHandle(directory + "file")
        }
        #expect(throws: FileError(.list, directory + "none", .noSuchFileOrDirectory)) {
            try DirectoryHandle(directory + "none")
        }
    }
}
