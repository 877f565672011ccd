import Glibc
import ObjectStorage
import PathModel
import Synchronization
import SystemPackage

/// The buckets of an account as a volume (`s3://`): its top is a directory whose entries are
/// the buckets, each a directory.
///
/// A path at or below a bucket is that bucket's, on the volume `bucketVolume` gives for it (the
/// one the shell keeps for `s3://BUCKET`): a walk goes from the list into the buckets (`ls -R`,
/// `find`, `du`), and what is done at a bucket (`mkdir`, `rmdir`: CreateBucket, DeleteBucket)
/// or below one is done by its volume. The top itself holds nothing else. Buckets have no size,
/// owner or link count a shell can show; their times are their creation dates.
///
///     let buckets = S3BucketList(client: client) { S3Volume(client: client, bucket: String(decoding: $0, as: UTF8.self)) }
///     try buckets.root.forEachEntry { print($0.nameString) }   // photos, logs…
public final class S3BucketList: Volume {
    /// The client ListBuckets goes through.
    public let client: S3Client
    /// The volume of a bucket, by its name.
    let bucketVolume: @Sendable ([UInt8]) -> any Volume
    /// The device number entries report, different for every volume.
    private let device: UInt64
    /// The owner entries report: the calling user, as buckets have no owner a shell can show.
    private let owner: (user: UInt32, group: UInt32)

    private static let devices = Atomic<UInt64>(0)

    /// The buckets `client`'s credentials own, each reached on the volume `bucketVolume` gives
    /// for its name.
    public init(client: S3Client, bucketVolume: @escaping @Sendable ([UInt8]) -> any Volume) {
        self.client = client
        self.bucketVolume = bucketVolume
        device = 0x7362_0000_0000_0000 | Self.devices.add(1, ordering: .relaxed).newValue
        owner = (getuid(), getgid())
    }

    /// Listing, and nothing more at the top.
    public var capabilities: VolumeCapabilities { [] }

    /// Every bucket, named by the service: one ListBuckets.
    func buckets(for operation: FileError.Operation, _ file: File) throws(FileError) -> [BucketSummary] {
        do {
            return try client.listBuckets()
        } catch {
            throw S3Failure(error).fileError(operation, file)
        }
    }

    /// The top's description: a directory without times, owner or link count.
    var topInfo: FileInfo {
        FileInfo(
            kind: .directory, permissions: 0o755, size: 0, identity: FileIdentity(device: device, inode: 0),
            userID: owner.user, groupID: owner.group, absent: [.owners, .linkCount, .times])
    }

    /// A bucket's description: a directory made at its creation date.
    func info(of bucket: BucketSummary) -> FileInfo {
        FileInfo(
            kind: .directory, permissions: 0o755, size: 0,
            identity: FileIdentity(
                device: device, inode: S3Volume.number(of: Array(bucket.name.utf8), directory: true)),
            userID: owner.user, groupID: owner.group, modificationTime: Timestamp(bucket.creationDate),
            absent: bucket.creationDate == nil ? [.owners, .linkCount, .times] : [.owners, .linkCount])
    }

    /// What a path names: the top, or a bucket or a path below one.
    private enum Place {
        case top
        /// The bucket `name` (`file` is its volume's top) or a path below it (`file`, on the
        /// bucket's volume).
        case inBucket(name: [UInt8], file: File)
    }

    /// The bucket of `buckets` whose name is `name`'s bytes.
    static func bucket(named name: some Sequence<UInt8>, in buckets: [BucketSummary]) -> BucketSummary? {
        buckets.first { $0.name.utf8.elementsEqual(name) }
    }

    /// The names of `path` from the top, `.` and `..` applied (`..` at the top stays there).
    static func names(_ path: [UInt8]) -> [ArraySlice<UInt8>] {
        File(bytes: [0x2F] + path).normalized.componentBytes
    }

    /// The path `names` (a bucket's name, then the names below it) on the bucket's volume.
    func fileInBucket(_ names: [ArraySlice<UInt8>]) -> File {
        var rest: [UInt8] = []
        for name in names.dropFirst() { rest += [0x2F] + name }
        return File(bytes: rest.isEmpty ? [0x2F] : rest).on(bucketVolume(Array(names[0])))
    }

    private func place(of file: File) -> Place {
        let names = Self.names(file.bytes)
        guard let first = names.first else { return .top }
        return .inBucket(name: Array(first), file: fileInBucket(names))
    }

    /// The bucket named `name`, or `ENOENT` when there is none.
    private func bucket(_ name: [UInt8], for operation: FileError.Operation, _ file: File) throws(FileError)
        -> BucketSummary
    {
        guard let found = Self.bucket(named: name, in: try buckets(for: operation, file)) else {
            throw FileError(operation, file, .noSuchFileOrDirectory)
        }
        return found
    }

    public func info(of file: File, following: Bool) throws(FileError) -> FileInfo {
        switch place(of: file) {
        case .top: return topInfo
        case .inBucket(let name, let inner) where inner.isRoot: return info(of: try bucket(name, for: .stat, file))
        case .inBucket(_, let inner): return try inner.volume.info(of: inner, following: following)
        }
    }

    public func linkTarget(of file: File) throws(FileError) -> [UInt8] {
        guard case .inBucket(_, let inner) = place(of: file) else {
            throw FileError(.readLink, file, .invalidArgument)
        }
        return try inner.volume.linkTarget(of: inner)
    }

    public func openDirectory(_ file: File, following: Bool) throws(FileError) -> any VolumeDirectory {
        switch place(of: file) {
        case .top:
            return S3BucketDirectory(volume: self, file: file, buckets: try buckets(for: .list, file), tree: false)
        case .inBucket(_, let inner): return try inner.volume.openDirectory(inner, following: following)
        }
    }

    /// The top for a walk that enters the buckets: each is opened as its volume opens a tree.
    public func openTree(_ file: File, following: Bool) throws(FileError) -> any VolumeDirectory {
        switch place(of: file) {
        case .top:
            return S3BucketDirectory(volume: self, file: file, buckets: try buckets(for: .list, file), tree: true)
        case .inBucket(_, let inner): return try inner.volume.openTree(inner, following: following)
        }
    }

    public func forEachEntry(
        of file: File, limit: Int?, _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) {
        switch place(of: file) {
        case .top:
            try openDirectory(file, following: true).forEachEntry(at: [], identity: nil) {
                entry throws(FileError) in
                try body(entry)
            }
        case .inBucket(_, let inner): try inner.volume.forEachEntry(of: inner, limit: limit, body)
        }
    }

    public func open(_ file: File, _ mode: File.OpenMode, permissions: UInt32) throws(FileError) -> OpenFile {
        switch place(of: file) {
        case .top: throw FileError(mode == .create ? .createFile : .open, file, .isDirectory)
        case .inBucket(_, let inner): return try inner.volume.open(inner, mode, permissions: permissions)
        }
    }

    public func makeDirectory(_ file: File, permissions: UInt32) throws(FileError) {
        switch place(of: file) {
        case .top: throw FileError(.makeDirectory, file, .fileExists)
        case .inBucket(_, let inner): try inner.volume.makeDirectory(inner, permissions: permissions)
        }
    }

    public func removeFile(_ file: File) throws(FileError) {
        switch place(of: file) {
        case .top: throw FileError(.remove, file, .isDirectory)
        case .inBucket(_, let inner): try inner.volume.removeFile(inner)
        }
    }

    public func removeDirectory(_ file: File) throws(FileError) {
        switch place(of: file) {
        case .top: throw FileError(.removeDirectory, file, .resourceBusy)
        case .inBucket(_, let inner): try inner.volume.removeDirectory(inner)
        }
    }

    /// A rename inside one bucket is that bucket's; between buckets it is `EXDEV`, so that `mv`
    /// copies.
    public func rename(_ source: File, to destination: File, replacing: Bool) throws(FileError) {
        guard case .inBucket(_, let from) = place(of: source), case .inBucket(_, let to) = place(of: destination)
        else {
            throw FileError(.rename, source, .notSupported, destination: destination)
        }
        guard from.volume === to.volume else {
            throw FileError(.rename, source, .improperLink, destination: destination)
        }
        try from.volume.rename(from, to: to, replacing: replacing)
    }

    public func makeSymlink(_ file: File, target: [UInt8]) throws(FileError) {
        throw FileError(.makeLink, file, .notSupported, destination: File(bytes: target))
    }
    public func makeHardLink(_ file: File, to existing: File) throws(FileError) {
        throw FileError(.makeLink, file, .notSupported, destination: existing)
    }
    public func setAttributes(of file: File, _ change: AttributeChange, following: Bool) throws(FileError) {
        switch place(of: file) {
        case .top: throw FileError(.setAttributes, file, .notSupported)
        case .inBucket(_, let inner): try inner.volume.setAttributes(of: inner, change, following: following)
        }
    }
    public func checkAccess(of file: File, write: Bool) throws(FileError) {
        switch place(of: file) {
        case .top: if write { throw FileError(.open, file, .notSupported) }
        case .inBucket(_, let inner): try inner.volume.checkAccess(of: inner, write: write)
        }
    }
}

/// The top of an `S3BucketList`, opened: the buckets one ListBuckets gave, which answer for its
/// entries without another request. A bucket opened from it is its volume's top, opened as a
/// tree for a walk that began with `openTree`.
final class S3BucketDirectory: VolumeDirectory {
    let file: File
    private let volume: S3BucketList
    private let buckets: [BucketSummary]
    /// Whether buckets open as trees (`Volume.openTree`), for a walk through everything.
    private let tree: Bool

    init(volume: S3BucketList, file: File, buckets: [BucketSummary], tree: Bool) {
        self.volume = volume
        self.file = file
        self.buckets = buckets
        self.tree = tree
    }

    /// The path `relative` names on its bucket's volume, once the bucket is known to be listed;
    /// nil for the top.
    private func fileInBucket(_ relative: [UInt8], for operation: FileError.Operation) throws(FileError) -> File? {
        let names = S3BucketList.names(relative)
        guard let first = names.first else { return nil }
        guard S3BucketList.bucket(named: first, in: buckets) != nil else {
            throw FileError(operation, path(relative), .noSuchFileOrDirectory)
        }
        return volume.fileInBucket(names)
    }

    func openDirectory(at relative: [UInt8], following: Bool, path: File) throws(FileError)
        -> any VolumeDirectory
    {
        guard let inner = try fileInBucket(relative, for: .list) else { return self }
        return tree
            ? try inner.volume.openTree(inner, following: following)
            : try inner.volume.openDirectory(inner, following: following)
    }

    /// A bucket is removed as its volume removes its top (DeleteBucket, when it is empty).
    func remove(at name: [UInt8], directory: Bool) throws(FileError) {
        guard let inner = try fileInBucket(name, for: directory ? .removeDirectory : .remove) else {
            throw FileError(.removeDirectory, file, .resourceBusy)
        }
        if directory {
            try inner.volume.removeDirectory(inner)
        } else {
            try inner.volume.removeFile(inner)
        }
    }

    func forEachEntry(
        at relative: [UInt8], identity: ((FileIdentity) -> Void)?,
        _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) {
        if let inner = try fileInBucket(relative, for: .list) {
            try inner.volume.openDirectory(inner, following: true).forEachEntry(at: [], identity: identity, body)
            return
        }
        identity?(volume.topInfo.identity)
        for bucket in buckets { try body(DirectoryEntry(name: Array(bucket.name.utf8), kind: .directory)) }
    }

    func info(at relative: [UInt8], following: Bool) throws(FileError) -> FileInfo {
        let names = S3BucketList.names(relative)
        switch names.count {
        case 0: return volume.topInfo
        case 1:
            guard let bucket = S3BucketList.bucket(named: names[0], in: buckets) else {
                throw FileError(.stat, path(relative), .noSuchFileOrDirectory)
            }
            return volume.info(of: bucket)
        default:
            let inner = try fileInBucket(relative, for: .stat)!
            return try inner.volume.info(of: inner, following: following)
        }
    }

    /// Every bucket's description from the listing: no request.
    func infos(of listing: DirectoryListing) -> [FileInfo?] {
        (0..<listing.count).map { index in
            S3BucketList.bucket(named: listing.name(index), in: buckets).map(volume.info(of:))
        }
    }

    func identity() throws(FileError) -> FileIdentity { volume.topInfo.identity }

    func linkTarget(at relative: [UInt8]) throws(FileError) -> [UInt8] {
        guard let inner = try fileInBucket(relative, for: .readLink) else {
            throw FileError(.readLink, file, .invalidArgument)
        }
        return try inner.volume.linkTarget(of: inner)
    }
}
