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
