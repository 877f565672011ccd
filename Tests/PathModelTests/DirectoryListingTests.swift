import Glibc
import Testing

@testable import PathModel

@Suite("DirectoryListing")
struct DirectoryListingTests {
    /// Names whose order turns on the eighth and ninth bytes, on length alone, or on bytes above
    /// 0x7F, where a comparison of the first eight bytes as an integer could go wrong.
    static let awkwardNames: [(String, [[UInt8]])] = [
        ("lengths around eight", ["abcdefgh", "abcdefg", "abcdefghi", "abcdefgha", "a", "ab", "abcdefghij"].map(bytes)),
        ("differ only past eight", ["abcdefgh-2", "abcdefgh-10", "abcdefgh-1", "abcdefgh"].map(bytes)),
        ("high bytes", [[0xFF], [0xFF, 0x01], [0x7F], [0x80, 0x01], [0xC3, 0xA9], [0x41], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]),
        ("low bytes after a prefix", [[0x61, 0x01], [0x61], [0x61, 0x01, 0x01], [0x61, 0x02]]),
        ("long names", [Array(repeating: 0x78, count: 255), Array(repeating: 0x78, count: 254) + [0x79], Array(repeating: 0x78, count: 200)]),
    ]

    @Test("sortByBytes orders names as their bytes compare", arguments: awkwardNames)
    func sortsAwkwardNames(_ row: (String, [[UInt8]])) {
        #expect(Self.sorted(row.1) == row.1.sorted(by: Self.byteOrder))
    }

    @Test("sortByBytes orders many names sharing long prefixes as their bytes compare")
    func sortsGeneratedNames() {
        // A fixed generator: the same names every run, many alike in their first eight bytes.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var names = Set<[UInt8]>()
        while names.count < 3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 59) % 14 + 1
            names.insert((0..<length).map { index in [0x61, 0x62, 0xFF][Int(state >> (UInt64(index) * 3 + 5)) % 3] })
        }
        let unsorted = Array(names)
        #expect(Self.sorted(unsorted) == unsorted.sorted(by: Self.byteOrder))
    }

    @Test("an entry's kind, none and unknown included, comes back as it was added")
    func keepsKinds() {
        var listing = DirectoryListing()
        let kinds: [FileKind?] = [nil] + FileKind.allCases.map { $0 }
        for (index, kind) in kinds.enumerated() { listing.append(name: Array("n\(index)".utf8), kind: kind) }
        #expect((0..<listing.count).map(listing.kind) == kinds)
        #expect((0..<listing.count).map { Array(listing.name($0)) } == kinds.indices.map { Array("n\($0)".utf8) })
    }

    @Test(
        "a directory larger than one read comes back whole, each name once with its kind",
        arguments: ["/tmp", "/dev/shm"])
    func readsLargeDirectory(_ parent: String) throws {
        var info = stat()
        guard stat(parent, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return }
        try withScratch(in: parent) { dir in
            var expected: [String: FileKind] = [:]
            for index in 0..<3000 {
                // Lengths from 1 to 255 bytes, so records of every size fill the kernel's buffers.
                let name = String(index) + String(repeating: "n", count: (index * 37) % 250)
                switch index % 50 {
                case 0:
                    try (dir + name).makeDirectory()
                    expected[name] = .directory
                case 1:
                    try (dir + name).makeSymlink(to: "target")
                    expected[name] = .symlink
                default:
                    try (dir + name).write(text: "")
                    expected[name] = .regular
                }
            }
            let entries = try dir.entries()
            #expect(entries.map(\.nameString) == expected.keys.sorted { Self.byteOrder(Array($0.utf8), Array($1.utf8)) })
            #expect(entries.allSatisfy { expected[$0.nameString] == $0.kind })
        }
    }

    static let lineRows: [(String, reversed: Bool, skippingHidden: Bool, blockSize: Int)] = [
        ("in order, one large block", false, false, 1 << 16),
        ("reversed", true, false, 1 << 16),
        ("hidden names left out", false, true, 1 << 16),
        ("reversed, hidden left out, blocks smaller than a name", true, true, 4),
        ("blocks of one byte", false, false, 1),
    ]

    @Test("forEachBlockOfLines writes every name and its terminator, whatever the block size", arguments: lineRows)
    func writesLines(_ row: (String, reversed: Bool, skippingHidden: Bool, blockSize: Int)) {
        let names = [".hidden", "a", "a-name-longer-than-any-block", ".h2", "z"].map(Self.bytes)
        var listing = DirectoryListing()
        for name in names { listing.append(name: name, kind: nil) }
        var blocks: [[UInt8]] = []
        listing.forEachBlockOfLines(
            reversed: row.reversed, skippingHidden: row.skippingHidden, terminator: 0, blockSize: row.blockSize
        ) { block in
            blocks.append(block)
            return true
        }
        var expected = row.reversed ? Array(names.reversed()) : names
        if row.skippingHidden { expected.removeAll { $0.first == 0x2E } }
        #expect(blocks.joined().split(separator: 0, omittingEmptySubsequences: false).map(Array.init) == expected + [[]])
        #expect(blocks.allSatisfy { !$0.isEmpty && $0.last == 0 })
    }

    @Test("forEachBlockOfLines stops when told to")
    func stopsWritingLines() {
        var listing = DirectoryListing()
        for index in 0..<100 { listing.append(name: Self.bytes("name\(index)"), kind: nil) }
        var blocks = 0
        listing.forEachBlockOfLines(reversed: false, skippingHidden: false, terminator: 0x0A, blockSize: 64) { _ in
            blocks += 1
            return blocks < 2
        }
        #expect(blocks == 2)
    }

    /// `names` put in a listing and sorted by it.
    static func sorted(_ names: [[UInt8]]) -> [[UInt8]] {
        var listing = DirectoryListing()
        for name in names { listing.append(name: name, kind: .regular) }
        listing.sortByBytes()
        return (0..<listing.count).map { Array(listing.name($0)) }
    }

    /// The order `LC_ALL=C` gives: byte by byte, a prefix first.
    static func byteOrder(_ left: [UInt8], _ right: [UInt8]) -> Bool { left.lexicographicallyPrecedes(right) }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}
