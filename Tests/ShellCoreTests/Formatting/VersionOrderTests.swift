import PathModel
import Testing

@testable import ShellCore

@Suite struct VersionOrderTests {
    /// Names that GNU's version order treats in its own ways, in no particular order.
    static let rows: [(String, [[UInt8]])] = [
        (
            "the usual tricky names",
            names("a1", "a01", "a1.5", "a1.10", ".a", "~", "foo.tar.gz", "foo-1.0-rc1")
        ),
        ("runs of digits compare as numbers", names("a10", "a2", "a1", "a01", "a001", "a0", "a", "a1b", "a1a")),
        (
            "numbers longer than any machine word",
            names("v99999999999999999999999", "v100000000000000000000000", "v9", "v0000000000000000000000009")
        ),
        (
            "file suffixes are set aside first",
            names(
                "foo.tar.gz", "foo-1.0-rc1", "foo.tar", "foo-1.0", "foo-1.0.tar.gz", "foo1.tar.gz", "foo.gz",
                "foo-1.0.tar.bz2", "foo", "foo.1")
        ),
        (
            "a name may be all suffix",
            names(".tar.gz", ".gz", "a.gz", ".1", "x.tar", ".tar")
        ),
        (
            "what may follow the dot of a suffix",
            names("a.", "a..b", "a.~", "a.1", "a.a1~", "a.b", "a.b.", "a.~1", "a.b-c")
        ),
        ("a tilde comes before everything, even the end", names("1.0~rc1", "1.0", "1.0~", "~", "~~", "a~", "a", "1.0a")),
        ("dots come first", names(".", "..", ".a", ".b1", ".b10", "a", "..a", "...", "", ".~", ".bashrc", ".1")),
        (
            "letters come before other bytes",
            names("a", "_", "-", "A", "Z", "z", "a-b", "a_b", "a.b", "aB", "a+", "a ", "9", "a\tb")
        ),
        (
            "bytes past ASCII come after letters, by their value",
            [
                Array("é".utf8), Array("e".utf8), Array("x".utf8) + [0xFF], [0xFF], Array("caf".utf8) + [0xE9],
                Array("café".utf8), Array("Z".utf8), [0x80], Array("1".utf8) + [0xC3, 0xA9],
            ]
        ),
        (
            "versions of packages",
            names(
                "gcc-10.2.0", "gcc-9.3.0", "gcc-10.10.0", "gcc-10.2.0-r1", "gcc-10.2", "linux-5.4.0-42",
                "linux-5.4.0-100", "linux-5.10", "python3.10", "python3.9", "python2.7")
        ),
    ]

    /// Sorted as GNU `sort -z -V` sorts them (ties, such as `a1` and `a01`, by bytes).
    @Test(.needsLocalFileSystem("GNU sort reads the names from disk"), arguments: rows)
    func ordersAsGNUSortDoes(_ name: String, _ names: [[UInt8]]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/sort") else { return }
        let directory = TemporaryDirectory(onLocalDisk: true)
        defer { directory.remove() }
        let input = try directory.file.appending(name: Array("names".utf8))
        try input.write(bytes: names.flatMap { $0 + [0] })
        let result = try ReferenceTool.run(
            "/usr/bin/sort", ["-z", "-V", "names", "-o", "sorted"], in: directory.file)
        #expect(result.status == .success, "\(name): \(result.stderr)")
        let sorted = try directory.file.appending(name: Array("sorted".utf8)).readBytes()
        let expected = sorted.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { Array($0) }
        #expect(names.sorted(by: VersionOrder.precedes) == expected, "\(name)")
    }

    /// The comparison is an order: the reverse of each pair compares the other way, and a name
    /// equals itself.
    @Test(arguments: rows)
    func comparesEachPairBothWays(_ name: String, _ names: [[UInt8]]) {
        for a in names {
            #expect(VersionOrder.compare(a, a) == 0, "\(name): \(a)")
            for b in names where a != b {
                #expect(VersionOrder.compare(a, b).signum() == -VersionOrder.compare(b, a).signum(), "\(name): \(a) \(b)")
                #expect(VersionOrder.precedes(a, b) != VersionOrder.precedes(b, a), "\(name): \(a) \(b)")
            }
        }
    }

    /// Slices are compared by their own bytes, wherever they lie in their array.
    @Test func slicesCompareByTheirOwnBytes() {
        let buffer = Array("xa10a9y".utf8)
        let ten = buffer[1..<4]
        let nine = buffer[4..<6]
        #expect(VersionOrder.compare(nine, ten) == VersionOrder.compare(Array(nine), Array(ten)))
        #expect(VersionOrder.precedes(nine, ten) == VersionOrder.precedes(Array(nine), Array(ten)))
    }

    private static func names(_ names: String...) -> [[UInt8]] { names.map { Array($0.utf8) } }
}
