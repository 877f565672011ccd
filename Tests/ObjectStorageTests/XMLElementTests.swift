import Testing

@testable import ObjectStorage

@Suite struct XMLElementTests {
    /// An error answer as SeaweedFS sent it.
    static let seaweedError = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message><Resource>/b1</Resource>\
        <RequestId>18EB8279ED1B3DAAB1FD3E4B</RequestId><BucketName>b1</BucketName></Error>
        """

    @Test func readsARecordedError() throws {
        let root = try XMLElement.parse(Array(Self.seaweedError.utf8))
        #expect(root.name == "Error")
        #expect(root.string("Code") == "NoSuchBucket")
        #expect(root.string("Message") == "The specified bucket does not exist")
    }

    @Test(
        arguments: [
            ("entities", "<a>&lt;&gt;&amp;&quot;&apos;</a>", Array("<>&\"'".utf8)),
            ("character references", "<a>&#34;&#x41;&#233;</a>", Array("\"Aé".utf8)),
            ("CDATA", "<a><![CDATA[<not a tag> & raw]]></a>", Array("<not a tag> & raw".utf8)),
            ("comments and processing instructions", "<a>x<!-- no -->y<?pi z?></a>", Array("xy".utf8)),
            ("non-ASCII text", "<a>\u{FF}</a>", Array("\u{FF}".utf8)),
            ("empty element", "<a/>", []),
        ] as [(String, String, [UInt8])])
    func readsText(_ name: String, _ document: String, _ text: [UInt8]) throws {
        #expect(try XMLElement.parse(Array(document.utf8)).text == text, "\(name)")
    }

    @Test func keepsRawBytesInText() throws {
        let bytes = Array("<a>".utf8) + [0xFF, 0xFE] + Array("</a>".utf8)
        #expect(try XMLElement.parse(bytes).text == [0xFF, 0xFE])
    }

    @Test func dropsNamespacePrefixesAndAttributes() throws {
        let root = try XMLElement.parse(
            Array(#"<s3:R xmlns:s3="x" a='1>2'><s3:K b="/">v</s3:K></s3:R>"#.utf8))
        #expect(root.name == "R")
        #expect(root.string("K") == "v")
    }

    @Test(
        arguments: [
            ("nothing", "", XMLSyntaxError.Problem.noRootElement),
            ("text only", "hello", .noRootElement),
            ("unclosed", "<a><b></b>", .unexpectedEnd),
            ("mismatched", "<a></b>", .mismatchedEndTag),
            ("unknown entity", "<a>&nbsp;</a>", .unknownEntity),
            ("two roots", "<a/><b/>", .trailingContent),
        ] as [(String, String, XMLSyntaxError.Problem)])
    func refusesMalformedDocuments(_ name: String, _ document: String, _ problem: XMLSyntaxError.Problem) {
        #expect(throws: XMLSyntaxError.self, "\(name)") { try XMLElement.parse(Array(document.utf8)) }
        do {
            _ = try XMLElement.parse(Array(document.utf8))
        } catch {
            #expect(error.problem == problem, "\(name)")
        }
    }

    @Test func escapesWhatItWrites() {
        let escaped = XMLWriter.escaped(Array("a&b<c>\"d'\r".utf8))
        #expect(String(decoding: escaped, as: UTF8.self) == "a&amp;b&lt;c&gt;&quot;d&apos;&#13;")
        let parsed = try? XMLElement.parse(Array("<k>".utf8) + escaped + Array("</k>".utf8))
        #expect(parsed?.text == Array("a&b<c>\"d'\r".utf8))
    }

    @Test(
        arguments: [
            ("UTF-8", Array("été/日本".utf8), true), ("tab and line feed", [0x09, 0x0A], true),
            ("not UTF-8", [0xFF], false), ("a control character", [0x01], false),
        ] as [(String, [UInt8], Bool)])
    func knowsWhatXMLCanCarry(_ name: String, _ bytes: [UInt8], _ carried: Bool) {
        #expect(XMLWriter.canCarry(bytes) == carried, "\(name)")
    }
}
