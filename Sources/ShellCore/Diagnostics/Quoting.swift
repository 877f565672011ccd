/// Quoting of names for messages and terminal listings, as GNU's quotearg does in the running
/// command's locale (`CharacterEncoding.current`): in a UTF-8 locale printable UTF-8 stays as it
/// is, in any other every byte outside printable ASCII is escaped (`é` is `''$'\303\251'`).
public enum Quoting {
    /// GNU's `shell-escape-always` style, used in messages: always quoted, `'a b'`, `"it's"`,
    /// `'a'$'\n''b'`. Printable text stays as it is; control characters and invalid bytes become
    /// `$'\n'` / `$'\351'` escapes.
    public static func always(_ bytes: [UInt8]) -> String { text(quote(bytes, style: .shellEscapeAlways)) }

    /// GNU's `shell-escape` style, used by `ls` on a terminal: quoted only when needed.
    public static func ifNeeded(_ bytes: [UInt8]) -> String { text(quote(bytes, style: .shellEscape)) }

    /// `always(_:)` for text.
    public static func always(_ text: String) -> String { always(Array(text.utf8)) }

    /// `bytes` in single quotes, each `'` in them written `'\''`: text that shelf (and sh) read
    /// back as exactly these bytes, whatever they are (`export` and `alias` list values so).
    public static func readBack(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = [0x27]
        for byte in bytes {
            if byte == 0x27 { result += [0x27, 0x5C, 0x27, 0x27] } else { result.append(byte) }
        }
        return result + [0x27]
    }

    /// A name at the head of a message (`cat: NAME: reason`), as GNU's `quotef` writes it: as it
    /// is when `ifNeeded` would leave it so, else in `ifNeeded`'s quoting.
    public static func bare(_ bytes: [UInt8]) -> String { ifNeeded(bytes) }

    /// Whether a name would be printed differently from its bytes by `ifNeeded`.
    public static func needsQuoting(_ bytes: [UInt8]) -> Bool { quote(bytes, style: .shellEscape) != bytes }

    /// Whether a terminal in the locale shows `bytes` as they are: printable ASCII only, or in a
    /// UTF-8 locale valid UTF-8 without control characters (no newline, tab or escape sequence,
    /// no C1 control, no invalid byte).
    public static func isPrintable(_ bytes: [UInt8]) -> Bool {
        if CharacterEncoding.current == .ascii { return bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        return !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) }
    }

    /// `bytes` quoted in `style` as GNU's quotearg quotes them in the running command's locale,
    /// byte for byte (the styles that keep control characters keep them, and a byte that is not
    /// UTF-8 stays as it is). Each byte of `alsoQuoting` is quoted too, where the style can: a
    /// backslash before it in the styles with escapes (`d\:z`), quotes around the name in the
    /// shell styles that quote only when needed (`'d:z'`), nothing in the others — as `ls`
    /// quotes `:` in directory headers and its indicators after names.
    public static func quote(_ bytes: [UInt8], style: QuotingStyle, alsoQuoting: Set<UInt8> = []) -> [UInt8] {
        var quoter = Quoter(style: style, alsoQuoting: alsoQuoting, encoding: CharacterEncoding.current)
        if let quoted = quoter.quote(bytes) { return quoted }
        // The style quotes only when needed, and this name needs it: the style that always does.
        var always = Quoter(style: style.alwaysQuoting, alsoQuoting: [], encoding: CharacterEncoding.current)
        return always.quote(bytes) ?? bytes
    }

    /// `bytes` with a `?` for each character the locale cannot print (`ls -q`): each byte
    /// outside printable ASCII, or in a UTF-8 locale each control character, each byte that
    /// starts no valid sequence, and an unfinished sequence at the end as one.
    public static func hidingControlCharacters(_ bytes: [UInt8]) -> [UInt8] {
        let encoding = CharacterEncoding.current
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = sequenceLength(bytes, at: index, in: encoding)
            if length > 1 {
                result += bytes[index..<(index + length)]
            } else if byte >= 0x20 && byte < 0x7F {
                result.append(byte)
            } else {
                result.append(0x3F)
                if encoding == .utf8 && endsUnfinished(bytes, at: index) { break }
            }
            index += length
        }
        return result
    }

    /// Whether the bytes from `index` on are the start of a UTF-8 sequence cut short by the end.
    private static func endsUnfinished(_ bytes: [UInt8], at index: Int) -> Bool {
        let lead = bytes[index]
        let length = lead >= 0xF5 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 1
        let rest = bytes[(index + 1)...]
        return length > 1 && index + length > bytes.count && rest.allSatisfy { $0 & 0xC0 == 0x80 }
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// A name with C-style escapes for what is not printable (`\t`, `\377`) and a backslash
    /// before each backslash, space and double quote, unquoted: how `find -ls` writes names.
    public static func escaped(_ bytes: [UInt8]) -> String {
        let encoding = CharacterEncoding.current
        var result = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = sequenceLength(bytes, at: index, in: encoding)
            if length > 1 {
                result += String(decoding: bytes[index..<(index + length)], as: UTF8.self)
            } else if byte == 0x5C || byte == 0x20 || byte == 0x22 {
                result += "\\" + String(UnicodeScalar(byte))
            } else if byte >= 0x20 && byte < 0x7F {
                result.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                result += escape(byte)
            }
            index += length
        }
        return result
    }

    /// GNU's `locale` style, which `quote` gives messages that name an argument rather than a
    /// file (`invalid time style format 'a\nb\nc'`): always in quotes (`‘’` in a UTF-8 locale),
    /// with C-style escapes for what is not printable and a backslash before a backslash or the
    /// closing quote.
    public static func locale(_ bytes: [UInt8]) -> String { text(quote(bytes, style: .locale)) }

    /// The length of a valid UTF-8 sequence of two or more bytes at `index` that is printable in a
    /// UTF-8 locale, else 1.
    fileprivate static func sequenceLength(
        _ bytes: [UInt8], at index: Int, in encoding: CharacterEncoding
    ) -> Int {
        guard encoding == .utf8 else { return 1 }
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 1
        guard length > 1, index + length <= bytes.count,
            let text = String(validating: bytes[index..<(index + length)], as: UTF8.self),
            let scalar = text.unicodeScalars.first, !(0x80..<0xA0).contains(scalar.value)
        else { return 1 }
        return length
    }

    fileprivate static func escape(_ byte: UInt8) -> String {
        switch byte {
        case 0x07: return "\\a"
        case 0x08: return "\\b"
        case 0x0C: return "\\f"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x0B: return "\\v"
        default:
            let octal = String(byte, radix: 8)
            return "\\" + String(repeating: "0", count: 3 - octal.count) + octal
        }
    }
}

/// The quoting styles of GNU's quotearg, as `ls --quoting-style` names them.
public enum QuotingStyle: Sendable, Hashable {
    /// Names as they are.
    case literal
    /// In single quotes when the shell needs them; control characters kept as they are.
    case shell
    /// Always in single quotes; control characters kept as they are.
    case shellAlways
    /// In single quotes when the shell needs them, with `$'\n'` escapes for what is not printable.
    case shellEscape
    /// Always in single quotes, with `$'\n'` escapes for what is not printable.
    case shellEscapeAlways
    /// In double quotes, with C's escapes (`"a\tb"`).
    case c
    /// C's escapes, in double quotes only when some are needed.
    case cMaybe
    /// C's escapes, without quotes.
    case escape
    /// In the locale's quotes (`'…'`, `‘…’` in a UTF-8 locale), with C's escapes.
    case locale
    /// In the locale's quotes (`"…"`, `‘…’` in a UTF-8 locale), with C's escapes.
    case clocale

    /// The style a name gets when this one, quoting only when needed, finds that it needs to.
    fileprivate var alwaysQuoting: QuotingStyle {
        switch self {
        case .shell: return .shellAlways
        case .shellEscape: return .shellEscapeAlways
        case .cMaybe: return .c
        default: return self
        }
    }
}

/// One quoting of one name in one style, byte by byte as quotearg goes (its quirks included:
/// a name with a `'` and something else the shell treats specially is written a second time
/// over the first, starting with whether the first ended inside `$'…'`).
private struct Quoter {
    /// What the style comes to: shell quoting, C's escapes, or neither.
    private enum Kind { case shell, c, other }
    private let style: QuotingStyle
    private let kind: Kind
    private let alsoQuoting: Set<UInt8>
    private let encoding: CharacterEncoding
    /// Whether what is not printable is escaped with a backslash.
    private let backslashEscapes: Bool
    /// Whether quotes are left out while nothing needs them (the styles that quote when needed).
    private let elidesQuotes: Bool
    private let opening: [UInt8]
    private let closing: [UInt8]
    private var output: [UInt8] = []
    /// Whether a `$'…'` is open and must be closed before a byte that is not escaped.
    private var escapeOpen = false

    init(style: QuotingStyle, alsoQuoting: Set<UInt8>, encoding: CharacterEncoding) {
        self.style = style
        self.alsoQuoting = alsoQuoting
        self.encoding = encoding
        let curly = encoding == .utf8
        switch style {
        case .literal: (kind, backslashEscapes, elidesQuotes, opening, closing) = (.other, false, false, [], [])
        case .escape: (kind, backslashEscapes, elidesQuotes, opening, closing) = (.other, true, false, [], [])
        case .c, .cMaybe:
            (kind, backslashEscapes, elidesQuotes) = (.c, true, style == .cMaybe)
            (opening, closing) = ([0x22], [0x22])
        case .locale, .clocale:
            (kind, backslashEscapes, elidesQuotes) = (.other, true, false)
            let plain: [UInt8] = style == .locale ? [0x27] : [0x22]
            (opening, closing) = curly ? (Array("\u{2018}".utf8), Array("\u{2019}".utf8)) : (plain, plain)
        case .shell, .shellAlways, .shellEscape, .shellEscapeAlways:
            kind = .shell
            backslashEscapes = style == .shellEscape || style == .shellEscapeAlways
            elidesQuotes = style == .shell || style == .shellEscape
            (opening, closing) = ([0x27], [0x27])
        }
    }

    /// The quoted name, or nil when the style quotes only when needed and the name needs it.
    mutating func quote(_ bytes: [UInt8]) -> [UInt8]? {
        guard let first = pass(bytes, escapeOpenAtStart: false) else { return nil }
        if kind == .shell && !elidesQuotes && first.singleQuote {
            // A `'` among bytes that all read the same in C and in the shell: C's quotes.
            if first.compatibleWithC {
                var c = Quoter(style: .c, alsoQuoting: alsoQuoting, encoding: encoding)
                return c.quote(bytes)
            }
            // quotearg writes such a name again from the start, without resetting whether the
            // first writing ended inside `$'…'`.
            if escapeOpen { return pass(bytes, escapeOpenAtStart: true)?.output }
        }
        return first.output
    }

    /// Writes the name once; nil when it needs the quotes this style leaves out.
    private mutating func pass(_ bytes: [UInt8], escapeOpenAtStart: Bool) -> (
        output: [UInt8], singleQuote: Bool, compatibleWithC: Bool
    )? {
        output = elidesQuotes ? [] : opening
        escapeOpen = escapeOpenAtStart
        var singleQuote = false
        var compatibleWithC = true
        var index = 0
        while index < bytes.count {
            var byte = bytes[index]
            var compatible = false
            var escaped = false
            var isClosingQuote = false
            if backslashEscapes && kind != .shell && !closing.isEmpty && bytes[index...].starts(with: closing) {
                if elidesQuotes { return nil }
                isClosingQuote = true
            }
            var escapeLetter: UInt8?
            switch byte {
            case 0x3F:  // ?
                if kind == .shell && elidesQuotes { return nil }
            case 0x07: escapeLetter = 0x61  // a
            case 0x08: escapeLetter = 0x62  // b
            case 0x0C: escapeLetter = 0x66  // f
            case 0x0B: escapeLetter = 0x76  // v
            case 0x0A, 0x0D, 0x09:
                if kind == .shell && elidesQuotes { return nil }
                escapeLetter = byte == 0x0A ? 0x6E : byte == 0x0D ? 0x72 : 0x74
            case 0x5C:  // backslash
                if kind == .shell {
                    if elidesQuotes { return nil }
                    store(byte, compatible: false, &compatibleWithC)
                    index += 1
                    continue
                }
                if backslashEscapes && elidesQuotes {
                    store(byte, compatible: false, &compatibleWithC)
                    index += 1
                    continue
                }
                escapeLetter = byte
            case 0x7B, 0x7D, 0x23, 0x7E, 0x20:  // { } # ~ space
                // Braces are special alone, `#` and `~` at the start, a space anywhere.
                let special =
                    byte == 0x20 || ((byte == 0x23 || byte == 0x7E) && index == 0)
                    || ((byte == 0x7B || byte == 0x7D) && bytes.count == 1)
                if special {
                    compatible = true
                    if kind == .shell && elidesQuotes { return nil }
                }
            case 0x21, 0x22, 0x24, 0x26, 0x28, 0x29, 0x2A, 0x3B, 0x3C, 0x3D, 0x3E, 0x5B, 0x5E, 0x60, 0x7C:
                if kind == .shell && elidesQuotes { return nil }
            case 0x27:  // '
                singleQuote = true
                compatible = true
                if kind == .shell {
                    if elidesQuotes { return nil }
                    output += [0x27, 0x5C, 0x27]
                    escapeOpen = false
                }
            case 0x25, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30...0x3A, 0x41...0x5A, 0x5D, 0x5F, 0x61...0x7A:
                compatible = true
            default:
                let length = Quoting.sequenceLength(bytes, at: index, in: encoding)
                let printable = length > 1 || (byte >= 0x20 && byte < 0x7F)
                compatible = printable
                if length > 1 || (backslashEscapes && !printable) {
                    // A closing quote of more than one byte (`’`) gets a backslash before it.
                    if isClosingQuote { output.append(0x5C) }
                    for position in index..<(index + length) {
                        if backslashEscapes && !printable {
                            guard startEscape() else { return nil }
                            let value = bytes[position]
                            output += [0x30 + (value >> 6), 0x30 + ((value >> 3) & 7), 0x30 + (value & 7)]
                        } else {
                            endEscape(escaping: false)
                            output.append(bytes[position])
                        }
                    }
                    if !compatible { compatibleWithC = false }
                    index += length
                    continue
                }
            }
            if let escapeLetter, backslashEscapes {
                byte = escapeLetter
                escaped = true
            } else if isClosingQuote
                || (((backslashEscapes && kind != .shell) || elidesQuotes) && alsoQuoting.contains(byte))
            {
                escaped = true
            }
            if escaped {
                guard startEscape() else { return nil }
            }
            endEscape(escaping: escaped)
            store(byte, compatible: compatible, &compatibleWithC)
            index += 1
        }
        if output.isEmpty && kind == .shell && elidesQuotes { return nil }
        if !elidesQuotes { output += closing }
        return (output, singleQuote, compatibleWithC)
    }

    private mutating func store(_ byte: UInt8, compatible: Bool, _ compatibleWithC: inout Bool) {
        output.append(byte)
        if !compatible { compatibleWithC = false }
    }

    /// Writes the backslash of an escape (in the shell styles, inside `$'…'`); false when the
    /// style would first need the quotes it leaves out.
    private mutating func startEscape() -> Bool {
        if elidesQuotes { return false }
        if kind == .shell && !escapeOpen {
            output += [0x27, 0x24, 0x27]
            escapeOpen = true
        }
        output.append(0x5C)
        return true
    }

    /// Closes an open `$'…'` before a byte written as it is.
    private mutating func endEscape(escaping: Bool) {
        if escapeOpen && !escaping {
            output += [0x27, 0x27]
            escapeOpen = false
        }
    }
}
