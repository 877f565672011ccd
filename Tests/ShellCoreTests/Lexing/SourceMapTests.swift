import Testing

@testable import ShellCore

@Suite struct SourceMapTests {
    /// A source and a byte offset in it, with the line and column the offset is at.
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let source: String
        let offset: Int
        let line: Int
        let column: Int
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "start of the source", source: "ls\ncat x", offset: 0, line: 1, column: 0),
        Row(name: "within the first line", source: "ls -l\ncat x", offset: 3, line: 1, column: 3),
        Row(
            name: "a newline belongs to the line it ends", source: "ls\ncat x", offset: 2, line: 1, column: 2),
        Row(name: "first byte after a newline", source: "ls\ncat x", offset: 3, line: 2, column: 0),
        Row(name: "within a later line", source: "ls\ncat x", offset: 7, line: 2, column: 4),
        Row(name: "empty lines count", source: "a\n\n\nb", offset: 4, line: 4, column: 0),
        Row(name: "the end of the source", source: "ls\ncat", offset: 6, line: 2, column: 3),
        Row(name: "after a final newline", source: "ls\n", offset: 3, line: 2, column: 0),
        Row(name: "columns count bytes, not characters", source: "é\nx é y", offset: 7, line: 2, column: 4),
    ]

    @Test(arguments: rows)
    func locatesAnOffset(_ row: Row) {
        let location = SourceMap(Array(row.source.utf8)).location(of: row.offset)
        #expect(location == SourceLocation(line: row.line, column: row.column))
    }

    @Test func givesALinesBytesWithoutItsNewline() {
        let map = SourceMap(Array("ls\n\ncat x".utf8))
        #expect(map.bytes(ofLine: 1) == 0..<2)
        #expect(map.bytes(ofLine: 2) == 3..<3)
        #expect(map.bytes(ofLine: 3) == 4..<9)
        #expect(map.bytes(ofLine: 4) == 9..<9)
    }
}
