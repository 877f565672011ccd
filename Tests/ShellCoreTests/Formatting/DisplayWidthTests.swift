import Testing

@testable import ShellCore

@Suite struct DisplayWidthTests {
    static let rows: [(String, [UInt8], Int)] = [
        ("ASCII", Array("abc".utf8), 3),
        ("nothing", [], 0),
        ("CJK ideographs", Array("日本語".utf8), 6),
        ("Hangul syllables", Array("한국".utf8), 4),
        ("a combining accent", Array("e\u{301}".utf8), 1),
        ("an emoji", Array("😀".utf8), 2),
        ("halfwidth katakana", Array("ｱｲ".utf8), 2),
        ("fullwidth Latin", Array("ＡＢ".utf8), 4),
        ("a zero-width space", Array("a\u{200B}b".utf8), 2),
        ("a control character", Array("a\nb".utf8), 2),
        ("a byte that is not UTF-8", [0x61, 0xFF, 0x62], 3),
        ("Latin-1 letters", Array("café".utf8), 4),
    ]

    @Test(arguments: rows)
    func countsColumns(_ name: String, _ bytes: [UInt8], _ expected: Int) {
        #expect(DisplayWidth.of(bytes) == expected, "\(name)")
    }

    /// In the C locale GNU ls counts the printable ASCII bytes only.
    @Test(
        arguments: [
            ("ASCII", Array("abc".utf8), 3), ("CJK ideographs", Array("日本語".utf8), 0),
            ("Latin-1 letters", Array("café".utf8), 3), ("a byte that is not UTF-8", [0x61, 0xFE, 0x62], 2),
            ("a control character", Array("a\tb".utf8), 2),
        ] as [(String, [UInt8], Int)])
    func countsPrintableBytesInTheCLocale(_ name: String, _ bytes: [UInt8], _ expected: Int) {
        CharacterEncoding.$current.withValue(.ascii) { #expect(DisplayWidth.of(bytes) == expected, "\(name)") }
    }
}
