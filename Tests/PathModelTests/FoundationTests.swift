import FoundationEssentials
import PathModel
import PathModelFoundation
import SystemPackage
import Testing

@Suite("PathModelFoundation")
struct FoundationTests {
    struct Person: Codable, Equatable {
        var firstName: String
        var lastName: String
        var homeDirectory: File
        var luckyNumbers: [Int]
    }

    @Test("JSON round trip with snake_case keys")
    func json() throws {
        try withScratch { dir in
            let file = dir + "person.json"
            let ann = Person(
                firstName: "Ann", lastName: "Lee", homeDirectory: "/home/ann", luckyNumbers: [3, 7])
            try file.write(json: ann)
            let text = try file.readText()
            #expect(text.contains(#""first_name" : "Ann""#))
            #expect(text.contains(#""last_name" : "Lee""#))
            #expect(text.contains(#""home_directory" : "\/home\/ann""#))
            #expect(!text.contains("firstName"))
            #expect(text.hasPrefix("{\n"))
            #expect(try file.decoded(Person.self) == ann)
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test("JSON with default keys when asked")
    func jsonDefaultKeys() throws {
        try withScratch { dir in
            let file = dir + "person.json"
            let ann = Person(firstName: "Ann", lastName: "Lee", homeDirectory: "/x", luckyNumbers: [])
            try file.write(json: ann, keyEncoding: .useDefaultKeys, formatting: [.sortedKeys])
            #expect(try file.readText().hasPrefix(#"{"firstName":"Ann","#))
            #expect(try file.decoded(Person.self, keyDecoding: .useDefaultKeys) == ann)
        }
    }

    @Test("decoded() of a missing file throws the FileError")
    func decodedMissing() throws {
        try withScratch { dir in
            let missing = dir + "missing.json"
            #expect(throws: FileError(.open, missing, .noSuchFileOrDirectory)) {
                try missing.decoded(Person.self)
            }
            let broken = dir + "broken.json"
            try broken.write(text: "{")
            #expect(throws: DecodingError.self) { try broken.decoded(Person.self) }
        }
    }

    @Test("readData and write(data:) round trip every byte", arguments: [true, false])
    func data(_ atomically: Bool) throws {
        try withScratch { dir in
            let file = dir + "blob"
            let data = Data((0...255).map { UInt8($0) })
            try file.write(data: data, atomically: atomically)
            #expect(try file.readData() == data)
            #expect(try file.readBytes() == Array(data))
        }
    }

    @Test(
        "url round trip",
        arguments: ["/tmp/a.txt", "/tmp/a b/日本語.txt", "/", "/tmp/dir", "/tmp/100%"] as [File])
    func url(_ file: File) {
        let url = file.url
        #expect(url.isFileURL)
        #expect(File(url: url) == file)
    }

    @Test("File(url:) refuses other schemes")
    func nonFileURL() throws {
        let url = try #require(URL(string: "https://example.com/a.txt"))
        #expect(File(url: url) == nil)
    }

    @Test("readText(encoding: .isoLatin1) decodes bytes that are not UTF-8")
    func latin1() throws {
        try withScratch { dir in
            let file = dir + "latin1.txt"
            try file.write(bytes: [0x63, 0x61, 0x66, 0xE9])
            #expect(try file.readText(encoding: .isoLatin1) == "café")
            #expect(throws: FileError(.read, file, .illegalByteSequence)) {
                try file.readText(encoding: .utf8)
            }
        }
    }

    @Test("write(text:encoding:) encodes, and refuses what the encoding cannot hold")
    func writeEncoded() throws {
        try withScratch { dir in
            let file = dir + "out.txt"
            try file.write(text: "café", encoding: .isoLatin1)
            #expect(try file.readBytes() == [0x63, 0x61, 0x66, 0xE9])
            try file.write(text: "café", encoding: .utf16BigEndian)
            #expect(try file.readBytes() == [0, 0x63, 0, 0x61, 0, 0x66, 0, 0xE9])
            #expect(throws: FileError(.write, file, .illegalByteSequence)) {
                try file.write(text: "日本", encoding: .ascii)
            }
            #expect(try file.readBytes() == [0, 0x63, 0, 0x61, 0, 0x66, 0, 0xE9])
        }
    }

    @Test("modificationDate() and Timestamp.date")
    func dates() throws {
        try withScratch { dir in
            let file = dir + "f"
            try file.write(text: "")
            try file.setTimes(
                access: nil, modification: Timestamp(seconds: 1_700_000_000, nanoseconds: 500_000_000))
            #expect(try file.modificationDate() == Date(timeIntervalSince1970: 1_700_000_000.5))
            #expect(Timestamp(seconds: 0).date == Date(timeIntervalSince1970: 0))
        }
    }
}
