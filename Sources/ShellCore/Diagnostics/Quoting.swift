/// Quoting of names for messages and terminal listings, as GNU's quotearg does in the running
/// command's locale (`CharacterEncoding.current`): in a UTF-8 locale printable UTF-8 stays as it
/// is, in any other every byte outside printable ASCII is escaped (`é` is `''$'\303\251'`).
public enum Quoting {
    /// GNU's `shell-escape-always` style, used in messages: always quoted, `'a b'`, `"it's"`,
    /// `'a'$'\n''b'`. Printable text stays as it is; control characters and invalid bytes become
    /// `$'\n'` / `$'\351'` escapes.
    public static func always(_ bytes: [UInt8]) -> String { quote(bytes, always: true) }

    /// GNU's `shell-escape` style, used by `ls` on a terminal: quoted only when needed.
    public static func ifNeeded(_ bytes: [UInt8]) -> String { quote(bytes, always: false) }

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
    public static func bare(_ bytes: [UInt8]) -> String {
        needsQuoting(bytes) ? ifNeeded(bytes) : String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a name would be printed differently from its bytes by `ifNeeded`.
    public static func needsQuoting(_ bytes: [UInt8]) -> Bool {
        if bytes.isEmpty { return true }
        if !isPrintable(bytes) { return true }
        if let first = bytes.first, first == 0x7E || first == 0x23 { return true }
        // Braces are special only as a whole word, as quotearg treats them.
        if bytes.count == 1, bytes[0] == 0x7B || bytes[0] == 0x7D { return true }
        return bytes.contains { shellSpecial.contains($0) }
    }

    /// The bytes quotearg's shell styles quote wherever they stand (`,`, `]`, `%`, `+`, `:` do not count).
    private static let shellSpecial: Set<UInt8> = Set(" \t!\"$&'()*;<=>?[\\^`|".utf8)

    /// Whether a terminal in the locale shows `bytes` as they are: printable ASCII only, or in a
    /// UTF-8 locale valid UTF-8 without control characters (no newline, tab or escape sequence,
    /// no C1 control, no invalid byte).
    public static func isPrintable(_ bytes: [UInt8]) -> Bool {
        if CharacterEncoding.current == .ascii { return bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        return !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) }
    }

    private static func quote(_ bytes: [UInt8], always: Bool) -> String {
        if !always && !needsQuoting(bytes) { return String(decoding: bytes, as: UTF8.self) }
        if isPrintable(bytes) {
            let text = String(decoding: bytes, as: UTF8.self)
            if !bytes.contains(0x27) { return "'" + text + "'" }
            if !bytes.contains(where: { [0x22, 0x24, 0x60, 0x5C, 0x21].contains($0) }) { return "\"" + text + "\"" }
            return "'" + escapingSingleQuotes(text) + "'"
        }
        // Split into printable runs (single-quoted) and escapes ($'...').
        var result = ""
        var run: [UInt8] = []
        var escapes = ""
        func flushRun() {
            guard !run.isEmpty else { return }
            let text = String(decoding: run, as: UTF8.self)
            result += "'" + escapingSingleQuotes(text) + "'"
            run = []
        }
        func flushEscapes() {
            guard !escapes.isEmpty else { return }
            // quotearg always opens with a quote, so a name that starts with an escape gets `''`.
            if result.isEmpty { result = "''" }
            result += "$'" + escapes + "'"
            escapes = ""
        }
        let encoding = CharacterEncoding.current
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = sequenceLength(bytes, at: index, in: encoding)
            if length > 1 || (byte >= 0x20 && byte < 0x7F) {
                flushEscapes()
                run.append(contentsOf: bytes[index..<(index + length)])
                index += length
                continue
            }
            flushRun()
            escapes += escape(byte)
            index += 1
        }
        flushRun()
        flushEscapes()
        return result
    }

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
    public static func locale(_ bytes: [UInt8]) -> String {
        let encoding = CharacterEncoding.current
        let (open, close) = encoding == .utf8 ? ("\u{2018}", "\u{2019}") : ("'", "'")
        let closeBytes = Array(close.utf8)
        var result = open
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: closeBytes) {
                result += "\\" + close
                index += closeBytes.count
                continue
            }
            let byte = bytes[index]
            let length = sequenceLength(bytes, at: index, in: encoding)
            if length > 1 {
                result += String(decoding: bytes[index..<(index + length)], as: UTF8.self)
            } else if byte == 0x5C {
                result += "\\\\"
            } else if byte >= 0x20 && byte < 0x7F {
                result.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                result += escape(byte)
            }
            index += length
        }
        return result + close
    }

    /// The length of a valid UTF-8 sequence of two or more bytes at `index` that is printable in a
    /// UTF-8 locale, else 1.
    private static func sequenceLength(
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

    private static func escape(_ byte: UInt8) -> String {
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

/// Text with each `'` written as `'\''`, for use inside single quotes.
private func escapingSingleQuotes(_ text: String) -> String {
    text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
}
