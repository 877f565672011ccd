/// Names in columns filled top to bottom (or left to right), fitted to a line width the way GNU
/// `ls -C` (`ls -x`) fits them.
///
/// Every layout from the most columns possible down to one is tried; the widest that fits in
/// fewer than `lineLength` columns wins. A column is as wide as its widest name plus two spaces of
/// gap (the last column has no gap) and never narrower than three.
///
///     let layout = ColumnLayout(itemWidths: [1, 3, 7, 1], lineLength: 13)
///     layout.columns   // 2
///     layout.rows      // 2
///     layout.widths    // [5, 7]: "a    broken2", "bcd  d"
public struct ColumnLayout: Sendable, Hashable {
    /// How many columns the items take.
    public let columns: Int
    /// How many rows: items `row`, `row + rows`, `row + 2 * rows`… share a line (filled left to
    /// right, items `row * columns` up to the next row's first).
    public let rows: Int
    /// Each column's width, its gap included.
    public let widths: [Int]

    private static let minimumColumnWidth = 3

    /// The layout for items of the given display widths within `lineLength` columns; a
    /// `lineLength` of 0 means no limit. Items fill each column in turn, or `across`, each row.
    public init(itemWidths: [Int], lineLength: Int, across: Bool = false) {
        let count = itemWidths.count
        guard count > 0 else {
            columns = 1
            rows = 0
            widths = [0]
            return
        }
        let limit = lineLength > 0 ? lineLength : Int.max
        var maxIndex = lineLength / Self.minimumColumnWidth
        if lineLength % Self.minimumColumnWidth != 0 { maxIndex += 1 }
        let maxColumns = maxIndex > 0 && maxIndex < count ? maxIndex : count
        // Candidate i has i + 1 columns; each keeps its column widths and total line length.
        var candidates = (0..<maxColumns).map { index in
            Candidate(
                widths: Array(repeating: Self.minimumColumnWidth, count: index + 1),
                lineLength: (index + 1) * Self.minimumColumnWidth)
        }
        for (itemIndex, width) in itemWidths.enumerated() {
            for index in 0..<maxColumns where candidates[index].fits {
                let column = across ? itemIndex % (index + 1) : itemIndex / ((count + index) / (index + 1))
                let needed = width + (column == index ? 0 : 2)
                if candidates[index].widths[column] < needed {
                    candidates[index].lineLength += needed - candidates[index].widths[column]
                    candidates[index].widths[column] = needed
                    candidates[index].fits = candidates[index].lineLength < limit
                }
            }
        }
        var chosen = maxColumns
        while chosen > 1 && !candidates[chosen - 1].fits { chosen -= 1 }
        columns = chosen
        rows = (count + chosen - 1) / chosen
        widths = candidates[chosen - 1].widths
    }

    private struct Candidate {
        var widths: [Int]
        var lineLength: Int
        var fits = true
    }

    /// The blanks that move the cursor from column `from` to column `to`: tabs where a tab stop
    /// (every `tabSize` columns) is passed, spaces otherwise; spaces only when `tabSize` is 0.
    public static func padding(from: Int, to: Int, tabSize: Int) -> [UInt8] {
        var result: [UInt8] = []
        var position = from
        while position < to {
            if tabSize != 0 && to / tabSize > (position + 1) / tabSize {
                result.append(0x09)
                position += tabSize - position % tabSize
            } else {
                result.append(0x20)
                position += 1
            }
        }
        return result
    }
}
