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
}
