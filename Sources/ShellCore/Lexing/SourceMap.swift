/// A place in a source as people count it: the 1-based line and the byte offset within it.
public struct SourceLocation: Sendable, Hashable {
    /// 1-based line number.
    public var line: Int
    /// Byte offset within the line (0-based); messages show it plus one.
    public var column: Int

    /// The location at `line` and `column`.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// Where the lines of a source start, so that a byte offset (a token's, an error's) becomes a line
/// and column: the one place positions are counted.
///
///     let map = SourceMap(Array("ls\ncat x".utf8))
///     map.location(of: 7)   // line 2, column 4
public struct SourceMap: Sendable {
    /// The offset of each line's first byte; the first line starts at 0.
    private let lineStarts: [Int]
    /// How many bytes the source has.
    private let count: Int

    /// The map of `source`: every newline byte ends a line.
    public init(_ source: [UInt8]) {
        var starts = [0]
        for (offset, byte) in source.enumerated() where byte == 0x0A { starts.append(offset + 1) }
        lineStarts = starts
        count = source.count
    }

    /// The line and column of byte `offset` (a newline belongs to the line it ends).
    public func location(of offset: Int) -> SourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return SourceLocation(line: low + 1, column: offset - lineStarts[low])
    }

    /// The byte offsets of 1-based line `number`, its newline excluded; empty past the last line.
    public func bytes(ofLine number: Int) -> Range<Int> {
        guard number >= 1, number <= lineStarts.count else { return count..<count }
        let start = lineStarts[number - 1]
        let end = number < lineStarts.count ? lineStarts[number] - 1 : count
        return start..<end
    }
}
