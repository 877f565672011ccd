// Every upload carries its SHA-256 checksum and the server refuses bytes that do not match it;
// a whole object read in order is checked against the checksum stored with it. Bytes are
// changed on the way by a proxy between the client and SeaweedFS.

import ObjectStorage
import ObjectVolume
import PathModel
import SeaweedFixture
import Testing

@Suite struct S3ChecksumTests {
    static let partSize = 5 << 20

    /// An upload whose first request for `/sum` has a byte of its body changed on the way.
    struct ChangedUpload: Sendable, CustomTestStringConvertible {
        let testDescription: String
        /// The file's size: one PUT, or parts.
        let size: Int
        /// What the request to change contains.
        let pattern: @Sendable (_ top: String) -> String
        let operation: S3Client.Operation
    }

    static let changedUploads = [
        ChangedUpload(
            testDescription: "one PUT", size: 100_000, pattern: { "PUT \($0)sum HTTP" }, operation: .putObject),
        ChangedUpload(
            testDescription: "the second part", size: 3 * partSize + 17, pattern: { _ in "partNumber=2&" },
            operation: .uploadPart),
    ]

    static func contents(_ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 7) }
    }

    @Test func aPutObjectKeepsItsChecksumAndGivesItBack() throws {
        try SeaweedServer.withVolume { volume in
            let contents = Self.contents(70_000)
            try volume.file("/sum").write(bytes: contents)
            let head = try volume.client.headObject(bucket: volume.bucket, key: volume.prefix + Array("sum".utf8))
            #expect(head.checksum == ObjectChecksum(of: contents))
            #expect(try volume.file("/sum").readBytes() == contents)
        }
    }

    @Test(arguments: changedUploads)
    func aChangedUploadIsRefusedAndSentAgain(_ upload: ChangedUpload) throws {
        try SeaweedServer.withVolume(
            throughProxyBreaking: upload.pattern, with: .corruptRequestBody, partSize: Self.partSize
        ) { volume, proxy in
            let contents = Self.contents(upload.size)
            try volume.file("/sum").write(bytes: contents)
            #expect(proxy.hasFired)
            let requests = upload.size > Self.partSize ? (upload.size + Self.partSize - 1) / Self.partSize : 1
            // The changed request was refused and sent once more.
            #expect(volume.client.requestsSent(upload.operation) == requests + 1)
            #expect(try volume.file("/sum").readBytes() == contents)
        }
    }

    @Test(arguments: changedUploads)
    func aChangedUploadSentOnceFailsAndLeavesNothing(_ upload: ChangedUpload) throws {
        try SeaweedServer.withVolume(
            throughProxyBreaking: upload.pattern, with: .corruptRequestBody, partSize: Self.partSize,
            retryPolicy: RetryPolicy(maxAttempts: 1)
        ) { volume, proxy throws in
            let error = #expect(throws: FileError.self) {
                let output = try volume.file("/sum").open(.truncate)
                defer { output.close() }
                try output.write(Self.contents(upload.size)[...])
                try output.finish()
            }
            #expect(proxy.hasFired)
            #expect(error?.serviceFailure == .checksumMismatch)
            #expect(error?.path.bytes == Array("/sum".utf8))
            #expect(!volume.file("/sum").exists)
            #expect(
                try volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty)
        }
    }

    @Test func aChangedDownloadFailsItsLastRead() throws {
        try SeaweedServer.withVolume(
            throughProxyBreaking: { "GET \($0)sum HTTP" }, with: .corruptAnswerBody
        ) { volume, proxy in
            try volume.file("/sum").write(bytes: Self.contents(100_000))
            let error = #expect(throws: FileError.self) {
                let input = try volume.file("/sum").open(.read)
                defer { input.close() }
                var buffer = [UInt8](repeating: 0, count: 1 << 20)
                while try input.read(into: &buffer) > 0 {}
            }
            #expect(proxy.hasFired)
            #expect(error?.serviceFailure == .checksumMismatch)
            #expect(error?.errno == .ioError)
        }
    }

    /// Reads `file` in order to its end, `chunk` bytes at a time; returns how many bytes came.
    @discardableResult
    static func readToTheEnd(_ file: File, chunk: Int = 1 << 20) throws -> Int {
        let input = try file.open(.read)
        defer { input.close() }
        var buffer = [UInt8](repeating: 0, count: chunk)
        var total = 0
        while case let count = try input.read(into: &buffer), count > 0 { total += count }
        return total
    }

    /// An object of parts read in order is checked against its composite checksum: its parts'
    /// sizes are asked for once the reads go past a first range of 256 KiB or less (a short
    /// read asks nothing more), or before a larger first range (a read of 7 MiB runs past the
    /// first part); the first range's bytes count towards the first part's checksum.
    @Test(arguments: [1 << 20, 7 << 20])
    func anObjectOfPartsReadInOrderIsChecked(chunk: Int) throws {
        try SeaweedServer.withVolume(
            throughProxyBreaking: { "GET \($0)sum HTTP" }, with: .corruptAnswerBody, partSize: Self.partSize
        ) { volume, proxy in
            let contents = Self.contents(2 * Self.partSize + 5)
            try volume.file("/sum").write(bytes: contents)
            let error = #expect(throws: FileError.self) { try Self.readToTheEnd(volume.file("/sum"), chunk: chunk) }
            #expect(proxy.hasFired)
            #expect(error?.serviceFailure == .checksumMismatch)
            #expect(error?.errno == .ioError)
            #expect(volume.client.requestsSent(.getObjectAttributes) == 1)
            let input = try volume.file("/sum").open(.read)
            var buffer = [UInt8](repeating: 0, count: 100)
            #expect(try input.read(into: &buffer) == 100)
            input.close()
            #expect(volume.client.requestsSent(.getObjectAttributes) == 1, "a short read asks nothing more")
            // Unchanged on the way, the same reads pass.
            #expect(try Self.readToTheEnd(volume.file("/sum"), chunk: chunk) == contents.count)
            #expect(volume.client.requestsSent(.getObjectAttributes) == 2)
        }
    }

    /// An object of one part (a multipart upload of one part) is its one part: read in order,
    /// it is checked without asking for its parts, and a changed byte is found.
    @Test func anObjectOfOnePartIsCheckedWithoutAsking() throws {
        try SeaweedServer.withVolume(
            throughProxyBreaking: { "GET \($0)one HTTP" }, with: .corruptAnswerBody, partSize: Self.partSize
        ) { volume, proxy in
            let contents = Self.contents(600_000)
            let client = volume.client
            try client.uploadParts([contents], of: volume.prefix + Array("one".utf8), in: volume.bucket, checksummed: true)
            let error = #expect(throws: FileError.self) { try Self.readToTheEnd(volume.file("/one")) }
            #expect(proxy.hasFired)
            #expect(error?.serviceFailure == .checksumMismatch)
            #expect(try Self.readToTheEnd(volume.file("/one")) == contents.count)
            #expect(client.requestsSent(.getObjectAttributes) == 0)
        }
    }

    @Test func anObjectOfPartsCarriesEachPartsChecksum() throws {
        try SeaweedServer.withVolume(partSize: Self.partSize) { volume in
            let contents = Self.contents(2 * Self.partSize + 5)
            try volume.file("/sum").write(bytes: contents)
            #expect(volume.client.requestsSent(.uploadPart) == 3)
            #expect(try volume.file("/sum").readBytes() == contents)
        }
    }
}
