// A large object copied to the disk comes down in ranges fetched in parallel, each piece
// written at its offset into the temporary file as it arrives: byte for byte, retried range by
// range, refused when the object changes on the way, checked part by part against its composite
// checksum, and leaving no file when it fails or is stopped. Faults are made by a proxy between
// the client and a real SeaweedFS.

import ObjectStorage
import ObjectVolume
import PathModel
import SeaweedFixture
import Synchronization
import Testing

@Suite struct S3ParallelDownloadTests {
    static let partSize = 5 << 20
    /// Three ranges and a bit: 0–5242879, 5242880–10485759, 10485760–15728639, 15728640–.
    static let contents = (0..<(3 * partSize + 54321)).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ $0 >> 13) }
    static let rangeCount = 4

    /// Uploads `contents` through `volume` in parts, so that the object has no checksum of its
    /// whole bytes (the download then comes in pieces), and returns its file.
    static func upload(to volume: S3Volume, from directory: File) throws -> File {
        let local = directory + "source"
        try local.write(bytes: contents)
        let object = volume.file("/big")
        var copier = Copier(options: CopyOptions())
        let uploaded = copier.copy(local, to: object)
        #expect(uploaded)
        try local.removeFile()
        return object
    }

    /// A copier that reports its failures, counts the bytes moved, and runs `whenMoving` on its
    /// first report of bytes moved; it stops then when `cancels`.
    static func copy(
        _ source: File, to destination: File, cancels: Bool = false, whenMoving: @escaping () -> Void = {}
    ) -> (copied: Bool, failures: [TransferError], moved: UInt64) {
        var copier = Copier(options: CopyOptions())
        var failures: [TransferError] = []
        var moved: UInt64 = 0
        copier.failed = { failures.append($0) }
        copier.transferred = { bytes in
            if moved == 0 { whenMoving() }
            moved += bytes
        }
        copier.isCancelled = { cancels && moved > 0 }
        let copied = copier.copy(source, to: destination)
        return (copied, failures, moved)
    }

    @Test func aMultipartObjectArrivesByteForByteInOneRequestPerRange() throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(partSize: Self.partSize) { volume in
                let object = try Self.upload(to: volume, from: directory)
                let gets = volume.client.requestsSent(.getObject)
                let (copied, failures, moved) = Self.copy(object, to: directory + "copy")
                #expect(copied)
                #expect(failures.isEmpty)
                #expect(try (directory + "copy").readBytes() == Self.contents)
                #expect(moved == UInt64(Self.contents.count), "the progress counts every byte once")
                #expect(volume.client.requestsSent(.getObject) - gets == Self.rangeCount)
                #expect(rawNames(directory) == [Array("copy".utf8)])
            }
        }
    }

    /// A range that fails once, before or after some of its bytes came.
    struct Fault: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let fault: FaultyProxy.Fault
    }

    static let faults = [
        Fault(testDescription: "the second range's connection dropped", fault: .dropConnection),
        Fault(testDescription: "the second range's answer cut midway", fault: .cutAnswer),
        Fault(testDescription: "the second range answered SlowDown", fault: .slowDown),
    ]

    @Test(arguments: faults)
    func aRangeThatFailsOnceIsFetchedAgain(_ fault: Fault) throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(
                throughProxyBreaking: { _ in "bytes=\(Self.partSize)-" }, with: fault.fault,
                partSize: Self.partSize
            ) { volume, proxy in
                let object = try Self.upload(to: volume, from: directory)
                let (copied, failures, moved) = Self.copy(object, to: directory + "copy")
                #expect(copied)
                #expect(failures.isEmpty)
                #expect(proxy.faultsMet == 1)
                #expect(try (directory + "copy").readBytes() == Self.contents)
                #expect(moved == UInt64(Self.contents.count), "bytes fetched again are not counted again")
            }
        }
    }

    /// An object with no checksum to check by comes down in ranges of the part size, or in
    /// twice as many ranges as requests in flight when those are larger: with one request at a
    /// time, its 15 MiB come in two ranges rather than four parts' worth.
    @Test(arguments: [(concurrentRequests: 1, gets: 2), (concurrentRequests: 4, gets: 4)])
    func anUncheckedObjectComesDownInTwiceAsManyRangesAsRequests(_ row: (concurrentRequests: Int, gets: Int)) throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(partSize: Self.partSize) { shared in
                // Parts sent without checksums: the object has none to check by.
                let client = shared.client
                let parts = stride(from: 0, to: Self.contents.count, by: Self.partSize).map {
                    Array(Self.contents[$0..<min($0 + Self.partSize, Self.contents.count)])
                }
                try client.uploadParts(parts, of: shared.prefix + Array("plain".utf8), in: shared.bucket, checksummed: false)
                let volume = S3Volume(
                    client: client, bucket: shared.bucket, prefix: shared.prefix, partSize: Self.partSize,
                    concurrentRequests: row.concurrentRequests)
                let gets = client.requestsSent(.getObject)
                let (copied, failures, _) = Self.copy(volume.file("/plain"), to: directory + "copy")
                #expect(copied)
                #expect(failures.isEmpty)
                #expect(try (directory + "copy").readBytes() == Self.contents)
                #expect(client.requestsSent(.getObject) - gets == row.gets)
                #expect(client.requestsSent(.getObjectAttributes) == 0)
            }
        }
    }

    /// The parts the upload made are 5 MiB; a volume whose part size is 8 MiB still fetches the
    /// object a part a range, since each part's checksum is worked out from its range's bytes.
    @Test func aMultipartObjectComesDownAPartARange() throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(partSize: Self.partSize) { shared in
                _ = try Self.upload(to: shared, from: directory)
                let volume = S3Volume(
                    client: shared.client, bucket: shared.bucket, prefix: shared.prefix, partSize: 8 << 20)
                let head = try volume.client.headObject(bucket: volume.bucket, key: volume.prefix + Array("big".utf8))
                #expect(head.compositeChecksum?.partCount == Self.rangeCount)
                let gets = volume.client.requestsSent(.getObject)
                let (copied, failures, _) = Self.copy(volume.file("/big"), to: directory + "copy")
                #expect(copied)
                #expect(failures.isEmpty)
                #expect(try (directory + "copy").readBytes() == Self.contents)
                #expect(volume.client.requestsSent(.getObject) - gets == Self.rangeCount)
                #expect(volume.client.requestsSent(.getObjectAttributes) == 1)
            }
        }
    }

    /// A byte of the second part changed on the way: its part's checksum, and so the object's,
    /// no longer match, and the download fails without touching the destination.
    @Test func aChangedByteInAPartFailsTheDownloadAndLeavesTheDestination() throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(
                throughProxyBreaking: { _ in "bytes=\(Self.partSize)-" }, with: .corruptAnswerBody,
                partSize: Self.partSize
            ) { volume, proxy in
                let object = try Self.upload(to: volume, from: directory)
                let destination = directory + "copy"
                try destination.write(text: "old")
                let (copied, failures, _) = Self.copy(object, to: destination)
                #expect(!copied)
                #expect(proxy.faultsMet == 1)
                guard case .file(let error) = failures.first, failures.count == 1 else {
                    Issue.record("one failure expected: \(failures)")
                    return
                }
                #expect(error.errno == .ioError)
                #expect(error.serviceFailure == .checksumMismatch)
                #expect(error.path == object)
                #expect(rawNames(directory) == [Array("copy".utf8)])
                #expect(try destination.readText() == "old")
            }
        }
    }

    /// Credentials that may read an object but not ask for its parts (a permission of its own
    /// on AWS), or a server that does not have the call, still download it, in ranges of the
    /// volume's part size, unchecked; the refusal is not asked again.
    @Test(arguments: [FaultyProxy.Fault.accessDenied, .notImplemented])
    func aRefusalToListThePartsLeavesTheDownloadUnchecked(_ refusal: FaultyProxy.Fault) throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(
                throughProxyBreaking: { _ in "?attributes" }, with: refusal, partSize: Self.partSize
            ) { uploader, proxy in
                _ = try Self.upload(to: uploader, from: directory)
                let volume = S3Volume(
                    client: uploader.client, bucket: uploader.bucket, prefix: uploader.prefix, partSize: 8 << 20)
                let gets = volume.client.requestsSent(.getObject)
                let (copied, failures, _) = Self.copy(volume.file("/big"), to: directory + "copy")
                #expect(copied)
                #expect(failures.isEmpty)
                #expect(proxy.faultsMet == 1)
                #expect(try (directory + "copy").readBytes() == Self.contents)
                // 15.05 MiB in two ranges of 8 MiB, not in the four parts of the upload.
                #expect(volume.client.requestsSent(.getObject) - gets == 2)
                #expect(volume.client.requestsSent(.getObjectAttributes) == 1)
            }
        }
    }

    /// The object is written anew, in other parts, between its HEAD and the question about its
    /// parts: the parts listed are another object's, and the download fails as a changed one.
    @Test func anObjectChangedBeforeItsPartsAreListedFails() throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(partSize: Self.partSize) { volume in
                let object = try Self.upload(to: volume, from: directory)
                let opened = try object.open(.read)
                defer { opened.close() }
                try object.write(bytes: Array(Self.contents.prefix(2 * Self.partSize + 1)))
                do throws(FileError) {
                    _ = try opened.deliverPieces(to: { (_, _) throws(FileError) in }, progress: { _ in }, isCancelled: { false })
                    Issue.record("the delivery went through")
                } catch {
                    #expect(error.serviceFailure == .refused(code: "PreconditionFailed"), "\(error)")
                }
                #expect(volume.client.requestsSent(.getObjectAttributes) == 1)
            }
        }
    }

    /// The object is written anew (same size, other bytes) when the first piece comes: the
    /// ranges fetched after that are refused (the entity tag changed), and the delivery fails.
    @Test func anObjectChangedDuringTheDownloadFails() throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(partSize: Self.partSize) { shared in
                // One range at a time, so that ranges are still to come when the object changes.
                let volume = S3Volume(
                    client: shared.client, bucket: shared.bucket, prefix: shared.prefix, partSize: Self.partSize,
                    concurrentRequests: 1)
                let object = try Self.upload(to: volume, from: directory)
                let opened = try object.open(.read)
                defer { opened.close() }
                let rewritten = Mutex(false)
                do throws(FileError) {
                    _ = try opened.deliverPieces(
                        to: { (_, _) throws(FileError) in
                            guard rewritten.withLock({ !$0 }) else { return }
                            try? object.write(bytes: Self.contents.reversed())
                            rewritten.withLock { $0 = true }
                        }, progress: { _ in }, isCancelled: { false })
                    Issue.record("the delivery went through")
                } catch {
                    #expect(error.errno == .ioError)
                    #expect(error.serviceFailure == .refused(code: "PreconditionFailed"), "\(error)")
                }
                #expect(rewritten.withLock { $0 })
            }
        }
    }

    @Test func aStoppedDownloadLeavesNoFile() throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(partSize: Self.partSize) { volume in
                let object = try Self.upload(to: volume, from: directory)
                let destination = directory + "copy"
                try destination.write(text: "old")
                let (copied, failures, moved) = Self.copy(object, to: destination, cancels: true)
                #expect(!copied)
                #expect(moved > 0)
                guard case .file(let error) = failures.first, failures.count == 1 else {
                    Issue.record("one failure expected: \(failures)")
                    return
                }
                #expect(error.errno == .canceled)
                #expect(rawNames(directory) == [Array("copy".utf8)])
                #expect(try destination.readText() == "old")
            }
        }
    }

    /// The pieces come as the connection delivers them: what the download holds at once is a
    /// few of those per range in flight, far below a part.
    @Test(arguments: [1, 4])
    func theBytesHeldAreFarBelowAPart(concurrentRequests: Int) throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(partSize: Self.partSize) { shared in
                _ = try Self.upload(to: shared, from: directory)
                // A volume of its own, whose count holds the download's bytes alone.
                let volume = S3Volume(
                    client: shared.client, bucket: shared.bucket, prefix: shared.prefix, partSize: Self.partSize,
                    concurrentRequests: concurrentRequests)
                let (copied, _, _) = Self.copy(volume.file("/big"), to: directory + "copy")
                #expect(copied)
                #expect(try (directory + "copy").readBytes() == Self.contents)
                let held = volume.partBytesHeld
                #expect(held.now == 0)
                #expect(held.peak > 0, "the pieces went through the volume's count")
                // A piece is what one read of the socket gives: at most 512 KiB.
                #expect(held.peak <= concurrentRequests * (512 << 10))
            }
        }
    }
}
