// A file on the disk larger than a part goes up as a multipart upload whose parts are read from
// the file as each is sent: byte for byte with each part's checksum, a part sent again read
// again, and nothing left behind (no object, no upload) when the file shrinks on the way or the
// copy is stopped. Faults are made by a proxy between the client and a real SeaweedFS.

import ObjectStorage
import ObjectVolume
import PathModel
import SeaweedFixture
import Testing

@Suite struct S3PieceUploadTests {
    static let partSize = 5 << 20
    /// Three parts and a bit.
    static let contents = (0..<(3 * partSize + 4321)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ $0 >> 9) }
    static let partCount = 4

    /// A fault met by the request of the second part.
    struct Fault: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let fault: FaultyProxy.Fault
    }

    static let faults = [
        Fault(testDescription: "the second part's connection dropped", fault: .dropConnection),
        Fault(testDescription: "a byte of the second part changed on the way", fault: .corruptRequestBody),
        Fault(testDescription: "the second part answered SlowDown", fault: .slowDown),
    ]

    @Test func aLargeFileGoesUpAPartAtATimeFromTheDisk() throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(partSize: Self.partSize) { volume in
                let source = directory + "big"
                try source.write(bytes: Self.contents)
                var copier = Copier(options: CopyOptions())
                var told: UInt64 = 0
                copier.transferred = { told += $0 }
                let copied = copier.copy(source, to: volume.file("/big"))
                #expect(copied)
                #expect(told == UInt64(Self.contents.count), "the progress counts every byte once")
                #expect(volume.client.requestsSent(.uploadPart) == Self.partCount)
                #expect(volume.partBytesHeld.peak == 0, "no part was held in memory")
                let head = try volume.client.headObject(bucket: volume.bucket, key: volume.prefix + Array("big".utf8))
                #expect(head.compositeChecksum?.partCount == Self.partCount)
                #expect(try volume.file("/big").readBytes() == Self.contents)
            }
        }
    }

    @Test(arguments: faults)
    func aPartThatFailsOnceIsReadAgainAndSentAgain(_ fault: Fault) throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(
                throughProxyBreaking: { _ in "partNumber=2&" }, with: fault.fault, partSize: Self.partSize
            ) { volume, proxy in
                let source = directory + "big"
                try source.write(bytes: Self.contents)
                var copier = Copier(options: CopyOptions())
                var failures: [TransferError] = []
                copier.failed = { failures.append($0) }
                let copied = copier.copy(source, to: volume.file("/big"))
                #expect(copied)
                #expect(failures.isEmpty)
                #expect(proxy.faultsMet == 1)
                #expect(volume.client.requestsSent(.uploadPart) == Self.partCount + 1)
                #expect(try volume.file("/big").readBytes() == Self.contents)
            }
        }
    }

    /// The file is cut to one part once the first part was handed over: a part read short
    /// fails as a read of the file, the upload is aborted, and no object appears.
    @Test func aFileThatShrinksOnTheWayLeavesNothing() throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(partSize: Self.partSize) { shared in
                // One part at a time, so that the parts after the first are read after the cut.
                let volume = S3Volume(
                    client: shared.client, bucket: shared.bucket, prefix: shared.prefix, partSize: Self.partSize,
                    concurrentRequests: 1)
                let source = directory + "big"
                try source.write(bytes: Self.contents)
                var copier = Copier(options: CopyOptions())
                var failures: [TransferError] = []
                copier.failed = { failures.append($0) }
                copier.transferred = { _ in
                    // In place: the copy reads the file it opened.
                    let cut = try? source.open(.modify)
                    try? cut?.truncate(to: UInt64(Self.partSize))
                    cut?.close()
                }
                let copied = copier.copy(source, to: volume.file("/big"))
                #expect(!copied)
                guard case .file(let error) = failures.first, failures.count == 1 else {
                    Issue.record("one failure expected: \(failures)")
                    return
                }
                #expect(error.errno == .ioError)
                #expect(error.operation == .read)
                #expect(error.path == source)
                #expect(!volume.file("/big").exists)
                #expect(try volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty)
            }
        }
    }

    @Test func aStoppedUploadLeavesNothing() throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(partSize: Self.partSize) { volume in
                let source = directory + "big"
                try source.write(bytes: Self.contents)
                var copier = Copier(options: CopyOptions())
                var failures: [TransferError] = []
                var told: UInt64 = 0
                copier.failed = { failures.append($0) }
                copier.transferred = { told += $0 }
                copier.isCancelled = { told > 0 }
                let copied = copier.copy(source, to: volume.file("/big"))
                #expect(!copied)
                guard case .file(let error) = failures.first, failures.count == 1 else {
                    Issue.record("one failure expected: \(failures)")
                    return
                }
                #expect(error.errno == .canceled)
                #expect(!volume.file("/big").exists)
                #expect(try volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty)
            }
        }
    }
}
