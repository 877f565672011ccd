import Glibc
import ObjectStorage
import PathModel
import Synchronization
import SystemPackage

/// A bucket of S3-compatible object storage (or a prefix in one) as a volume: keys are files,
/// `/` in keys makes directories, and every command works on them as on a disk.
///
/// - A path's components joined by `/` after the volume's prefix are the key (`/a/b` is `a/b`);
///   `.` and `..` apply by syntax. The top is always a directory.
/// - A directory is a prefix with keys below it, or a directory marker (an empty object whose
///   key ends in `/`, as `mkdir` and the S3 console write). A delimiter listing gives a
///   directory's entries: its keys as files, its CommonPrefixes as directories.
/// - A key `a` and a prefix `a/` may stand side by side: both are listed, `a` names the file,
///   and the directory's entries stay reachable as `a/NAME`.
/// - A written file appears only when complete: a PUT, or a multipart upload above
///   `partSize` whose parts go out as they fill; a stream closed without `finish()` leaves
///   nothing behind (an upload begun is aborted).
/// - No symlinks, hard links, permission bits, owners or atomic renames (`capabilities`):
///   renaming a file copies it inside the service and deletes the original; a directory is
///   refused with `EXDEV`, so that `mv` copies it entry by entry.
///
/// Failures are `FileError`s with the errno a disk would give for the same mistake (`NoSuchKey`
/// is `ENOENT`, `AccessDenied` is `EACCES`); what an errno cannot say (a missing bucket, a wrong
/// secret) is in `serviceFailure`.
///
///     let volume = S3Volume(client: client, bucket: "photos")
///     try volume.file("/2024/a.jpg").readBytes()
public final class S3Volume: Volume {
    /// The client every request goes through.
    public let client: S3Client
    /// The bucket.
    public let bucket: String
    /// What every key starts with: empty for the whole bucket, else ending in `/`.
    public let prefix: [UInt8]
    /// The size of a multipart upload's parts; a file no larger is sent in one PUT.
    public let partSize: Int
    /// How many requests of one transfer may be in flight at once (the parts of an upload, the
    /// ranges of a download in pieces).
    public let concurrentRequests: Int
    /// How many files no larger than a part a copy of a tree moves at once, holding no more
    /// than `concurrentRequests` parts' worth of them (`parallelFiles`).
    public let filesAtOnce: Int
    /// How many parts one transfer of a large file holds in memory at most: the one being
    /// gathered (upload) or read (download read in order), and those in flight beside it. A
    /// download in pieces (`ParallelRanges`) holds no part, only the pieces being written.
    public let partsInMemory: Int
    /// The largest object copied on the server (inside the bucket, or from another) by one
    /// CopyObject; larger ones are copied in parts (UploadPartCopy).
    public let copyThreshold: UInt64
    /// The device number entries report, different for every volume.
    let device: UInt64
    /// The owner entries report: the calling user, as objects have no owner a shell can show.
    let owner: (user: UInt32, group: UInt32)

    private static let devices = Atomic<UInt64>(0)

    /// Requests in flight for one transfer unless configured: aws cli's `max_concurrent_requests`.
    public static let defaultConcurrentRequests = 10

    /// Small files in flight at once unless configured. A small file's request is mostly
    /// waiting on the service: with 2,000 files of 4 KiB to and from a SeaweedFS on the same
    /// 2 cores, 32 at once took 10-20% less time than 10 (docs/remote.md, Speed).
    public static let defaultFilesAtOnce = 32

    /// Parts one transfer holds in memory unless told: four in flight beside the one at hand.
    public static let defaultPartsInMemory = 5

    /// How many parts of one transfer go up, or are fetched ahead, at once: as many requests
    /// as allowed, within `partsInMemory`.
    var partsInFlight: Int { max(1, min(concurrentRequests, partsInMemory - 1)) }

    /// The part buffers this volume's transfers have out.
    let partLedger = PartLedger()

    /// The bytes of the parts in flight that this volume's transfers hold in memory now (the
    /// part being gathered or read aside), and the most held at once since the volume was
    /// made: what `partsInMemory` bounds.
    public var partBytesHeld: (now: Int, peak: Int) { partLedger.held }

    /// The bucket `bucket` through `client`, below `prefix` (a key prefix ending in `/`, or
    /// empty for the whole bucket).
    /// - Parameters:
    ///   - partSize: files larger than this go up in parts of this size (at least 5 MiB on AWS).
    ///   - concurrentRequests: how many parts of an upload may be in flight at once (at least 1).
    ///   - filesAtOnce: how many small files a copy of a tree moves at once (at least 1).
    ///   - copyThreshold: objects larger than this are copied in parts (at most 5 GiB).
    ///   - partsInMemory: how many parts one transfer holds in memory at most (at least 2).
    public init(
        client: S3Client, bucket: String, prefix: [UInt8] = [], partSize: Int = 8 << 20,
        concurrentRequests: Int = S3Volume.defaultConcurrentRequests,
        filesAtOnce: Int = S3Volume.defaultFilesAtOnce, copyThreshold: UInt64 = S3Volume.largestCopy,
        partsInMemory: Int = S3Volume.defaultPartsInMemory
    ) {
        self.client = client
        self.bucket = bucket
        self.prefix = prefix.isEmpty || prefix.last == 0x2F ? prefix : prefix + [0x2F]
        self.partSize = partSize
        self.concurrentRequests = max(1, concurrentRequests)
        self.filesAtOnce = max(1, filesAtOnce)
        self.partsInMemory = max(2, partsInMemory)
        self.copyThreshold = min(copyThreshold, Self.largestCopy)
        device = 0x7333_0000_0000_0000 | Self.devices.add(1, ordering: .relaxed).newValue
        owner = (getuid(), getgid())
    }

    /// Listing, reading and writing files, and nothing more; a directory without a marker is
    /// the keys below it.
    public var capabilities: VolumeCapabilities { [.batchRemoval, .vanishingDirectories] }

    /// Entries of this volume's open directories go in DeleteObjects requests of up to 1,000
    /// keys, whatever directory they are in: files the listings showed (no HEAD: the listing
    /// said they exist), and directories' markers; any other entry is removed through its
    /// directory.
    public func remove(
        _ entries: [(directory: any VolumeDirectory, name: [UInt8])], directories: Bool
    ) -> [FileError?] {
        let operation: FileError.Operation = directories ? .removeDirectory : .remove
        var failures = [FileError?](repeating: nil, count: entries.count)
        var listed: [[UInt8]: Int] = [:]
        var keys: [[UInt8]] = []
        for (index, entry) in entries.enumerated() {
            if let directory = entry.directory as? S3Directory, directory.volume === self,
                let key = directory.removalKey(of: entry.name, directory: directories), listed[key] == nil
            {
                listed[key] = index
                keys.append(key)
            } else {
                do throws(FileError) {
                    try entry.directory.remove(at: entry.name, directory: directories)
                } catch {
                    failures[index] = error
                }
            }
        }
        guard !keys.isEmpty else { return failures }
        /// The path of the entry at `index`, for its failure.
        func path(_ index: Int) -> File { entries[index].directory.path(entries[index].name) }
        do {
            let refused = try client.deleteObjects(
                bucket: bucket, keys: keys, concurrentRequests: concurrentRequests)
            for failure in refused {
                guard let index = listed[failure.key] else { continue }
                failures[index] = S3Failure.service(failure.error).fileError(operation, path(index))
            }
        } catch {
            let failure = S3Failure(error)
            for index in listed.values { failures[index] = failure.fileError(operation, path(index)) }
        }
        return failures
    }

    /// `filesAtOnce` files at once, each no larger than a part (a larger file goes alone, in
    /// parts in parallel), adding up to no more than the parts of one transfer in flight
    /// (`concurrentRequests` parts): an upload holds a small file in memory until it is sent.
    public var parallelFiles: ParallelFiles {
        let parts = ParallelFiles(count: concurrentRequests, largestFile: UInt64(partSize))
        return ParallelFiles(count: filesAtOnce, largestFile: UInt64(partSize), bytesAtOnce: parts.bytesAtOnce)
    }

    // MARK: Volume

    public func info(of file: File, following: Bool) throws(FileError) -> FileInfo {
        try failing(.stat, file) { () throws(S3Failure) in try info(at: Place(file)) }
    }

    public func linkTarget(of file: File) throws(FileError) -> [UInt8] {
        // There are no symlinks: what exists is not one.
        _ = try failing(.readLink, file) { () throws(S3Failure) in try info(at: Place(file)) }
        throw FileError(.readLink, file, .invalidArgument)
    }

    public func openDirectory(_ file: File, following: Bool) throws(FileError) -> any VolumeDirectory {
        try failing(.list, file) { () throws(S3Failure) in try openDirectory(at: Place(file), file: file) }
    }

    /// The directory's listing, and those of the directories a walk opens from it, rebuilt from
    /// listings of every key below it (`S3TreeListing`): a request per 1,000 keys rather than one
    /// per directory.
    public func openTree(_ file: File, following: Bool) throws(FileError) -> any VolumeDirectory {
        try failing(.list, file) { () throws(S3Failure) in
            try openDirectory(at: Place(file), file: file, tree: S3TreeListing(volume: self))
        }
    }

    public func forEachEntry(
        of file: File, limit: Int?, _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) {
        let listing = try failing(.list, file) { () throws(S3Failure) in
            try existingListing(of: Place(file), limit: limit)
        }
        for entry in listing.entries.prefix(limit ?? Int.max) { try body(entry) }
    }

    /// A listing with a delimiter of the keys that start with the directory's prefix and
    /// `prefix`: one request per 1,000 matching entries, whatever else the directory holds.
    public func forEachEntry(
        of file: File, startingWith prefix: [UInt8], _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) {
        let listing = try failing(.list, file) { () throws(S3Failure) in
            try existingListing(of: Place(file), startingWith: prefix)
        }
        for entry in listing.entries { try body(entry) }
    }

    public func open(_ file: File, _ mode: File.OpenMode, permissions: UInt32) throws(FileError) -> OpenFile {
        let place = Place(file)
        let stream: any FileStream = try failing(mode == .create ? .createFile : .open, file) {
            () throws(S3Failure) in try open(place, mode, file: file)
        }
        return OpenFile(stream: stream, file: file)
    }

    /// A file described with its entity tag (by a listing, or a HEAD) and no larger than a
    /// download's first range opens without a request: its first read GETs the whole object on
    /// the condition that it still has that entity tag (one request a small file, its checksum
    /// checked), and asks again only when it has changed. Any other file opens as `.read` does.
    public func openForReading(_ file: File, describedAs info: FileInfo) throws(FileError) -> OpenFile {
        guard info.kind == .regular, info.size <= UInt64(S3Download.firstFetchSize),
            let eTag = info.object?.eTag, let key = Place(file).key(in: self)
        else { return try open(file, .read, permissions: 0) }
        let head = ObjectHead(
            size: Int64(info.size), eTag: "\"\(eTag)\"",
            lastModified: info.absent.contains(.times)
                ? nil
                : UTCTime(
                    secondsSince1970: info.modificationTime.seconds,
                    nanoseconds: Int32(info.modificationTime.nanoseconds)))
        return OpenFile(stream: S3Download(volume: self, key: key, described: head, file: file), file: file)
    }

    /// An upload of a new key with no request before it: neither a HEAD for what is there nor
    /// one for the parent, which the caller made (a copy of a tree into a directory it made).
    public func openNew(_ file: File, permissions: UInt32) throws(FileError) -> OpenFile {
        let stream: any FileStream = try failing(.createFile, file) { () throws(S3Failure) in
            guard let key = Place(file).key(in: self) else { throw .errno(.fileExists) }
            try requireStorable(key)
            return S3Upload(volume: self, key: key, file: file, appending: false)
        }
        return OpenFile(stream: stream, file: file)
    }

    public func makeDirectory(_ file: File, permissions: UInt32) throws(FileError) {
        try failing(.makeDirectory, file) { () throws(S3Failure) in
            let place = Place(file)
            guard let key = place.key(in: self) else { return try makeBucket() }
            try requireStorable(key)
            if try presence(of: place) != .nothing { throw .errno(.fileExists) }
            try requireParentDirectory(of: place)
            try call { try client.putObject(bucket: bucket, key: key + [0x2F], bytes: []) }
        }
    }

    public func removeFile(_ file: File) throws(FileError) {
        try failing(.remove, file) { () throws(S3Failure) in try removeFile(at: Place(file)) }
    }

    public func removeDirectory(_ file: File) throws(FileError) {
        try failing(.removeDirectory, file) { () throws(S3Failure) in
            try removeDirectory(at: Place(file), known: false)
        }
    }

    public func rename(_ source: File, to destination: File, replacing: Bool) throws(FileError) {
        try failing(.rename, source, destination: destination) { () throws(S3Failure) in
            try rename(Place(source), to: Place(destination), replacing: replacing)
        }
    }

    public func makeSymlink(_ file: File, target: [UInt8]) throws(FileError) {
        throw FileError(.makeLink, file, .notSupported, destination: File(bytes: target))
    }

    public func makeHardLink(_ file: File, to existing: File) throws(FileError) {
        throw FileError(.makeLink, file, .notSupported, destination: existing)
    }

    /// Only the change `touch` makes, both times to now, can be made: an object is copied onto
    /// itself for a new LastModified (a directory has no times, so it is left as it is). Any
    /// other change is `ENOTSUP`.
    public func setAttributes(of file: File, _ change: AttributeChange, following: Bool) throws(FileError) {
        try failing(.setAttributes, file) { () throws(S3Failure) in
            let place = Place(file)
            let what = try presence(of: place)
            if what == .nothing { throw .errno(try absence(of: place)) }
            var touching = AttributeChange()
            touching.modificationTime = .now
            touching.accessTime = change.accessTime == .keep ? .keep : .now
            guard change != AttributeChange() else { return }
            guard change == touching else { throw .errno(.notSupported) }
            guard case .file = what, let key = place.key(in: self) else { return }
            try call {
                try client.copyObject(
                    fromBucket: bucket, key: key, toBucket: bucket, key: key, replacingMetadata: true)
            }
        }
    }

    /// CopyObject up to `copyThreshold`; above, a multipart upload whose parts UploadPartCopy
    /// copies, in parallel as an upload's parts go (`PartUploads`). The source may be in
    /// another bucket the same client reaches (the same server, as the same identity); from
    /// anywhere else, false.
    public func copyWithin(_ source: File, size: UInt64, to destination: File) throws(FileError) -> Bool {
        guard let origin = source.volume as? S3Volume, origin.client === client else { return false }
        return try failing(.createFile, destination) { () throws(S3Failure) in
            let target = Place(destination)
            guard let sourceKey = Place(source).key(in: origin), let key = target.key(in: self) else {
                throw .errno(.isDirectory)
            }
            try requireStorable(key)
            try requireParentDirectory(of: target)
            if size <= copyThreshold {
                try call {
                    try client.copyObject(fromBucket: origin.bucket, key: sourceKey, toBucket: bucket, key: key)
                }
            } else {
                try copyInParts(sourceKey, of: origin.bucket, size: size, to: key)
            }
            return true
        }
    }

    /// Copies the object `sourceKey` of `sourceBucket`, `size` bytes, to `key` in parts
    /// (UploadPartCopy), at least `partSize` each and at most 10,000 of them; a failure aborts
    /// the upload.
    private func copyInParts(
        _ sourceKey: [UInt8], of sourceBucket: String, size: UInt64, to key: [UInt8]
    ) throws(S3Failure) {
        let length = max(UInt64(partSize), (size + 9_999) / 10_000)
        let parts = try PartUploads(of: key, in: self)
        do throws(S3Failure) {
            var first: UInt64 = 0
            while first < size {
                let range = ByteRange(first: Int64(first), last: Int64(min(first + length, size) - 1))
                try parts.send { [self] number throws(S3Failure) in
                    let eTag = try call {
                        try client.uploadPartCopy(
                            fromBucket: sourceBucket, key: sourceKey, range: range, toBucket: bucket, key: key,
                            uploadID: parts.uploadID, partNumber: number)
                    }
                    return CompletedPart(partNumber: number, eTag: eTag)
                }
                first += length
            }
            try parts.complete()
        } catch {
            parts.abort()
            throw error
        }
    }

    /// The largest object one CopyObject copies.
    public static let largestCopy: UInt64 = 5 << 30

    public func checkAccess(of file: File, write: Bool) throws(FileError) {
        _ = try failing(write ? .open : .stat, file) { () throws(S3Failure) in try info(at: Place(file)) }
    }

    // MARK: Places

    /// What is at `place`: a file (its HEAD), a directory, or nothing.
    func presence(of place: Place) throws(S3Failure) -> Presence {
        guard let key = place.key(in: self) else { return .directory(marked: nil) }
        guard isStorable(key) else { return .nothing }
        if place.namesDirectory { return try directoryPresence(of: place) }
        do {
            let head = try client.headObject(bucket: bucket, key: key)
            return .file(head)
        } catch let error as S3Error where error.kind == .noSuchKey {
            return try directoryPresence(of: place)
        } catch {
            throw S3Failure(error)
        }
    }

    /// A directory when keys lie below `place` or a directory marker stands for it, with the
    /// marker's time when it has one, else nothing (one request: the marker, `dir/`, is the
    /// first key below the prefix).
    func directoryPresence(of place: Place) throws(S3Failure) -> Presence {
        let prefix = place.directoryPrefix(in: self)
        let page = try call {
            try client.listObjects(bucket: bucket, prefix: prefix, delimiter: "/", maxKeys: 1)
        }
        if let first = page.objects.first, first.key == prefix { return .directory(marked: first.lastModified) }
        return page.objects.isEmpty && page.commonPrefixes.isEmpty ? .nothing : .directory(marked: nil)
    }

    /// What `place` is, as a `FileInfo`.
    func info(at place: Place) throws(S3Failure) -> FileInfo {
        switch try presence(of: place) {
        case .file(let head):
            return fileInfo(
                key: place.key(in: self)!, size: head.size, modified: head.lastModified,
                details: Self.details(eTag: head.eTag, storageClass: head.storageClass))
        case .directory(let marked):
            if place.isTop { try requireBucket() }
            return directoryInfo(prefix: place.directoryPrefix(in: self), modified: marked)
        case .nothing: throw .errno(try absence(of: place))
        }
    }

    /// The errno for a path where nothing is: `ENOTDIR` when a file stands where a directory
    /// above it should be, or where the path names a directory (`f/.`), else `ENOENT`.
    func absence(of place: Place) throws(S3Failure) -> Errno {
        if place.namesDirectory, case .file = try presence(of: Place(components: place.components)) {
            return .notDirectory
        }
        var parent = place
        while let above = parent.parent {
            parent = above
            switch try presence(of: parent) {
            case .directory: return .noSuchFileOrDirectory
            case .file: return .notDirectory
            case .nothing: continue
            }
        }
        return .noSuchFileOrDirectory
    }

    /// Fails unless `place`'s parent is a directory (`ENOENT`, `ENOTDIR`), as a disk refuses to
    /// create an entry in a directory that does not exist.
    func requireParentDirectory(of place: Place) throws(S3Failure) {
        guard let parent = place.parent, !parent.isTop else { return try requireBucket() }
        switch try presence(of: parent) {
        case .directory: return
        case .file: throw .errno(.notDirectory)
        case .nothing: throw .errno(try absence(of: parent))
        }
    }

    /// Fails with `noSuchBucket` when the bucket does not exist.
    func requireBucket() throws(S3Failure) {
        _ = try call { try client.listObjects(bucket: bucket, prefix: prefix, maxKeys: 1) }
    }

    /// Makes the bucket (CreateBucket), the top of a volume of a whole bucket: `EEXIST` when it
    /// exists (asked first: some services answer CreateBucket of one's own bucket with
    /// success), and for a volume below a prefix, whose top is there already.
    func makeBucket() throws(S3Failure) {
        guard prefix.isEmpty else { throw .errno(.fileExists) }
        do throws(S3Failure) {
            try requireBucket()
        } catch {
            guard case .service(let failure) = error, failure.kind == .noSuchBucket else { throw error }
            return try call { try client.createBucket(bucket) }
        }
        throw .errno(.fileExists)
    }

    /// Removes the bucket (DeleteBucket), the top of a volume of a whole bucket, when no key is
    /// in it: `ENOTEMPTY` otherwise (asked first: some services delete a bucket and its keys).
    /// The top of a volume below a prefix is `EBUSY`, as a mount point is.
    func removeBucket() throws(S3Failure) {
        guard prefix.isEmpty else { throw .errno(.resourceBusy) }
        let page = try call { try client.listObjects(bucket: bucket, maxKeys: 2) }
        if !page.objects.isEmpty { throw .errno(.directoryNotEmpty) }
        try call { try client.deleteBucket(bucket) }
    }

    /// Fails with `EILSEQ` for a key S3 cannot hold (not UTF-8).
    func requireStorable(_ key: [UInt8]) throws(S3Failure) {
        if !isStorable(key) { throw .errno(.illegalByteSequence) }
    }

    /// Whether S3 can hold `key`: S3 keys are UTF-8.
    func isStorable(_ key: [UInt8]) -> Bool { String(validating: key, as: UTF8.self) != nil }

    // MARK: Listing

    /// Every entry of the directory at `place` (those whose names start with `namePrefix`), all
    /// pages of a delimiter listing.
    func listing(of place: Place, limit: Int? = nil, startingWith namePrefix: [UInt8] = []) throws(S3Failure)
        -> DirectoryPage
    {
        let directoryPrefix = place.directoryPrefix(in: self)
        var result = DirectoryPage()
        var token: String?
        repeat {
            let page = try call {
                try client.listObjects(
                    bucket: bucket, prefix: directoryPrefix + namePrefix, delimiter: "/", continuationToken: token)
            }
            for object in page.objects {
                let name = Array(object.key[directoryPrefix.count...])
                if name.isEmpty {
                    result.hasMarker = true
                } else {
                    result.files[name] = object
                    result.entries.append(DirectoryEntry(name: name, kind: .regular))
                }
            }
            for common in page.commonPrefixes where common.count > directoryPrefix.count + 1 {
                let name = Array(common[directoryPrefix.count..<(common.count - 1)])
                result.directories.insert(name)
                result.entries.append(DirectoryEntry(name: name, kind: .directory))
            }
            token = page.isTruncated ? page.nextContinuationToken : nil
            if let limit, result.entries.count >= limit { break }
        } while token != nil
        return result
    }

    /// The listing of the directory at `place` (the entries whose names start with
    /// `namePrefix`), which must exist: an empty listing of a place without a marker is
    /// `ENOENT` (or `ENOTDIR` for a file).
    func existingListing(of place: Place, limit: Int? = nil, startingWith namePrefix: [UInt8] = []) throws(S3Failure)
        -> DirectoryPage
    {
        let page = try listing(of: place, limit: limit, startingWith: namePrefix)
        if page.isEmpty && !page.hasMarker && !place.isTop {
            switch try presence(of: place) {
            case .file: throw .errno(.notDirectory)
            case .directory: break
            case .nothing: throw .errno(try absence(of: place))
            }
        }
        return page
    }

    /// Opens the directory at `place` (reading its listing once, from `tree` when it has it),
    /// named `file`.
    func openDirectory(at place: Place, file: File, tree: S3TreeListing? = nil) throws(S3Failure) -> S3Directory {
        var listed: DirectoryPage?
        if let tree { listed = try tree.page(prefix: place.directoryPrefix(in: self)) }
        let page: DirectoryPage
        if let listed { page = listed } else { page = try existingListing(of: place) }
        return S3Directory(volume: self, place: place, file: file, page: page, tree: tree)
    }

    // MARK: Removing and renaming

    func removeFile(at place: Place) throws(S3Failure) {
        guard let key = place.key(in: self) else { throw .errno(.isDirectory) }
        switch try presence(of: place) {
        case .file: try call { try client.deleteObject(bucket: bucket, key: key) }
        case .directory: throw .errno(.isDirectory)
        case .nothing: throw .errno(try absence(of: place))
        }
    }

    /// Removes the empty directory at `place` (its marker). `known` says the caller has just
    /// listed it, so that a directory without a marker that went with its last key counts as
    /// removed rather than missing.
    func removeDirectory(at place: Place, known: Bool) throws(S3Failure) {
        guard let key = place.key(in: self) else { return try removeBucket() }
        let page = try call {
            try client.listObjects(bucket: bucket, prefix: key + [0x2F], delimiter: "/", maxKeys: 2)
        }
        if !page.commonPrefixes.isEmpty || page.objects.contains(where: { $0.key.count > key.count + 1 }) {
            throw .errno(.directoryNotEmpty)
        }
        if page.objects.isEmpty && !known {
            switch try presence(of: place) {
            case .file: throw .errno(.notDirectory)
            case .directory: break
            case .nothing: throw .errno(try absence(of: place))
            }
        }
        try call { try client.deleteObject(bucket: bucket, key: key + [0x2F]) }
    }

    func rename(_ source: Place, to destination: Place, replacing: Bool) throws(S3Failure) {
        guard let sourceKey = source.key(in: self) else { throw .errno(.resourceBusy) }
        guard let destinationKey = destination.key(in: self) else {
            throw .errno(replacing ? .resourceBusy : .fileExists)
        }
        try requireStorable(destinationKey)
        let what = try presence(of: source)
        let there = try presence(of: destination)
        switch what {
        case .nothing:
            throw .errno(try absence(of: source))
        case .file:
            if sourceKey == destinationKey { return }
            switch there {
            case .directory: throw .errno(replacing ? .isDirectory : .fileExists)
            case .file where !replacing: throw .errno(.fileExists)
            case .file: break
            case .nothing: try requireParentDirectory(of: destination)
            }
            try call {
                try client.copyObject(
                    fromBucket: bucket, key: sourceKey, toBucket: bucket, key: destinationKey)
            }
            try call { try client.deleteObject(bucket: bucket, key: sourceKey) }
        case .directory:
            if destinationKey == sourceKey { return }
            if destinationKey.starts(with: sourceKey + [0x2F]) { throw .errno(.invalidArgument) }
            switch there {
            case .file: throw .errno(replacing ? .notDirectory : .fileExists)
            case .directory where !replacing: throw .errno(.fileExists)
            case .directory:
                if try !listing(of: destination, limit: 1).isEmpty { throw .errno(.directoryNotEmpty) }
            case .nothing: try requireParentDirectory(of: destination)
            }
            // Keys cannot be renamed in one step: the caller copies the tree (as across disks).
            throw .errno(.improperLink)
        }
    }

    // MARK: Opening

    func open(_ place: Place, _ mode: File.OpenMode, file: File) throws(S3Failure) -> any FileStream {
        guard let key = place.key(in: self) else {
            if mode == .read || mode == .inspect {
                return S3DirectoryStream(volume: self, place: place, file: file)
            }
            throw .errno(mode == .create ? .fileExists : .isDirectory)
        }
        let what = try presence(of: place)
        switch (what, mode) {
        case (.nothing, .read), (.nothing, .inspect), (.nothing, .modify):
            throw .errno(try absence(of: place))
        case (.directory, .read), (.directory, .inspect):
            return S3DirectoryStream(volume: self, place: place, file: file)
        case (.directory, .create), (.file, .create):
            throw .errno(.fileExists)
        case (.directory, _):
            throw .errno(.isDirectory)
        case (.file(let head), .read), (.file(let head), .inspect):
            return S3Download(volume: self, key: key, head: head, file: file)
        case (.file(let head), .modify), (.file(let head), .append):
            let upload = S3Upload(volume: self, key: key, file: file, appending: mode == .append)
            try upload.start(from: head)
            return upload
        case (.file, _):
            return S3Upload(volume: self, key: key, file: file, appending: false)
        case (.nothing, _):
            try requireStorable(key)
            try requireParentDirectory(of: place)
            return S3Upload(volume: self, key: key, file: file, appending: mode == .append)
        }
    }

    // MARK: Descriptions

    /// A file's description from its key, size and last modification: no owner and no link
    /// count of its own (`absent`), and no times when the service gave none.
    func fileInfo(key: [UInt8], size: Int64, modified: UTCTime?, details: ObjectDetails? = nil) -> FileInfo {
        FileInfo(
            kind: .regular, permissions: 0o644, size: UInt64(max(size, 0)),
            identity: FileIdentity(device: device, inode: Self.number(of: key, directory: false)),
            userID: owner.user, groupID: owner.group, modificationTime: Timestamp(modified),
            absent: modified == nil ? [.owners, .linkCount, .times] : [.owners, .linkCount], object: details)
    }

    /// A file's description from what a listing says of it.
    func fileInfo(_ summary: ObjectSummary) -> FileInfo {
        fileInfo(
            key: summary.key, size: summary.size, modified: summary.lastModified,
            details: Self.details(eTag: summary.eTag, storageClass: summary.storageClass))
    }

    /// An object's entity tag without its quotes and its storage class (`STANDARD` when the
    /// service leaves it out, as HEAD does for that class); nil without an entity tag.
    static func details(eTag: String?, storageClass: String?) -> ObjectDetails? {
        guard var tag = eTag?[...] else { return nil }
        if tag.count >= 2, tag.first == "\"", tag.last == "\"" { tag = tag.dropFirst().dropLast() }
        return ObjectDetails(eTag: String(tag), storageClass: storageClass ?? "STANDARD")
    }

    /// A directory's description from its prefix; directories have no owner or link count of
    /// their own, and no times but their marker's (`modified`, when the caller saw the marker).
    func directoryInfo(prefix: [UInt8], modified: UTCTime? = nil) -> FileInfo {
        FileInfo(
            kind: .directory, permissions: 0o755, size: 0,
            identity: FileIdentity(device: device, inode: Self.number(of: prefix, directory: true)),
            userID: owner.user, groupID: owner.group, modificationTime: Timestamp(modified),
            absent: modified == nil ? [.owners, .linkCount, .times] : [.owners, .linkCount])
    }

    /// A stable number for a key or prefix (64-bit FNV-1a), different for a file and a
    /// directory of one name, so that identities tell entries apart.
    static func number(of key: [UInt8], directory: Bool) -> UInt64 {
        var hash: UInt64 = directory ? 0x84222325_cbf29ce4 : 0xcbf2_9ce4_8422_2325
        for byte in key {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    // MARK: Errors

    /// Runs `body`, turning its failure into a `FileError` for `operation` on `file`.
    func failing<R>(
        _ operation: FileError.Operation, _ file: File, destination: File? = nil,
        _ body: () throws(S3Failure) -> R
    ) throws(FileError) -> R {
        do {
            return try body()
        } catch {
            throw error.fileError(operation, file, destination: destination)
        }
    }

    /// Runs a client call, turning what it throws into an `S3Failure`.
    func call<R>(_ body: () throws -> R) throws(S3Failure) -> R {
        do { return try body() } catch { throw S3Failure(error) }
    }
}

/// What stands at a path of an `S3Volume`.
enum Presence: Equatable {
    /// An object, as HEAD described it.
    case file(ObjectHead)
    /// A prefix with keys below it, or a marker (`marked`: the marker's LastModified, when it
    /// was seen).
    case directory(marked: UTCTime?)
    /// Neither.
    case nothing
}

/// A path of an `S3Volume` as components below its top, `.` and `..` applied.
struct Place: Sendable, Hashable {
    /// The names from the top, none for the top itself.
    var components: [[UInt8]]
    /// Whether the path ends in `/.`, which names a directory (as `name/` does, which the
    /// shell writes so): the directory `name/` where a file `name` stands beside it.
    var namesDirectory = false

    /// The place `file`'s path names; a relative path starts at the top.
    init(_ file: File) {
        self.init(components: [], adding: file.bytes)
        let bytes = file.bytes
        namesDirectory = bytes.last == 0x2E && (bytes.count == 1 || bytes[bytes.count - 2] == 0x2F)
    }

    init(components: [[UInt8]]) { self.components = components }

    /// `components`, then `path`'s names applied (`..` at the top stays there).
    init(components: [[UInt8]], adding path: [UInt8]) {
        var result = path.first == 0x2F ? [] : components
        for name in path.split(separator: 0x2F, omittingEmptySubsequences: true) {
            if name.elementsEqual([0x2E]) { continue }
            if name.elementsEqual([0x2E, 0x2E]) {
                _ = result.popLast()
                continue
            }
            result.append(Array(name))
        }
        self.components = result
    }

    /// Whether this is the volume's top.
    var isTop: Bool { components.isEmpty }

    /// The directory above, nil for the top.
    var parent: Place? { isTop ? nil : Place(components: Array(components.dropLast())) }

    /// The place `relative` leads to from here.
    func appending(_ relative: [UInt8]) -> Place {
        relative.first == 0x2F
            ? Place(components: components, adding: relative.dropFirst().map { $0 })
            : Place(components: components, adding: relative)
    }

    /// The object key, or nil for the top.
    func key(in volume: S3Volume) -> [UInt8]? {
        guard !isTop else { return nil }
        var key = volume.prefix
        for (index, name) in components.enumerated() {
            if index > 0 { key.append(0x2F) }
            key.append(contentsOf: name)
        }
        return key
    }

    /// The prefix of the keys below this place: the key and `/`, or the volume's prefix at the top.
    func directoryPrefix(in volume: S3Volume) -> [UInt8] {
        key(in: volume).map { $0 + [0x2F] } ?? volume.prefix
    }
}

/// A directory's entries from a delimiter listing, with what the listing said of each file.
struct DirectoryPage: Sendable {
    /// Files, then directories, each in key order; a name can be in both.
    var entries: [DirectoryEntry] = []
    /// Each file's summary by name.
    var files: [[UInt8]: ObjectSummary] = [:]
    /// The names of the directories.
    var directories: Set<[UInt8]> = []
    /// Whether the directory's own marker (`dir/`) was listed.
    var hasMarker = false

    /// Whether there is no entry (a marker is not one).
    var isEmpty: Bool { entries.isEmpty }
}

extension Timestamp {
    /// The moment `time` names, or the epoch when the service did not say.
    init(_ time: UTCTime?) {
        self.init(seconds: time?.secondsSince1970 ?? 0, nanoseconds: UInt32(max(time?.nanoseconds ?? 0, 0)))
    }
}

extension S3Volume: CustomReflectable {
    /// The bucket alone: the client's connections belong to its event loops, and a reflection
    /// that walked them would read them without a lock.
    public var customMirror: Mirror { Mirror(self, children: ["bucket": bucket], displayStyle: .class) }
}
