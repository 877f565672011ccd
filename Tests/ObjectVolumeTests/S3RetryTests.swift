// Requests that fail for a passing reason are sent again: a real fault on a real connection,
// made by a proxy between the client and SeaweedFS (Tests/SeaweedFixture/FaultyProxy.swift).

import ObjectStorage
import ObjectVolume
import PathModel
import SeaweedFixture
import Testing

@Suite struct S3RetryTests {
    /// Runs `body` with a volume on a prefix of its own in the shared server's bucket, reached
    /// through a proxy whose first request containing `pattern` meets `fault`.
    func throughProxy(
        breaking pattern: String, with fault: FaultyProxy.Fault, times: Int = 1, partSize: Int = 5 << 20,
        concurrentRequests: Int = S3Volume.defaultConcurrentRequests, retryPolicy: RetryPolicy = RetryPolicy(),
        _ body: (S3Volume, FaultyProxy) throws -> Void
    ) throws {
        try SeaweedServer.withVolume(
            throughProxyBreaking: { _ in pattern }, with: fault, times: times, partSize: partSize,
            concurrentRequests: concurrentRequests, retryPolicy: retryPolicy, body)
    }

    @Test(arguments: [FaultyProxy.Fault.dropConnection, .serviceUnavailable, .slowDown])
    func aPartThatFailsOnceIsSentAgainAlone(_ fault: FaultyProxy.Fault) throws {
        let partSize = 5 << 20
        try throughProxy(breaking: "partNumber=2&", with: fault, partSize: partSize) { volume, proxy in
            let contents = (0..<(3 * partSize + 4321)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
            try volume.file("/big").write(bytes: contents)
            #expect(proxy.hasFired)
            // Four parts, the second sent twice; nothing else again.
            #expect(volume.client.requestsSent(.uploadPart) == 5)
            #expect(volume.client.requestsSent(.createMultipartUpload) == 1)
            #expect(try volume.file("/big").readBytes() == contents)
            #expect(
                try volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty)
        }
    }

    /// The case at its size: a 100 MiB upload in parts of the default size, one of them
    /// told to slow down once.
    @Test func aHundredMebibyteUploadWithAPartSlowedDownOnceIsWhole() throws {
        let partSize = 8 << 20  // S3Volume's default, aws cli's
        try throughProxy(breaking: "partNumber=7&", with: .slowDown, partSize: partSize) { volume, proxy in
            // Each 4 KiB block carries its own number, so a part out of place shows.
            var contents = [UInt8](repeating: 0, count: 100 << 20)
            contents.withUnsafeMutableBufferPointer { bytes in
                for block in stride(from: 0, to: bytes.count, by: 4096) {
                    for offset in 0..<8 { bytes[block + offset] = UInt8(truncatingIfNeeded: block >> (12 + 8 * offset)) }
                }
            }
            try volume.file("/big").write(bytes: contents)
            #expect(proxy.faultsMet == 1)
            let parts = (contents.count + partSize - 1) / partSize
            #expect(volume.client.requestsSent(.uploadPart) == parts + 1)
            #expect(try volume.file("/big").info().size == UInt64(contents.count))
            #expect(try volume.file("/big").readBytes() == contents)
            #expect(
                try volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty)
        }
    }

    /// A service that keeps failing: the request is sent as often as the policy allows, then the
    /// caller gets the service's own code, which the shell words (`Server error (SlowDown)`).
    @Test(arguments: [(FaultyProxy.Fault.slowDown, "SlowDown"), (.internalError, "InternalError")])
    func aFailureThatPersistsEndsWithTheServicesCode(_ fault: FaultyProxy.Fault, _ code: String) throws {
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: 0.01)
        try throughProxy(breaking: "delimiter=%2F", with: fault, times: .max, retryPolicy: policy) { volume, proxy in
            let error = #expect(throws: FileError.self) { try volume.root.entries() }
            #expect(error?.errno == .ioError)
            #expect(error?.serviceFailure == .serverFailure(code: code))
            #expect(proxy.faultsMet == policy.maxAttempts)
        }
    }

    @Test(arguments: [1, 3])
    func partsInFlightStayWithinTheLimit(_ limit: Int) throws {
        let partSize = 5 << 20
        // A fault on a request that is never sent: the proxy only forwards and counts.
        try throughProxy(
            breaking: "no-such-request", with: .dropConnection, partSize: partSize, concurrentRequests: limit
        ) { volume, proxy in
            let contents = (0..<(6 * partSize + 99)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 9) }
            try volume.file("/big").write(bytes: contents)
            #expect(volume.client.requestsSent(.uploadPart) == 7)
            #expect(proxy.mostRequestsAtOnce <= limit)
            #expect(try volume.file("/big").readBytes() == contents)
        }
    }

    /// The bound from below: the first part to reach the proxy is held there, unanswered, until
    /// another part arrives, which only a client with more than one part in flight sends.
    @Test func partsGoUpInParallel() throws {
        let partSize = 5 << 20
        try throughProxy(breaking: "partNumber=", with: .heldUntilAnotherArrives, partSize: partSize) { volume, proxy in
            let contents = (0..<(3 * partSize + 99)).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ $0 >> 10) }
            try volume.file("/big").write(bytes: contents)
            #expect(proxy.faultsMet == 1)
            #expect(proxy.requestsThatJoinedAHeldOne == 1)
            #expect(proxy.mostRequestsAtOnce >= 2)
            #expect(volume.client.requestsSent(.uploadPart) == 4)
            #expect(try volume.file("/big").readBytes() == contents)
        }
    }

    @Test(arguments: [FaultyProxy.Fault.dropConnection, .serviceUnavailable])
    func aPartThatFailsForGoodAbortsTheUpload(_ fault: FaultyProxy.Fault) throws {
        let partSize = 5 << 20
        try throughProxy(
            breaking: "partNumber=2&", with: fault, partSize: partSize, retryPolicy: RetryPolicy(maxAttempts: 1)
        ) { volume, proxy throws in
            let contents = [UInt8](repeating: 5, count: 4 * partSize)
            #expect(throws: FileError.self) { try volume.file("/big").write(bytes: contents) }
            #expect(proxy.hasFired)
            #expect(
                try volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty)
            #expect(volume.client.requestsSent(.abortMultipartUpload) == 1)
            #expect(volume.client.requestsSent(.completeMultipartUpload) == 0)
            let missing = #expect(throws: FileError.self) { try volume.file("/big").info() }
            #expect(missing?.errno == .noSuchFileOrDirectory)
        }
    }

    @Test(arguments: [FaultyProxy.Fault.dropConnection, .serviceUnavailable, .slowDown, .internalError])
    func aListingThatFailsOnceIsAskedAgain(_ fault: FaultyProxy.Fault) throws {
        try throughProxy(breaking: "delimiter=%2F", with: fault) { volume, proxy in
            try volume.client.putObject(
                bucket: volume.bucket, key: volume.prefix + Array("d/x".utf8), bytes: [7])
            #expect(try volume.file("/d").entries().map(\.nameString) == ["x"])
            #expect(proxy.hasFired)
        }
    }

    @Test func withoutRetriesTheFaultIsTheCallersFailure() throws {
        let server = try SeaweedServer.shared()
        try SeaweedServer.withVolume { direct in
            let proxy = try FaultyProxy(
                to: server.port, breakingFirstRequestContaining: "delimiter=%2F", with: .dropConnection)
            defer { proxy.stop() }
            let client = S3Client(
                endpoint: S3Endpoint(url: "http://127.0.0.1:\(proxy.port)")!, credentials: server.credentials,
                retryPolicy: RetryPolicy(maxAttempts: 1))
            defer { try? client.shutdown() }
            let volume = S3Volume(client: client, bucket: direct.bucket, prefix: direct.prefix)
            let error = #expect(throws: FileError.self) { try volume.root.entries() }
            #expect(error?.errno == .connectionReset)
            #expect(proxy.hasFired)
        }
    }
}
