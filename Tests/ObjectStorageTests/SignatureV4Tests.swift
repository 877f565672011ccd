import Testing

@testable import ObjectStorage

/// The signer against the worked examples AWS publishes: the S3 "Examples: Signature
/// Calculations" (examplebucket, AKIAIOSFODNN7EXAMPLE, 2013-05-24) and the general SigV4 example
/// (IAM ListUsers, AKIDEXAMPLE, 2015-08-30). Every expected value below is copied from that
/// documentation.
@Suite struct SignatureV4Tests {
    static let s3Credentials = Credentials(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    /// 2013-05-24T00:00:00Z, the time of the S3 examples.
    static let s3Time = UTCTime(secondsSince1970: 1_369_353_600)
    static let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    struct Example: CustomTestStringConvertible, Sendable {
        var name: String
        var request: SignableRequest
        var canonicalRequestHash: String
        var signedHeaders: String
        var signature: String
        var testDescription: String { name }
    }

    static let s3Examples: [Example] = [
        Example(
            name: "GET object, first ten bytes",
            request: SignableRequest(
                method: "GET", path: "/test.txt",
                headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9")],
                payload: .sha256(emptyHash)),
            canonicalRequestHash: "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972",
            signedHeaders: "host;range;x-amz-content-sha256;x-amz-date",
            signature: "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"),
        Example(
            name: "PUT object, signed payload, a key with $",
            request: SignableRequest(
                method: "PUT",
                path: "/" + URIEncoding.encode(Array("test$file.text".utf8), keepingSlashes: true),
                headers: [
                    ("Host", "examplebucket.s3.amazonaws.com"), ("Date", "Fri, 24 May 2013 00:00:00 GMT"),
                    ("x-amz-storage-class", "REDUCED_REDUNDANCY"),
                ],
                payload: .of(Array("Welcome to Amazon S3.".utf8))),
            canonicalRequestHash: "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d",
            signedHeaders: "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
            signature: "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"),
        Example(
            name: "GET bucket lifecycle, a query name without value",
            request: SignableRequest(
                method: "GET", path: "/", query: [QueryItem("lifecycle")],
                headers: [("Host", "examplebucket.s3.amazonaws.com")], payload: .empty),
            canonicalRequestHash: "9766c798316ff2757b517bc739a67f6213b4ab36dd5da2f94eaebf79c77395ca",
            signedHeaders: "host;x-amz-content-sha256;x-amz-date",
            signature: "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"),
        Example(
            name: "GET bucket, list with query given out of order",
            request: SignableRequest(
                method: "GET", path: "/", query: [QueryItem("prefix", "J"), QueryItem("max-keys", "2")],
                headers: [("Host", "examplebucket.s3.amazonaws.com")], payload: .empty),
            canonicalRequestHash: "df57d21db20da04d7fa30298dd4488ba3a2b47ca3a489c74750e0f1e7df1b9b7",
            signedHeaders: "host;x-amz-content-sha256;x-amz-date",
            signature: "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"),
    ]

    @Test(arguments: s3Examples)
    func signsTheS3Example(_ example: Example) {
        let signer = SignatureV4(credentials: Self.s3Credentials, region: "us-east-1")
        let signed = signer.sign(example.request, at: Self.s3Time)
        #expect(
            signed.stringToSign
                == "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
                + example.canonicalRequestHash)
        #expect(signed.signature == example.signature)
        #expect(
            signed.authorization
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=\(example.signedHeaders), Signature=\(example.signature)")
        #expect(signed.headers.contains { $0.name == "x-amz-date" && $0.value == "20130524T000000Z" })
        #expect(
            signed.headers.contains {
                $0.name == "x-amz-content-sha256" && $0.value == example.request.payload.value
            })
    }

    @Test func theGetObjectCanonicalRequestIsTheDocumentedOne() {
        let signed = SignatureV4(credentials: Self.s3Credentials, region: "us-east-1")
            .sign(Self.s3Examples[0].request, at: Self.s3Time)
        #expect(
            signed.canonicalRequest == """
                GET
                /test.txt

                host:examplebucket.s3.amazonaws.com
                range:bytes=0-9
                x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                x-amz-date:20130524T000000Z

                host;range;x-amz-content-sha256;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
    }

    @Test func thePutObjectPayloadHashIsTheDocumentedOne() {
        #expect(
            PayloadHash.of(Array("Welcome to Amazon S3.".utf8))
                == .sha256("44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072"))
        #expect(PayloadHash.empty == .sha256(Self.emptyHash))
    }

    /// The general example: IAM ListUsers, no `x-amz-content-sha256` (it is S3's alone).
    @Test func signsTheGeneralExample() {
        let signer = SignatureV4(
            credentials: Credentials(
                accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
            region: "us-east-1", service: "iam")
        let request = SignableRequest(
            method: "GET", path: "/",
            query: [QueryItem("Version", "2010-05-08"), QueryItem("Action", "ListUsers")],
            headers: [
                ("Host", "iam.amazonaws.com"),
                ("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"),
            ],
            payload: .empty)
        let signed = signer.sign(request, at: UTCTime(secondsSince1970: 1_440_938_160))
        #expect(
            BinaryText.hex(signer.signingKey(date: "20150830").withUnsafeBytes { Array($0) })
                == "c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9")
        #expect(signed.queryString == "Action=ListUsers&Version=2010-05-08")
        #expect(
            signed.stringToSign
                == "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/iam/aws4_request\n"
                + "f536975d06c0309214f805bb90ccff089219ecd68b2577efef23edd43b7e1a59")
        #expect(
            signed.authorization
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, "
                + "SignedHeaders=content-type;host;x-amz-date, "
                + "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7")
        #expect(!signed.headers.contains { $0.name == "x-amz-content-sha256" })
    }

    @Test func anUnsignedPayloadIsSignedAsTheLiteral() {
        let signer = SignatureV4(credentials: Self.s3Credentials, region: "us-east-1")
        var request = Self.s3Examples[1].request
        request.payload = .unsigned
        let signed = signer.sign(request, at: Self.s3Time)
        #expect(signed.canonicalRequest.hasSuffix("\nUNSIGNED-PAYLOAD"))
        #expect(
            signed.headers.contains { $0.name == "x-amz-content-sha256" && $0.value == "UNSIGNED-PAYLOAD" })
        #expect(signed.signature != Self.s3Examples[1].signature)
    }

    @Test func aSessionTokenIsSentAndSigned() {
        var credentials = Self.s3Credentials
        credentials.sessionToken = "session/token+value="
        let signed = SignatureV4(credentials: credentials, region: "us-east-1")
            .sign(Self.s3Examples[0].request, at: Self.s3Time)
        #expect(
            signed.headers.contains {
                $0.name == "x-amz-security-token" && $0.value == "session/token+value="
            })
        #expect(signed.canonicalRequest.contains("\nx-amz-security-token:session/token+value=\n"))
        #expect(
            signed.authorization.contains(
                "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date;x-amz-security-token,"))
        #expect(signed.signature != Self.s3Examples[0].signature)
    }

    @Test func headerValuesAreTrimmedAndRepeatedNamesJoined() {
        let canonical = SignatureV4.canonicalHeaders([
            (name: "X-Amz-Meta-A", value: "  two   words "), (name: "x-amz-meta-a", value: "second"),
            (name: "Host", value: "h"),
        ])
        #expect(canonical.lines == "host:h\nx-amz-meta-a:two words,second\n")
        #expect(canonical.signedNames == "host;x-amz-meta-a")
    }

    @Test func queryValuesAreEncodedAsBytesAndSorted() {
        let query = SignatureV4.canonicalQuery([
            QueryItem("prefix", [0x61, 0x20, 0x2B, 0x2F, 0xFF]), QueryItem("delimiter", "/"),
            QueryItem("uploads"),
        ])
        #expect(query == "delimiter=%2F&prefix=a%20%2B%2F%FF&uploads=")
    }
}
