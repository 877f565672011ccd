import Glibc
import ObjectStorage
import PathModel
import Synchronization
import SystemPackage

/// The buckets of an account as a volume (`s3://`): its top is a directory whose entries are
/// the buckets, each a directory; nothing else is on it.
///
/// It is for reading which buckets there are (`ls s3://`, completion after `s3://`). What is
/// inside a bucket is that bucket's `S3Volume`, which the shell reaches by its URL
/// (`s3://BUCKET/…`): below a bucket this volume refuses with `ENOTSUP`, and it makes and
/// removes no bucket (`ENOTSUP` too). Buckets have no size, owner or link count a shell can
/// show; their times are their creation dates.
///
///     let buckets = S3BucketList(client: client)
///     try buckets.root.forEachEntry { print($0.nameString) }   // photos, logs…
public final class S3BucketList: Volume {
    /// The client ListBuckets goes through.
    public let client: S3Client
    /// The device number entries report, different for every volume.
    private let device: UInt64
    /// The owner entries report: the calling user, as buckets have no owner a shell can show.
    private let owner: (user: UInt32, group: UInt32)

    private static let devices = Atomic<UInt64>(0)

    /// The buckets `client`'s credentials own.
    public init(client: S3Client) {
        self.client = client
        device = 0x7362_0000_0000_0000 | Self.devices.add(1, ordering: .relaxed).newValue
        owner = (getuid(), getgid())
    }

    /// Listing, and nothing more.
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

    /// What `file` names: the top, a bucket's name, or a path below one.
    private enum Place {
        case top
        case bucket([UInt8])
        case belowBucket
    }

    /// The bucket of `buckets` whose name is `name`'s bytes.
    static func bucket(named name: some Sequence<UInt8>, in buckets: [BucketSummary]) -> BucketSummary? {
        buckets.first { $0.name.utf8.elementsEqual(name) }
    }

    /// The names of `path` from the top, `.` and `..` applied (`..` at the top stays there).
    static func names(_ path: [UInt8]) -> [ArraySlice<UInt8>] {
        File(bytes: [0x2F] + path).normalized.componentBytes
    }

    private func place(of file: File) -> Place {
        let names = Self.names(file.bytes)
        switch names.count {
        case 0: return .top
        case 1: return .bucket(Array(names[0]))
        default: return .belowBucket
        }
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
        case .bucket(let name): return info(of: try bucket(name, for: .stat, file))
        case .belowBucket: throw FileError(.stat, file, .notSupported)
        }
    }

    public func linkTarget(of file: File) throws(FileError) -> [UInt8] {
        _ = try info(of: file, following: false)
        throw FileError(.readLink, file, .invalidArgument)
    }

    public func openDirectory(_ file: File, following: Bool) throws(FileError) -> any VolumeDirectory {
        switch place(of: file) {
        case .top: return S3BucketDirectory(volume: self, file: file, buckets: try buckets(for: .list, file))
        case .bucket, .belowBucket: throw FileError(.list, file, .notSupported)
        }
    }

    public func forEachEntry(
        of file: File, limit: Int?, _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) {
        try openDirectory(file, following: true).forEachEntry(at: [], identity: nil) {
            entry throws(FileError) in
            try body(entry)
        }
    }

    public func open(_ file: File, _ mode: File.OpenMode, permissions: UInt32) throws(FileError) -> OpenFile {
        let operation: FileError.Operation = mode == .create ? .createFile : .open
        switch place(of: file) {
        case .top: throw FileError(operation, file, .isDirectory)
        case .bucket(let name):
            _ = try bucket(name, for: operation, file)
            throw FileError(operation, file, .isDirectory)
        case .belowBucket: throw FileError(operation, file, .notSupported)
        }
    }

    public func makeDirectory(_ file: File, permissions: UInt32) throws(FileError) {
        throw FileError(.makeDirectory, file, .notSupported)
    }
    public func removeFile(_ file: File) throws(FileError) { throw FileError(.remove, file, .notSupported) }
    public func removeDirectory(_ file: File) throws(FileError) {
        throw FileError(.removeDirectory, file, .notSupported)
    }
    public func rename(_ source: File, to destination: File, replacing: Bool) throws(FileError) {
        throw FileError(.rename, source, .notSupported, destination: destination)
    }
    public func makeSymlink(_ file: File, target: [UInt8]) throws(FileError) {
        throw FileError(.makeLink, file, .notSupported, destination: File(bytes: target))
    }
    public func makeHardLink(_ file: File, to existing: File) throws(FileError) {
        throw FileError(.makeLink, file, .notSupported, destination: existing)
    }
    public func setAttributes(of file: File, _ change: AttributeChange, following: Bool) throws(FileError) {
        throw FileError(.setAttributes, file, .notSupported)
    }
    public func checkAccess(of file: File, write: Bool) throws(FileError) {
        _ = try info(of: file, following: true)
        if write { throw FileError(.open, file, .notSupported) }
    }
}

/// The top of an `S3BucketList`, opened: the buckets one ListBuckets gave, which answer for its
/// entries without another request.
final class S3BucketDirectory: VolumeDirectory {
    let file: File
    private let volume: S3BucketList
    private let buckets: [BucketSummary]

    init(volume: S3BucketList, file: File, buckets: [BucketSummary]) {
        self.volume = volume
        self.file = file
        self.buckets = buckets
    }

    func openDirectory(at relative: [UInt8], following: Bool, path: File) throws(FileError)
        -> any VolumeDirectory
    {
        if S3BucketList.names(relative).isEmpty { return self }
        _ = try info(at: relative, following: following)
        throw FileError(.list, path, .notSupported)
    }

    func remove(at name: [UInt8], directory: Bool) throws(FileError) {
        throw FileError(directory ? .removeDirectory : .remove, path(name), .notSupported)
    }

    func forEachEntry(
        at relative: [UInt8], identity: ((FileIdentity) -> Void)?,
        _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) {
        guard S3BucketList.names(relative).isEmpty else {
            _ = try info(at: relative, following: true)
            throw FileError(.list, path(relative), .notSupported)
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
        default: throw FileError(.stat, path(relative), .notSupported)
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
        _ = try info(at: relative, following: false)
        throw FileError(.readLink, path(relative), .invalidArgument)
    }
}
