import CPathModel
import Glibc
import SystemPackage

/// The type of a file system entry.
public enum FileKind: String, Sendable, Hashable, Codable, CaseIterable {
    case regular, directory, symlink, fifo, socket, characterDevice, blockDevice, unknown

    /// The kind encoded in the `S_IFMT` bits of a mode.
    public init(mode: UInt32) {
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFREG): self = .regular
        case UInt32(S_IFDIR): self = .directory
        case UInt32(S_IFLNK): self = .symlink
        case UInt32(S_IFIFO): self = .fifo
        case UInt32(S_IFSOCK): self = .socket
        case UInt32(S_IFCHR): self = .characterDevice
        case UInt32(S_IFBLK): self = .blockDevice
        default: self = .unknown
        }
    }

    /// The `S_IFMT` bits of a mode for this kind (0 for `.unknown`).
    public var typeBits: UInt32 {
        switch self {
        case .regular: return UInt32(S_IFREG)
        case .directory: return UInt32(S_IFDIR)
        case .symlink: return UInt32(S_IFLNK)
        case .fifo: return UInt32(S_IFIFO)
        case .socket: return UInt32(S_IFSOCK)
        case .characterDevice: return UInt32(S_IFCHR)
        case .blockDevice: return UInt32(S_IFBLK)
        case .unknown: return 0
        }
    }

    /// The kind a `readdir` `d_type` names, or nil when the file system did not say (`DT_UNKNOWN`).
    init?(directoryEntryType type: UInt8) {
        switch Int32(type) {
        case Int32(DT_REG): self = .regular
        case Int32(DT_DIR): self = .directory
        case Int32(DT_LNK): self = .symlink
        case Int32(DT_FIFO): self = .fifo
        case Int32(DT_SOCK): self = .socket
        case Int32(DT_CHR): self = .characterDevice
        case Int32(DT_BLK): self = .blockDevice
        default: return nil
        }
    }
}

/// A point in time as the kernel keeps it: seconds and nanoseconds since the Unix epoch.
public struct Timestamp: Sendable, Hashable, Comparable, Codable {
    /// Whole seconds since 1970-01-01 00:00:00 UTC.
    public var seconds: Int64
    /// Nanoseconds within the second, 0 ..< 1,000,000,000.
    public var nanoseconds: UInt32

    /// A timestamp from its parts.
    public init(seconds: Int64, nanoseconds: UInt32 = 0) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// Orders timestamps in time.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    var timespec: Glibc.timespec { Glibc.timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds)) }
}

/// What the kernel knows about one file: the result of `statx(2)` (`lstat`/`stat`). A plain
/// value, with no references but object storage's details, so walks copy it for free; a
/// symlink's target is read on its own (`File.linkTarget()`, `readlink(2)`).
public struct FileInfo: Sendable, Hashable {
    /// The type of the entry.
    public var kind: FileKind
    /// What the volume does not keep for this entry (object storage has no owners): the fields
    /// stand in with a plain value, listings show `-` for them and JSON records leave them out.
    public var absent: AbsentAttributes
    /// The full mode: type bits and permission bits (`st_mode`).
    public var mode: UInt32
    /// Size in bytes (`st_size`); for a symlink, the length of its target.
    public var size: UInt64
    /// Number of 512-byte blocks allocated (`st_blocks`).
    public var blocks: UInt64
    /// The preferred I/O block size (`st_blksize`).
    public var blockSize: UInt32
    /// The owner's user id.
    public var userID: UInt32
    /// The group id.
    public var groupID: UInt32
    /// Number of hard links.
    public var linkCount: UInt32
    /// Inode number.
    public var inode: UInt64
    /// The device the file lives on (`st_dev`).
    public var device: UInt64
    /// The device a device file stands for (`st_rdev`).
    public var representedDevice: UInt64
    /// Last access.
    public var accessTime: Timestamp
    /// Last change of content.
    public var modificationTime: Timestamp
    /// Last change of content or metadata.
    public var changeTime: Timestamp
    /// Birth time, when the file system records it.
    public var creationTime: Timestamp?
    /// What object storage says of an object beyond this (its entity tag, its storage class);
    /// nil on every other volume.
    public var object: ObjectDetails?

    /// The permission bits, including set-user-id, set-group-id and sticky (`mode & 0o7777`).
    public var permissions: UInt32 { mode & 0o7777 }

    /// The owner's login name, looked up in the user database; nil when it has none.
    public var owner: String? { Sys.userName(userID) }

    /// The group's name, looked up in the group database; nil when it has none.
    public var group: String? { Sys.groupName(groupID) }

    /// The identity of the file on this machine: (device, inode).
    public var identity: FileIdentity { FileIdentity(device: device, inode: inode) }

    /// Metadata from its parts, as a volume that is not the kernel's describes its entries.
    /// `blocks` counts 512-byte units; times default to the epoch.
    public init(
        kind: FileKind, permissions: UInt32, size: UInt64, identity: FileIdentity, linkCount: UInt32 = 1,
        userID: UInt32 = 0, groupID: UInt32 = 0, modificationTime: Timestamp = Timestamp(seconds: 0),
        accessTime: Timestamp? = nil, changeTime: Timestamp? = nil, absent: AbsentAttributes = [],
        object: ObjectDetails? = nil
    ) {
        self.kind = kind
        self.absent = absent
        mode = kind.typeBits | (permissions & 0o7777)
        self.size = size
        blocks = (size + 511) / 512
        blockSize = 4096
        self.userID = userID
        self.groupID = groupID
        self.linkCount = linkCount
        inode = identity.inode
        device = identity.device
        representedDevice = 0
        self.modificationTime = modificationTime
        self.accessTime = accessTime ?? modificationTime
        self.changeTime = changeTime ?? modificationTime
        creationTime = nil
        self.object = object
    }

    init(_ raw: pathmodel_stat) {
        kind = FileKind(mode: raw.mode)
        absent = []
        mode = raw.mode
        size = raw.size
        blocks = raw.blocks
        blockSize = raw.blksize
        userID = raw.uid
        groupID = raw.gid
        linkCount = raw.nlink
        inode = raw.ino
        device = raw.dev
        representedDevice = raw.rdev
        accessTime = Timestamp(seconds: raw.atime_sec, nanoseconds: raw.atime_nsec)
        modificationTime = Timestamp(seconds: raw.mtime_sec, nanoseconds: raw.mtime_nsec)
        changeTime = Timestamp(seconds: raw.ctime_sec, nanoseconds: raw.ctime_nsec)
        creationTime = raw.has_btime != 0 ? Timestamp(seconds: raw.btime_sec, nanoseconds: raw.btime_nsec) : nil
        object = nil
    }

    /// Hashes the fields that tell files and their versions apart.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
        hasher.combine(mode)
        hasher.combine(size)
        hasher.combine(modificationTime)
    }
}

/// What object storage says of an object that a file system has no field for.
public struct ObjectDetails: Sendable, Hashable {
    /// The entity tag, without the quotes S3 puts around it (an MD5 of the contents for an
    /// object sent in one PUT).
    public var eTag: String
    /// The storage class (`STANDARD`, `GLACIER`…).
    public var storageClass: String

    /// Details from an entity tag and a storage class.
    public init(eTag: String, storageClass: String) {
        self.eTag = eTag
        self.storageClass = storageClass
    }
}

/// Attributes of a `FileInfo` that its volume does not keep, so that a listing shows `-` (and a
/// `FileRecord` nil) rather than the stand-in value the field holds.
public struct AbsentAttributes: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt8
    /// A set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The owner and the group (`userID`, `groupID`).
    public static let owners = AbsentAttributes(rawValue: 1 << 0)
    /// The number of hard links (`linkCount`).
    public static let linkCount = AbsentAttributes(rawValue: 1 << 1)
    /// The times (`modificationTime`, `accessTime`, `changeTime`).
    public static let times = AbsentAttributes(rawValue: 1 << 2)
}

/// A file's identity on this machine: its device and inode. Two paths with equal identities are
/// the same file, whatever their spelling.
public struct FileIdentity: Sendable, Hashable {
    /// The device number.
    public var device: UInt64
    /// The inode number.
    public var inode: UInt64

    /// An identity from its parts.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

extension File {
    /// What the kernel knows about this file; symlinks are described, not followed, unless asked.
    ///
    /// - Parameter followSymlinks: describe the file a symlink points to (`stat`) instead of the
    ///   link itself (`lstat`).
    /// - Throws: `FileError` with operation `.stat`.
    /// Corresponds to `statx(2)`, plus `readlink(2)` for a symlink.
    public func info(followSymlinks: Bool = false) throws(FileError) -> FileInfo {
        try volume.info(of: self, following: followSymlinks)
    }

    /// The target a symbolic link holds, as written in the link; on another volume, a path there.
    /// - Throws: `FileError` with operation `.readLink` (`EINVAL` when this is not a symlink).
    /// Corresponds to `readlink(2)`.
    public func linkTarget() throws(FileError) -> File {
        File(bytes: try volume.linkTarget(of: self)).on(volume)
    }

    /// The kind of entry at this path, or nil when nothing is there or it cannot be examined.
    /// Corresponds to `lstat(2)` or `stat(2)`.
    private func kind(followingSymlinks follow: Bool) -> FileKind? {
        try? volume.info(of: self, following: follow).kind
    }

    /// Whether an entry exists at this path (a dangling symlink counts; it is there).
    /// Looks at the disk; false also when the path cannot be examined. Corresponds to `lstat(2)`.
    public var exists: Bool { kind(followingSymlinks: false) != nil }

    /// Whether this path leads to a regular file, following symlinks. Looks at the disk.
    /// Corresponds to `stat(2)`.
    public var isFile: Bool { kind(followingSymlinks: true) == .regular }

    /// Whether this path leads to a directory, following symlinks. Looks at the disk.
    /// Corresponds to `stat(2)`.
    public var isDirectory: Bool { kind(followingSymlinks: true) == .directory }

    /// Whether the entry at this path is a symbolic link itself. Looks at the disk.
    /// Corresponds to `lstat(2)`.
    public var isSymlink: Bool { kind(followingSymlinks: false) == .symlink }

    /// Whether this path is a directory with no entries. Looks at the disk; false when it cannot
    /// be read. Corresponds to `open(2)` and `getdents64(2)`.
    public var isEmptyDirectory: Bool {
        var empty = true
        do {
            try volume.forEachEntry(of: self, limit: 1) { _ in empty = false }
            return empty
        } catch {
            return false
        }
    }
}
