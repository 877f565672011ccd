// What object storage does as a volume beyond the rows every volume runs
// (Tests/PathModelTests/VolumeConformanceTests.swift): markers, a file and a directory of one
// name, multipart uploads, ranges, paging, and the service's refusals. Against a real SeaweedFS.

import ObjectStorage
import ObjectVolume
import PathModel
import SeaweedFixture
import SystemPackage
import Testing

@Suite struct S3VolumeTests {
    /// The full key of `name` on `volume`.
    static func key(_ volume: S3Volume, _ name: String) -> [UInt8] { volume.prefix + Array(name.utf8) }

    /// Every key on `volume`, from a flat listing.
    static func keys(_ volume: S3Volume) throws -> [String] {
        try volume.client.listObjects(bucket: volume.bucket, prefix: volume.prefix).objects.map {
            String(decoding: $0.key.dropFirst(volume.prefix.count), as: UTF8.self)
        }
    }

    @Test func aKeyAndAPrefixOfOneNameBothShowAndStayReachable() throws {
        try SeaweedServer.withVolume { volume in
            try volume.client.putObject(
                bucket: volume.bucket, key: Self.key(volume, "a"), bytes: Array("file".utf8))
            try volume.client.putObject(
                bucket: volume.bucket, key: Self.key(volume, "a/y"), bytes: Array("below".utf8))
            let entries = try volume.root.entries()
            #expect(entries.map(\.nameString) == ["a", "a"])
            #expect(Set(entries.map(\.kind)) == [.regular, .directory])
            #expect(try volume.file("/a").info().kind == .regular)
            #expect(try volume.file("/a").readText() == "file")
            #expect(try volume.file("/a/y").readText() == "below")
            #expect(try volume.file("/a").entries().map(\.nameString) == ["y"])
        }
    }

    @Test func mkdirWritesAMarkerAndRmdirRemovesIt() throws {
        try SeaweedServer.withVolume { volume in
            try volume.file("/d").makeDirectory()
            #expect(try Self.keys(volume) == ["d/"])
            #expect(try volume.file("/d").info().kind == .directory)
            #expect(try volume.file("/d").entries().isEmpty)
            try volume.file("/d/x").write(text: "x")
            let full = #expect(throws: FileError.self) { try volume.file("/d").removeEmptyDirectory() }
            #expect(full?.errno == .directoryNotEmpty)
            try volume.file("/d/x").removeFile()
            // The marker keeps the directory once its last file is gone.
            #expect(try volume.file("/d").info().kind == .directory)
            try volume.file("/d").removeEmptyDirectory()
            #expect(try Self.keys(volume).isEmpty)
            #expect(!volume.file("/d").exists)
        }
    }

    @Test func deletingATreeLeavesNoKeyAndNoMarker() throws {
        try SeaweedServer.withVolume { volume in
            try volume.file("/t/a/b").makeDirectory(intermediates: true)
            try volume.file("/t/a/b/c").write(text: "c")
            try volume.file("/t/f").write(text: "f")
            // A directory that has no marker, only keys below it.
            try volume.client.putObject(
                bucket: volume.bucket, key: Self.key(volume, "t/implied/g"), bytes: [1])
            try volume.file("/t").delete()
            #expect(try Self.keys(volume).isEmpty)
            #expect(try volume.root.entries().isEmpty)
        }
    }

    @Test func aLargeFileGoesUpInPartsAndAppearsWhole() throws {
        let partSize = 5 << 20
        try SeaweedServer.withVolume(partSize: partSize) { volume in
            let contents = (0..<(2 * partSize + 12345)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 13) }
            let output = try volume.file("/big").open(.truncate)
            var start = 0
            while start < contents.count {
                let end = min(start + 1_000_003, contents.count)
                try output.write(contents[start..<end])
                start = end
            }
            // Nothing shows until the upload is complete.
            #expect(!volume.file("/big").exists)
            try output.finish()
            #expect(try volume.file("/big").info().size == UInt64(contents.count))
            #expect(try volume.file("/big").readBytes() == contents)
            let head = try volume.client.headObject(bucket: volume.bucket, key: Self.key(volume, "big"))
            #expect(head.eTag?.hasSuffix("-3\"") == true)
            #expect(
                try volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty)
        }
    }

    /// The default part size (8 MiB, aws cli's) is the threshold of a file written.
    @Test(arguments: SizeAroundAPart.rows)
    func aFileGoesUpInPartsOnlyAboveTheDefaultPartSize(_ row: SizeAroundAPart) throws {
        try SeaweedServer.withVolume { direct in
            // S3Volume's own default, not the fixture's.
            let volume = S3Volume(client: direct.client, bucket: direct.bucket, prefix: direct.prefix)
            let contents = (0..<row.size).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ $0 >> 10) }
            try volume.file("/f").write(bytes: contents)
            row.expectRequests(sentBy: volume.client)
            #expect(try volume.file("/f").readBytes() == contents)
        }
    }

    @Test func aStreamClosedWithoutFinishingLeavesNothing() throws {
        let partSize = 5 << 20
        try SeaweedServer.withVolume(partSize: partSize) { volume in
            try volume.file("/kept").write(text: "old")
            for name in ["/new", "/kept"] {
                let output = try volume.file(name).open(.truncate)
                // More than a part: an upload has begun.
                try output.write([UInt8](repeating: 7, count: partSize + 1)[...])
                output.close()
            }
            #expect(!volume.file("/new").exists)
            #expect(try volume.file("/kept").readText() == "old")
            #expect(
                try volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty)
        }
    }

    @Test(arguments: ["inside the bucket", "to another bucket"])
    func aCopyAboveTheThresholdIsMadeOfPartsCopiedInsideTheService(_ destination: String) throws {
        let partSize = 5 << 20
        try SeaweedServer.withVolume(partSize: partSize, copyThreshold: UInt64(partSize)) { volume in
            try SeaweedServer.shared().withBucket { _, other in
                let target =
                    destination == "to another bucket"
                    ? S3Volume(client: volume.client, bucket: other, partSize: partSize, copyThreshold: UInt64(partSize))
                    : volume
                let contents = (0..<(2 * partSize + 777)).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ $0 >> 7) }
                try volume.file("/big").write(bytes: contents)
                let gets = volume.client.requestsSent(.getObject)
                try volume.file("/big").copy(to: target.file("/copy"))
                #expect(volume.client.requestsSent(.uploadPartCopy) == 3)
                #expect(volume.client.requestsSent(.copyObject) == 0)
                #expect(volume.client.requestsSent(.getObject) == gets)
                #expect(try target.file("/copy").readBytes() == contents)
                #expect(
                    try volume.client.listMultipartUploads(bucket: target.bucket, prefix: target.prefix).isEmpty)
            }
        }
    }

    /// A bucket reached through another client may be another identity's, or another server's:
    /// the bytes go through shelf.
    @Test func noCopyOnTheServerFromABucketOfAnotherClient() throws {
        try SeaweedServer.withVolume { volume in
            try SeaweedServer.shared().withBucket { client, other in
                let elsewhere = S3Volume(client: client, bucket: other)
                try elsewhere.file("/f").write(bytes: [1, 2, 3])
                #expect(try !volume.copyWithin(elsewhere.file("/f"), size: 3, to: volume.file("/copy")))
                #expect(try !volume.copyWithin(File(path: "/dev/null"), size: 0, to: volume.file("/copy")))
                try elsewhere.file("/f").copy(to: volume.file("/copy"))
                #expect(volume.client.requestsSent(.copyObject) == 0)
                #expect(try volume.file("/copy").readBytes() == [1, 2, 3])
            }
        }
    }

    @Test func aCopyInPartsThatFailsLeavesNoUploadAndNoObject() throws {
        let partSize = 5 << 20
        try SeaweedServer.withVolume(partSize: partSize, copyThreshold: UInt64(partSize)) { volume throws in
            // The source is gone by the time its parts are copied.
            let error = #expect(throws: FileError.self) {
                try volume.copyWithin(
                    volume.file("/gone"), size: UInt64(3 * partSize), to: volume.file("/copy"))
            }
            #expect(error?.errno == .noSuchFileOrDirectory)
            #expect(volume.client.requestsSent(.abortMultipartUpload) == 1)
            #expect(
                try volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty)
            #expect(!volume.file("/copy").exists)
        }
    }

    @Test func aLargeObjectReadInOrderIsFetchedAheadInParts() throws {
        let partSize = 5 << 20
        try SeaweedServer.withVolume(partSize: partSize) { volume in
            let contents = (0..<(5 * partSize + 3)).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ $0 >> 10) }
            try volume.file("/big").write(bytes: contents)
            let gets = volume.client.requestsSent(.getObject)
            let input = try volume.file("/big").open(.read)
            defer { input.close() }
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            var read: [UInt8] = []
            while true {
                let count = try input.read(into: &buffer)
                if count == 0 { break }
                read += buffer[..<count]
            }
            #expect(read == contents)
            // Growing ranges up to a part (1, 1, 1, 2 and 4 MiB), then a part at a time: no
            // range is fetched twice.
            #expect(volume.client.requestsSent(.getObject) - gets == 9)
            // A read elsewhere drops what was fetched ahead and fetches what it needs.
            var start = [UInt8](repeating: 0, count: 10)
            #expect(try input.read(into: &start, at: 5) == 10)
            #expect(start[...] == contents[5..<15])
        }
    }

    @Test func readsAtAnOffsetFetchOnlyWhatTheyNeed() throws {
        try SeaweedServer.withVolume { volume in
            let contents = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
            try volume.file("/f").write(bytes: contents)
            let input = try volume.file("/f").open(.read)
            defer { input.close() }
            var tail = [UInt8](repeating: 0, count: 100)
            #expect(try input.read(into: &tail, at: 299_950) == 50)
            #expect(tail[..<50].elementsEqual(contents[299_950...]))
            #expect(try input.readAll() == contents)
        }
    }

    @Test func aDirectoryOfMoreThanAThousandKeysIsListedWhole() throws {
        try SeaweedServer.withVolume { volume in
            for index in 0..<1_005 {
                try volume.client.putObject(
                    bucket: volume.bucket, key: Self.key(volume, "many/\(index)"), bytes: [])
            }
            let names = try volume.file("/many").entries().map(\.nameString)
            #expect(Set(names) == Set((0..<1_005).map(String.init)))
        }
    }

    @Test(arguments: ["a+b", "100%", "til~de", "two words", "été", "line\nbreak", "q?x&y=z", "#hash"])
    func awkwardNamesRoundTrip(_ name: String) throws {
        try SeaweedServer.withVolume { volume in
            try (volume.root + name).write(text: name)
            #expect(try volume.root.entries().map(\.nameString) == [name])
            #expect(try (volume.root + name).readText() == name)
            try (volume.root + name).removeFile()
            #expect(try volume.root.entries().isEmpty)
        }
    }

    @Test func aNameThatIsNotUTF8IsRefused() throws {
        try SeaweedServer.withVolume { volume in
            let file = try volume.root.appending(name: [0x61, 0xFF])
            let error = #expect(throws: FileError.self) { try file.write(text: "x") }
            #expect(error?.errno == .illegalByteSequence)
            #expect(!file.exists)
        }
    }

    @Test func linksAndAttributesAreRefused() throws {
        try SeaweedServer.withVolume { volume in
            try volume.file("/f").write(text: "f")
            // Nothing a POSIX file system has; only removals gathered across directories, and
            // directories that are no more than the keys below them.
            #expect(volume.capabilities == [.batchRemoval, .vanishingDirectories])
            #expect((try? volume.file("/l").makeSymlink(to: "f")) == nil)
            let chmod = #expect(throws: FileError.self) { try volume.file("/f").setPermissions(0o600) }
            #expect(chmod?.errno == .notSupported)
            try volume.file("/d").makeDirectory()
            // A directory cannot be renamed in one step: mv copies it instead.
            let rename = #expect(throws: FileError.self) {
                try volume.file("/d").moveByRenaming(to: volume.file("/e"), replacing: false)
            }
            #expect(rename?.errno == .improperLink)
        }
    }

    // MARK: The service's refusals

    @Test func aMissingBucketIsNoSuchBucket() throws {
        let server = try SeaweedServer.shared()
        let client = server.client()
        defer { try? client.shutdown() }
        let volume = S3Volume(client: client, bucket: "no-such-bucket-here")
        let error = #expect(throws: FileError.self) { try volume.root.entries() }
        #expect(error?.errno == .noSuchFileOrDirectory)
        #expect(error?.serviceFailure == .noSuchBucket)
        let stat = #expect(throws: FileError.self) { try volume.root.info() }
        #expect(stat?.serviceFailure == .noSuchBucket)
    }

    @Test func aWrongSecretIsASignatureMismatch() throws {
        try SeaweedServer.withVolume { volume in
            let impostor = try SeaweedServer.shared().client(secret: "not-the-secret")
            defer { try? impostor.shutdown() }
            let other = S3Volume(client: impostor, bucket: volume.bucket, prefix: volume.prefix)
            let error = #expect(throws: FileError.self) { try other.root.entries() }
            #expect(error?.errno == .permissionDenied)
            #expect(error?.serviceFailure == .signatureMismatch)
            // A file's HEAD is refused without a reason; the volume says the same all the same.
            try volume.file("/f").write(text: "x")
            let reading = #expect(throws: FileError.self) { try other.file("/f").readText() }
            #expect(reading?.serviceFailure == .signatureMismatch)
            let removal = #expect(throws: FileError.self) { try other.removeFile(other.file("/f")) }
            #expect(removal?.serviceFailure == .signatureMismatch)
            // A tree's removal says why too, as the walk reports the failure as its own.
            try volume.client.putObject(bucket: volume.bucket, key: volume.prefix + Array("d/g".utf8), bytes: [1])
            let deletion = #expect(throws: FileError.self) { try other.file("/d").delete() }
            #expect(deletion?.errno == .permissionDenied)
            #expect(deletion?.serviceFailure == .signatureMismatch)
        }
    }

    @Test func anEndpointWhereNothingListensIsRefusedQuickly() throws {
        let server = try SeaweedServer.shared()
        // A port that was free a moment ago: nothing listens there.
        let port = try FreePorts.choose(2).others[0]
        let client = S3Client(
            endpoint: S3Endpoint(url: "http://127.0.0.1:\(port)")!, credentials: server.credentials,
            connectTimeout: 1)
        defer { try? client.shutdown() }
        let volume = S3Volume(client: client, bucket: "any-bucket")
        let error = #expect(throws: FileError.self) { try volume.file("/x").info() }
        #expect(error?.errno == .connectionRefused)
    }
}
