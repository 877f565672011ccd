// A large file crosses between the disk and object storage with a bounded number of parts in
// memory, whatever its size: the volume counts the bytes of the parts its transfers hold.

import ObjectStorage
import ObjectVolume
import PathModel
import SeaweedFixture
import Testing

@Suite struct S3TransferMemoryTests {
    static let partSize = 5 << 20
    /// Four parts and a bit: enough for the download to fetch ahead as far as it may.
    static let contents = (0..<(4 * partSize + 12345)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }

    /// A volume of the shared server's bucket that holds at most `parts` parts of a transfer.
    static func volume(like direct: S3Volume, partsInMemory parts: Int) -> S3Volume {
        S3Volume(
            client: direct.client, bucket: direct.bucket, prefix: direct.prefix, partSize: partSize,
            partsInMemory: parts)
    }

    @Test(arguments: [2, 3])
    func aLargeFileHoldsNoMorePartsThanAllowed(partsInMemory: Int) throws {
        try withScratch { directory in
            try SeaweedServer.withVolume { direct in
                // The parts in flight: all those in memory but the one gathered or read.
                let bound = (partsInMemory - 1) * Self.partSize
                let source = directory + "big"
                try source.write(bytes: Self.contents)
                var copier = Copier(options: CopyOptions())

                let uploading = Self.volume(like: direct, partsInMemory: partsInMemory)
                let uploaded = copier.copy(source, to: uploading.file("/big"))
                #expect(uploaded)
                // No part in memory: each is read from the file on the disk as it goes up
                // (S3PieceUploadTests).
                #expect(uploading.partBytesHeld.peak == 0)

                // Written in order (no file to read by offset), the parts gather in the volume's
                // buffers: as many as allowed.
                let writing = Self.volume(like: direct, partsInMemory: partsInMemory)
                try writing.file("/written").write(bytes: Self.contents)
                let up = writing.partBytesHeld
                #expect(up.peak >= Self.partSize, "the parts went through the volume's buffers")
                #expect(up.peak <= bound)
                #expect(up.now == 0, "every buffer was given back")

                let downloading = Self.volume(like: direct, partsInMemory: partsInMemory)
                let downloaded = copier.copy(downloading.file("/big"), to: directory + "copy")
                #expect(downloaded)
                #expect(try (directory + "copy").readBytes() == Self.contents)
                let down = downloading.partBytesHeld
                // No part in memory: an object made of parts comes down in pieces written where
                // they belong as they arrive (S3ParallelDownloadTests bounds them).
                #expect(down.peak < Self.partSize)
                #expect(down.now == 0, "every piece was let go")

                // An object with a checksum of its whole bytes (one PUT) is read in order, to be
                // checked as it comes: the ranges fetched ahead take as many parts as allowed.
                try direct.client.putObject(
                    bucket: direct.bucket, key: direct.prefix + Array("whole".utf8), bytes: Self.contents)
                let reading = Self.volume(like: direct, partsInMemory: partsInMemory)
                let read = copier.copy(reading.file("/whole"), to: directory + "whole")
                #expect(read)
                #expect(try (directory + "whole").readBytes() == Self.contents)
                #expect(reading.partBytesHeld.peak == bound)
                #expect(reading.partBytesHeld.now == 0, "every buffer was given back")
            }
        }
    }
}
