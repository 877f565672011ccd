import Dispatch
import Glibc
import SeaweedFixture
import Synchronization
import Testing

@testable import ObjectStorage

/// Every call of the client against a real SeaweedFS that checks signatures. Each test works in
/// a bucket of its own, which it leaves deleted.
@Suite(.seaweedServer) struct S3ClientTests {
    // MARK: Errors

    @Test func aWrongSecretIsSignatureDoesNotMatch() throws {
        let server = try SeaweedServer.required()
        try server.withBucket { _, bucket in
            let client = server.client(secret: "not-the-secret")
            defer { try? client.shutdown() }
            let error = try #require(throws: S3Error.self) { try client.listObjects(bucket: bucket) }
            #expect(error.kind == .signatureDoesNotMatch)
            #expect(error.status == 403)
            #expect(error.code == "SignatureDoesNotMatch")
        }
    }

    /// A HEAD's 403 carries no body; the client learns the reason with a GET of one byte.
    @Test(arguments: [
        ("wrong secret", S3Error.Kind.signatureDoesNotMatch), ("unknown key", S3Error.Kind.invalidAccessKeyID),
    ])
    func aRefusedHeadSaysWhy(_ row: (name: String, kind: S3Error.Kind)) throws {
        let server = try SeaweedServer.required()
        try server.withBucket { owner, bucket in
            try owner.putObject(bucket: bucket, key: Array("k".utf8), bytes: [1])
            var credentials = server.credentials
            if row.kind == .signatureDoesNotMatch {
                credentials.secretAccessKey = "not-the-secret"
            } else {
                credentials.accessKeyID = "nobody-has-this-key"
            }
            let client = S3Client(endpoint: server.endpoint, credentials: credentials)
            defer { try? client.shutdown() }
            let error = try #require(throws: S3Error.self) { try client.headObject(bucket: bucket, key: Array("k".utf8)) }
            #expect(error.kind == row.kind, "\(row.name)")
            #expect(error.status == 403)
        }
    }

    // MARK: Connections

    /// Requests one after another ride one connection, and requests from several threads at
    /// once no more connections than there are threads. (Each request once got a connection of
    /// its own, closed after its answer: a copy of 2,000 small files opened 1,600.)
    @Test func requestsReuseTheirConnections() throws {
        let server = try SeaweedServer.required()
        try server.withBucket { _, bucket in
            let proxy = try FaultyProxy(
                to: server.port, breakingFirstRequestContaining: "no request contains this", with: .dropConnection)
            defer { proxy.stop() }
            let client = S3Client(endpoint: S3Endpoint(url: "http://127.0.0.1:\(proxy.port)")!, credentials: server.credentials)
            defer { try? client.shutdown() }
            for index in 0..<20 {
                let key = Array("one-by-one/\(index)".utf8)
                try client.putObject(bucket: bucket, key: key, bytes: [UInt8(index)])
                var read: [UInt8] = []
                try client.getObject(bucket: bucket, key: key) { read += $0 }
                #expect(read == [UInt8(index)])
            }
            #expect(proxy.connectionsAccepted == 1)

            let threads = 4
            let failures = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for index in 0..<10 {
                    let key = Array("at-once/\(thread)-\(index)".utf8)
                    do {
                        try client.putObject(bucket: bucket, key: key, bytes: [UInt8(index)])
                    } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
            }
            #expect(failures.withLock { $0 } == 0)
            #expect(proxy.connectionsAccepted <= 1 + threads)
        }
    }

    /// An answer to a range that does not carry that range (a server that ignored `Range` sends
    /// the whole object with 200) is refused: its bytes would land at the range's place.
    @Test func aRangeAnsweredAsTheWholeObjectIsRefused() throws {
        let server = try SeaweedServer.required()
        try server.withBucket { owner, bucket in
            let key = Array("ranged".utf8)
            try owner.putObject(bucket: bucket, key: key, bytes: (0..<100).map { UInt8($0) })
            let proxy = try FaultyProxy(
                to: server.port, breakingFirstRequestContaining: "GET /\(bucket)/ranged", with: .wholeForRange)
            defer { proxy.stop() }
            let client = S3Client(endpoint: S3Endpoint(url: "http://127.0.0.1:\(proxy.port)")!, credentials: server.credentials)
            defer { try? client.shutdown() }
            let error = try #require(throws: S3Error.self) {
                try client.getObject(bucket: bucket, key: key, range: ByteRange(first: 10, last: 19)) { _ in }
            }
            #expect(proxy.hasFired)
            #expect(error.kind == .malformedResponse)
            // The same range, answered as asked.
            var bytes: [UInt8] = []
            try client.getObject(bucket: bucket, key: key, range: ByteRange(first: 10, last: 19)) { bytes += $0 }
            #expect(bytes == Array(10..<20))
        }
    }

    /// A connection that cannot be made fails at once on an endpoint never reached, and is
    /// tried again as a passing failure once the endpoint has answered (the pool fails every
    /// request waiting for a connection when one cannot be made).
    @Test func aRefusedConnectionIsTriedAgainOnlyOnceTheEndpointAnswered() throws {
        let server = try SeaweedServer.required()
        try server.withBucket { _, bucket in
            let proxy = try FaultyProxy(
                to: server.port, breakingFirstRequestContaining: "no request contains this", with: .dropConnection)
            let endpoint = S3Endpoint(url: "http://127.0.0.1:\(proxy.port)")!
            let client = S3Client(endpoint: endpoint, credentials: server.credentials)
            defer { try? client.shutdown() }
            _ = try client.listObjects(bucket: bucket)
            proxy.stop()
            let error = try #require(throws: S3Error.self) { try client.listObjects(bucket: bucket) }
            #expect(error.kind == .connectionRefused)
            #expect(client.requestsSent(.listObjects) == 1 + client.retryPolicy.maxAttempts)

            let fresh = S3Client(endpoint: endpoint, credentials: server.credentials)
            defer { try? fresh.shutdown() }
            let first = try #require(throws: S3Error.self) { try fresh.listObjects(bucket: bucket) }
            #expect(first.kind == .connectionRefused)
            #expect(fresh.requestsSent(.listObjects) == 1)
        }
    }

    @Test func aMissingBucketIsNoSuchBucket() throws {
        let server = try SeaweedServer.required()
        let client = server.client()
        defer { try? client.shutdown() }
        let listing = try #require(throws: S3Error.self) {
            try client.listObjects(bucket: "no-such-bucket-here")
        }
        #expect(listing.kind == .noSuchBucket)
        #expect(listing.status == 404)
        let upload = try #require(throws: S3Error.self) {
            try client.putObject(bucket: "no-such-bucket-here", key: Array("k".utf8), bytes: [1])
        }
        #expect(upload.kind == .noSuchBucket)
    }

    /// A request on a client already shut down fails at once: async-http-client refuses it
    /// without telling the request's delegate, and the caller must not wait for an answer (a
    /// test library describing a failure once looked at a File so, after its test's client was
    /// shut down, and the test process hung). No server is needed: nothing is sent.
    @Test(.timeLimit(.minutes(1))) func aRequestAfterShutdownFailsInsteadOfWaiting() throws {
        let client = S3Client(
            endpoint: try #require(S3Endpoint(url: "http://127.0.0.1:9")),
            credentials: Credentials(accessKeyID: "id", secretAccessKey: "secret"),
            retryPolicy: RetryPolicy(maxAttempts: 1))
        try client.shutdown()
        let error = try #require(throws: S3Error.self) {
            try client.headObject(bucket: "bucket", key: Array("key".utf8))
        }
        #expect(error.kind == .unreachable)
    }

    /// A refusal that comes while a streamed body is still being sent ends the call with the
    /// server's error.
    @Test func aStreamedUploadRefusedEarlyGivesTheServersError() throws {
        let server = try SeaweedServer.required()
        let client = server.client()
        defer { try? client.shutdown() }
        var pattern = PatternStream()
        let missing = try #require(throws: S3Error.self) {
            try client.putObject(bucket: "no-such-bucket-here", key: Array("k".utf8), length: 8 << 20) {
                pattern.fill($0)
            }
        }
        #expect(missing.kind == .noSuchBucket)
        try server.withBucket { _, bucket in
            let impostor = server.client(secret: "not-the-secret")
            defer { try? impostor.shutdown() }
            let refused = try #require(throws: S3Error.self) {
                try impostor.putObject(bucket: bucket, key: Array("k".utf8), length: 8 << 20) {
                    pattern.fill($0)
                }
            }
            #expect(refused.kind == .signatureDoesNotMatch)
        }
    }

    @Test func aMissingKeyIsNoSuchKey() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            let missing = Array("missing".utf8)
            #expect(throws: S3Error.self) { try client.headObject(bucket: bucket, key: missing) }
            #expect((try? client.headObject(bucket: bucket, key: missing)) == nil)
            let head = try #require(throws: S3Error.self) {
                try client.headObject(bucket: bucket, key: missing)
            }
            #expect(head.kind == .noSuchKey)
            let get = try #require(throws: S3Error.self) {
                try client.getObject(bucket: bucket, key: missing) { _ in Issue.record("no body expected") }
            }
            #expect(get.kind == .noSuchKey)
            #expect(get.code == "NoSuchKey")
            let copy = try #require(throws: S3Error.self) {
                try client.copyObject(
                    fromBucket: bucket, key: missing, toBucket: bucket, key: Array("copy".utf8))
            }
            #expect(copy.kind == .noSuchKey)
        }
    }

    /// Refused at once: the connection is not tried again until the connect timeout, which is
    /// ten minutes here, so that a client that kept trying would meet the test's time limit.
    @Test(.timeLimit(.minutes(1))) func aClosedPortIsConnectionRefusedAtOnce() throws {
        let port = try FreePorts.choose(2).others[0]
        let client = S3Client(
            endpoint: S3Endpoint(url: "http://127.0.0.1:\(port)")!,
            credentials: Credentials(accessKeyID: "k", secretAccessKey: "s"), connectTimeout: 600)
        defer { try? client.shutdown() }
        let error = try #require(throws: S3Error.self) { try client.listObjects(bucket: "bucket") }
        #expect(error.kind == .connectionRefused)
        #expect(error.status == nil)
    }

    /// An `https://` endpoint where a plain-HTTP server answers: the TLS handshake fails, told
    /// as such rather than as an unreachable host, and once (it would fail again).
    @Test func anHTTPSEndpointThatSpeaksPlainHTTPIsATLSFailure() throws {
        let server = try SeaweedServer.shared()
        let client = S3Client(
            endpoint: S3Endpoint(url: "https://127.0.0.1:\(server.port)")!, credentials: server.credentials)
        defer { try? client.shutdown() }
        let error = try #require(throws: S3Error.self) { try client.listObjects(bucket: "bucket") }
        #expect(error.kind == .tlsFailure)
        #expect(error.status == nil)
        #expect(client.requestsSent(.listObjects) == 1)
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let client = S3Client(
            endpoint: S3Endpoint(url: "http://127.0.0.1:\(listener.port)")!,
            credentials: Credentials(accessKeyID: "k", secretAccessKey: "s"), readTimeout: 1)
        defer { try? client.shutdown() }
        let error = try #require(throws: S3Error.self) { try client.listObjects(bucket: "bucket") }
        #expect(error.kind == .timedOut)
    }

    /// What a request to a silent server may be doing when the user presses Ctrl-C.
    static let silentRequests: [(name: String, send: @Sendable (S3Client) throws -> Void)] = [
        ("waiting for an answer", { client in _ = try client.listObjects(bucket: "bucket") }),
        (
            "sending a body nobody reads",
            { client in
                try client.putObject(bucket: "bucket", key: Array("k".utf8), length: 256 << 20) { buffer in
                    buffer.initializeMemory(as: UInt8.self, repeating: 0)
                    return buffer.count
                }
            }
        ),
    ]

    /// A silent server holds a request for the read (or write) timeout, 30 s here; Ctrl-C gives
    /// it up at once, as `.interrupted` (a timeout would be `.timedOut`).
    @Test(.timeLimit(.minutes(1)), arguments: silentRequests.map(\.name))
    func aRequestToASilentServerEndsWhenInterrupted(_ name: String) throws {
        let send = try #require(Self.silentRequests.first { $0.name == name }).send
        let listener = try SilentListener()
        defer { listener.close() }
        let interrupted = Atomic(false)
        let client = S3Client(
            endpoint: S3Endpoint(url: "http://127.0.0.1:\(listener.port)")!,
            credentials: Credentials(accessKeyID: "k", secretAccessKey: "s"), readTimeout: 30,
            isInterrupted: { interrupted.load(ordering: .relaxed) })
        defer { try? client.shutdown() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { interrupted.store(true, ordering: .relaxed) }
        let error = try #require(throws: S3Error.self) { try send(client) }
        #expect(error.kind == .interrupted)
    }

    /// Ctrl-C is still in force while the copy that it stopped aborts its upload: the abort
    /// goes through all the same (over a slow link it would otherwise be given up, and the
    /// upload's parts stay stored), while any other request is given up at once.
    @Test func anAbortIsSentEvenAfterCtrlC() throws {
        let server = try SeaweedServer.required()
        try server.withBucket { owner, bucket in
            let interrupted = Atomic(false)
            let client = S3Client(
                endpoint: server.endpoint, credentials: server.credentials,
                isInterrupted: { interrupted.load(ordering: .relaxed) })
            defer { try? client.shutdown() }
            let upload = try client.createMultipartUpload(bucket: bucket, key: Array("k".utf8))
            interrupted.store(true, ordering: .relaxed)
            let listing = try #require(throws: S3Error.self) { try client.listObjects(bucket: bucket) }
            #expect(listing.kind == .interrupted)
            try client.abortMultipartUpload(bucket: bucket, key: Array("k".utf8), uploadID: upload)
            #expect(try owner.listMultipartUploads(bucket: bucket).isEmpty)
        }
    }

    // MARK: Keys

    static let awkwardKeys: [(name: String, key: [UInt8])] = [
        ("plain", Array("plain.txt".utf8)),
        ("space", Array("a b".utf8)),
        ("trailing space", Array("trailing ".utf8)),
        ("plus", Array("a+b".utf8)),
        ("percent", Array("100%".utf8)),
        ("percent escape lookalike", Array("%41%2F".utf8)),
        ("tilde", Array("~tilde~".utf8)),
        ("query characters", Array("?a=1&b=2#frag".utf8)),
        ("quotes and brackets", Array("'\"<>[]{}".utf8)),
        ("punctuation", Array("!$()*,;:@|^`".utf8)),
        ("non-ASCII", Array("été/日本語/🙂".utf8)),
        ("directory marker", Array("dir/".utf8)),
        ("deep", Array("a/b/c/d/e".utf8)),
        ("line feed and tab", Array("line\nfeed\ttab".utf8)),
        ("carriage return and control characters", Array("cr\r\u{01}\u{1F}\u{7F}".utf8)),
    ]

    /// What each key holds in the round trip: its row's name, or nothing for a directory
    /// marker (SeaweedFS keeps no bytes under a key that ends in `/`; markers are empty anyway).
    static func contents(_ name: String, _ key: [UInt8]) -> [UInt8] {
        key.last == UInt8(ascii: "/") ? [] : Array(name.utf8)
    }

    @Test func keysWithEveryAwkwardCharacterRoundTrip() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            for (name, key) in Self.awkwardKeys {
                try client.putObject(bucket: bucket, key: key, bytes: Self.contents(name, key))
            }
            var listed: [[UInt8]] = []
            var token: String?
            repeat {
                let page = try client.listObjects(bucket: bucket, continuationToken: token, maxKeys: 4)
                listed += page.objects.map(\.key)
                token = page.nextContinuationToken
            } while token != nil
            // Compared in byte order: AWS lists in it, SeaweedFS not always (`a/b/c` before `a b`:
            // it walks `a/` as the directory `a`).
            let byteOrder: ([UInt8], [UInt8]) -> Bool = { $0.lexicographicallyPrecedes($1) }
            #expect(listed.sorted(by: byteOrder) == Self.awkwardKeys.map(\.key).sorted(by: byteOrder))
            for (name, key) in Self.awkwardKeys {
                var body: [UInt8] = []
                try client.getObject(bucket: bucket, key: key) { body += $0 }
                #expect(body == Self.contents(name, key), "\(name)")
                #expect(
                    try client.headObject(bucket: bucket, key: key).size
                        == Int64(Self.contents(name, key).count),
                    "\(name)")
                let prefixed = try client.listObjects(bucket: bucket, prefix: key)
                #expect(prefixed.objects.first?.key == key, "\(name)")
            }
        }
    }

    /// `a//b` is a key of its own on AWS; SeaweedFS folds it into `a/b`. Either way it is read
    /// back under the name it was written with.
    @Test func aKeyWithADoubleSlashIsReadBackByItsName() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            let key = Array("a//b".utf8)
            try client.putObject(bucket: bucket, key: key, bytes: Array("double".utf8))
            var body: [UInt8] = []
            try client.getObject(bucket: bucket, key: key) { body += $0 }
            #expect(body == Array("double".utf8))
        }
    }

    // MARK: Listing

    @Test func pagingGoesPastAThousandKeys() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            let keys = (0..<1_005).map { Array("many/key-\(1_000_000 + $0)".utf8) }
            // A put that fails is named here, not found later as a key missing from the listing.
            let putFailures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { stripe in
                for index in stride(from: stripe, to: keys.count, by: 4) {
                    do {
                        try client.putObject(bucket: bucket, key: keys[index], bytes: [])
                    } catch {
                        let key = String(decoding: keys[index], as: UTF8.self)
                        putFailures.withLock { $0.append("\(key): \(error)") }
                    }
                }
            }
            try #require(putFailures.withLock { $0 } == [])
            for maxKeys in [nil, 300] as [Int?] {
                var listed: [[UInt8]] = []
                var pages = 0
                var token: String?
                repeat {
                    let page = try client.listObjects(
                        bucket: bucket, prefix: Array("many/".utf8), continuationToken: token,
                        maxKeys: maxKeys)
                    pages += 1
                    listed += page.objects.map(\.key)
                    #expect(page.isTruncated == (page.nextContinuationToken != nil))
                    token = page.nextContinuationToken
                } while token != nil
                #expect(listed == keys, "max-keys \(String(describing: maxKeys))")
                #expect(pages == (maxKeys == nil ? 2 : 4), "max-keys \(String(describing: maxKeys))")
            }
            let failures = try client.deleteObjects(bucket: bucket, keys: keys)
            #expect(failures.isEmpty)
            #expect(try client.listObjects(bucket: bucket).objects.isEmpty)
        }
    }

    /// 2,005 keys go in three DeleteObjects requests, one after another or at once, with the
    /// same result: every key gone.
    @Test(arguments: [1, 4]) func deleteSendsAThousandKeysARequest(concurrentRequests: Int) throws {
        try SeaweedServer.required().withBucket { client, bucket in
            let keys = (0..<2_005).map { Array("many/key-\(1_000_000 + $0)".utf8) }
            DispatchQueue.concurrentPerform(iterations: 4) { stripe in
                for index in stride(from: stripe, to: keys.count, by: 4) {
                    _ = try? client.putObject(bucket: bucket, key: keys[index], bytes: [])
                }
            }
            let requests = client.requestsSent(.deleteObjects)
            let failures = try client.deleteObjects(
                bucket: bucket, keys: keys + [Array("never".utf8)], concurrentRequests: concurrentRequests)
            #expect(failures.isEmpty)
            #expect(client.requestsSent(.deleteObjects) - requests == 3)
            #expect(try client.listObjects(bucket: bucket).objects.isEmpty)
        }
    }

    /// A key `a` and keys under `a/` side by side: a file and a directory of one name, both
    /// listed; a marker `empty/` stands for an empty directory.
    @Test func aDelimiterFoldsDeeperKeysIntoPrefixes() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            for key in ["a", "a/b", "a/c/d", "empty/", "z"] {
                try client.putObject(bucket: bucket, key: Array(key.utf8), bytes: [])
            }
            let top = try client.listObjects(bucket: bucket, delimiter: "/")
            #expect(top.objects.map(\.key) == [Array("a".utf8), Array("z".utf8)])
            #expect(top.commonPrefixes == [Array("a/".utf8), Array("empty/".utf8)])
            let inside = try client.listObjects(bucket: bucket, prefix: Array("a/".utf8), delimiter: "/")
            #expect(inside.objects.map(\.key) == [Array("a/b".utf8)])
            #expect(inside.commonPrefixes == [Array("a/c/".utf8)])
            let marker = try client.listObjects(bucket: bucket, prefix: Array("empty/".utf8), delimiter: "/")
            #expect(marker.objects.map(\.key) == [Array("empty/".utf8)])
            #expect(marker.objects.first?.size == 0)
        }
    }

    // MARK: Reading and writing

    @Test func aRangeReadsOnlyThoseBytes() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            let key = Array("hundred".utf8)
            let bytes = (0..<100).map { UInt8($0) }
            try client.putObject(bucket: bucket, key: key, bytes: bytes)
            for (range, expected) in [
                (ByteRange(first: 10, last: 19), Array(bytes[10...19])),
                (ByteRange(first: 95), Array(bytes[95...])),
            ] {
                var body: [UInt8] = []
                let head = try client.getObject(bucket: bucket, key: key, range: range) { body += $0 }
                #expect(body == expected)
                #expect(head.size == 100)
            }
            let beyond = try #require(throws: S3Error.self) {
                try client.getObject(bucket: bucket, key: key, range: ByteRange(first: 200)) { _ in }
            }
            #expect(beyond.kind == .invalidRange)
        }
    }

    @Test func aLargeObjectStreamsBothWays() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            let key = Array("large.bin".utf8)
            let length: Int64 = 24 << 20
            var pattern = PatternStream()
            let eTag = try client.putObject(bucket: bucket, key: key, length: length) { pattern.fill($0) }
            #expect(eTag != nil)
            #expect(try client.headObject(bucket: bucket, key: key).size == length)
            var check = PatternStream()
            var received: Int64 = 0
            var matches = true
            let head = try client.getObject(bucket: bucket, key: key) { chunk in
                received += Int64(chunk.count)
                matches = matches && check.matches(chunk)
            }
            #expect(received == length)
            #expect(matches)
            #expect(head.eTag == eTag)
        }
    }

    @Test func aSinkThatFailsStopsTheTransferWithItsError() throws {
        struct DiskFull: Error {}
        try SeaweedServer.required().withBucket { client, bucket in
            let key = Array("object".utf8)
            var pattern = PatternStream()
            try client.putObject(bucket: bucket, key: key, length: 4 << 20) { pattern.fill($0) }
            #expect(throws: DiskFull.self) {
                try client.getObject(bucket: bucket, key: key) { _ in throw DiskFull() }
            }
            #expect(try client.headObject(bucket: bucket, key: key).size == 4 << 20)
        }
    }

    @Test func aSourceShorterThanAnnouncedIsRefused() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            var remaining = 10
            let error = try #require(throws: S3Error.self) {
                try client.putObject(bucket: bucket, key: Array("short".utf8), length: 1000) { buffer in
                    let count = min(buffer.count, remaining)
                    remaining -= count
                    return count
                }
            }
            #expect(error.kind == .sourceLengthMismatch)
            #expect(try client.listObjects(bucket: bucket).objects.isEmpty)
        }
    }

    /// Two objects cut from one stream: each takes its length and leaves the rest to the next.
    @Test func aSourceIsReadForExactlyTheLength() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            var stream = PatternStream()
            try client.putObject(bucket: bucket, key: Array("first".utf8), length: 300_001) {
                stream.fill($0)
            }
            try client.putObject(bucket: bucket, key: Array("second".utf8), length: 7) { stream.fill($0) }
            var check = PatternStream()
            var matches = true
            for key in ["first", "second"] {
                try client.getObject(bucket: bucket, key: Array(key.utf8)) {
                    matches = matches && check.matches($0)
                }
            }
            #expect(matches)
            #expect(try client.headObject(bucket: bucket, key: Array("second".utf8)).size == 7)
        }
    }

    @Test func deleteRemovesAndToleratesMissingKeys() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            // The last two are deleted one by one: XML cannot carry a key with U+0001.
            let keys = [
                Array("one".utf8), Array("two words".utf8), Array("line\rreturn".utf8),
                Array("ctrl\u{01}".utf8),
                Array("ctrl\u{02}".utf8),
            ]
            for key in keys { try client.putObject(bucket: bucket, key: key, bytes: [1]) }
            try client.deleteObject(bucket: bucket, key: keys[0])
            try client.deleteObject(bucket: bucket, key: keys[0])
            let failures = try client.deleteObjects(
                bucket: bucket, keys: Array(keys[1...]) + [Array("never".utf8)])
            #expect(failures.isEmpty)
            #expect(try client.listObjects(bucket: bucket).objects.isEmpty)
        }
    }

    @Test func copyDuplicatesAnObjectOnTheServer() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            let source = Array("from here+there%/x y".utf8)
            let target = Array("to/ü".utf8)
            try client.putObject(bucket: bucket, key: source, bytes: Array("contents".utf8))
            #expect(
                try client.copyObject(fromBucket: bucket, key: source, toBucket: bucket, key: target) != nil)
            var body: [UInt8] = []
            try client.getObject(bucket: bucket, key: target) { body += $0 }
            #expect(body == Array("contents".utf8))
        }
    }

    // MARK: Multipart uploads

    @Test func aMultipartUploadAppearsWhenCompleted() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            let key = Array("multi part+key".utf8)
            let id = try client.createMultipartUpload(bucket: bucket, key: key)
            #expect(try client.listMultipartUploads(bucket: bucket).map(\.uploadID) == [id])
            #expect(try client.listMultipartUploads(bucket: bucket).first?.key == key)
            var pattern = PatternStream()
            var parts: [CompletedPart] = []
            for (number, length) in [(1, Int64(5 << 20)), (2, Int64(12_345))] {
                let eTag = try client.uploadPart(
                    bucket: bucket, key: key, uploadID: id, partNumber: number, length: length
                ) { pattern.fill($0) }
                parts.append(CompletedPart(partNumber: number, eTag: eTag))
            }
            #expect(try client.listObjects(bucket: bucket).objects.isEmpty)
            try client.completeMultipartUpload(bucket: bucket, key: key, uploadID: id, parts: parts)
            #expect(try client.listMultipartUploads(bucket: bucket).isEmpty)
            var check = PatternStream()
            var received: Int64 = 0
            var matches = true
            try client.getObject(bucket: bucket, key: key) { chunk in
                received += Int64(chunk.count)
                matches = matches && check.matches(chunk)
            }
            #expect(received == 5 << 20 + 12_345)
            #expect(matches)
        }
    }

    /// The bytes of a part of `size` bytes, the `index`th of its object.
    static func part(_ index: Int, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
    }

    /// An object made of checksummed parts has a composite checksum, the checksum of its parts'
    /// checksums, and lists its parts' sizes, page by page.
    @Test func anObjectOfChecksummedPartsListsItsParts() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            let key = Array("parts".utf8)
            let sizes = [5 << 20, 5 << 20, 17]
            let checksums = try client.uploadParts(
                sizes.enumerated().map { Self.part($0, size: $1) }, of: key, in: bucket, checksummed: true)
            let head = try client.headObject(bucket: bucket, key: key)
            #expect(head.checksum == nil)
            let composite = try #require(head.compositeChecksum)
            #expect(composite.partCount == 3)
            #expect(composite.isMade(of: checksums))
            #expect(!composite.isMade(of: checksums.reversed()))
            #expect(!composite.isMade(of: Array(checksums.prefix(2))))
            let parts = try #require(try client.objectParts(bucket: bucket, key: key, partsPerPage: 2))
            #expect(parts.sizes == sizes.map { Int64($0) })
            #expect(parts.eTag.map { "\"\($0)\"" } == head.eTag)
            #expect(client.requestsSent(.getObjectAttributes) == 2)
            #expect(try client.objectParts(bucket: bucket, key: key)?.sizes == sizes.map { Int64($0) })
        }
    }

    @Test func anObjectPutWholeListsNoParts() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            let key = Array("whole".utf8)
            try client.putObject(bucket: bucket, key: key, bytes: Array("contents".utf8))
            #expect(try client.objectParts(bucket: bucket, key: key) == nil)
            let error = try #require(throws: S3Error.self) {
                try client.objectParts(bucket: bucket, key: Array("missing".utf8))
            }
            #expect(error.kind == .noSuchKey)
        }
    }

    /// An object of one part read whole is checked: its composite checksum is the checksum of
    /// its one part's checksum.
    @Test func aChangedObjectOfOnePartIsBadDigest() throws {
        let server = try SeaweedServer.required()
        try server.withBucket { owner, bucket in
            let key = Array("one-part".utf8)
            try owner.uploadParts([Self.part(0, size: 1000)], of: key, in: bucket, checksummed: true)
            var bytes: [UInt8] = []
            let head = try owner.getObject(bucket: bucket, key: key) { bytes += $0 }
            #expect(head.compositeChecksum?.partCount == 1)
            #expect(bytes == (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let proxy = try FaultyProxy(
                to: server.port, breakingFirstRequestContaining: "GET /\(bucket)/one-part", with: .corruptAnswerBody)
            defer { proxy.stop() }
            let client = S3Client(endpoint: S3Endpoint(url: "http://127.0.0.1:\(proxy.port)")!, credentials: server.credentials)
            defer { try? client.shutdown() }
            let error = try #require(throws: S3Error.self) { try client.getObject(bucket: bucket, key: key) { _ in } }
            #expect(proxy.hasFired)
            #expect(error.kind == .badDigest)
        }
    }

    /// Composite checksums as headers carry them: the base64 of 32 bytes, a dash, the parts.
    @Test(arguments: [
        ("three parts", "+KIQA7GjCxL+Ks0DOUqVxX7LQlwtYFCDkYNEUCbYsuo=-3", 3),
        ("no part count", "+KIQA7GjCxL+Ks0DOUqVxX7LQlwtYFCDkYNEUCbYsuo=", nil),
        ("no parts", "+KIQA7GjCxL+Ks0DOUqVxX7LQlwtYFCDkYNEUCbYsuo=-0", nil),
        ("a short digest", "AAAA-3", nil),
        ("not base64", "not base64!-3", nil),
    ])
    func compositeChecksumsAreRead(_ row: (name: String, header: String, parts: Int?)) {
        #expect(CompositeChecksum(headerValue: row.header)?.partCount == row.parts)
    }

    @Test func anAbortedUploadLeavesNothingBehind() throws {
        try SeaweedServer.required().withBucket { client, bucket in
            let key = Array("aborted".utf8)
            let id = try client.createMultipartUpload(bucket: bucket, key: key)
            var pattern = PatternStream()
            _ = try client.uploadPart(bucket: bucket, key: key, uploadID: id, partNumber: 1, length: 1 << 20)
            {
                pattern.fill($0)
            }
            try client.abortMultipartUpload(bucket: bucket, key: key, uploadID: id)
            #expect(try client.listMultipartUploads(bucket: bucket).isEmpty)
            #expect(try client.listObjects(bucket: bucket).objects.isEmpty)
            let error = try #require(throws: S3Error.self) {
                try client.completeMultipartUpload(
                    bucket: bucket, key: key, uploadID: id,
                    parts: [CompletedPart(partNumber: 1, eTag: "\"x\"")])
            }
            #expect(error.kind == .noSuchUpload)
        }
    }
}

/// A deterministic stream of bytes (a position-dependent pattern) to upload and then check
/// chunk by chunk, so that neither side holds the object.
struct PatternStream {
    private var position: Int64 = 0

    private static func byte(at position: Int64) -> UInt8 {
        UInt8(truncatingIfNeeded: (position &* 2_654_435_761) >> 13)
    }

    /// Fills `buffer` with the next bytes and says how many.
    mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        for index in 0..<buffer.count { buffer[index] = Self.byte(at: position + Int64(index)) }
        position += Int64(buffer.count)
        return buffer.count
    }

    /// Whether `chunk` is what comes next.
    mutating func matches(_ chunk: UnsafeRawBufferPointer) -> Bool {
        defer { position += Int64(chunk.count) }
        return chunk.indices.allSatisfy { chunk[$0] == Self.byte(at: position + Int64($0)) }
    }
}
