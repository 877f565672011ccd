// Names are bytes: a name that is not UTF-8, and NFC/NFD twins, must survive every operation.

import Testing

@testable import PathModel

@Suite("Names are bytes")
struct NameBytesTests {
    /// "café" in Latin-1: the last byte is not UTF-8 on its own.
    static let latin1Cafe: [UInt8] = [0x63, 0x61, 0x66, 0xE9]

    @Test("A Latin-1 name lists, stats, copies, renames and deletes exactly")
    func latin1Name() throws {
        try withScratch { dir in
            let name = Self.latin1Cafe
            let raw = dir.bytes + [0x2F] + name
            try rawCreate(raw, contents: Array("bonjour".utf8))

            // Listing keeps the bytes.
            let entries = try dir.entries()
            #expect(entries.map(\.name) == [name])
            #expect(entries.first?.kind == .regular)
            #expect(entries.first?.nameString == "caf\u{FFFD}")
            let file = try #require(try dir.children().first)
            #expect(file.bytes == raw)

            // Stat and read through the same bytes.
            #expect(try file.info().size == 7)
            #expect(try file.readText() == "bonjour")

            // Copy to another byte name.
            let copyName: [UInt8] = name + [0x2E, 0xFF]
            let copy = try dir.appending(name: copyName)
            try file.copy(to: copy)
            #expect(rawExists(dir.bytes + [0x2F] + copyName))
            #expect(try copy.readBytes() == Array("bonjour".utf8))

            // Move (a rename) to yet another byte name.
            let movedName: [UInt8] = [0xE9, 0x74, 0xE9]
            let moved = try dir.appending(name: movedName)
            try file.move(to: moved)
            #expect(!rawExists(raw))
            #expect(rawNames(dir) == [copyName, movedName].sorted { $0.lexicographicallyPrecedes($1) })

            // Delete both, exactly.
            try moved.delete()
            try copy.delete()
            #expect(rawNames(dir).isEmpty)
        }
    }

    @Test("rename(to:) keeps a new name's UTF-8 and the directory's bytes")
    func renameUnderByteDirectory() throws {
        try withScratch { dir in
            let sub = try dir.appending(name: Self.latin1Cafe)
            try sub.makeDirectory()
            let file = sub + "a.txt"
            try file.write(text: "x")
            let renamed = try file.rename(to: "日本語.txt")
            #expect(renamed.bytes == sub.bytes + Array("/日本語.txt".utf8))
            #expect(rawNames(sub) == [Array("日本語.txt".utf8)])
        }
    }

    @Test("NFC and NFD é are two distinct files in one directory")
    func nfcAndNfd() throws {
        try withScratch { dir in
            let nfc = dir + "caf\u{E9}"
            let nfd = dir + "cafe\u{301}"
            try nfc.write(text: "composed")
            try nfd.write(text: "decomposed")
            #expect(
                try dir.entries().map(\.name) == [
                    [0x63, 0x61, 0x66, 0x65, 0xCC, 0x81],  // "e" (0x65) sorts before 0xC3
                    [0x63, 0x61, 0x66, 0xC3, 0xA9],
                ])
            #expect(try nfc.readText() == "composed")
            #expect(try nfd.readText() == "decomposed")
            #expect(try nfc.info().identity != nfd.info().identity)
            try nfc.delete()
            #expect(try dir.childNames() == ["cafe\u{301}"])
            #expect(try nfd.readText() == "decomposed")
        }
    }

    @Test(
        "Names with spaces and Japanese text round trip",
        arguments: [
            "a b.txt", "日本語.txt", " leading space", "trailing space ", "tab\there", "new\nline", "-dash",
        ])
    func unusualNames(_ name: String) throws {
        try withScratch { dir in
            let file = dir + name
            try file.write(text: name)
            #expect(try dir.childNames() == [name])
            #expect(rawNames(dir) == [Array(name.utf8)])
            #expect(try file.readText() == name)
            let copy = dir + ("copy of " + name)
            try file.copy(to: copy)
            #expect(try copy.readText() == name)
            try file.delete()
            try copy.delete()
            #expect(rawNames(dir).isEmpty)
        }
    }

    @Test("A tree of byte names copies and deletes exactly")
    func byteTree() throws {
        try withScratch { dir in
            let source = try dir.appending(name: Self.latin1Cafe)
            try source.makeDirectory()
            try (source.appending(name: [0xFF])).makeDirectory()
            try rawCreate(source.bytes + [0x2F, 0xFF, 0x2F, 0xFE], contents: [1, 2, 3])
            let destination = dir + "copy"
            try source.copy(to: destination)
            #expect(rawNames(destination) == [[0xFF]])
            #expect(rawNames(try destination.appending(name: [0xFF])) == [[0xFE]])
            #expect(try destination.appending(name: [0xFF]).appending(name: [0xFE]).readBytes() == [1, 2, 3])
            try source.delete()
            #expect(rawNames(dir) == [Array("copy".utf8)])
        }
    }
}
