/// Lowercase hexadecimal and standard base64, the two spellings of binary values in S3 requests.
enum BinaryText {
    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static let base64Alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` as lowercase hexadecimal, two digits a byte: a signature, a SHA-256 payload hash.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        for byte in bytes {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `bytes` in base64 with padding (RFC 4648): the form of `Content-MD5`.
    static func base64(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                if position <= count {
                    text.append(base64Alphabet[Int((group >> UInt32(18 - 6 * position)) & 0x3F)])
                } else {
                    text.append(UInt8(ascii: "="))
                }
            }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes that padded base64 `text` (RFC 4648) spells, or nil when it is not base64.
    static func bytes(base64 text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 4 * 3)
        var index = 0
        while index < characters.count {
            var group: UInt32 = 0
            var padding = 0
            for position in 0..<4 {
                let character = characters[index + position]
                let value: UInt8
                if character == UInt8(ascii: "=") && position >= 2 && index + 4 == characters.count {
                    padding += 1
                    value = 0
                } else if padding > 0 {
                    return nil
                } else if let found = base64Alphabet.firstIndex(of: character) {
                    value = UInt8(found)
                } else {
                    return nil
                }
                group = group << 6 | UInt32(value)
            }
            bytes.append(UInt8(group >> 16))
            if padding < 2 { bytes.append(UInt8(truncatingIfNeeded: group >> 8)) }
            if padding < 1 { bytes.append(UInt8(truncatingIfNeeded: group)) }
            index += 4
        }
        return bytes
    }
}
