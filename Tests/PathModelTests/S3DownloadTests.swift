// A copy from object storage to the local disk goes to a temporary file renamed into place, so
// a download that fails or is interrupted leaves the destination as it was and nothing else.
// Faults are made by a proxy between the client and a real SeaweedFS.

import ObjectStorage
import ObjectVolume
import PathModel
import SeaweedFixture
import Testing

@Suite struct S3DownloadTests {
    /// A 1 MiB object, fetched in three ranges: bytes 0–262143, 262144–786431, 786432–1048575.
    static let contents = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ $0 >> 9) }

    /// A way for the download to fail, and the fault that makes it.
    struct Failure: Sendable, CustomTestStringConvertible {
        let testDescription: String
        /// What the request to break contains.
        let pattern: String
        let fault: FaultyProxy.Fault
        /// Whether the copy is cancelled once bytes have been written.
        var cancels = false
    }

    static let failures = [
        Failure(
            testDescription: "the last range changed on the way", pattern: "bytes=786432-",
            fault: .corruptAnswerBody),
        Failure(
            testDescription: "the connection dropped at the second range", pattern: "bytes=262144-",
            fault: .dropConnection),
        Failure(
            testDescription: "cancelled after the first bytes", pattern: "no-such-request", fault: .dropConnection,
            cancels: true),
    ]

    /// Copies `source` to `destination` with a copier that stops once bytes moved when `cancels`.
    static func copy(_ source: File, to destination: File, cancels: Bool = false) -> (Bool, [TransferError]) {
        var copier = Copier(options: CopyOptions())
        var failures: [TransferError] = []
        var moved: UInt64 = 0
        copier.failed = { failures.append($0) }
        copier.transferred = { moved += $0 }
        copier.isCancelled = { cancels && moved > 0 }
        return (copier.copy(source, to: destination), failures)
    }

    @Test(arguments: failures, [false, true])
    func aFailedDownloadLeavesNoPartialFile(_ failure: Failure, destinationExists: Bool) throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(
                throughProxyBreaking: { _ in failure.pattern }, with: failure.fault,
                retryPolicy: RetryPolicy(maxAttempts: 1)
            ) { volume, proxy in
                let source = volume.file("/big")
                try source.write(bytes: Self.contents)
                let destination = directory + "copy"
                if destinationExists { try destination.write(text: "old") }
                let (copied, failures) = Self.copy(source, to: destination, cancels: failure.cancels)
                #expect(!copied)
                #expect(failures.count == 1)
                #expect(proxy.hasFired != failure.cancels)
                #expect(rawNames(directory) == (destinationExists ? [Array("copy".utf8)] : []))
                if destinationExists { #expect(try destination.readText() == "old") }
            }
        }
    }

    /// A tree of small files copied down: each file is one GET on the strength of the listing
    /// (no HEAD), and arrives byte for byte.
    @Test func eachSmallFileOfATreeIsOneRequest() throws {
        try withScratch { directory in
            try SeaweedServer.withVolume { volume in
                let names = ["a", "b", "c", "d/e"]
                // Keys alone, no directory markers, as other tools upload a tree.
                for (index, name) in names.enumerated() {
                    try volume.client.putObject(
                        bucket: volume.bucket, key: volume.prefix + Array("tree/\(name)".utf8),
                        bytes: Array(Self.contents.prefix(4096 + index)))
                }
                let heads = volume.client.requestsSent(.headObject)
                let gets = volume.client.requestsSent(.getObject)
                let (copied, failures) = Self.copy(volume.file("/tree"), to: directory + "tree")
                #expect(copied)
                #expect(failures.isEmpty)
                for (index, name) in names.enumerated() {
                    #expect(
                        try (directory + "tree/\(name)").readBytes()
                            == Array(Self.contents.prefix(4096 + index)))
                }
                #expect(volume.client.requestsSent(.getObject) - gets == names.count)
                // The operand's own looks (HEADs that miss: it is a directory), none per file.
                #expect(volume.client.requestsSent(.headObject) - heads < names.count)
            }
        }
    }

    /// A file changed after the listing that described it is read as it is now: the GET on the
    /// listed entity tag is refused, a HEAD says what the file is, and a GET reads it.
    @Test func aFileChangedSinceItWasDescribedIsReadAsItIsNow() throws {
        try SeaweedServer.withVolume { volume in
            let file = volume.file("/f")
            try file.write(bytes: Array("before".utf8))
            let described = try file.info()
            try file.write(bytes: Array("after, and longer".utf8))
            let heads = volume.client.requestsSent(.headObject)
            let gets = volume.client.requestsSent(.getObject)
            let opened = try volume.openForReading(file, describedAs: described)
            defer { opened.close() }
            #expect(try opened.readAll() == Array("after, and longer".utf8))
            #expect(volume.client.requestsSent(.headObject) - heads == 1)
            #expect(volume.client.requestsSent(.getObject) - gets == 2)
        }
    }

    /// A small file whose one GET comes back changed fails with a checksum mismatch and leaves
    /// no file behind.
    @Test func aSmallFileChangedOnTheWayLeavesNoFile() throws {
        try withScratch { directory in
            try SeaweedServer.withVolume(
                throughProxyBreaking: { top in "GET \(top)small" }, with: .corruptAnswerBody,
                retryPolicy: RetryPolicy(maxAttempts: 1)
            ) { volume, proxy in
                try volume.file("/small").write(bytes: Array(Self.contents.prefix(5000)))
                let (copied, failures) = Self.copy(volume.file("/small"), to: directory + "copy")
                #expect(!copied)
                #expect(proxy.hasFired)
                guard case .file(let error) = failures.first, failures.count == 1 else {
                    Issue.record("one failure expected: \(failures)")
                    return
                }
                #expect(error.serviceFailure == .checksumMismatch, "\(error)")
                #expect(rawNames(directory).isEmpty)
            }
        }
    }

    @Test func aDownloadReplacesTheDestinationByRenaming() throws {
        try withScratch { directory in
            try SeaweedServer.withVolume { volume in
                let source = volume.file("/big")
                try source.write(bytes: Self.contents)
                let destination = directory + "copy"
                try destination.write(text: "old")
                let before = try destination.info().identity
                let (copied, failures) = Self.copy(source, to: destination)
                #expect(copied)
                #expect(failures.isEmpty)
                #expect(try destination.readBytes() == Self.contents)
                // A new file took the name: the old one was not written over in place.
                #expect(try destination.info().identity != before)
                #expect(rawNames(directory) == [Array("copy".utf8)])
            }
        }
    }
}
