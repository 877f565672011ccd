import Testing

@testable import ObjectStorage

/// Listings as a real server wrote them, read into pages with their keys decoded.
@Suite struct ListPageTests {
    /// A ListObjectsV2 answer as SeaweedFS 4.48 sent it (`encoding-type=url`, one key
    /// `a b+c%d~e/f`), recorded with `aws s3api list-objects-v2 --debug`.
    static let seaweedListing = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>bucket-one</Name><Prefix></Prefix>\
        <MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated><Contents><Key>a%20b%2Bc%25d~e/f</Key>\
        <ETag>&#34;6520213d3695a344f306efffa2523807&#34;</ETag><Size>3</Size><StorageClass>STANDARD</StorageClass>\
        <LastModified>2026-11-26T05:52:27Z</LastModified></Contents><EncodingType>url</EncodingType>\
        <KeyCount>1</KeyCount></ListBucketResult>
        """

    /// The same listing with `delimiter=/`.
    static let seaweedDelimitedListing = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>bucket-one</Name><Prefix></Prefix>\
        <MaxKeys>1000</MaxKeys><Delimiter>/</Delimiter><IsTruncated>false</IsTruncated><CommonPrefixes>\
        <Prefix>a%20b%2Bc%25d~e/</Prefix></CommonPrefixes><EncodingType>url</EncodingType><KeyCount>1</KeyCount>\
        </ListBucketResult>
        """

    @Test func readsARecordedListing() throws {
        let page = try ListPage(listing: XMLElement.parse(Array(Self.seaweedListing.utf8)))
        #expect(page.objects.map(\.key) == [Array("a b+c%d~e/f".utf8)])
        #expect(page.objects.first?.size == 3)
        #expect(page.objects.first?.eTag == "\"6520213d3695a344f306efffa2523807\"")
        #expect(page.objects.first?.lastModified == UTCTime(iso8601: "2026-11-26T05:52:27Z"))
        #expect(page.objects.first?.storageClass == "STANDARD")
        #expect(page.commonPrefixes.isEmpty)
        #expect(!page.isTruncated)
    }

    @Test func readsARecordedDelimitedListing() throws {
        let page = try ListPage(listing: XMLElement.parse(Array(Self.seaweedDelimitedListing.utf8)))
        #expect(page.objects.isEmpty)
        #expect(page.commonPrefixes == [Array("a b+c%d~e/".utf8)])
    }
}
