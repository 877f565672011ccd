// The same operations on every volume give the same results and the same errno: the local file
// system (a scratch directory), a sandbox over one, the in-memory volume, and object storage (a
// real SeaweedFS). A new volume joins by adding a case to `VolumeKind`.

import Glibc
import ObjectVolume
import SeaweedFixture
import SystemPackage
import Testing

@testable import PathModel

/// The volumes every row runs on.
enum VolumeKind: String, CaseIterable, CustomTestStringConvertible {
    case local, sandbox, memory, s3

    var testDescription: String { rawValue }

    /// The volumes with symlinks and hard links, for rows that make them.
    static let linking: [VolumeKind] = [.local, .sandbox, .memory]

    /// Whether this kind of volume has symlinks, hard links, permission bits and times that can be
    /// set, and renames that keep an entry's identity.
    var isPOSIX: Bool { self != .s3 }

    /// Runs `body` with an empty directory on this kind of volume, then removes what it made.
    func withTop(_ body: (File) throws -> Void) throws {
        switch self {
        case .local: try withScratch { try body($0) }
        case .sandbox: try withScratch { try body(try Sandbox($0).root) }
        case .memory: try body(MemoryVolume().root)
        case .s3: try SeaweedServer.withVolume { try body($0.root) }
        }
    }
}

@Suite struct VolumeConformanceTests {
    /// A mistake, made on a fixture of a directory `d` holding `d/f` ("x") and a file `f`
    /// ("hello"), and the errno a POSIX file system answers.
    struct Mistake: Sendable, CustomTestStringConvertible {
        let name: String
        let expected: Errno
        let operation: FileError.Operation
        let attempt: @Sendable (File) throws -> Void
        var testDescription: String { name }
        /// Whether the row makes a symlink or a hard link.
        var makesLinks: Bool { name.contains("link") && name != "reading a link that is not one" }
    }

    /// Each volume with each mistake it can make.
    static let volumeMistakes: [(VolumeKind, Mistake)] = VolumeKind.allCases.flatMap { kind in
        mistakes.filter { kind.isPOSIX || !$0.makesLinks }.map { (kind, $0) }
    }

    static let mistakes: [Mistake] = [
        Mistake(name: "mkdir over a file", expected: .fileExists, operation: .makeDirectory) { try ($0 + "f").makeDirectory() },
        Mistake(name: "mkdir below a file", expected: .notDirectory, operation: .makeDirectory) { try ($0 + "f/x").makeDirectory() },
        Mistake(name: "mkdir in a missing directory", expected: .noSuchFileOrDirectory, operation: .makeDirectory) {
            try ($0 + "m/x").makeDirectory()
        },
        Mistake(name: "rmdir of a full directory", expected: .directoryNotEmpty, operation: .removeDirectory) {
            try ($0 + "d").removeEmptyDirectory()
        },
        Mistake(name: "rmdir of a file", expected: .notDirectory, operation: .removeDirectory) { try ($0 + "f").removeEmptyDirectory() },
        Mistake(name: "unlink of a directory", expected: .isDirectory, operation: .remove) { try ($0 + "d").removeFile() },
        Mistake(name: "unlink of nothing", expected: .noSuchFileOrDirectory, operation: .remove) { try ($0 + "m").removeFile() },
        Mistake(name: "open of nothing", expected: .noSuchFileOrDirectory, operation: .open) { try ($0 + "m").open(.read).close() },
        Mistake(name: "open below a file", expected: .notDirectory, operation: .open) { try ($0 + "f/x").open(.read).close() },
        Mistake(name: "writing into a directory", expected: .isDirectory, operation: .open) { try ($0 + "d").open(.truncate).close() },
        Mistake(name: "reading a directory", expected: .isDirectory, operation: .read) { _ = try ($0 + "d").readBytes() },
        Mistake(name: "modifying nothing", expected: .noSuchFileOrDirectory, operation: .open) {
            try ($0 + "m").open(.modify).close()
        },
        Mistake(name: "modifying a directory", expected: .isDirectory, operation: .open) { try ($0 + "d").open(.modify).close() },
        Mistake(name: "creating what is there", expected: .fileExists, operation: .createFile) {
            try ($0 + "f").createFile(exclusive: true)
        },
        Mistake(name: "a directory moved into itself", expected: .invalidArgument, operation: .move) {
            try ($0 + "d").moveByRenaming(to: $0 + "d/in", replacing: false)
        },
        Mistake(name: "a file moved over a directory", expected: .isDirectory, operation: .move) {
            try ($0 + "f").moveByRenaming(to: $0 + "d", replacing: true)
        },
        Mistake(name: "a directory moved over a file", expected: .notDirectory, operation: .move) {
            try ($0 + "d").moveByRenaming(to: $0 + "f", replacing: true)
        },
        Mistake(name: "a directory moved over a full one", expected: .directoryNotEmpty, operation: .move) {
            try ($0 + "e").makeDirectory()
            try ($0 + "e").moveByRenaming(to: $0 + "d", replacing: true)
        },
        Mistake(name: "a move that may not replace", expected: .fileExists, operation: .move) {
            try ($0 + "d/f").moveByRenaming(to: $0 + "f", replacing: false)
        },
        Mistake(name: "a symlink over a file", expected: .fileExists, operation: .makeLink) { try ($0 + "f").makeSymlink(to: "x") },
        Mistake(name: "a hard link to a directory", expected: .notPermitted, operation: .makeLink) {
            try ($0 + "h").makeHardLink(to: $0 + "d")
        },
        Mistake(name: "a symlink loop", expected: .tooManySymbolicLinkLevels, operation: .stat) {
            try ($0 + "loop").makeSymlink(to: "loop")
            _ = try ($0 + "loop").info(followSymlinks: true)
        },
        Mistake(name: "a dangling symlink followed", expected: .noSuchFileOrDirectory, operation: .stat) {
            try ($0 + "dangling").makeSymlink(to: "nowhere")
            _ = try ($0 + "dangling").info(followSymlinks: true)
        },
        Mistake(name: "listing a file", expected: .notDirectory, operation: .list) { _ = try ($0 + "f").entries() },
        Mistake(name: "reading a link that is not one", expected: .invalidArgument, operation: .readLink) {
            _ = try ($0 + "f").linkTarget()
        },
    ]

    /// The fixture every row starts from.
    static func makeFixture(in top: File) throws {
        try (top + "d").makeDirectory()
        try (top + "d/f").write(text: "x")
        try (top + "f").write(text: "hello")
    }

    @Test("Every volume refuses a mistake with the errno POSIX gives", arguments: volumeMistakes)
    func refusesMistake(_ kind: VolumeKind, _ mistake: Mistake) throws {
        try kind.withTop { top in
            try Self.makeFixture(in: top)
            var caught: FileError?
            do { try mistake.attempt(top) } catch { caught = error as? FileError }
            #expect(caught?.errno == mistake.expected)
            #expect(caught?.operation == mistake.operation)
            // Nothing was lost: the fixture is whole.
            #expect(try (top + "f").readText() == "hello")
            #expect(try (top + "d/f").readText() == "x")
        }
    }

    @Test("Files written, appended, read, renamed, linked and listed alike", arguments: VolumeKind.allCases)
    func roundTrip(_ kind: VolumeKind) throws {
        try kind.withTop { top in
            let notes = top + "a/b/notes.txt"
            let created = try notes.parent.makeDirectory(intermediates: true)
            #expect(created.map(\.name) == ["a", "b"])
            try notes.write(text: "one\n")
            try notes.append(text: "two\n")
            #expect(try notes.readText() == "one\ntwo\n")
            #expect(try notes.info().size == 8)
            #expect(try notes.info().kind == .regular)
            try notes.write(text: "new\n")
            #expect(try notes.readText() == "new\n")
            // Listing is by bytes, hidden names included, and nothing is left from atomic writes.
            try (top + "a/b/.hidden").createFile()
            try (top + "a/b/Zed").makeDirectory()
            #expect(try (top + "a/b").entries().map(\.nameString) == [".hidden", "Zed", "notes.txt"])
            #expect(try (top + "a/b").entries().map(\.kind) == [.regular, .directory, .regular])
            if !kind.isPOSIX {
                // No links, no attributes to set; a rename moves the contents to the new name.
                try notes.moveByRenaming(to: top + "moved", replacing: false)
                #expect(!notes.exists)
                #expect(try (top + "moved").readText() == "new\n")
                try (top + "other").write(text: "other")
                try (top + "other").moveByRenaming(to: top + "moved", replacing: true)
                #expect(try (top + "moved").readText() == "other")
                #expect(throws: FileError.self) { try (top + "moved").setPermissions(0o640) }
                try (top + "moved").removeFile()
                #expect(!(top + "moved").exists)
                return
            }
            // Symlinks: relative targets resolve from the link's directory.
            try (top + "link").makeSymlink(to: "a/b/notes.txt")
            #expect(try (top + "link").readText() == "new\n")
            #expect(try (top + "link").info().kind == .symlink)
            #expect(try (top + "link").linkTarget().string == "a/b/notes.txt")
            #expect(try (top + "link").info(followSymlinks: true).identity == notes.info().identity)
            // Hard links share an identity and a count.
            try (top + "hard").makeHardLink(to: notes)
            #expect(try (top + "hard").info().identity == notes.info().identity)
            #expect(try notes.info().linkCount == 2)
            // Renames keep the identity; replacing a file takes its name.
            let before = try notes.info().identity
            try notes.moveByRenaming(to: top + "moved", replacing: false)
            #expect(try (top + "moved").info().identity == before)
            #expect(!notes.exists)
            try (top + "other").write(text: "other")
            try (top + "other").moveByRenaming(to: top + "moved", replacing: true)
            #expect(try (top + "moved").readText() == "other")
            // Attributes.
            try (top + "moved").setPermissions(0o640)
            #expect(try (top + "moved").info().permissions == 0o640)
            try (top + "moved").setTimes(access: Timestamp(seconds: 100), modification: Timestamp(seconds: 200))
            #expect(try (top + "moved").info().modificationTime == Timestamp(seconds: 200))
            #expect(try (top + "moved").info().accessTime == Timestamp(seconds: 100))
            // Removal.
            try (top + "moved").removeFile()
            try (top + "hard").removeFile()
            #expect(!(top + "moved").exists && (top + "link").exists)
            #expect(throws: FileError.self) { try (top + "link").info(followSymlinks: true) }
        }
    }

    @Test("An open file is cut, and extended with zero bytes, alike", arguments: VolumeKind.allCases)
    func resizing(_ kind: VolumeKind) throws {
        try kind.withTop { top in
            try Self.makeFixture(in: top)
            let file = try (top + "f").open(.modify)
            try file.truncate(to: 2)
            try file.truncate(to: 5)
            try file.finish()
            #expect(try (top + "f").readBytes() == Array("he".utf8) + [0, 0, 0])
            // A directory opens for a look without waiting, as a FIFO would.
            let directory = try (top + "d").open(.inspect)
            #expect(try directory.info().kind == .directory)
            directory.close()
        }
    }

    @Test("A directory handle reaches entries below it by relative paths", arguments: VolumeKind.allCases)
    func directoryHandle(_ kind: VolumeKind) throws {
        try kind.withTop { top in
            try Self.makeFixture(in: top)
            try (top + "d/e").makeDirectory()
            try (top + "d/e/g").write(text: "g")
            let handle = try DirectoryHandle(top)
            #expect(try handle.entries(at: Array("d".utf8)).map(\.nameString) == ["e", "f"])
            let below = try DirectoryHandle(Array("d/e".utf8), in: handle)
            #expect(below.file == top + "d/e")
            #expect(try below.info(at: Array("g".utf8)).size == 1)
            let listing = try handle.entriesAndIdentity(at: Array("d".utf8))
            #expect(listing.identity == (try (top + "d").info().identity))
            #expect(try below.identity() == (top + "d/e").info().identity)
            var names: [String] = []
            try handle.forEachEntry(at: []) { names.append($0.nameString) }
            #expect(names.sorted() == ["d", "f"])
            #expect(throws: FileError.self) { try DirectoryHandle(Array("f".utf8), in: handle) }
        }
    }

    @Test("delete() removes a tree but never what a symlink in it leads to", arguments: VolumeKind.linking)
    func removal(_ kind: VolumeKind) throws {
        try kind.withTop { top in
            try (top + "keep").makeDirectory()
            try (top + "keep/x").write(text: "x")
            try (top + "tree/a/b").makeDirectory(intermediates: true)
            try (top + "tree/a/b/c").write(text: "c")
            try (top + "tree/a/f").write(text: "f")
            try (top + "tree/link").makeSymlink(to: "../keep")
            try (top + "linked").makeSymlink(to: "keep")
            var caught: FileError?
            do { try (top + "linked").deleteAllChildren() } catch { caught = error as? FileError }
            #expect(caught?.operation == .list && caught?.errno == .notDirectory)
            try (top + "tree").delete()
            #expect(!(top + "tree").exists)
            #expect(try (top + "keep/x").readText() == "x")
            #expect(try top.entries().map(\.nameString) == ["keep", "linked"])
        }
    }

    @Test("Identities are distinct for distinct entries and stable for one", arguments: VolumeKind.allCases)
    func identities(_ kind: VolumeKind) throws {
        try kind.withTop { top in
            try Self.makeFixture(in: top)
            let ids = try [top + "d", top + "f", top + "d/f"].map { try $0.info().identity }
            #expect(Set(ids).count == 3)
            #expect(try (top + "d/../f").info().identity == ids[1])
        }
    }
}

@Suite struct MemoryVolumeTests {
    @Test func theTopIsADirectoryAndRelativePathsStartThere() throws {
        let volume = MemoryVolume()
        #expect(try volume.root.info().kind == .directory)
        try volume.file("x").write(text: "x")
        #expect(try volume.file("/x").readText() == "x")
        #expect(try volume.file("/../../x").readText() == "x")
        #expect(volume.capabilities.contains(.hardLinks) && !volume.capabilities.contains(.specialFiles))
    }

    @Test func twoVolumesAreApart() throws {
        let one = MemoryVolume()
        let two = MemoryVolume()
        try one.file("/x").write(text: "one")
        #expect(!two.file("/x").exists)
        #expect(one.file("/x") != two.file("/x"))
        #expect(throws: FileError.self) { try one.file("/x").moveByRenaming(to: two.file("/x"), replacing: false) }
    }

    @Test func aFileRemovedWhileOpenCanStillBeRead() throws {
        let volume = MemoryVolume()
        try volume.file("/x").write(text: "kept")
        let open = try volume.file("/x").open(.read)
        defer { open.close() }
        try volume.file("/x").removeFile()
        #expect(String(decoding: try open.readAll(), as: UTF8.self) == "kept")
    }

    @Test func aFIFOCopiedOntoItFailsOnThatEntryAndTheRestIsCopied() throws {
        try withScratch { scratch in
            try (scratch + "tree").makeDirectory()
            try (scratch + "tree/a").write(text: "a")
            #expect((scratch + "tree/fifo").withCString { mkfifo($0, 0o644) } == 0)
            let volume = MemoryVolume()
            var failures: [TransferError] = []
            var copier = Copier(options: CopyOptions(recursive: true))
            copier.failed = { failures.append($0) }
            copier.copy(scratch + "tree", to: volume.file("/tree"))
            guard case .file(let error) = failures.first, failures.count == 1 else {
                Issue.record("expected one file error, got \(failures)")
                return
            }
            #expect(error.errno == .notSupported)
            #expect(try volume.file("/tree/a").readText() == "a")
            #expect(!volume.file("/tree/fifo").exists)
        }
    }

    @Test func namesAreBytes() throws {
        let volume = MemoryVolume()
        let name: [UInt8] = [0x61, 0xFF, 0xFE]
        let file = try volume.root.appending(name: name)
        try file.write(text: "bytes")
        #expect(try volume.root.entries().map(\.name) == [name])
    }
}
