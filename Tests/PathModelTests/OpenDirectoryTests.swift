import PathModel
import Testing

@Suite struct OpenDirectoryTests {
    /// A private temporary directory (mode 0700).
    private func makeDirectory() throws -> File {
        let directory = File.temporary + "pathmodel-opendir-\(UInt64.random(in: .min ... .max))"
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
        let opened = try directory.openDirectory()
        var names: [[UInt8]] = []
        try opened.forEachEntry { names.append($0.name) }
        #expect(
            names.sorted { bytesPrecede($0, $1) } == [
                Array("file".utf8), Array("link".utf8), Array("sub".utf8),
            ])
        let file = try opened.info(ofEntry: Array("file".utf8))
        #expect(file.kind == .regular)
        #expect(file.size == 5)
        let link = try opened.info(ofEntry: Array("link".utf8))
        #expect(link.kind == .symlink)
        #expect(link.linkTarget == File(path: "file"))
        #expect(try opened.info(ofEntry: Array("link".utf8), followSymlinks: true).kind == .regular)
        #expect(try opened.info(ofEntry: Array("..".utf8)).kind == .directory)
        #expect(try opened.info().kind == .directory)
        opened.close()
    }

    @Test func reportsTheEntrysFullPath() throws {
        let directory = try makeDirectory()
        defer { remove(directory) }
        let opened = try directory.openDirectory()
        #expect(throws: FileError(.stat, directory + "missing", .noSuchFileOrDirectory)) {
            try opened.info(ofEntry: Array("missing".utf8))
        }
        opened.close()
        #expect(throws: FileError(.stat, directory + "x", .badFileDescriptor)) {
            try opened.info(ofEntry: Array("x".utf8))
        }
    }

    @Test func failsOnWhatIsNotADirectory() throws {
        let directory = try makeDirectory()
        defer { remove(directory) }
        try (directory + "file").write(text: "")
        #expect(throws: FileError(.list, directory + "file", .notDirectory)) {
            try (directory + "file").openDirectory()
        }
        #expect(throws: FileError(.list, directory + "none", .noSuchFileOrDirectory)) {
            try (directory + "none").openDirectory()
        }
    }
}
