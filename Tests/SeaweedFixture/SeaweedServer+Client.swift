import Foundation
import ObjectStorage
import ObjectVolume
import Testing

extension SeaweedServer {
    /// Where its S3 API answers.
    public var endpoint: S3Endpoint { S3Endpoint(url: "http://127.0.0.1:\(port)")! }

    /// A client of this server; `secret` replaces the right secret.
    public func client(secret: String? = nil) -> S3Client {
        var credentials = self.credentials
        if let secret { credentials.secretAccessKey = secret }
        return S3Client(endpoint: endpoint, credentials: credentials)
    }

    /// A client of this server whose credentials may only read and list.
    public func readOnlyClient() -> S3Client {
        S3Client(endpoint: endpoint, credentials: readOnlyCredentials)
    }

    /// Runs `body` with a client and a new bucket of its own, then empties and deletes the bucket.
    public func withBucket(_ body: (S3Client, String) throws -> Void) throws {
        let client = client()
        defer { try? client.shutdown() }
        let bucket = "test-\(UInt64.random(in: 0...UInt64.max))"
        try client.createBucket(bucket)
        defer { Self.removeBucket(bucket, client) }
        try body(client, bucket)
    }

    private static func removeBucket(_ bucket: String, _ client: S3Client) {
        for upload in (try? client.listMultipartUploads(bucket: bucket)) ?? [] {
            try? client.abortMultipartUpload(bucket: bucket, key: upload.key, uploadID: upload.uploadID)
        }
        var token: String?
        repeat {
            guard let page = try? client.listObjects(bucket: bucket, continuationToken: token) else { break }
            _ = try? client.deleteObjects(bucket: bucket, keys: page.objects.map(\.key))
            token = page.isTruncated ? page.nextContinuationToken : nil
        } while token != nil
        try? client.deleteBucket(bucket)
    }
}

extension SeaweedServer {
    /// One server for the whole test process, started at its first use and stopped when the
    /// process exits: for suites that run rows on every kind of volume.
    public static func shared() throws -> SeaweedServer {
        try SharedServer.instance.get()
    }

    /// Runs `body` with the top of an empty `S3Volume`: a prefix of its own in a bucket of the
    /// shared server, emptied afterwards.
    /// - Parameters:
    ///   - partSize: the volume's multipart part size.
    ///   - copyThreshold: the size above which the volume copies in parts.
    public static func withVolume(
        partSize: Int = 8 << 20, copyThreshold: UInt64 = S3Volume.largestCopy, _ body: (S3Volume) throws -> Void
    ) throws {
        let shared = try SharedServer.instance.get()
        let bucket = try SharedServer.instance.bucket()
        let client = shared.client()
        defer { try? client.shutdown() }
        let prefix = Array("t\(UInt64.random(in: 0...UInt64.max))/".utf8)
        defer { removeKeys(below: prefix, in: bucket, client) }
        try body(
            S3Volume(client: client, bucket: bucket, prefix: prefix, partSize: partSize, copyThreshold: copyThreshold))
    }

    /// Runs `body` with a volume on a prefix of its own in the shared server's bucket, reached
    /// through a proxy whose first request containing `pattern` (or first `times` such requests)
    /// meets `fault`. `pattern` is given the path of the volume's top in requests
    /// (`/BUCKET/PREFIX`), to name a key.
    public static func withVolume(
        throughProxyBreaking pattern: (_ top: String) -> String, with fault: FaultyProxy.Fault,
        times: Int = 1, partSize: Int = 5 << 20, concurrentRequests: Int = S3Volume.defaultConcurrentRequests,
        retryPolicy: RetryPolicy = RetryPolicy(), _ body: (S3Volume, FaultyProxy) throws -> Void
    ) throws {
        let server = try shared()
        try withVolume { direct in
            let top = "/\(direct.bucket)/" + String(decoding: direct.prefix, as: UTF8.self)
            let proxy = try FaultyProxy(
                to: server.port, breakingFirstRequestContaining: pattern(top), with: fault, times: times)
            defer { proxy.stop() }
            let client = S3Client(
                endpoint: S3Endpoint(url: "http://127.0.0.1:\(proxy.port)")!, credentials: server.credentials,
                retryPolicy: retryPolicy)
            defer { try? client.shutdown() }
            try body(
                S3Volume(
                    client: client, bucket: direct.bucket, prefix: direct.prefix, partSize: partSize,
                    concurrentRequests: concurrentRequests),
                proxy)
        }
    }

    /// Deletes every key below `prefix`, and the uploads begun there.
    private static func removeKeys(below prefix: [UInt8], in bucket: String, _ client: S3Client) {
        for upload in (try? client.listMultipartUploads(bucket: bucket, prefix: prefix)) ?? [] {
            try? client.abortMultipartUpload(bucket: bucket, key: upload.key, uploadID: upload.uploadID)
        }
        var token: String?
        repeat {
            guard let page = try? client.listObjects(bucket: bucket, prefix: prefix, continuationToken: token)
            else {
                break
            }
            _ = try? client.deleteObjects(bucket: bucket, keys: page.objects.map(\.key))
            token = page.isTruncated ? page.nextContinuationToken : nil
        } while token != nil
    }
}

/// The process's shared server and its bucket, made once.
private final class SharedServer: @unchecked Sendable {
    static let instance = SharedServer()
    private let lock = NSLock()
    private var server: Result<SeaweedServer, any Error>?
    private var bucketName: Result<String, any Error>?

    func get() throws -> SeaweedServer {
        lock.lock()
        defer { lock.unlock() }
        if server == nil {
            server = Result { try SeaweedServer.start() }
            atexit { SharedServer.instance.stop() }
        }
        return try server!.get()
    }

    func bucket() throws -> String {
        let server = try get()
        lock.lock()
        defer { lock.unlock() }
        if bucketName == nil {
            bucketName = Result {
                let client = server.client()
                defer { try? client.shutdown() }
                let name = "shared-\(UInt64.random(in: 0...UInt64.max))"
                try client.createBucket(name)
                return name
            }
        }
        return try bucketName!.get()
    }

    func stop() {
        lock.lock()
        defer { lock.unlock() }
        if case .success(let server) = server { server.stop() }
        server = nil
    }
}

extension S3Client {
    /// Writes `key` in `bucket` as a multipart upload of `parts` (UploadPart for each, then
    /// CompleteMultipartUpload), each part with its SHA-256 checksum when `checksummed`.
    /// - Returns: the checksums the parts were sent with (none unless `checksummed`).
    @discardableResult
    public func uploadParts(
        _ parts: [[UInt8]], of key: [UInt8], in bucket: String, checksummed: Bool
    ) throws -> [ObjectChecksum] {
        let upload = try createMultipartUpload(bucket: bucket, key: key, checksummed: checksummed)
        var completed: [CompletedPart] = []
        for (index, part) in parts.enumerated() {
            let checksum = checksummed ? ObjectChecksum(of: part) : nil
            var sent = 0
            let eTag = try uploadPart(
                bucket: bucket, key: key, uploadID: upload, partNumber: index + 1, length: Int64(part.count),
                checksum: checksum, rewind: { sent = 0 }
            ) { buffer in
                let count = min(buffer.count, part.count - sent)
                part[sent..<sent + count].withUnsafeBytes { buffer.copyMemory(from: $0) }
                sent += count
                return count
            }
            completed.append(CompletedPart(partNumber: index + 1, eTag: eTag, checksum: checksum))
        }
        try completeMultipartUpload(bucket: bucket, key: key, uploadID: upload, parts: completed)
        return completed.compactMap(\.checksum)
    }
}
