import Glibc
import SystemPackage
import Testing

@testable import PathModel

/// A private directory (mode 0700, made by mkdtemp) for one test, removed afterwards.
private func withHandleScratch(_ body: (File) throws -> Void) throws {
    var template = Array("/tmp/pathmodel-handle.XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    try #require(made != nil)
    let root = File(cString: made!)
    defer {
        do { try root.delete() } catch { Issue.record("could not remove \(root.string): \(error)") }
    }
    try body(root)
}

@Suite struct DirectoryHandleTests {
    @Test func entriesAreSortedByBytesWithTheirKinds() throws {
        try withHandleScratch { root in
            try (root + "b").createFile()
            try (root + "B").makeDirectory()
            try root.appending(name: [0x61, 0xFF]).createFile()
            try (root + "a").makeSymlink(to: "b")
            let handle = try DirectoryHandle(root)
            let entries = try handle.entries(at: [])
            #expect(
                entries.map(\.name) == [Array("B".utf8), Array("a".utf8), [0x61, 0xFF], Array("b".utf8)])
            #expect(entries.map(\.kind) == [.directory, .symlink, .regular, .regular])
        }
    }

    @Test func relativePathsReachBelowTheHandle() throws {
        try withHandleScratch { root in
            try (root + "x/y").makeDirectory(intermediates: true)
            try (root + "x/y/z").write(text: "12345")
            let handle = try DirectoryHandle(root)
            #expect(try handle.entries(at: Array("x/y".utf8)).map(\.nameString) == ["z"])
            #expect(try handle.info(at: Array("x/y/z".utf8)).size == 5)
            let inner = try DirectoryHandle(Array("x".utf8), in: handle)
            #expect(inner.file == root + "x")
            #expect(try inner.info(at: Array("y".utf8)).kind == .directory)
            #expect(try inner.info(at: []).kind == .directory)
        }
    }

    @Test func symlinksAreDescribedUnlessFollowedAndTheirTargetsKeptAsWritten() throws {
        try withHandleScratch { root in
            try (root + "dir").makeDirectory()
            try root.appending(name: Array("link".utf8)).makeSymlink(to: File(bytes: Array("dir".utf8)))
            let handle = try DirectoryHandle(root)
            #expect(try handle.info(at: Array("link".utf8)).kind == .symlink)
            #expect(try handle.info(at: Array("link".utf8), followSymlinks: true).kind == .directory)
            #expect(try handle.linkTarget(at: Array("link".utf8)) == Array("dir".utf8))
            // File would fold `dir//` to `dir`; the raw target keeps it (made with libc here).
            let made = (root + "slashed").withCString { symlink("dir//", $0) }
            try #require(made == 0)
            #expect(try handle.linkTarget(at: Array("slashed".utf8)) == Array("dir//".utf8))
        }
    }

    @Test func errorsNameTheFullPath() throws {
        try withHandleScratch { root in
            let handle = try DirectoryHandle(root)
            #expect(throws: FileError(.list, root + "missing", .noSuchFileOrDirectory)) {
                try handle.entries(at: Array("missing".utf8))
            }
            #expect(throws: FileError(.stat, root + "missing", .noSuchFileOrDirectory)) {
                try handle.info(at: Array("missing".utf8))
            }
            #expect(throws: FileError(.list, root + "missing", .noSuchFileOrDirectory)) {
                try DirectoryHandle(Array("missing".utf8), in: handle)
            }
            try (root + "file").createFile()
            #expect(throws: FileError(.list, root + "file", .notDirectory)) {
                try DirectoryHandle(root + "file")
            }
            #expect(throws: FileError(.readLink, root + "file", .invalidArgument)) {
                try handle.linkTarget(at: Array("file".utf8))
            }
        }
    }

    @Test func handlesReachPastPathMax() throws {
        try withHandleScratch { root in
            // Two chains of 12 names of 200 bytes: together 4800 bytes, more than PATH_MAX.
            let name = String(repeating: "d", count: 200)
            let half = Array(repeating: name, count: 12).joined(separator: "/")
            try (root + "top" + half).makeDirectory(intermediates: true)
            try (root + "bottom" + half).makeDirectory(intermediates: true)
            try (root + "bottom" + half + "leaf").createFile()
            try (root + "bottom").move(to: root + "top" + half + "bottom")
            let top = try DirectoryHandle(root + "top")
            let middle = try DirectoryHandle(Array(half.utf8), in: top)
            #expect(middle.file.byteCount > 2400)
            let names = try middle.entries(at: Array(("bottom/" + half).utf8)).map(\.nameString)
            #expect(names == ["leaf"])
            #expect(try middle.info(at: Array(("bottom/" + half + "/leaf").utf8)).kind == .regular)
        }
    }
}
