import Testing

@testable import ObjectStorage

extension SeaweedServer {
    /// Where its S3 API answers.
    var endpoint: S3Endpoint { S3Endpoint(url: "http://127.0.0.1:\(port)")! }

    /// A client of this server; `secret` replaces the right secret.
    func client(secret: String? = nil) -> S3Client {
        var credentials = self.credentials
        if let secret { credentials.secretAccessKey = secret }
        return S3Client(endpoint: endpoint, credentials: credentials)
    }

    /// Runs `body` with a client and a new bucket of its own, then empties and deletes the bucket.
    func withBucket(_ body: (S3Client, String) throws -> Void) throws {
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
