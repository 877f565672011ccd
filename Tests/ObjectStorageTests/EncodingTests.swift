import Testing

@testable import ObjectStorage

@Suite struct URIEncodingTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var key: [UInt8]
        var path: String
        var query: String
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "unreserved characters stay", key: Array("Az09-._~".utf8), path: "Az09-._~",
            query: "Az09-._~"),
        Row(name: "plus", key: Array("a+b".utf8), path: "a%2Bb", query: "a%2Bb"),
        Row(name: "percent", key: Array("100%".utf8), path: "100%25", query: "100%25"),
        Row(name: "space", key: Array("a b".utf8), path: "a%20b", query: "a%20b"),
        Row(name: "double slash", key: Array("a//b/".utf8), path: "a//b/", query: "a%2F%2Fb%2F"),
        Row(
            name: "reserved punctuation", key: Array("=&?#:@!$'()*,;".utf8),
            path: "%3D%26%3F%23%3A%40%21%24%27%28%29%2A%2C%3B",
            query: "%3D%26%3F%23%3A%40%21%24%27%28%29%2A%2C%3B"),
        Row(
            name: "non-ASCII UTF-8", key: Array("été/日本".utf8), path: "%C3%A9t%C3%A9/%E6%97%A5%E6%9C%AC",
            query: "%C3%A9t%C3%A9%2F%E6%97%A5%E6%9C%AC"),
        Row(
            name: "bytes that are not UTF-8", key: [0xFF, 0xFE, 0x2F, 0x80], path: "%FF%FE/%80",
            query: "%FF%FE%2F%80"),
        Row(
            name: "control characters", key: [0x0A, 0x09, 0x00, 0x7F], path: "%0A%09%00%7F",
            query: "%0A%09%00%7F"),
    ]

    @Test(arguments: rows)
    func encodesAndDecodesBack(_ row: Row) {
        #expect(URIEncoding.encode(row.key, keepingSlashes: true) == row.path)
        #expect(URIEncoding.encode(row.key, keepingSlashes: false) == row.query)
        #expect(URIEncoding.decode(row.path.utf8, plusIsSpace: false) == row.key)
        #expect(URIEncoding.decode(row.query.utf8, plusIsSpace: true) == row.key)
    }

    @Test func everyByteRoundTrips() {
        let all = (0...255).map { UInt8($0) }
        #expect(
            URIEncoding.decode(URIEncoding.encode(all, keepingSlashes: false).utf8, plusIsSpace: true) == all)
        #expect(
            URIEncoding.decode(URIEncoding.encode(all, keepingSlashes: true).utf8, plusIsSpace: true) == all)
    }

    @Test(
        arguments: [
            ("plus is a space in listings", "a+b%2Bc", true, Array("a b+c".utf8)),
            ("plus is itself elsewhere", "a+b", false, Array("a+b".utf8)),
            ("lowercase hex digits", "%c3%a9", false, [0xC3, 0xA9]),
        ] as [(String, String, Bool, [UInt8])])
    func decodes(_ name: String, _ text: String, _ plusIsSpace: Bool, _ bytes: [UInt8]) {
        #expect(URIEncoding.decode(text.utf8, plusIsSpace: plusIsSpace) == bytes, "\(name)")
    }

    @Test(arguments: ["%", "%4", "%G0", "a%2"])
    func aMalformedEscapeIsRefused(_ text: String) {
        #expect(URIEncoding.decode(text.utf8, plusIsSpace: true) == nil)
    }
}

@Suite struct BinaryTextTests {
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func base64IsRFC4648(_ text: String, _ encoded: String) {
        #expect(BinaryText.base64(Array(text.utf8)) == encoded)
    }

    @Test func hexIsLowercaseTwoDigitsAByte() {
        #expect(BinaryText.hex([0x00, 0x0F, 0xA0, 0xFF]) == "000fa0ff")
    }
}

@Suite struct UTCTimeTests {
    @Test(
        arguments: [
            (0, "19700101T000000Z"), (1_369_353_600, "20130524T000000Z"), (1_440_938_160, "20150830T123600Z"),
            (951_782_400, "20000229T000000Z"), (4_102_444_799, "20991231T235959Z"), (-1, "19691231T235959Z"),
        ] as [(Int64, String)])
    func formatsTheCompactTimestamp(_ seconds: Int64, _ text: String) {
        #expect(UTCTime(secondsSince1970: seconds).compactTimestamp == text)
    }

    @Test(
        arguments: [
            ("2013-05-24T00:00:00.000Z", 1_369_353_600, 0),
            ("2026-11-26T05:52:27Z", 1_795_672_347, 0),
            ("2009-10-12T17:50:30.5Z", 1_255_369_830, 500_000_000),
            ("2000-02-29T12:00:00.123456789Z", 951_825_600, 123_456_789),
        ] as [(String, Int64, Int32)])
    func readsISO8601(_ text: String, _ seconds: Int64, _ nanoseconds: Int32) {
        #expect(UTCTime(iso8601: text) == UTCTime(secondsSince1970: seconds, nanoseconds: nanoseconds))
    }

    @Test func readsAnHTTPDate() {
        #expect(
            UTCTime(httpDate: "Fri, 24 May 2013 00:00:00 GMT") == UTCTime(secondsSince1970: 1_369_353_600))
    }

    @Test(arguments: [
        "", "2013-05-24", "2013-13-24T00:00:00Z", "2013-05-24T00:00:00", "2013-05-24T00:00:00.Z",
    ])
    func refusesWhatIsNotATimestamp(_ text: String) {
        #expect(UTCTime(iso8601: text) == nil)
    }
}
