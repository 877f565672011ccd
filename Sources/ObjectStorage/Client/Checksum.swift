import Crypto

/// The SHA-256 checksum of an object or of one part, as S3 carries it in
/// `x-amz-checksum-sha256`: sent with a body, the service refuses the body unless it matches
/// (`BadDigest`); asked for (`x-amz-checksum-mode: ENABLED`), it is given back.
public struct ObjectChecksum: Sendable, Hashable {
    /// The 32 bytes of the digest.
    public let digest: [UInt8]

    /// The checksum of `bytes`.
    public init(of bytes: UnsafeRawBufferPointer) {
        digest = Array(SHA256.hash(data: bytes))
    }

    /// The checksum of `bytes`.
    public init(of bytes: [UInt8]) {
        digest = Array(SHA256.hash(data: bytes))
    }

    /// The checksum a header names: the base64 of a 32-byte digest. A composite checksum (the
    /// digest of a multipart object's part checksums, written `…-N`) is not one of an object's
    /// bytes and gives nil.
    init?(headerValue: String) {
        guard let digest = BinaryText.bytes(base64: headerValue), digest.count == 32 else { return nil }
        self.digest = digest
    }

    fileprivate init(digest: [UInt8]) { self.digest = digest }

    /// The header's value: the digest in base64.
    var headerValue: String { BinaryText.base64(digest) }

    /// The header that carries a SHA-256 checksum.
    static let headerName = "x-amz-checksum-sha256"
}

/// The checksum S3 keeps for an object made of parts that each carried a SHA-256 checksum: the
/// SHA-256 of the parts' digests joined in part order, carried as `BASE64-N` (N parts) with
/// `x-amz-checksum-type: COMPOSITE`. It says nothing of the whole bytes; a download checks it by
/// working out each part's checksum where the parts begin and end (`S3Client.objectParts`).
public struct CompositeChecksum: Sendable, Hashable {
    /// The 32 bytes of the digest of the parts' digests.
    public let digest: [UInt8]
    /// How many parts the object was made of.
    public let partCount: Int

    /// The composite checksum a header names (`BASE64-N`); nil for any other value.
    init?(headerValue: String) {
        guard let dash = headerValue.lastIndex(of: "-"),
            let partCount = Int(headerValue[headerValue.index(after: dash)...]), partCount > 0,
            let digest = BinaryText.bytes(base64: String(headerValue[..<dash])), digest.count == 32
        else { return nil }
        self.digest = digest
        self.partCount = partCount
    }

    /// Whether `parts`, the checksums of the object's parts in order, make this checksum.
    public func isMade(of parts: [ObjectChecksum]) -> Bool {
        guard parts.count == partCount else { return false }
        var hash = SHA256()
        for part in parts { hash.update(data: part.digest) }
        return Array(hash.finalize()) == digest
    }
}

/// A SHA-256 checksum worked out from bytes given in order, for a download checked as it comes.
public struct ChecksumComputation {
    private var hash = SHA256()

    /// A computation over no bytes yet.
    public init() {}

    /// Adds `bytes`, which follow those given before.
    public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        hash.update(bufferPointer: bytes)
    }

    /// The checksum of every byte given.
    public func finished() -> ObjectChecksum {
        ObjectChecksum(digest: Array(hash.finalize()))
    }
}
