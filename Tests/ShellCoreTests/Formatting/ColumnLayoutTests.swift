import Testing

@testable import ShellCore

@Suite struct ColumnLayoutTests {
    /// Name widths and the layouts GNU `ls -C -w N` chose for them.
    static let layoutRows: [(String, [Int], Int, Int, Int, [Int])] = [
        ("two columns just fit", [1, 3, 7, 1], 13, 2, 2, [5, 7]),
        ("one column when two do not fit", [1, 3, 7, 1], 12, 1, 4, [7]),
        // Five columns of three rows fit, the fifth left empty: printed, that is four columns.
        ("a trailing empty column", [1, 3, 6, 1, 3, 3, 2, 2, 2, 1, 4], 30, 5, 3, [8, 5, 4, 6, 3]),
        ("a short last column", [1, 3, 6, 1, 3, 3, 2, 2, 2, 1, 4], 20, 3, 4, [8, 5, 4]),
        ("no limit puts everything on one line", [1, 3, 6], 0, 3, 1, [3, 5, 6]),
        ("a single name", [10], 5, 1, 1, [10]),
        ("nothing", [], 80, 1, 0, [0]),
    ]

    @Test(arguments: layoutRows)
    func fitsColumnsAsGNULsDoes(
        _ name: String, _ widths: [Int], _ lineLength: Int, _ columns: Int, _ rows: Int, _ columnWidths: [Int]
    ) {
        let layout = ColumnLayout(itemWidths: widths, lineLength: lineLength)
        #expect(layout.columns == columns, "\(name)")
        #expect(layout.rows == rows, "\(name)")
        #expect(layout.widths == columnWidths, "\(name)")
    }

    static let paddingRows: [(String, Int, Int, Int, String)] = [
        ("a tab reaches the stop", 1, 8, 8, "\t"),
        ("spaces within a tab stop", 9, 13, 8, "    "),
        ("a tab, then spaces", 2, 9, 8, "\t "),
        ("two tabs", 3, 16, 8, "\t\t"),
        ("spaces only without tabs", 1, 8, 0, "       "),
        ("nothing to move", 5, 5, 8, ""),
    ]

    @Test(arguments: paddingRows)
    func padsWithTabsAndSpaces(_ name: String, _ from: Int, _ to: Int, _ tabSize: Int, _ expected: String) {
        #expect(ColumnLayout.padding(from: from, to: to, tabSize: tabSize) == Array(expected.utf8), "\(name)")
    }
}
