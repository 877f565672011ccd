import ObjectStorage
import Testing

/// A file's size around S3Volume's default part size (8 MiB, aws cli's threshold), and the
/// requests its upload takes: "files larger than this go up in parts" (S3Volume.init), so a
/// file of a part's size is one PutObject, and a byte more a multipart upload of two parts.
public struct SizeAroundAPart: Sendable, CustomTestStringConvertible {
    public let testDescription: String
    /// The file's size in bytes.
    public let size: Int
    /// PutObject requests its upload sends.
    public let puts: Int
    /// Multipart uploads it begins and completes.
    public let multipartUploads: Int
    /// UploadPart requests it sends.
    public let parts: Int

    /// A part's size exactly, and a byte more.
    public static let rows = [
        SizeAroundAPart(testDescription: "exactly 8 MiB", size: 8 << 20, puts: 1, multipartUploads: 0, parts: 0),
        SizeAroundAPart(
            testDescription: "8 MiB and a byte", size: (8 << 20) + 1, puts: 0, multipartUploads: 1, parts: 2),
    ]

    /// Checks that `client` sent the requests of this upload, and of no other.
    public func expectRequests(sentBy client: S3Client, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(client.requestsSent(.putObject) == puts, sourceLocation: sourceLocation)
        #expect(client.requestsSent(.createMultipartUpload) == multipartUploads, sourceLocation: sourceLocation)
        #expect(client.requestsSent(.uploadPart) == parts, sourceLocation: sourceLocation)
        #expect(client.requestsSent(.completeMultipartUpload) == multipartUploads, sourceLocation: sourceLocation)
    }
}
