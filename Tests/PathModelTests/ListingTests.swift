import Glibc
import SystemPackage
import Testing

@_spi(FaultInjection) @testable import PathModel

@Suite("Listing")
struct ListingTests {
    /// Fills `dir` with a mix of names whose byte order differs from a human one.
    static func populate(_ dir: File) throws {
        for name in ["b.txt", "B.txt", "a.txt", "_under", ".hidden", "é.txt", "z.txt", "10", "9"] {
            try (dir + name).write(text: name)
        }
        try (dir + "sub").makeDirectory()
        try (dir + "link").makeSymlink(to: "a.txt")
    }

    static let byteOrder = [
        ".hidden", "10", "9", "B.txt", "_under", "a.txt", "b.txt", "link", "sub", "z.txt", "é.txt",
    ]

    @Test("entries() is sorted by bytes and reports d_type kinds")
    func entries() throws {
        try withScratch { dir in
            try Self.populate(dir)
            let entries = try dir.entries()
            #expect(entries.map(\.nameString) == Self.byteOrder)
            // ext4 and tmpfs fill d_type; a nil kind would also be allowed by the API.
            let kinds = Dictionary(uniqueKeysWithValues: entries.map { ($0.nameString, $0.kind) })
            #expect(kinds["sub"] == .directory)
            #expect(kinds["link"] == .symlink)
            #expect(kinds["a.txt"] == .regular)
            #expect(entries.filter(\.isHidden).map(\.nameString) == [".hidden"])
        }
    }

    @Test("children() joins names onto the directory; includeHidden false drops dotfiles")
    func children() throws {
        try withScratch { dir in
            try Self.populate(dir)
            #expect(try dir.children() == Self.byteOrder.map { dir + $0 })
            #expect(try dir.children(includeHidden: false) == Self.byteOrder.dropFirst().map { dir + $0 })
        }
    }

    @Test("childNames() gives text, byte-sorted")
    func childNames() throws {
        try withScratch { dir in
            try Self.populate(dir)
            #expect(try dir.childNames() == Self.byteOrder)
        }
    }

    @Test("forEachEntry() visits every entry once, without . and ..")
    func forEachEntry() throws {
        try withScratch { dir in
            try Self.populate(dir)
            var seen: [String] = []
            try dir.forEachEntry { seen.append($0.nameString) }
            #expect(seen.sorted() == Self.byteOrder.sorted())
        }
    }

    @Test("forEachEntry() passes the body's own error through")
    func forEachEntryBodyError() throws {
        try withScratch { dir in
            try Self.populate(dir)
            let stop = FileError(.read, dir, .canceled)
            var calls = 0
            let error = #expect(throws: FileError.self) {
                try dir.forEachEntry { (_) throws(FileError) in
                    calls += 1
                    throw stop
                }
            }
            #expect(error == stop)
            #expect(calls == 1)
        }
    }

    @Test("An empty directory lists nothing")
    func empty() throws {
        try withScratch { dir in
            let entries = try dir.entries()
            #expect(entries.isEmpty)
            #expect(try dir.children().isEmpty)
        }
    }

    @Test("Listing a symlink to a directory lists the target")
    func listingThroughSymlink() throws {
        try withScratch { dir in
            try (dir + "real").makeDirectory()
            try (dir + "real/inside").write(text: "")
            try (dir + "alias").makeSymlink(to: "real")
            #expect(try (dir + "alias").childNames() == ["inside"])
        }
    }

    @Test(
        "Listing what is not a readable directory fails with .list",
        arguments: [
            ("missing", Errno.noSuchFileOrDirectory),
            ("file", Errno.notDirectory),
        ])
    func listingErrors(_ name: String, _ errno: Errno) throws {
        try withScratch { dir in
            try (dir + "file").write(text: "")
            let target = dir + name
            let error = #expect(throws: FileError.self) { try target.entries() }
            #expect(error == FileError(.list, target, errno))
        }
    }

    @Test("A subdirectory without read permission fails with .list EACCES")
    func permissionDenied() throws {
        try withScratch { dir in
            let locked = dir + "locked"
            try locked.makeDirectory()
            try (locked + "secret").write(text: "")
            try locked.setPermissions(0o000)
            defer { _ = try? locked.setPermissions(0o700) }
            // root reads any directory whatever its mode, so there the kernel's refusal is simulated
            // at the one door, for this path only; elsewhere the real chmod 000 must refuse.
            let plan = failing(.open, with: .permissionDenied, where: { $0 == locked.string })
            let list = { () throws(FileError) in _ = try locked.entries() }
            let error = #expect(throws: FileError.self) {
                if runningAsRoot { try injecting(plan) { try list() } } else { try list() }
            }
            #expect(error == FileError(.list, locked, .permissionDenied))
            // The parent still lists, locked entry included.
            #expect(try dir.childNames() == ["locked"])
        }
    }

    @Test("A readdir failure in mid-listing is reported as a read of the directory, not swallowed")
    func readdirFailure() throws {
        try withScratch { dir in
            try Self.populate(dir)
            let error = #expect(throws: FileError.self) {
                try injecting(failing(.readdir, with: .ioError)) { try dir.entries() }
            }
            // Opened, then failed while read: `.read`, where a directory that will not open is `.list`.
            #expect(error == FileError(.read, dir, .ioError))
        }
    }

    @Test("bytesPrecede is memcmp order, shorter first on a tie")
    func bytesPrecedeOrder() {
        #expect(bytesPrecede([0x42], [0x61]))
        #expect(bytesPrecede([0x61], [0x61, 0x00]))
        #expect(!bytesPrecede([0x61], [0x61]))
        #expect(bytesPrecede([], [0x00]))
        #expect(bytesPrecede([0x7A], [0xC3, 0xA9]))
        #expect(!bytesPrecede([0xFF], [0x7F]))
    }
}
