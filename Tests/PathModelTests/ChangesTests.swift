import Glibc
import SystemPackage
import Testing

@_spi(FaultInjection) @testable import PathModel

@Suite("Changes")
struct ChangesTests {
    // MARK: makeDirectory

    @Test("makeDirectory creates one directory with the mode less the umask")
    func makeDirectory() throws {
        try withScratch { dir in
            let sub = dir + "sub"
            let created = try sub.makeDirectory(mode: 0o777)
            #expect(created == [sub])
            let info = try sub.info()
            #expect(info.kind == .directory)
            #expect(info.permissions == 0o777 & ~currentUmask())
        }
    }

    @Test("makeDirectory without intermediates fails EEXIST on an existing one, ENOENT on a missing parent")
    func makeDirectoryErrors() throws {
        try withScratch { dir in
            let sub = dir + "sub"
            try sub.makeDirectory()
            let exists = #expect(throws: FileError.self) { try sub.makeDirectory() }
            #expect(exists == FileError(.makeDirectory, sub, .fileExists))
            let orphan = dir + "missing/child"
            let missing = #expect(throws: FileError.self) { try orphan.makeDirectory() }
            #expect(missing == FileError(.makeDirectory, orphan, .noSuchFileOrDirectory))
        }
    }

    @Test("makeDirectory(intermediates:) returns what it created, outermost first")
    func makeDirectoryIntermediates() throws {
        try withScratch { dir in
            try (dir + "a").makeDirectory()
            let deep = dir + "a/b/c/d"
            #expect(try deep.makeDirectory(intermediates: true) == [dir + "a/b", dir + "a/b/c", deep])
            #expect(deep.isDirectory)
            // Already there: nothing to create, and no error (mkdir -p).
            #expect(try deep.makeDirectory(intermediates: true) == [])
            // Through a symlink to a directory.
            try (dir + "alias").makeSymlink(to: "a")
            #expect(try (dir + "alias/x").makeDirectory(intermediates: true) == [dir + "alias/x"])
            #expect((dir + "a/x").isDirectory)
        }
    }

    @Test("makeDirectory(intermediates:) on a relative path with .. stops climbing at ..")
    func makeDirectoryRelative() throws {
        try withScratch { dir in
            try (dir + "a").makeDirectory()
            let target = dir + "a/../b/c"
            #expect(try target.makeDirectory(intermediates: true) == [dir + "a/../b", target])
            #expect((dir + "b/c").isDirectory)
        }
    }

    @Test(
        "makeDirectory(intermediates:) makes what comes before a . or .. too, as mkdir -p does",
        arguments: [
            ("x/../y", ["x", "y"], ["x", "x/../y"]), ("x/./y", ["x", "x/y"], ["x", "x/./y"]),
            ("x/y/../../z/..", ["x", "x/y", "z"], ["x", "x/y", "x/y/../../z"]), ("x/../../up", ["x", "../up"], ["x", "x/../../up"]),
            ("a/../b", ["a", "b"], ["a/../b"]),
        ])
    func makeDirectoryThroughDots(_ relative: String, _ directories: [String], _ created: [String]) throws {
        try withScratch { scratch in
            let dir = scratch + "in"
            try dir.makeDirectory()
            if relative.hasPrefix("a/") { try (dir + "a").makeDirectory() }
            #expect(try (dir + relative).makeDirectory(intermediates: true) == created.map { dir + $0 })
            for directory in directories { #expect((dir + directory).isDirectory, "\(directory)") }
        }
    }

    @Test(
        "A file in the way of makeDirectory(intermediates:)",
        arguments: [
            ("file", Errno.fileExists),  // mkdir -p on an existing file: File exists
            ("file/sub", Errno.notDirectory),  // a file as a parent: Not a directory
            ("file/sub/deeper", Errno.notDirectory),
        ])
    func fileInTheWay(_ relative: String, _ errno: Errno) throws {
        try withScratch { dir in
            try (dir + "file").write(text: "keep")
            let target = dir + relative
            let error = #expect(throws: FileError.self) { try target.makeDirectory(intermediates: true) }
            #expect(error?.operation == .makeDirectory)
            #expect(error?.errno == errno)
            // The file in the way is named, or the target when it is that file.
            #expect(error?.path == (errno == .fileExists ? target : dir + "file"))
            #expect(try (dir + "file").readText() == "keep")
        }
    }

    @Test("makeDirectory(intermediates:) on a dangling symlink is EEXIST, as mkdir -p says")
    func makeDirectoryOnDanglingSymlink() throws {
        try withScratch { dir in
            let link = dir + "dangling"
            try link.makeSymlink(to: "nowhere")
            let error = #expect(throws: FileError.self) { try link.makeDirectory(intermediates: true) }
            #expect(error == FileError(.makeDirectory, link, .fileExists))
            #expect(!(dir + "nowhere").exists)
        }
    }

    // MARK: createFile

    @Test("createFile makes an empty file; exclusive refuses an existing one")
    func createFile() throws {
        try withScratch { dir in
            let file = dir + "new"
            try file.createFile(exclusive: true, mode: 0o600)
            #expect(try file.info().size == 0)
            #expect(try file.info().permissions == 0o600)
            let error = #expect(throws: FileError.self) { try file.createFile(exclusive: true) }
            #expect(error == FileError(.createFile, file, .fileExists))
            // Not exclusive: an existing file is left as it is (touch without times).
            try file.write(text: "content")
            try file.createFile()
            #expect(try file.readText() == "content")
        }
    }

    @Test("createFile on a directory is EISDIR")
    func createFileOnDirectory() throws {
        try withScratch { dir in
            let error = #expect(throws: FileError.self) { try dir.createFile() }
            #expect(error == FileError(.createFile, dir, .isDirectory))
        }
    }

    // MARK: write and read

    @Test(
        "write(text:) then readText() round trips",
        arguments: [
            "", "hello", "line 1\nline 2\n", "日本語 café e\u{301}", String(repeating: "x", count: 200_000),
        ])
    func textRoundTrip(_ text: String) throws {
        try withScratch { dir in
            let file = dir + "t.txt"
            try file.write(text: text)
            #expect(try file.readText() == text)
            #expect(try file.readBytes() == Array(text.utf8))
            #expect(try file.info().size == UInt64(text.utf8.count))
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("write(bytes:) keeps every byte value", arguments: [true, false])
    func bytesRoundTrip(_ atomically: Bool) throws {
        try withScratch { dir in
            let file = dir + "bytes"
            let bytes = (0...255).map { UInt8($0) } + [0, 0, 0xFF]
            try file.write(bytes: bytes, atomically: atomically)
            #expect(try file.readBytes() == bytes)
        }
    }

    @Test("An empty file round trips")
    func emptyFile() throws {
        try withScratch { dir in
            let file = dir + "empty"
            try file.write(bytes: [])
            #expect(file.isFile)
            #expect(try file.readBytes() == [])
            #expect(try file.readText() == "")
            #expect(try file.info().size == 0)
        }
    }

    @Test("A new file gets 0666 less the umask; rewriting keeps an existing file's mode")
    func writeModes() throws {
        try withScratch { dir in
            let file = dir + "a"
            try file.write(text: "one")
            #expect(try file.info().permissions == 0o666 & ~currentUmask())
            try file.setPermissions(0o640)
            try file.write(text: "two")
            #expect(try file.info().permissions == 0o640)
            try file.write(text: "three", atomically: false)
            #expect(try file.info().permissions == 0o640)
            #expect(try file.readText() == "three")
        }
    }

    @Test("An atomic write replaces the inode; an in-place write keeps it")
    func atomicReplacesInode() throws {
        try withScratch { dir in
            let file = dir + "a"
            try file.write(text: "first")
            let before = try file.info().inode
            try file.write(text: "second, longer")
            let afterAtomic = try file.info().inode
            #expect(afterAtomic != before)
            try file.write(text: "3rd", atomically: false)
            #expect(try file.info().inode == afterAtomic)
            #expect(try file.readText() == "3rd")
        }
    }

    @Test("append adds to the end, creating the file when missing")
    func append() throws {
        try withScratch { dir in
            let file = dir + "log"
            try file.append(text: "one\n")
            try file.append(text: "two\n")
            try file.append(bytes: [0x33, 0x0A])
            #expect(try file.readText() == "one\ntwo\n3\n")
        }
    }

    @Test(
        "A failed atomic write keeps the old content and leaves no temporary file",
        arguments: [Errno.ioError, Errno.noSpace])
    func failedAtomicWrite(_ errno: Errno) throws {
        try withScratch { dir in
            let file = dir + "precious.txt"
            try file.write(text: "old content")
            try file.setPermissions(0o600)
            let error = #expect(throws: FileError.self) {
                try injecting(failing(.write, with: errno)) { try file.write(text: "new content that fails") }
            }
            #expect(error == FileError(.write, file, errno))
            #expect(try file.readText() == "old content")
            #expect(try file.info().permissions == 0o600)
            #expect(leftoverTemporaries(in: dir).isEmpty)
            #expect(rawNames(dir) == [Array("precious.txt".utf8)])
        }
    }

    @Test("A failed fsync or rename also keeps the old content", arguments: [SyscallName.fsync, .rename])
    func failedAtomicCommit(_ call: SyscallName) throws {
        try withScratch { dir in
            let file = dir + "precious.txt"
            try file.write(text: "old")
            let error = #expect(throws: FileError.self) {
                try injecting(failing(call, with: .ioError)) { try file.write(text: "new") }
            }
            #expect(error?.operation == .write)
            #expect(error?.errno == .ioError)
            #expect(try file.readText() == "old")
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("A failed first write to a new file leaves nothing behind")
    func failedNewFile() throws {
        try withScratch { dir in
            let file = dir + "new.txt"
            #expect(throws: FileError.self) {
                try injecting(failing(.write, with: .noSpace)) { try file.write(text: "x") }
            }
            #expect(rawNames(dir).isEmpty)
        }
    }

    @Test("write into a missing directory fails with ENOENT")
    func writeIntoMissingDirectory() throws {
        try withScratch { dir in
            let file = dir + "missing/a.txt"
            let error = #expect(throws: FileError.self) { try file.write(text: "x") }
            #expect(error?.errno == .noSuchFileOrDirectory)
            #expect(error?.path == file)
        }
    }

    @Test("Writing through a symlink keeps the link and changes the target", arguments: [true, false])
    func writeThroughSymlink(_ atomically: Bool) throws {
        try withScratch { dir in
            try (dir + "real").makeDirectory()
            let target = dir + "real/target.txt"
            try target.write(text: "old")
            let link = dir + "link"
            try link.makeSymlink(to: "real/target.txt")
            let chain = dir + "chain"
            try chain.makeSymlink(to: "link")
            try chain.write(text: "new", atomically: atomically)
            #expect(link.isSymlink)
            #expect(chain.isSymlink)
            #expect(try link.linkTarget() == File(path: "real/target.txt"))
            #expect(try target.readText() == "new")
            #expect(try chain.readText() == "new")
            #expect(leftoverTemporaries(in: dir + "real").isEmpty)
        }
    }

    @Test("Writing through a dangling symlink creates its target")
    func writeThroughDanglingSymlink() throws {
        try withScratch { dir in
            let link = dir + "link"
            try link.makeSymlink(to: "created.txt")
            try link.write(text: "made")
            #expect(link.isSymlink)
            #expect(try (dir + "created.txt").readText() == "made")
        }
    }

    @Test("readText() on bytes that are not UTF-8 throws EILSEQ")
    func invalidUTF8() throws {
        try withScratch { dir in
            let file = dir + "latin1.txt"
            try file.write(bytes: [0x63, 0x61, 0x66, 0xE9])
            let error = #expect(throws: FileError.self) { try file.readText() }
            #expect(error == FileError(.read, file, .illegalByteSequence))
            #expect(try file.readBytes() == [0x63, 0x61, 0x66, 0xE9])
        }
    }

    @Test("readBytes() errors: missing is .open ENOENT, a directory is .read EISDIR, a failed read is .read")
    func readErrors() throws {
        try withScratch { dir in
            let missing = dir + "missing"
            #expect(throws: FileError(.open, missing, .noSuchFileOrDirectory)) { try missing.readBytes() }
            #expect(throws: FileError(.read, dir, .isDirectory)) { try dir.readBytes() }
            let file = dir + "f"
            try file.write(text: "abc")
            #expect(throws: FileError(.read, file, .ioError)) {
                try injecting(failing(.read, with: .ioError)) { try file.readBytes() }
            }
        }
    }

    @Test("readBytes() reads files larger than one chunk")
    func largeRead() throws {
        try withScratch { dir in
            var random = PseudoRandomBytes(seed: 7)
            let bytes = random.bytes(3 * 65536 + 17)
            let file = dir + "large"
            try file.write(bytes: bytes)
            #expect(try file.readBytes() == bytes)
        }
    }

    // MARK: links and attributes

    @Test("makeSymlink refuses an existing name with EEXIST")
    func symlinkExists() throws {
        try withScratch { dir in
            let link = dir + "link"
            try link.makeSymlink(to: "a")
            let error = #expect(throws: FileError.self) { try link.makeSymlink(to: "b") }
            #expect(error == FileError(.makeLink, link, .fileExists, destination: "b"))
            #expect(try link.linkTarget() == File(path: "a"))
        }
    }

    @Test("setPermissions sets all twelve bits")
    func permissions() throws {
        try withScratch { dir in
            let file = dir + "f"
            try file.write(text: "")
            for mode: UInt32 in [0o000, 0o644, 0o4755, 0o1777] {
                try file.setPermissions(mode)
                #expect(try file.info().permissions == mode)
            }
            let missing = dir + "missing"
            #expect(throws: FileError(.setAttributes, missing, .noSuchFileOrDirectory)) {
                try missing.setPermissions(0o644)
            }
        }
    }

    // MARK: rename

    @Test("rename(to:) renames within the directory and returns the new path")
    func rename() throws {
        try withScratch { dir in
            let file = dir + "old.txt"
            try file.write(text: "content")
            let renamed = try file.rename(to: "new name.txt")
            #expect(renamed == dir + "new name.txt")
            #expect(!file.exists)
            #expect(try renamed.readText() == "content")
        }
    }

    @Test(
        "rename(to:) refuses names that are not one component",
        arguments: ["a/b", "", ".", "..", "/abs"])
    func renameRefusesPaths(_ name: String) throws {
        try withScratch { dir in
            let file = dir + "old.txt"
            try file.write(text: "content")
            let error = #expect(throws: FileError.self) { try file.rename(to: name) }
            #expect(error?.operation == .rename)
            #expect(error?.errno == .invalidArgument)
            #expect(try file.readText() == "content")
        }
    }

    @Test("rename(to:) refuses an existing name with EEXIST and keeps both files")
    func renameRefusesExisting() throws {
        try withScratch { dir in
            let file = dir + "a"
            let other = dir + "b"
            try file.write(text: "A")
            try other.write(text: "B")
            let error = #expect(throws: FileError.self) { try file.rename(to: "b") }
            #expect(error == FileError(.rename, file, .fileExists, destination: other))
            #expect(try file.readText() == "A")
            #expect(try other.readText() == "B")
        }
    }

    @Test("rename(to:) of a directory")
    func renameDirectory() throws {
        try withScratch { dir in
            let sub = dir + "sub"
            try (sub + "x").makeDirectory(intermediates: true)
            let renamed = try sub.rename(to: "renamed")
            #expect((renamed + "x").isDirectory)
            #expect(!sub.exists)
        }
    }
}
