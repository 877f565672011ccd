// Pure path syntax: none of these tests touch the disk, apart from `description`.

import FoundationEssentials
import Testing

@testable import PathModel

@Suite("File syntax")
struct FileSyntaxTests {
    struct Spelling: Sendable, CustomTestStringConvertible {
        let input: String
        let expected: String
        var testDescription: String { "\(input.debugDescription) → \(expected.debugDescription)" }
    }

    @Test(
        "Duplicate and trailing slashes fold (but a URL's //); . and .. stay",
        arguments: [
            Spelling(input: "a//b///c", expected: "a/b/c"),
            Spelling(input: "a/b/", expected: "a/b"),
            Spelling(input: "//", expected: "/"),
            Spelling(input: "/", expected: "/"),
            Spelling(input: "/usr//bin/", expected: "/usr/bin"),
            Spelling(input: "./a/../b", expected: "./a/../b"),
            Spelling(input: "", expected: ""),
            Spelling(input: "s3://b//k/", expected: "s3://b/k"),
            Spelling(input: "s3:///b", expected: "s3://b"),
            Spelling(input: "x/s3://b", expected: "x/s3:/b"),
            Spelling(input: "3s://b", expected: "3s:/b"),
            Spelling(input: "a b://c", expected: "a b:/c"),
        ])
    func folding(_ row: Spelling) {
        #expect(File(path: row.input).string == row.expected)
        #expect(File(path: row.input).bytes == Array(row.expected.utf8))
    }

    @Test("A NUL byte ends the path")
    func nulEndsPath() {
        #expect(File(bytes: [0x61, 0x00, 0x62]).bytes == [0x61])
    }

    struct Join: Sendable, CustomTestStringConvertible {
        let base: File
        let rest: String
        let expected: String
        var testDescription: String { "\(base.string) + \(rest.debugDescription)" }
    }

    @Test(
        "+ joins with exactly one slash",
        arguments: [
            Join(base: "/home/ann", rest: "notes", expected: "/home/ann/notes"),
            Join(base: "/home/ann", rest: "notes/a.txt", expected: "/home/ann/notes/a.txt"),
            Join(base: "/", rest: "etc", expected: "/etc"),
            Join(base: "a", rest: "/b", expected: "a/b"),
            Join(base: "a", rest: "", expected: "a"),
            Join(base: "", rest: "b", expected: "b"),
            Join(base: "a", rest: "b//c/", expected: "a/b/c"),
            Join(base: "a", rest: "/", expected: "a"),
            Join(base: "/", rest: "/", expected: "/"),
            Join(base: "a", rest: "..", expected: "a/.."),
        ])
    func joining(_ row: Join) {
        let joined = row.base + row.rest
        #expect(joined.string == row.expected)
        #expect(joined == File(path: row.expected))
    }

    @Test("+ with a File and appending(name:) keep bytes that are not UTF-8")
    func joiningBytes() throws {
        let name: [UInt8] = [0x63, 0x61, 0x66, 0xE9]
        let base: File = "/x"
        #expect((base + File(bytes: name)).bytes == Array("/x/".utf8) + name)
        #expect(try base.appending(name: name).bytes == Array("/x/".utf8) + name)
        #expect(try File(path: "").appending(name: name).bytes == name)
        #expect(try File.root.appending(name: name).bytes == [0x2F] + name)
    }

    @Test("A NUL byte ends a name given to appending(name:), as it ends a path given to init(bytes:)")
    func appendingStopsAtNUL() throws {
        let base: File = "/x"
        #expect(try base.appending(name: Array("ab".utf8) + [0, 0x63]).bytes == Array("/x/ab".utf8))
        #expect(try base.appending(name: Array("ab".utf8) + [0, 0x63]) == File(bytes: Array("/x/ab".utf8) + [0, 0x63]))
    }

    @Test(
        "appending(name:) refuses what is not one name of the directory, with EINVAL",
        arguments: [
            ("empty", []),
            ("a slash inside", Array("a/b".utf8)),
            ("a climb", Array("../etc".utf8)),
            ("only a slash", [0x2F]),
            ("a trailing slash", Array("a/".utf8)),
            ("dot", [0x2E]),
            ("dot dot", [0x2E, 0x2E]),
            ("a NUL first", [0, 0x61]),
        ] as [(String, [UInt8])])
    func appendingRefusesBadNames(_ row: String, _ name: [UInt8]) {
        let base: File = "/x"
        let spelled = File(bytes: name)
        #expect(throws: FileError(.resolve, base, .invalidArgument, destination: spelled), "\(row)") {
            try base.appending(name: name)
        }
    }

    struct NameParts: Sendable, CustomTestStringConvertible {
        let path: File
        let name: String
        let ext: String
        let extWithoutDot: String
        let stem: String
        var testDescription: String { path.string }
    }

    @Test(
        "name, extension, extensionWithoutDot, nameWithoutExtension",
        arguments: [
            NameParts(path: "/x/a.txt", name: "a.txt", ext: ".txt", extWithoutDot: "txt", stem: "a"),
            NameParts(path: "a.tar.gz", name: "a.tar.gz", ext: ".gz", extWithoutDot: "gz", stem: "a.tar"),
            NameParts(
                path: "/home/ann/.bashrc", name: ".bashrc", ext: "", extWithoutDot: "", stem: ".bashrc"),
            NameParts(
                path: ".config.bak", name: ".config.bak", ext: ".bak", extWithoutDot: "bak", stem: ".config"),
            NameParts(path: "file.", name: "file.", ext: "", extWithoutDot: "", stem: "file."),
            NameParts(path: "Makefile", name: "Makefile", ext: "", extWithoutDot: "", stem: "Makefile"),
            NameParts(path: "/", name: "/", ext: "", extWithoutDot: "", stem: "/"),
            NameParts(path: "dir.d/file", name: "file", ext: "", extWithoutDot: "", stem: "file"),
            NameParts(path: "..", name: "..", ext: "", extWithoutDot: "", stem: ".."),
            NameParts(path: "日本語.txt", name: "日本語.txt", ext: ".txt", extWithoutDot: "txt", stem: "日本語"),
        ])
    func nameParts(_ row: NameParts) {
        #expect(row.path.name == row.name)
        #expect(row.path.extension == row.ext)
        #expect(row.path.extensionWithoutDot == row.extWithoutDot)
        #expect(row.path.nameWithoutExtension == row.stem)
    }

    @Test("nameBytes keeps a name that is not UTF-8; name shows U+FFFD")
    func nameBytes() {
        let file = File(bytes: Array("/x/".utf8) + [0x63, 0x61, 0x66, 0xE9])
        #expect(Array(file.nameBytes) == [0x63, 0x61, 0x66, 0xE9])
        #expect(file.name == "caf\u{FFFD}")
        #expect(!file.isValidUTF8)
        #expect(File(path: "/x/café").isValidUTF8)
    }

    @Test(
        "parent, by syntax alone",
        arguments: [
            ("/usr/bin", "/usr"),
            ("/usr", "/"),
            ("/", "/"),
            ("a", "."),
            ("a/b", "a"),
            (".", ".."),
            ("..", "../.."),
            ("a/..", "a/../.."),
        ] as [(File, File)])
    func parent(_ path: File, _ expected: File) {
        #expect(path.parent == expected)
    }

    @Test(
        "components and depth",
        arguments: [
            ("/usr/bin", ["usr", "bin"]),
            ("/", []),
            ("a/b/c", ["a", "b", "c"]),
            ("./a", [".", "a"]),
            ("", []),
        ] as [(File, [String])])
    func components(_ path: File, _ expected: [String]) {
        #expect(path.components == expected)
        #expect(path.depth == expected.count)
        #expect(path.componentBytes.map { Array($0) } == expected.map { Array($0.utf8) })
    }

    @Test(
        "isHidden is a leading dot, except . and ..",
        arguments: [
            (".bashrc", true),
            ("/home/ann/.config", true),
            ("a/.git/HEAD", false),
            ("visible", false),
            (".", false),
            ("..", false),
            ("/", false),
            ("...", true),
        ] as [(File, Bool)])
    func hidden(_ path: File, _ expected: Bool) {
        #expect(path.isHidden == expected)
    }

    @Test("isAbsolute and isRoot")
    func absoluteAndRoot() {
        #expect(File(path: "/a").isAbsolute)
        #expect(!File(path: "a").isAbsolute)
        #expect(File(path: "//").isRoot)
        #expect(!File(path: "/a").isRoot)
        #expect(File.root.string == "/")
    }

    @Test(
        "normalized applies . and .. lexically",
        arguments: [
            ("/a/./b/../c", "/a/c"),
            ("/..", "/"),
            ("/../../a", "/a"),
            ("a/..", "."),
            ("./a/./b/", "a/b"),
            ("a/../..", ".."),
            ("../../a/../b", "../../b"),
            (".", "."),
            ("/a/b/..", "/a"),
        ] as [(File, File)])
    func normalized(_ path: File, _ expected: File) {
        #expect(path.normalized == expected)
    }

    @Test(
        "relative(to:) is lexical",
        arguments: [
            ("/a/b/c", "/a/x", "../b/c"),
            ("/a/b", "/a/b", "."),
            ("/a/b/c", "/a", "b/c"),
            ("/a", "/a/b/c", "../.."),
            ("a/b", "a/./c/..", "b"),
            ("/", "/a", ".."),
            ("../a", "../b", "../a"),
            ("../../a", "../b", "../../a"),
            ("a", "b/..", "a"),
        ] as [(File, File, File)])
    func relative(_ path: File, _ base: File, _ expected: File) {
        #expect(path.relative(to: base) == expected)
    }

    @Test("relative(to:) is nil when only one side is absolute")
    func relativeMixed() {
        #expect(File(path: "/a").relative(to: "a") == nil)
        #expect(File(path: "a").relative(to: "/a") == nil)
    }

    @Test(
        "relative(to:) is nil when the base climbs with .. above what the two share",
        arguments: [("a", ".."), ("a", "../b"), ("x/y", "x/../../z"), ("../a", "../../b")] as [(File, File)])
    func relativeClimbingBase(_ path: File, _ base: File) {
        #expect(path.relative(to: base) == nil)
    }

    @Test(
        "expandingTilde(home:)",
        arguments: [
            ("~", "/home/ann"),
            ("~/notes/a.txt", "/home/ann/notes/a.txt"),
            ("a/~", "a/~"),
            ("/~", "/~"),
            ("~no-such-user-pathmodel-tests/x", "~no-such-user-pathmodel-tests/x"),
        ] as [(File, File)])
    func expandingTilde(_ path: File, _ expected: File) {
        #expect(path.expandingTilde(home: "/home/ann") == expected)
    }

    @Test("~user expands from the user database")
    func expandingTildeUser() {
        // root is in every passwd database this suite runs against; its home is not $HOME.
        let rootHome = File(bytes: Sys.homeDirectory(named: "root") ?? [])
        #expect(rootHome.isAbsolute)
        #expect(File(path: "~root/x").expandingTilde(home: "/home/ann") == rootHome + "x")
    }

    @Test(
        "Comparable is byte order (LC_ALL=C)",
        arguments: [
            ("B", "a"),
            ("a", "a/b"),
            ("a-b", "a/b"),
            ("a/b", "a0"),
            ("z", "é"),
            ("Z", "_"),
            ("/", "/a"),
            ("a.txt", "a.txt.bak"),
        ] as [(File, File)])
    func byteOrder(_ smaller: File, _ larger: File) {
        #expect(smaller < larger)
        #expect(!(larger < smaller))
    }

    @Test("Sorting paths matches sorting their bytes")
    func sortingMatchesBytes() {
        let names = ["b", "B", "a", "é", "e\u{301}", "_", "a b", "日本語", "z", "a/b", "a.b"]
        let files = names.map { File(path: $0) }.sorted()
        let expected = names.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(files.map(\.bytes) == expected)
    }

    @Test("NFC and NFD spellings are different paths")
    func nfcNfd() {
        let nfc = File(path: "caf\u{E9}")
        let nfd = File(path: "cafe\u{301}")
        #expect(nfc != nfd)
        #expect(nfc.bytes == [0x63, 0x61, 0x66, 0xC3, 0xA9])
        #expect(nfd.bytes == [0x63, 0x61, 0x66, 0x65, 0xCC, 0x81])
        #expect(Set([nfc, nfd]).count == 2)
    }

    @Test(
        "Codable round trip keeps bytes",
        arguments: [
            File(path: "/home/ann/notes.txt"),
            File(path: "日本語/a b.txt"),
            File(bytes: [0x2F, 0x63, 0x61, 0x66, 0xE9]),
            File(bytes: [0xFF, 0xFE]),
        ])
    func codable(_ file: File) throws {
        let data = try JSONEncoder().encode([file])
        let decoded = try JSONDecoder().decode([File].self, from: data)
        #expect(decoded == [file])
        #expect(decoded.first?.bytes == file.bytes)
    }

    @Test("Codable spells UTF-8 as a string and other bytes as an array")
    func codableShape() throws {
        let text = try JSONEncoder().encode([File(path: "/a b")])
        #expect(String(decoding: text, as: UTF8.self) == #"["\/a b"]"#)
        let bytes = try JSONEncoder().encode([File(bytes: [0x61, 0xE9])])
        #expect(String(decoding: bytes, as: UTF8.self) == "[[97,233]]")
    }

    @Test("string, filePath and cString spellings agree")
    func spellings() {
        let file = File(path: "/tmp/a b/日本語.txt")
        #expect(File(file.filePath) == file)
        #expect(file.withCString { File(cString: $0) } == file)
        #expect(file.byteCount == file.string.utf8.count)
        #expect(file.withBytes { Array($0) } == file.bytes)
        let literal: File = "/tmp/a b/日本語.txt"
        #expect(literal == file)
    }

    @Test("description is the path, whatever is there")
    func description() throws {
        try withScratch { dir in
            let file = dir + "notes.txt"
            try file.write(text: "x")
            #expect(dir.description == dir.string)
            #expect(file.description == dir.string + "/notes.txt")
            #expect((dir + "missing").description == dir.string + "/missing")
            #expect(File(bytes: Array("/a/".utf8) + [0xFF]).description == "/a/\u{FFFD}")
        }
    }

    @Test("A path reflects as its text alone, never walking into its volume")
    func reflectsAsItsPath() throws {
        let volume = MemoryVolume()
        let file = volume.file("/a/b.txt")
        let children = Mirror(reflecting: file).children.map { ($0.label, $0.value as? String) }
        #expect(children.count == 1)
        #expect(children.first?.0 == "path" && children.first?.1 == "/a/b.txt")
    }
}
