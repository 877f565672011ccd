/// One object in a listing.
public struct ObjectSummary: Sendable, Hashable {
    /// The object's key, byte for byte.
    public var key: [UInt8]
    /// Its size in bytes.
    public var size: Int64
    /// When it was last written, if the server said.
    public var lastModified: UTCTime?
    /// Its entity tag, with the quotes S3 puts around it.
    public var eTag: String?
    /// Its storage class (`STANDARD`), if the server said.
    public var storageClass: String?
}

/// One page of a ListObjectsV2 listing.
public struct ListPage: Sendable, Hashable {
    /// The objects on this page, in key order.
    public var objects: [ObjectSummary]
    /// With a delimiter: the prefixes that stand for deeper keys (`photos/`), in order.
    public var commonPrefixes: [[UInt8]]
    /// Whether more pages follow.
    public var isTruncated: Bool
    /// The token that asks for the next page, when there is one.
    public var nextContinuationToken: String?
}

/// What a HEAD or a GET says about an object.
public struct ObjectHead: Sendable, Hashable {
    /// The whole object's size in bytes (not only the range read).
    public var size: Int64
    /// Its entity tag, with quotes.
    public var eTag: String?
    /// When it was last written.
    public var lastModified: UTCTime?
    /// Its `Content-Type`.
    public var contentType: String?
    /// Its storage class, when it is not STANDARD (S3 leaves the header out for STANDARD).
    public var storageClass: String?
    /// The checksum of its bytes, when it was stored with one and the answer gave it (not the
    /// composite checksum of a multipart object's parts).
    public var checksum: ObjectChecksum?
    /// The checksum of its parts' checksums, for an object made of parts that each carried one,
    /// when the answer gave it.
    public var compositeChecksum: CompositeChecksum?

    /// What is known of an object from elsewhere (a listing's line), the rest left unsaid.
    public init(
        size: Int64, eTag: String? = nil, lastModified: UTCTime? = nil, contentType: String? = nil,
        storageClass: String? = nil, checksum: ObjectChecksum? = nil, compositeChecksum: CompositeChecksum? = nil
    ) {
        self.size = size
        self.eTag = eTag
        self.lastModified = lastModified
        self.contentType = contentType
        self.storageClass = storageClass
        self.checksum = checksum
        self.compositeChecksum = compositeChecksum
    }
}

/// What GetObjectAttributes says of the parts an object was made of.
public struct ObjectParts: Sendable, Hashable {
    /// The object's entity tag, without quotes, if the answer gave it.
    public var eTag: String?
    /// The parts' sizes in bytes, in part order.
    public var sizes: [Int64]

    /// The most parts a multipart upload may have.
    public static let mostParts = 10_000
}

/// A range of an object's bytes, as HTTP's `Range: bytes=first-last` names it.
public struct ByteRange: Sendable, Hashable {
    /// The offset of the first byte.
    public var first: Int64
    /// The offset of the last byte, included; nil for "to the end".
    public var last: Int64?

    /// The bytes from `first` to `last` (included), or to the end.
    public init(first: Int64, last: Int64? = nil) {
        self.first = first
        self.last = last
    }

    /// The value of the `Range` header.
    var headerValue: String { "bytes=\(first)-" + (last.map(String.init) ?? "") }
}

/// A part of a multipart upload, as CompleteMultipartUpload lists it.
public struct CompletedPart: Sendable, Hashable {
    /// The part's number, 1 to 10,000.
    public var partNumber: Int
    /// The entity tag UploadPart answered with.
    public var eTag: String
    /// The checksum the part was sent with, for an upload begun `checksummed`.
    public var checksum: ObjectChecksum?

    /// A part from its number, entity tag, and the checksum it was sent with.
    public init(partNumber: Int, eTag: String, checksum: ObjectChecksum? = nil) {
        self.partNumber = partNumber
        self.eTag = eTag
        self.checksum = checksum
    }
}

/// A multipart upload that was started and neither completed nor aborted.
public struct MultipartUpload: Sendable, Hashable {
    /// The key it will write.
    public var key: [UInt8]
    /// Its id, which every later call on it names.
    public var uploadID: String
    /// When it was started.
    public var initiated: UTCTime?
}

/// A key a batch delete could not remove, and why.
public struct DeleteFailure: Sendable {
    /// The key.
    public var key: [UInt8]
    /// The server's error for it.
    public var error: S3Error
}
