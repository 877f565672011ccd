import Glibc
import PathModel
import Testing

/// A private directory for one test, removed at the end.
private func withTemporaryDirectory(_ body: (File) throws -> Void) throws {
    var template = Array("/tmp/pathmodel-test-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    let directory = File(cString: try #require(made))
    defer {
        do { try directory.delete() } catch { Issue.record(error) }
    }
    try body(directory)
}

@Suite struct FileRenameTests {
    @Test func moveByRenamingReplacesOnlyWhenAsked() throws {
        try withTemporaryDirectory { directory in
            try (directory + "a").write(text: "a")
            try (directory + "b").write(text: "b")
            #expect(throws: FileError(.move, directory + "a", .fileExists, destination: directory + "b")) {
                try (directory + "a").moveByRenaming(to: directory + "b", replacing: false)
            }
            try (directory + "a").moveByRenaming(to: directory + "b", replacing: true)
            #expect(try (directory + "b").readText() == "a")
            #expect(!(directory + "a").exists)
        }
    }

    @Test func moveByRenamingNeverCopiesAcrossFileSystems() throws {
        let shm = File(path: "/dev/shm")
        guard shm.isDirectory, try shm.info().device != File(path: "/tmp").info().device else { return }
        try withTemporaryDirectory { directory in
            try (directory + "a").write(text: "a")
            let elsewhere = shm + "pathmodel-rename-\(getpid())"
            #expect(throws: FileError(.move, directory + "a", .improperLink, destination: elsewhere)) {
                try (directory + "a").moveByRenaming(to: elsewhere, replacing: true)
            }
            #expect((directory + "a").exists)
            #expect(!elsewhere.exists)
        }
    }

    @Test func checkWritableFailsForAMissingFile() throws {
        try withTemporaryDirectory { directory in
            try (directory + "a").write(text: "a")
            try (directory + "a").checkWritable()
            #expect(throws: FileError(.open, directory + "nope", .noSuchFileOrDirectory)) {
                try (directory + "nope").checkWritable()
            }
        }
    }
}

@Suite struct CopierReportingTests {
    @Test func mergedDirectoriesAreNotReportedAsCopied() throws {
        try withTemporaryDirectory { directory in
            try (directory + "src/sub").makeDirectory(intermediates: true)
            try (directory + "src/sub/f").write(text: "f")
            try (directory + "dst/sub").makeDirectory(intermediates: true)
            var copier = Copier(options: CopyOptions())
            var reported: [String] = []
            copier.copied = { _, destination in reported.append(destination.relative(to: directory)!.string) }
            let merged = copier.copy(directory + "src", to: directory + "dst")
            #expect(merged)
            #expect(reported == ["dst/sub/f"])
            let fresh = copier.copy(directory + "src", to: directory + "new")
            #expect(fresh)
            #expect(reported == ["dst/sub/f", "new", "new/sub", "new/sub/f"])
        }
    }
}
