/// Brace expansion, as bash does it before any other expansion: `file{,.bak}` is `file
/// file.bak`, `src/{a,b}` is `src/a src/b`, `{1..3}` is `1 2 3`, `{a..e..2}` is `a c e`, and
/// `{01..10}` pads to two digits. Only unquoted braces and commas count; a brace with neither a
/// comma nor a sequence inside (`{a}`, `{}`) stays as written.
public enum BraceExpansion {
    /// A brace expansion that would make more words than `BraceExpansion.limit`.
    public struct TooManyWords: Error, Sendable, Hashable {
        /// The word as written.
        public var word: Word
    }

    /// The most words one word may expand to.
    public static let limit = 100_000

    /// The words `word` stands for: itself when it has no brace expression.
    /// - Throws: `TooManyWords` when it would make more than `limit` words.
    public static func expand(_ word: Word) throws(TooManyWords) -> [Word] {
        // Most words have no brace: they are not taken apart.
        let hasOpeningBrace = word.pieces.contains { piece in
            if case .text(let bytes, quoted: false) = piece { bytes.contains(0x7B) } else { false }
        }
        guard hasOpeningBrace else { return [word] }
        let items = Item.items(of: word.pieces)
        var results: [[Item]] = []
        try expand(items, into: &results, word: word)
        // Words that brace expansion left empty (`{,}`) are dropped, as bash drops them.
        return results.filter { !$0.isEmpty }.map { Word(pieces: Item.pieces(of: $0), range: word.range) }
    }

    /// The word for messages: its text, quotes removed, `$NAME` for a variable.
    public static func spelled(_ word: Word) -> String {
        var bytes: [UInt8] = []
        for piece in word.pieces {
            switch piece {
            case .text(let text, _): bytes += text
            case .variable(let variable, _): bytes += Array("$\(variable.name)".utf8)
            }
        }
        return Quoting.bare(bytes)
    }

    /// One element of a word: an unquoted byte, one of the three bytes that make a brace
    /// expression, or a piece that brace expansion never looks into (quoted text, a variable).
    enum Item: Hashable {
        case byte(UInt8)
        case open, comma, close
        case piece(WordPiece)

        /// The items of `pieces`, unquoted text byte by byte.
        static func items(of pieces: [WordPiece]) -> [Item] {
            var items: [Item] = []
            for piece in pieces {
                guard case .text(let bytes, quoted: false) = piece else {
                    items.append(.piece(piece))
                    continue
                }
                for byte in bytes {
                    switch byte {
                    case 0x7B: items.append(.open)
                    case 0x2C: items.append(.comma)
                    case 0x7D: items.append(.close)
                    default: items.append(.byte(byte))
                    }
                }
            }
            return items
        }

        /// The pieces `items` make, runs of unquoted bytes joined into one text piece.
        static func pieces(of items: [Item]) -> [WordPiece] {
            var pieces: [WordPiece] = []
            var text: [UInt8] = []
            for item in items {
                switch item {
                case .byte(let byte): text.append(byte)
                case .open: text.append(0x7B)
                case .comma: text.append(0x2C)
                case .close: text.append(0x7D)
                case .piece(let piece):
                    if !text.isEmpty { pieces.append(.text(text, quoted: false)) }
                    text = []
                    pieces.append(piece)
                }
            }
            if !text.isEmpty { pieces.append(.text(text, quoted: false)) }
            return pieces
        }
    }

    /// Appends to `results` the expansions of `items`, left to right: the first brace expression
    /// is replaced by each of its alternatives in turn, and each result expanded again.
    private static func expand(_ items: [Item], into results: inout [[Item]], word: Word) throws(TooManyWords) {
        var start = 0
        while let open = items[start...].firstIndex(of: .open) {
            guard let (close, commas) = matchingClose(items, open) else { break }
            let inside = Array(items[(open + 1)..<close])
            let alternatives: [[Item]]
            if !commas.isEmpty {
                var bounds = [open] + commas + [close]
                bounds.sort()
                alternatives = zip(bounds, bounds.dropFirst()).map { Array(items[($0 + 1)..<$1]) }
            } else if let sequence = try sequence(inside, word: word) {
                alternatives = sequence
            } else {
                start = open + 1
                continue
            }
            let before = items[..<open]
            let after = items[(close + 1)...]
            for alternative in alternatives {
                try expand(Array(before) + alternative + Array(after), into: &results, word: word)
                if results.count > limit { throw TooManyWords(word: word) }
            }
            return
        }
        results.append(items)
    }

    /// The `}` that closes the `{` at `open`, and the commas directly inside it; nil when none
    /// closes it.
    private static func matchingClose(_ items: [Item], _ open: Int) -> (Int, [Int])? {
        var depth = 0
        var commas: [Int] = []
        for index in open..<items.count {
            switch items[index] {
            case .open: depth += 1
            case .comma where depth == 1: commas.append(index)
            case .close:
                depth -= 1
                if depth == 0 { return (index, commas) }
            default: break
            }
        }
        return nil
    }

    /// The words of a sequence expression (`1..5`, `05..1..2`, `a..e`), or nil when `inside`
    /// is not one.
    private static func sequence(_ inside: [Item], word: Word) throws(TooManyWords) -> [[Item]]? {
        var text: [UInt8] = []
        for item in inside {
            guard case .byte(let byte) = item else { return nil }
            text.append(byte)
        }
        let parts = String(decoding: text, as: UTF8.self).split(separator: "..", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var step = 1
        if parts.count == 3 {
            guard let given = Int(parts[2]) else { return nil }
            step = given == 0 ? 1 : abs(given)
        }
        let values: [String]
        if let first = Int(parts[0]), let last = Int(parts[1]) {
            guard (abs(last - first) / step) < limit else { throw TooManyWords(word: word) }
            let width = [parts[0], parts[1]].contains(where: isZeroPadded) ? max(parts[0].count, parts[1].count) : 0
            values = stride(from: first, through: last, by: first <= last ? step : -step).map { padded($0, width) }
        } else if let first = singleLetter(parts[0]), let last = singleLetter(parts[1]) {
            values = stride(from: Int(first), through: Int(last), by: first <= last ? step : -step)
                .map { String(UnicodeScalar(UInt8($0))) }
        } else {
            return nil
        }
        return values.map { $0.utf8.map { Item.byte($0) } }
    }

    /// Whether a bound is written with a leading zero (`01`, `-05`), which pads every number.
    private static func isZeroPadded(_ bound: Substring) -> Bool {
        let digits = bound.hasPrefix("-") ? bound.dropFirst() : bound
        return digits.count > 1 && digits.hasPrefix("0")
    }

    /// `value` in decimal, zero-padded to `width` characters (the sign included), as bash pads.
    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - sign.count - digits.count)) + digits
    }

    /// The ASCII letter a bound is, if it is one letter.
    private static func singleLetter(_ bound: Substring) -> UInt8? {
        guard bound.utf8.count == 1, let byte = bound.utf8.first, (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        else { return nil }
        return byte
    }
}
