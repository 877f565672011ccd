import Crypto
import Dispatch
import NIOHTTP1
import Synchronization

/// A client for an S3-compatible service, with a blocking face for the shell: every call runs on
/// the caller's thread and returns when the answer is complete.
///
/// Buckets are addressed in the path against `endpoint`; keys are bytes end to end. Every
/// failure is an `S3Error` (or what a caller's source or sink threw).
///
///     let client = S3Client(endpoint: S3Endpoint(url: "http://127.0.0.1:8333")!,
///                           credentials: Credentials(accessKeyID: "…", secretAccessKey: "…"))
///     defer { try? client.shutdown() }
///     let page = try client.listObjects(bucket: "photos", prefix: Array("2024/".utf8), delimiter: "/")
public final class S3Client: Sendable {
    /// Where the service answers.
    public let endpoint: S3Endpoint
    /// How requests are signed.
    public let signer: SignatureV4
    /// How failed requests are tried again.
    public let retryPolicy: RetryPolicy
    private let transport: Transport
    /// How many requests of each operation were sent, by `Operation.rawValue`.
    private let tally = Mutex([Int](repeating: 0, count: Operation.allCases.count))
    /// The signing key of the last day a request was signed on.
    private let dailyKey = Mutex<(date: String, key: SymmetricKey)?>(nil)

    /// A client for `endpoint`, signing with `credentials` for `region`.
    ///
    /// A connection refused (nothing listens) fails at once with `.connectionRefused`, without
    /// trying again; one that cannot be made within `connectTimeout` seconds (a host that does
    /// not answer) fails with `.timedOut`; an
    /// answer silent for `readTimeout` seconds, or a body the connection takes nothing of for as
    /// long, fails with `.timedOut`. A request that fails for a passing reason is tried again as
    /// `retryPolicy` says. A request waiting on the connection asks `isInterrupted` ten times a
    /// second, and gives up with `.interrupted` once it says yes (Ctrl-C).
    public init(
        endpoint: S3Endpoint, credentials: Credentials, region: String = "us-east-1",
        connectTimeout: Int64 = 3, readTimeout: Int64 = 60, retryPolicy: RetryPolicy = RetryPolicy(),
        isInterrupted: @escaping @Sendable () -> Bool = { false }
    ) {
        self.endpoint = endpoint
        self.retryPolicy = retryPolicy
        self.signer = SignatureV4(credentials: credentials, region: region)
        self.transport = Transport(
            connectTimeout: connectTimeout, readTimeout: readTimeout, isInterrupted: isInterrupted)
    }

    /// Closes the client's connections. Call it once, when done; a request made after it fails
    /// (`.unreachable`). (A client dropped without it trips async-http-client's assertion in
    /// debug builds.)
    public func shutdown() throws {
        try transport.shutdown()
    }

    // MARK: Requests sent

    /// The calls a client makes, each one kind of request.
    public enum Operation: Int, Sendable, CaseIterable {
        case createBucket, deleteBucket, listObjects, headObject, getObject, putObject, deleteObject
        case deleteObjects, copyObject, createMultipartUpload, uploadPart, completeMultipartUpload
        case abortMultipartUpload, listMultipartUploads, uploadPartCopy
        case listBuckets, getObjectAttributes
    }

    /// How many requests of `operation` this client has sent so far (each attempt counts), so
    /// that what a command costs can be measured.
    public func requestsSent(_ operation: Operation) -> Int {
        tally.withLock { $0[operation.rawValue] }
    }

    // MARK: Buckets

    /// Creates `bucket` (CreateBucket, in the client's region).
    public func createBucket(_ bucket: String) throws {
        var body: [UInt8]?
        if signer.region != "us-east-1" {
            body = Array(
                ("<CreateBucketConfiguration><LocationConstraint>\(signer.region)"
                    + "</LocationConstraint></CreateBucketConfiguration>").utf8)
        }
        _ = try send(.createBucket, method: .PUT, bucket: bucket, body: body)
    }

    /// Deletes `bucket`, which must be empty (DeleteBucket).
    public func deleteBucket(_ bucket: String) throws {
        _ = try send(.deleteBucket, method: .DELETE, bucket: bucket)
    }

    /// The buckets the credentials' owner has, in the service's order (ListBuckets, `GET /`;
    /// every page, when the service pages them with a `ContinuationToken`).
    public func listBuckets() throws -> [BucketSummary] {
        var buckets: [BucketSummary] = []
        var token: String?
        repeat {
            let query = token.map { [QueryItem("continuation-token", $0)] } ?? []
            let root = try document(
                send(.listBuckets, method: .GET, bucket: "", query: query),
                expecting: "ListAllMyBucketsResult")
            for bucket in root.child("Buckets")?.children("Bucket") ?? [] {
                guard let name = bucket.string("Name") else { throw S3Error(.malformedResponse, status: 200) }
                buckets.append(
                    BucketSummary(
                        name: name,
                        creationDate: bucket.string("CreationDate").flatMap { UTCTime(iso8601: $0) }))
            }
            token = root.string("ContinuationToken").flatMap { $0.isEmpty ? nil : $0 }
        } while token != nil
        return buckets
    }

    // MARK: Listing

    /// One page of the keys in `bucket` that start with `prefix` (ListObjectsV2).
    ///
    /// With a `delimiter`, keys that go on past it after the prefix are folded into
    /// `commonPrefixes`. Keys travel URL-encoded (`encoding-type=url`), so any bytes survive.
    /// Pass the previous page's `nextContinuationToken` to read the next page.
    public func listObjects(
        bucket: String, prefix: [UInt8] = [], delimiter: String? = nil, continuationToken: String? = nil,
        startAfter: [UInt8]? = nil, maxKeys: Int? = nil
    ) throws -> ListPage {
        var query = [QueryItem("list-type", "2"), QueryItem("encoding-type", "url")]
        if !prefix.isEmpty { query.append(QueryItem("prefix", prefix)) }
        if let delimiter { query.append(QueryItem("delimiter", delimiter)) }
        if let continuationToken { query.append(QueryItem("continuation-token", continuationToken)) }
        if let startAfter { query.append(QueryItem("start-after", startAfter)) }
        if let maxKeys { query.append(QueryItem("max-keys", String(maxKeys))) }
        return try ListPage(
            listing: document(
                send(.listObjects, method: .GET, bucket: bucket, query: query), expecting: "ListBucketResult")
        )
    }

    // MARK: Objects

    /// What `key` is: size, entity tag, last modification (HeadObject).
    ///
    /// A missing key is `.noSuchKey` (HEAD answers carry no body, so a missing bucket reads the
    /// same).
    ///
    /// A HEAD's refusal has no body to say why: a 403 is asked about again with a GET of the
    /// key's first byte, whose error names the reason (`SignatureDoesNotMatch`,
    /// `InvalidAccessKeyId`, `AccessDenied`); only a refusal costs that request.
    public func headObject(bucket: String, key: [UInt8]) throws -> ObjectHead {
        let answer: HTTPAnswer
        do {
            answer = try send(.headObject, method: .HEAD, bucket: bucket, key: key, headers: [Self.checksumMode])
        } catch let refusal as S3Error where refusal.status == 403 && refusal.code == nil {
            do {
                try getObject(bucket: bucket, key: key, range: ByteRange(first: 0, last: 0)) { _ in }
            } catch let reason as S3Error where reason.code != nil || reason.kind == .interrupted {
                throw reason
            } catch {
                // The second question failed for its own reason (timed out): the refusal stands.
            }
            throw refusal
        }
        return Self.head(of: answer)
    }

    /// Streams `key`'s bytes, or those of `range`, to `sink` as they arrive (GetObject); never the
    /// whole object in memory.
    ///
    /// `sink` runs on the caller's thread; an error it throws stops the transfer and is rethrown.
    /// A whole object (no `range`) stored with a checksum is checked against it as it comes: a
    /// mismatch is `.badDigest`, thrown once every byte went to `sink`.
    /// - Parameter ifMatch: an entity tag (with its quotes) the object must still have
    ///   (`If-Match`); when it has another, nothing is sent to `sink` and the call fails with
    ///   `.preconditionFailed`.
    /// - Returns: what the answer said of the object (its whole size, even for a range).
    @discardableResult
    public func getObject(
        bucket: String, key: [UInt8], range: ByteRange? = nil, ifMatch: String? = nil,
        into sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> ObjectHead {
        var headers: [(name: String, value: String)] = []
        if let ifMatch { headers.append((name: "If-Match", value: ifMatch)) }
        var computation: ChecksumComputation?
        if let range {
            headers.append((name: "Range", value: range.headerValue))
        } else {
            headers.append(Self.checksumMode)
            computation = ChecksumComputation()
        }
        let answer = try withoutActuallyEscaping(sink) { sink in
            try send(.getObject, method: .GET, bucket: bucket, key: key, headers: headers) { bytes in
                computation?.add(bytes)
                try sink(bytes)
            }
        }
        if let range { try Self.check(answer, carries: range) }
        let head = Self.head(of: answer)
        if let computation {
            let found = computation.finished()
            // An object of one part: its composite checksum is that of the one part's checksum.
            if head.checksum.map({ $0 != found }) ?? false
                || head.compositeChecksum.map({ $0.partCount == 1 && !$0.isMade(of: [found]) }) ?? false
            {
                throw S3Error(.badDigest, status: answer.status)
            }
        }
        return head
    }

    /// The parts `key` was made of (GetObjectAttributes for its `ETag` and `ObjectParts`,
    /// `partsPerPage` parts a request), to check a composite checksum by. S3 lists the parts of
    /// an object whose parts carried checksums; nil when the answer lists none.
    /// - Throws: `.malformedResponse` when the parts listed are not numbered 1, 2, 3… in order,
    ///   or are more than an upload may have (10,000).
    public func objectParts(bucket: String, key: [UInt8], partsPerPage: Int = 1000) throws -> ObjectParts? {
        var parts = ObjectParts(eTag: nil, sizes: [])
        while true {
            let answer = try send(
                .getObjectAttributes, method: .GET, bucket: bucket, key: key, query: [QueryItem("attributes")],
                headers: [
                    (name: "x-amz-object-attributes", value: "ETag,ObjectParts"),
                    (name: "x-amz-max-parts", value: String(partsPerPage)),
                    (name: "x-amz-part-number-marker", value: String(parts.sizes.count)),
                ])
            let root = try document(answer, expecting: "GetObjectAttributesResponse")
            parts.eTag = root.string("ETag")
            guard let listing = root.child("ObjectParts") else { return nil }
            let listed = listing.children("Part")
            for part in listed {
                guard part.string("PartNumber").flatMap({ Int($0) }) == parts.sizes.count + 1,
                    parts.sizes.count < ObjectParts.mostParts,
                    let size = part.string("Size").flatMap({ Int64($0) }), size >= 0
                else { throw S3Error(.malformedResponse, status: answer.status) }
                parts.sizes.append(size)
            }
            guard listing.string("IsTruncated") == "true" else { return parts.sizes.isEmpty ? nil : parts }
            // A truncated page that lists nothing would ask for the same page again.
            if listed.isEmpty { throw S3Error(.malformedResponse, status: answer.status) }
        }
    }

    /// Streams bytes `range` of `key` to `sink`, each piece with the offset of its first byte,
    /// as they arrive (GetObject with a `Range`). A failure after some bytes came that another
    /// attempt may not meet (the connection dropped) resumes the range at its first byte not
    /// delivered, as `retryPolicy` says, on the condition that the object still has the entity
    /// tag `ifMatch`; without one, the range is not resumed (the bytes could be another
    /// object's). Before any byte comes, failures are retried as every request's are.
    ///
    /// `sink` runs on the caller's thread; an error it throws stops the transfer and is rethrown.
    /// - Returns: what the last answer said of the object (its whole size).
    @discardableResult
    public func getObject(
        bucket: String, key: [UInt8], resuming range: ByteRange, ifMatch: String?,
        into sink: (_ offset: Int64, _ bytes: UnsafeRawBufferPointer) throws -> Void
    ) throws -> ObjectHead {
        var next = range.first
        var attempt = 1
        while true {
            let start = next
            do {
                return try getObject(
                    bucket: bucket, key: key, range: ByteRange(first: start, last: range.last), ifMatch: ifMatch
                ) { bytes in
                    try sink(next, bytes)
                    next += Int64(bytes.count)
                }
            } catch let error as S3Error
                where ifMatch != nil && next > start && attempt < retryPolicy.maxAttempts
                && mayTryAgain(error)
            {
                retryPolicy.wait(after: attempt)
                attempt += 1
            }
        }
    }

    /// Checks that `answer`, to a request for `range`, carries those bytes: a 206 whose
    /// Content-Range starts at the first byte asked for and ends at the last (or at the object's
    /// end), or a 200 with the whole object when the range started at 0 and reached its end. A
    /// server may ignore a `Range` and send the whole object: its bytes would land at the
    /// range's place.
    /// - Throws: `.malformedResponse` for any other answer.
    private static func check(_ answer: HTTPAnswer, carries range: ByteRange) throws {
        let length = answer.headers.first(name: "Content-Length").flatMap { Int64($0) }
        switch answer.status {
        case 206:
            guard let carried = contentRange(of: answer), carried.first == range.first,
                length.map({ $0 == carried.last - carried.first + 1 }) ?? true
            else { break }
            let expectedLast = [range.last, carried.total.map { $0 - 1 }].compactMap { $0 }.min()
            if expectedLast.map({ carried.last == $0 }) ?? true { return }
        case 200:
            if range.first == 0, let length, range.last.map({ $0 >= length - 1 }) ?? true { return }
        default:
            break
        }
        throw S3Error(.malformedResponse, status: answer.status)
    }

    /// The header that asks for an object's checksum with its answer.
    private static let checksumMode = (name: "x-amz-checksum-mode", value: "ENABLED")

    /// Writes `key` from `length` bytes that `source` supplies (PutObject), streamed.
    ///
    /// `source` fills the buffer it is given and returns how many bytes it wrote, 0 at the end;
    /// it runs on the caller's thread. The body is sent unsigned (`UNSIGNED-PAYLOAD`). The
    /// object appears only when the whole body has arrived.
    /// - Parameters:
    ///   - checksum: the body's checksum, when the caller knows it: the service refuses a body
    ///     that does not match it (`.badDigest`) and keeps it with the object.
    ///   - rewind: makes `source` start again from the first byte, so that a failed request can
    ///     be retried; without it, the request is sent once.
    /// - Returns: the new object's entity tag.
    @discardableResult
    public func putObject(
        bucket: String, key: [UInt8], length: Int64, contentType: String? = nil, checksum: ObjectChecksum? = nil,
        rewind: (() -> Void)? = nil, from source: (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws -> String? {
        var headers: [(name: String, value: String)] = []
        if let contentType { headers.append((name: "Content-Type", value: contentType)) }
        if let checksum { headers.append((name: ObjectChecksum.headerName, value: checksum.headerValue)) }
        let answer = try withoutActuallyEscaping(source) { source in
            try send(
                .putObject,
                method: .PUT, bucket: bucket, key: key, headers: headers,
                upload: UploadSource(length: length, read: source, rewind: rewind))
        }
        return answer.headers.first(name: "ETag")
    }

    /// Writes `key` with `bytes` (PutObject), the body signed and its checksum sent, so that the
    /// service refuses bytes changed on the way (`.badDigest`); for small objects and markers.
    ///
    /// An empty body is sent without `Expect: 100-continue`.
    @discardableResult
    public func putObject(bucket: String, key: [UInt8], bytes: [UInt8], contentType: String? = nil) throws
        -> String?
    {
        let checksum = ObjectChecksum(of: bytes)
        var headers = [(name: ObjectChecksum.headerName, value: checksum.headerValue)]
        if let contentType { headers.append((name: "Content-Type", value: contentType)) }
        // The payload's hash that the signature covers is the same SHA-256: worked out once.
        let answer = try send(
            .putObject, method: .PUT, bucket: bucket, key: key, headers: headers, body: bytes,
            payload: .sha256(BinaryText.hex(checksum.digest)))
        return answer.headers.first(name: "ETag")
    }

    /// Deletes `key` (DeleteObject). Deleting a key that does not exist succeeds, as on S3.
    public func deleteObject(bucket: String, key: [UInt8]) throws {
        _ = try send(.deleteObject, method: .DELETE, bucket: bucket, key: key)
    }

    /// Deletes `keys` (DeleteObjects, 1,000 keys a request, up to `concurrentRequests` of them in
    /// flight at once) and gives the keys that failed.
    ///
    /// Keys that an XML body cannot carry (not UTF-8, or with control characters) are deleted
    /// one by one with DeleteObject instead. A request that fails for good fails the call once
    /// those in flight are over; no request is sent after it.
    public func deleteObjects(bucket: String, keys: [[UInt8]], concurrentRequests: Int = 1) throws
        -> [DeleteFailure]
    {
        var failures: [DeleteFailure] = []
        let batchable = keys.filter(XMLWriter.canCarry)
        for key in keys where !XMLWriter.canCarry(key) {
            do {
                try deleteObject(bucket: bucket, key: key)
            } catch let error as S3Error {
                failures.append(DeleteFailure(key: key, error: error))
            }
        }
        let batches = stride(from: 0, to: batchable.count, by: 1000).map {
            batchable[$0..<min($0 + 1000, batchable.count)]
        }
        if batches.count <= 1 || concurrentRequests <= 1 {
            for batch in batches { failures += try deleteBatch(bucket: bucket, keys: batch) }
            return failures
        }
        // Each batch on a thread of its own (a queue each), at most `concurrentRequests` at once.
        let outcomes = BatchOutcomes(count: batches.count)
        let slots = DispatchSemaphore(value: concurrentRequests)
        let inFlight = DispatchGroup()
        for (index, batch) in batches.enumerated() {
            slots.wait()
            if outcomes.hasFailed {
                slots.signal()
                break
            }
            DispatchQueue(label: "shelf.s3.delete").async(group: inFlight) { [self] in
                defer { slots.signal() }
                do {
                    outcomes.set(index, .success(try deleteBatch(bucket: bucket, keys: batch)))
                } catch {
                    outcomes.set(index, .failure(SendableError(error)))
                }
            }
        }
        inFlight.wait()
        return failures + (try outcomes.failures())
    }

    /// One DeleteObjects request for up to 1,000 `keys`, and the keys that failed.
    private func deleteBatch(bucket: String, keys: ArraySlice<[UInt8]>) throws -> [DeleteFailure] {
        var body = Array("<Delete><Quiet>true</Quiet>".utf8)
        for key in keys {
            body += Array("<Object><Key>".utf8) + XMLWriter.escaped(key) + Array("</Key></Object>".utf8)
        }
        body += Array("</Delete>".utf8)
        let md5 = BinaryText.base64(Array(Insecure.MD5.hash(data: body)))
        let answer = try send(
            .deleteObjects,
            method: .POST, bucket: bucket, query: [QueryItem("delete")],
            headers: [(name: "Content-MD5", value: md5)], body: body)
        return try document(answer, expecting: "DeleteResult").children("Error").map { error in
            DeleteFailure(
                key: error.child("Key")?.text ?? [], error: S3Error(stating: error, status: answer.status))
        }
    }

    /// Copies an object inside the service (CopyObject, up to 5 GiB): no byte passes through
    /// this process.
    /// - Parameter replacingMetadata: give the copy new metadata (`x-amz-metadata-directive:
    ///   REPLACE`) rather than the source's; how an object is copied onto itself, which gives it
    ///   a new LastModified.
    /// - Returns: the copy's entity tag.
    @discardableResult
    public func copyObject(
        fromBucket: String, key sourceKey: [UInt8], toBucket: String, key: [UInt8],
        replacingMetadata: Bool = false
    ) throws -> String? {
        var headers = [Self.copySource(bucket: fromBucket, key: sourceKey)]
        if replacingMetadata { headers.append((name: "x-amz-metadata-directive", value: "REPLACE")) }
        let answer = try send(.copyObject, method: .PUT, bucket: toBucket, key: key, headers: headers)
        return try document(answer, expecting: "CopyObjectResult").string("ETag")
    }

    /// The header that names the object a copy reads.
    private static func copySource(bucket: String, key: [UInt8]) -> (name: String, value: String) {
        let source =
            "/" + URIEncoding.encode(bucket.utf8, keepingSlashes: false) + "/"
            + URIEncoding.encode(key, keepingSlashes: true)
        return (name: "x-amz-copy-source", value: source)
    }

    // MARK: Multipart uploads

    /// Starts a multipart upload of `key` (CreateMultipartUpload) and gives its id.
    /// - Parameter checksummed: every part will carry its checksum (`x-amz-checksum-algorithm:
    ///   SHA256`), and the completion lists them.
    public func createMultipartUpload(
        bucket: String, key: [UInt8], contentType: String? = nil, checksummed: Bool = false
    ) throws -> String {
        var headers: [(name: String, value: String)] = []
        if let contentType { headers.append((name: "Content-Type", value: contentType)) }
        if checksummed { headers.append((name: "x-amz-checksum-algorithm", value: "SHA256")) }
        let answer = try send(
            .createMultipartUpload,
            method: .POST, bucket: bucket, key: key, query: [QueryItem("uploads")], headers: headers)
        guard let id = try document(answer, expecting: "InitiateMultipartUploadResult").string("UploadId")
        else {
            throw S3Error(.malformedResponse, status: answer.status)
        }
        return id
    }

    /// Sends part `partNumber` of an upload, `length` bytes from `source`, streamed (UploadPart).
    /// - Parameters:
    ///   - checksum: the part's checksum, for an upload begun `checksummed`: the service refuses
    ///     a part that does not match it (`.badDigest`).
    ///   - rewind: makes `source` start again from the part's first byte, so that the part alone
    ///     can be sent again when its request fails; without it, it is sent once.
    /// - Returns: the part's entity tag, which CompleteMultipartUpload needs.
    public func uploadPart(
        bucket: String, key: [UInt8], uploadID: String, partNumber: Int, length: Int64,
        checksum: ObjectChecksum? = nil, rewind: (() -> Void)? = nil,
        from source: (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws -> String {
        let query = [QueryItem("partNumber", String(partNumber)), QueryItem("uploadId", uploadID)]
        let headers = checksum.map { [(name: ObjectChecksum.headerName, value: $0.headerValue)] } ?? []
        let answer = try withoutActuallyEscaping(source) { source in
            try send(
                .uploadPart,
                method: .PUT, bucket: bucket, key: key, query: query, headers: headers,
                upload: UploadSource(length: length, read: source, rewind: rewind))
        }
        guard let eTag = answer.headers.first(name: "ETag") else {
            throw S3Error(.malformedResponse, status: answer.status)
        }
        return eTag
    }

    /// Makes bytes `range` of another object part `partNumber` of an upload, copied inside the
    /// service (UploadPartCopy): how objects above CopyObject's 5 GiB are copied.
    /// - Returns: the part's entity tag, which CompleteMultipartUpload needs.
    public func uploadPartCopy(
        fromBucket: String, key sourceKey: [UInt8], range: ByteRange, toBucket bucket: String, key: [UInt8],
        uploadID: String, partNumber: Int
    ) throws -> String {
        let query = [QueryItem("partNumber", String(partNumber)), QueryItem("uploadId", uploadID)]
        let headers = [
            Self.copySource(bucket: fromBucket, key: sourceKey),
            (name: "x-amz-copy-source-range", value: range.headerValue),
        ]
        let answer = try send(
            .uploadPartCopy, method: .PUT, bucket: bucket, key: key, query: query, headers: headers)
        guard let eTag = try document(answer, expecting: "CopyPartResult").string("ETag") else {
            throw S3Error(.malformedResponse, status: answer.status)
        }
        return eTag
    }

    /// Joins the parts into the object, which appears now (CompleteMultipartUpload).
    /// - Returns: the object's entity tag.
    @discardableResult
    public func completeMultipartUpload(
        bucket: String, key: [UInt8], uploadID: String, parts: [CompletedPart]
    )
        throws -> String?
    {
        var body = Array("<CompleteMultipartUpload>".utf8)
        for part in parts {
            body +=
                Array("<Part><PartNumber>\(part.partNumber)</PartNumber><ETag>".utf8)
                + XMLWriter.escaped(part.eTag.utf8) + Array("</ETag>".utf8)
            if let checksum = part.checksum {
                body += Array("<ChecksumSHA256>\(checksum.headerValue)</ChecksumSHA256>".utf8)
            }
            body += Array("</Part>".utf8)
        }
        body += Array("</CompleteMultipartUpload>".utf8)
        let answer = try send(
            .completeMultipartUpload,
            method: .POST, bucket: bucket, key: key, query: [QueryItem("uploadId", uploadID)], body: body)
        return try document(answer, expecting: "CompleteMultipartUploadResult").string("ETag")
    }

    /// Abandons an upload and frees its parts (AbortMultipartUpload).
    public func abortMultipartUpload(bucket: String, key: [UInt8], uploadID: String) throws {
        _ = try send(
            .abortMultipartUpload, method: .DELETE, bucket: bucket, key: key,
            query: [QueryItem("uploadId", uploadID)])
    }

    /// The uploads in `bucket` under `prefix` that were started and neither completed nor
    /// aborted (ListMultipartUploads, every page).
    ///
    /// Keys come as XML text, not URL-encoded: SeaweedFS answers `encoding-type=url` here with
    /// `EncodingType` set and the keys left as they are, which would be decoded wrongly.
    public func listMultipartUploads(bucket: String, prefix: [UInt8] = []) throws -> [MultipartUpload] {
        var uploads: [MultipartUpload] = []
        var markers: (key: [UInt8], uploadID: String)?
        while true {
            var query = [QueryItem("uploads")]
            if !prefix.isEmpty { query.append(QueryItem("prefix", prefix)) }
            if let markers {
                query.append(QueryItem("key-marker", markers.key))
                query.append(QueryItem("upload-id-marker", markers.uploadID))
            }
            let root = try document(
                send(.listMultipartUploads, method: .GET, bucket: bucket, query: query),
                expecting: "ListMultipartUploadsResult")
            for upload in root.children("Upload") {
                guard let key = upload.child("Key"), let id = upload.string("UploadId") else {
                    throw S3Error(.malformedResponse, status: 200)
                }
                uploads.append(
                    MultipartUpload(
                        key: key.text, uploadID: id,
                        initiated: upload.string("Initiated").flatMap { UTCTime(iso8601: $0) }))
            }
            guard root.string("IsTruncated") == "true", let nextKey = root.child("NextKeyMarker") else {
                return uploads
            }
            markers = (nextKey.text, root.string("NextUploadIdMarker") ?? "")
        }
    }

    // MARK: Requests

    /// Requests that clean up after a failure or Ctrl-C, and so are not given up on Ctrl-C (which
    /// is still in force as they go): an upload left unaborted stays stored and billed.
    private static let cleanUps: Set<Operation> = [.abortMultipartUpload]

    /// Signs and sends one request, and again as `retryPolicy` says while it fails for a
    /// passing reason; an answer that is not 2xx becomes the `S3Error` it states.
    private func send(
        _ operation: Operation, method: HTTPMethod, bucket: String, key: [UInt8]? = nil,
        query: [QueryItem] = [],
        headers: [(name: String, value: String)] = [], body: [UInt8]? = nil, payload: PayloadHash? = nil,
        upload: UploadSource? = nil, sink: ((UnsafeRawBufferPointer) throws -> Void)? = nil
    ) throws -> HTTPAnswer {
        var attempt = 1
        while true {
            // Once bytes of the answer went to the sink, another attempt would repeat them.
            var delivered = false
            let counting = sink.map { sink in
                { (bytes: UnsafeRawBufferPointer) throws in
                    delivered = true
                    try sink(bytes)
                }
            }
            do {
                return try sendOnce(
                    operation, method: method, bucket: bucket, key: key, query: query, headers: headers,
                    body: body, payload: payload, upload: upload, sink: counting)
            } catch let error as S3Error
                where attempt < retryPolicy.maxAttempts && mayTryAgain(error) && !delivered
                && (upload == nil || upload?.rewind != nil)
            {
                upload?.rewind?()
                retryPolicy.wait(after: attempt)
                attempt += 1
            }
        }
    }

    /// The key requests made on `date` are signed with: derived once a day (four HMACs that
    /// every request would otherwise repeat).
    private func signingKey(date: String) -> SymmetricKey {
        if let known = dailyKey.withLock({ $0 }), known.date == date { return known.key }
        let key = signer.signingKey(date: date)
        dailyKey.withLock { $0 = (date, key) }
        return key
    }

    /// Whether a request that failed with `error` may succeed if sent again: a passing failure
    /// (`RetryPolicy.isTransient`), or a connection that could not be made to an endpoint that
    /// has answered before (the pool fails every waiting request when one connection cannot be
    /// made; an endpoint never reached fails at once).
    private func mayTryAgain(_ error: S3Error) -> Bool {
        RetryPolicy.isTransient(error) || (transport.hasAnswered && Transport.isConnectFailure(error))
    }

    /// Signs and sends one request once.
    private func sendOnce(
        _ operation: Operation, method: HTTPMethod, bucket: String, key: [UInt8]?, query: [QueryItem],
        headers: [(name: String, value: String)], body: [UInt8]?, payload: PayloadHash?, upload: UploadSource?,
        sink: ((UnsafeRawBufferPointer) throws -> Void)?
    ) throws -> HTTPAnswer {
        var path = "/" + URIEncoding.encode(bucket.utf8, keepingSlashes: false)
        if let key { path += "/" + URIEncoding.encode(key, keepingSlashes: true) }
        let payload: PayloadHash = upload == nil ? payload ?? .of(body ?? []) : .unsigned
        tally.withLock { $0[operation.rawValue] += 1 }
        let time = UTCTime.now()
        let signed = signer.sign(
            SignableRequest(
                method: method.rawValue, path: path, query: query,
                headers: [(name: "Host", value: endpoint.hostHeader)] + headers, payload: payload),
            at: time, signingKey: signingKey(date: time.compactDate))
        let target = path + (signed.queryString.isEmpty ? "" : "?" + signed.queryString)
        var httpHeaders = HTTPHeaders()
        for header in signed.headers { httpHeaders.add(name: header.name, value: header.value) }
        let answer = try transport.perform(
            method: method, url: endpoint.origin + target, target: target, headers: httpHeaders,
            body: body ?? (upload == nil && (method == .PUT || method == .POST) ? [] : nil),
            upload: upload, sink: sink, interruptible: !Self.cleanUps.contains(operation))
        guard answer.isSuccess else {
            throw Self.error(of: answer, method: method, hasKey: key != nil)
        }
        return answer
    }

    /// The root of an answer's XML document, which must be `name`. An `<Error>` root (S3 sends
    /// one with status 200 when a copy or a completion fails midway) becomes its `S3Error`.
    private func document(_ answer: HTTPAnswer, expecting name: String) throws -> XMLElement {
        guard let root = try? XMLElement.parse(answer.body) else {
            throw S3Error(.malformedResponse, status: answer.status)
        }
        if root.name == "Error" { throw S3Error(stating: root, status: answer.status) }
        guard root.name == name else { throw S3Error(.malformedResponse, status: answer.status) }
        return root
    }

    /// The error a failed answer states: its XML `Code` and `Message`, or for a bodiless answer
    /// (HEAD) what its status means.
    private static func error(of answer: HTTPAnswer, method: HTTPMethod, hasKey: Bool) -> S3Error {
        if let root = try? XMLElement.parse(answer.body), root.name == "Error" {
            return S3Error(stating: root, status: answer.status)
        }
        let kind: S3Error.Kind =
            answer.status == 404
            ? (hasKey ? .noSuchKey : .noSuchBucket) : S3Error.kind(code: nil, status: answer.status)
        return S3Error(kind, status: answer.status)
    }

    /// The bytes an answer's `Content-Range` (`bytes FIRST-LAST/TOTAL`) says it carries, and the
    /// object's whole size unless it is `*`; nil without one, or when it cannot be read.
    private static func contentRange(of answer: HTTPAnswer) -> (first: Int64, last: Int64, total: Int64?)? {
        guard let value = answer.headers.first(name: "Content-Range"), value.hasPrefix("bytes "),
            let dash = value.firstIndex(of: "-"), let slash = value.firstIndex(of: "/"), dash < slash,
            let first = Int64(value[value.index(value.startIndex, offsetBy: 6)..<dash]),
            let last = Int64(value[value.index(after: dash)..<slash])
        else { return nil }
        return (first, last, Int64(value[value.index(after: slash)...]))
    }

    /// What a HEAD or GET answer's headers say of the object.
    private static func head(of answer: HTTPAnswer) -> ObjectHead {
        var size = answer.headers.first(name: "Content-Length").flatMap { Int64($0) } ?? 0
        if let total = contentRange(of: answer)?.total { size = total }
        let checksum = answer.headers.first(name: ObjectChecksum.headerName)
        let isComposite =
            answer.headers.first(name: "x-amz-checksum-type") == "COMPOSITE"
            || checksum.map { $0.contains("-") } ?? false
        return ObjectHead(
            size: size, eTag: answer.headers.first(name: "ETag"),
            lastModified: answer.headers.first(name: "Last-Modified").flatMap { UTCTime(httpDate: $0) },
            contentType: answer.headers.first(name: "Content-Type"),
            storageClass: answer.headers.first(name: "x-amz-storage-class"),
            checksum: isComposite ? nil : checksum.flatMap(ObjectChecksum.init(headerValue:)),
            compositeChecksum: isComposite ? checksum.flatMap(CompositeChecksum.init(headerValue:)) : nil)
    }

    /// A key from a listing: URL-decoded when the listing was asked for with `encoding-type=url`.
    static func key(_ text: [UInt8], urlEncoded: Bool) throws -> [UInt8] {
        guard urlEncoded else { return text }
        guard let bytes = URIEncoding.decode(text, plusIsSpace: true) else {
            throw S3Error(.malformedResponse, status: 200)
        }
        return bytes
    }
}

extension ListPage {
    /// The page a `ListBucketResult` document describes, its keys URL-decoded when its
    /// `EncodingType` says `url`.
    init(listing root: XMLElement) throws {
        let encoded = root.string("EncodingType") == "url"
        self.init(
            objects: [], commonPrefixes: [], isTruncated: root.string("IsTruncated") == "true",
            nextContinuationToken: root.string("NextContinuationToken"))
        for contents in root.children("Contents") {
            guard let key = contents.child("Key"), let size = contents.string("Size").flatMap({ Int64($0) })
            else {
                throw S3Error(.malformedResponse, status: 200)
            }
            objects.append(
                ObjectSummary(
                    key: try S3Client.key(key.text, urlEncoded: encoded), size: size,
                    lastModified: contents.string("LastModified").flatMap { UTCTime(iso8601: $0) },
                    eTag: contents.string("ETag"), storageClass: contents.string("StorageClass")))
        }
        for common in root.children("CommonPrefixes") {
            guard let prefix = common.child("Prefix") else { throw S3Error(.malformedResponse, status: 200) }
            commonPrefixes.append(try S3Client.key(prefix.text, urlEncoded: encoded))
        }
    }
}

extension S3Client: CustomReflectable {
    /// The endpoint alone: the connections belong to the event loops, and a reflection that
    /// walked them would read them without a lock.
    public var customMirror: Mirror { Mirror(self, children: ["endpoint": endpoint], displayStyle: .class) }
}
/// One bucket in a ListBuckets answer.
public struct BucketSummary: Sendable, Hashable {
    /// The bucket's name.
    public var name: String
    /// When it was made, if the service said.
    public var creationDate: UTCTime?
}

/// What each batch of a DeleteObjects call sent in parallel came to, by the batch's place.
private final class BatchOutcomes: Sendable {
    private let outcomes: Mutex<[Result<[DeleteFailure], SendableError>?]>

    init(count: Int) { outcomes = Mutex(Array(repeating: nil, count: count)) }

    /// Whether a batch has failed for good.
    var hasFailed: Bool {
        outcomes.withLock { $0.contains { if case .failure = $0 { true } else { false } } }
    }

    func set(_ index: Int, _ outcome: Result<[DeleteFailure], SendableError>) {
        outcomes.withLock { $0[index] = outcome }
    }

    /// The keys that failed, batch by batch; or the first batch's failure, as it was thrown.
    func failures() throws -> [DeleteFailure] {
        let all = outcomes.withLock { $0 }
        var failures: [DeleteFailure] = []
        for outcome in all {
            switch outcome {
            case .success(let found): failures += found
            case .failure(let error): throw error.error
            case nil: break
            }
        }
        return failures
    }
}
