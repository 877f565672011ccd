/// Percent-encoding of object keys and query values, byte by byte, as SigV4 defines it: every
/// byte but the unreserved `A-Z a-z 0-9 - . _ ~` becomes `%XY` (uppercase hex), so a key that is
/// not UTF-8 survives the trip; in a path the `/` between key segments stays as it is.
///
///     URIEncoding.encode(Array("a b+c/d~".utf8), keepingSlashes: true)   // "a%20b%2Bc/d~"
///     URIEncoding.encode([0xFF], keepingSlashes: false)                   // "%FF"
public enum URIEncoding {
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `bytes` percent-encoded; `/` is left alone when `keepingSlashes` (a key in a path or in
    /// `x-amz-copy-source`), else encoded (a query name or value).
    public static func encode(_ bytes: some Sequence<UInt8>, keepingSlashes: Bool) -> String {
        var text: [UInt8] = []
        for byte in bytes {
            if isUnreserved(byte) || (keepingSlashes && byte == UInt8(ascii: "/")) {
                text.append(byte)
            } else {
                text.append(UInt8(ascii: "%"))
                text.append(hexDigits[Int(byte >> 4)])
                text.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes `text` percent-encodes, or nil when a `%` is not followed by two hex digits.
    ///
    /// `plusIsSpace` reads `+` as a space, as S3 writes keys in listings asked for with
    /// `encoding-type=url` (a literal `+` comes as `%2B` there).
    public static func decode(_ text: some Sequence<UInt8>, plusIsSpace: Bool) -> [UInt8]? {
        var bytes: [UInt8] = []
        var iterator = text.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue),
                    let low = iterator.next().flatMap(hexValue)
                else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return bytes
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
