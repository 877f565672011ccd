import SystemPackage

/// How big the file system holding a file is and how much of it is used, as `statfs(2)` reports
/// it (what `df` prints).
public struct FileSystemUsage: Sendable, Hashable {
    /// The size of the blocks the counts are in, in bytes (`f_frsize`).
    public var blockSize: UInt64
    /// Blocks in all (`f_blocks`).
    public var totalBlocks: UInt64
    /// Blocks free (`f_bfree`), some perhaps kept for the superuser.
    public var freeBlocks: UInt64
    /// Blocks free for an ordinary user (`f_bavail`).
    public var availableBlocks: UInt64
    /// File nodes in all (`f_files`); 0 where the file system does not count them.
    public var totalInodes: UInt64
    /// File nodes free (`f_ffree`).
    public var freeInodes: UInt64
    /// The block size best for transfers, in bytes (`f_bsize`); `blockSize` where not told.
    public var ioBlockSize: UInt64
    /// The kind of file system, as the kernel's magic number (`f_type`: 0xef53 for ext2/3/4);
    /// 0 where not told.
    public var type: UInt64
    /// The file system's identifier (`f_fsid`, its first word high); 0 where not told.
    public var identifier: UInt64
    /// The longest name a directory entry may have, in bytes (`f_namelen`); 0 where not told.
    public var nameMax: UInt64

    /// A usage from its counts.
    public init(
        blockSize: UInt64, totalBlocks: UInt64, freeBlocks: UInt64, availableBlocks: UInt64,
        totalInodes: UInt64,
        freeInodes: UInt64, ioBlockSize: UInt64? = nil, type: UInt64 = 0, identifier: UInt64 = 0, nameMax: UInt64 = 0
    ) {
        self.blockSize = blockSize
        self.totalBlocks = totalBlocks
        self.freeBlocks = freeBlocks
        self.availableBlocks = availableBlocks
        self.totalInodes = totalInodes
        self.freeInodes = freeInodes
        self.ioBlockSize = ioBlockSize ?? blockSize
        self.type = type
        self.identifier = identifier
        self.nameMax = nameMax
    }
}

extension Volume {
    /// What the file system holding `file` reports; a volume that is no file system of the
    /// kernel's says `ENOTSUP`, as `statfs(2)` would for a file system that cannot tell.
    /// - Throws: `FileError` with operation `.stat`.
    public func fileSystemUsage(of file: File) throws(FileError) -> FileSystemUsage {
        throw FileError(.stat, file, .notSupported)
    }
}

extension DescriptorVolume {
    /// What the file system holding `file` (a final symlink followed) reports.
    /// - Throws: `FileError` with operation `.stat`.
    /// Corresponds to `fstatfs(2)` on an `O_PATH` descriptor.
    public func fileSystemUsage(of file: File) throws(FileError) -> FileSystemUsage {
        do {
            return try withLocation(of: file, following: true) { (dir, name, follow) throws(Errno) in
                try Sys.statfs(name, at: dir, follow: follow)
            }
        } catch {
            throw FileError(.stat, file, error)
        }
    }
}

extension File {
    /// What the file system holding this file reports (`df`).
    /// - Throws: `FileError` with operation `.stat` (`ENOTSUP` on a volume that cannot tell).
    /// Corresponds to `statfs(2)`.
    public func fileSystemUsage() throws(FileError) -> FileSystemUsage {
        try volume.fileSystemUsage(of: self)
    }
}
