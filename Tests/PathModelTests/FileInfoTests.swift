import Glibc
import SystemPackage
import Testing

@testable import PathModel

@Suite("File info and state")
struct FileInfoTests {
    @Test("A regular file: kind, size, permissions, one link")
    func regular() throws {
        try withScratch { dir in
            let file = dir + "a.txt"
            try file.write(text: "hello")
            try file.setPermissions(0o640)
            let info = try file.info()
            #expect(info.kind == .regular)
            #expect(info.size == 5)
            #expect(info.permissions == 0o640)
            #expect(info.mode == UInt32(S_IFREG) | 0o640)
            #expect(info.linkCount == 1)
            #expect(info.userID == getuid())
            #expect(info.inode == UInt64(rawLstat(file)!.st_ino))
        }
    }

    @Test("A directory")
    func directory() throws {
        try withScratch { dir in
            let sub = dir + "sub"
            try sub.makeDirectory(mode: 0o750)
            let info = try sub.info()
            #expect(info.kind == .directory)
            #expect(info.permissions == 0o750 & ~currentUmask())
            #expect(info.linkCount == 2)
        }
    }

    @Test("A symlink is described, not followed, unless asked")
    func symlink() throws {
        try withScratch { dir in
            try (dir + "target.txt").write(text: "0123456789")
            let link = dir + "link"
            try link.makeSymlink(to: "target.txt")
            let info = try link.info()
            #expect(info.kind == .symlink)
            #expect(info.size == UInt64("target.txt".utf8.count))
            #expect(try link.linkTarget() == File(path: "target.txt"))

            let followed = try link.info(followSymlinks: true)
            #expect(followed.kind == .regular)
            #expect(followed.size == 10)
        }
    }

    @Test("linkTarget() of a regular file is EINVAL")
    func linkTargetOfRegular() throws {
        try withScratch { dir in
            let file = dir + "plain"
            try file.write(text: "")
            let error = #expect(throws: FileError.self) { try file.linkTarget() }
            #expect(error?.operation == .readLink)
            #expect(error?.errno == .invalidArgument)
        }
    }

    @Test("A fifo made by mkfifo")
    func fifo() throws {
        try withScratch { dir in
            let pipe = dir + "pipe"
            try rawMakeFifo(pipe)
            #expect(try pipe.info().kind == .fifo)
            #expect(pipe.exists)
            #expect(!pipe.isFile)
            #expect(!pipe.isDirectory)
        }
    }

    @Test("Hard links share one identity and count two links")
    func hardLinks() throws {
        try withScratch { dir in
            let first = dir + "first"
            let second = dir + "second"
            let other = dir + "other"
            try first.write(text: "same")
            try other.write(text: "same")
            try second.makeHardLink(to: first)
            let a = try first.info()
            let b = try second.info()
            #expect(a.identity == b.identity)
            #expect(a.linkCount == 2)
            #expect(b.linkCount == 2)
            #expect(try other.info().identity != a.identity)
            // A symlink is its own inode, but leads to the same identity when followed.
            let link = dir + "link"
            try link.makeSymlink(to: first)
            #expect(try link.info().identity != a.identity)
            #expect(try link.info(followSymlinks: true).identity == a.identity)
        }
    }

    @Test("Times set by setTimes read back exactly")
    func times() throws {
        try withScratch { dir in
            let file = dir + "a"
            try file.write(text: "x")
            let access = Timestamp(seconds: 1_000_000_000, nanoseconds: 5)
            let modification = Timestamp(seconds: 1_234_567_890, nanoseconds: 123_456_789)
            try file.setTimes(access: access, modification: modification)
            let info = try file.info()
            #expect(info.accessTime == access)
            #expect(info.modificationTime == modification)
            #expect(info.changeTime > modification)
        }
    }

    @Test("setTimes on a symlink changes the link only when not following")
    func timesOfSymlink() throws {
        try withScratch { dir in
            let target = dir + "target"
            try target.write(text: "x")
            let link = dir + "link"
            try link.makeSymlink(to: target)
            let old = Timestamp(seconds: 1_000_000_000)
            try link.setTimes(access: old, modification: old, followSymlinks: false)
            #expect(try link.info().modificationTime == old)
            #expect(try target.info().modificationTime != old)
        }
    }

    @Test("Timestamps order by seconds, then nanoseconds")
    func timestampOrder() {
        #expect(Timestamp(seconds: 1, nanoseconds: 999_999_999) < Timestamp(seconds: 2))
        #expect(Timestamp(seconds: 2, nanoseconds: 1) > Timestamp(seconds: 2))
        #expect(Timestamp(seconds: -1) < Timestamp(seconds: 0))
    }

    @Test("info() of a missing path is a .stat ENOENT error naming the path")
    func missing() throws {
        try withScratch { dir in
            let missing = dir + "missing"
            let error = #expect(throws: FileError.self) { try missing.info() }
            #expect(error == FileError(.stat, missing, .noSuchFileOrDirectory))
        }
    }

    @Test("info() through a regular file is ENOTDIR")
    func throughFile() throws {
        try withScratch { dir in
            try (dir + "f").write(text: "")
            let error = #expect(throws: FileError.self) { try (dir + "f/x").info() }
            #expect(error?.errno == .notDirectory)
        }
    }

    struct State: Sendable, CustomTestStringConvertible {
        let name: String
        let exists: Bool
        let isFile: Bool
        let isDirectory: Bool
        let isSymlink: Bool
        let isEmptyDirectory: Bool
        var testDescription: String { name }
    }

    @Test(
        "exists, isFile, isDirectory, isSymlink, isEmptyDirectory",
        arguments: [
            State(
                name: "file", exists: true, isFile: true, isDirectory: false, isSymlink: false,
                isEmptyDirectory: false),
            State(
                name: "empty", exists: true, isFile: false, isDirectory: true, isSymlink: false,
                isEmptyDirectory: true),
            State(
                name: "full", exists: true, isFile: false, isDirectory: true, isSymlink: false,
                isEmptyDirectory: false),
            State(
                name: "link-to-file", exists: true, isFile: true, isDirectory: false, isSymlink: true,
                isEmptyDirectory: false),
            State(
                name: "link-to-empty", exists: true, isFile: false, isDirectory: true, isSymlink: true,
                isEmptyDirectory: true),
            State(
                name: "dangling", exists: true, isFile: false, isDirectory: false, isSymlink: true,
                isEmptyDirectory: false),
            State(
                name: "missing", exists: false, isFile: false, isDirectory: false, isSymlink: false,
                isEmptyDirectory: false),
        ])
    func state(_ row: State) throws {
        try withScratch { dir in
            try (dir + "file").write(text: "x")
            try (dir + "empty").makeDirectory()
            try (dir + "full").makeDirectory()
            try (dir + "full/.hidden").write(text: "")
            try (dir + "link-to-file").makeSymlink(to: "file")
            try (dir + "link-to-empty").makeSymlink(to: "empty")
            try (dir + "dangling").makeSymlink(to: "nowhere")
            let file = dir + row.name
            #expect(file.exists == row.exists)
            #expect(file.isFile == row.isFile)
            #expect(file.isDirectory == row.isDirectory)
            #expect(file.isSymlink == row.isSymlink)
            #expect(file.isEmptyDirectory == row.isEmptyDirectory)
        }
    }

    @Test("FileKind from mode bits")
    func kindFromMode() {
        #expect(FileKind(mode: UInt32(S_IFREG) | 0o644) == .regular)
        #expect(FileKind(mode: UInt32(S_IFDIR)) == .directory)
        #expect(FileKind(mode: UInt32(S_IFLNK)) == .symlink)
        #expect(FileKind(mode: UInt32(S_IFIFO)) == .fifo)
        #expect(FileKind(mode: UInt32(S_IFSOCK)) == .socket)
        #expect(FileKind(mode: UInt32(S_IFCHR)) == .characterDevice)
        #expect(FileKind(mode: UInt32(S_IFBLK)) == .blockDevice)
        #expect(FileKind(mode: 0) == .unknown)
    }

    @Test("A character device: /dev/null")
    func characterDevice() throws {
        let info = try File(path: "/dev/null").info()
        #expect(info.kind == .characterDevice)
        #expect(info.representedDevice == UInt64(rawLstat("/dev/null")!.st_rdev))
        #expect(info.representedDevice != 0)
    }

    @Test("owner and group names come from the databases")
    func ownerAndGroup() throws {
        try withScratch { dir in
            let info = try dir.info()
            let expected = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) }
            #expect(info.owner == expected)
            #expect(info.group != nil || getgrgid(getgid()) == nil)
        }
    }
}

@Suite("FileRecord")
struct FileRecordTests {
    @Test(
        "Timestamps in ISO 8601 UTC with nanoseconds",
        arguments: [
            (0, 0, "1970-01-01T00:00:00.000000000Z"),
            (1_700_000_000, 5, "2023-11-14T22:13:20.000000005Z"),
            (951_782_400, 999_999_999, "2000-02-29T00:00:00.999999999Z"),
            (-1, 0, "1969-12-31T23:59:59.000000000Z"),
            (-86_400 * 365, 0, "1969-01-01T00:00:00.000000000Z"),
            (253_402_300_799, 0, "9999-12-31T23:59:59.000000000Z"),
        ] as [(Int64, UInt32, String)])
    func iso8601(_ seconds: Int64, _ nanoseconds: UInt32, _ expected: String) {
        #expect(Timestamp(seconds: seconds, nanoseconds: nanoseconds).iso8601 == expected)
    }

    @Test(
        "Base64 of names that are not UTF-8",
        arguments: [
            ([], ""), ([0xFF], "/w=="), ([0xFF, 0xFE], "//4="), ([0x61, 0xFF, 0x62], "Yf9i"),
        ] as [([UInt8], String)])
    func base64(_ bytes: [UInt8], _ expected: String) {
        #expect(Base64.encode(bytes) == expected)
    }

    @Test(
        "A record leaves out what the volume does not keep: owner and group, the times",
        arguments: [
            ("all kept", [], true, true), ("no owners", [.owners], false, true),
            ("no times", [.times], true, false),
            ("only a prefix on object storage", [.owners, .linkCount, .times], false, false),
        ] as [(String, AbsentAttributes, Bool, Bool)])
    func absentAttributes(_ name: String, _ absent: AbsentAttributes, _ hasOwners: Bool, _ hasTimes: Bool) {
        let info = FileInfo(
            kind: .regular, permissions: 0o644, size: 3, identity: FileIdentity(device: 1, inode: 2),
            userID: 7, groupID: 8, modificationTime: Timestamp(seconds: 1_700_000_000), absent: absent)
        let record = FileRecord(
            path: Array("d/f".utf8), name: Array("f".utf8), info: info, owner: nil, group: "staff")
        #expect(record.owner == (hasOwners ? "7" : nil))
        #expect(record.group == (hasOwners ? "staff" : nil))
        #expect(record.modified == (hasTimes ? "2023-11-14T22:13:20.000000000Z" : nil))
        #expect(record.accessed == record.modified && record.changed == record.modified)
    }

    @Test("A record keeps the bytes of a name that is not UTF-8 and leaves base64 out otherwise")
    func textAndBytes() {
        #expect(FileRecord.text(Array("plain".utf8)) == ("plain", nil))
        let (text, base64) = FileRecord.text([0x61, 0xFF])
        #expect(text == "a\u{FFFD}" && base64 == "Yf8=")
    }
}
