/// An open directory from which the entries below it are reached by relative paths, as the
/// `*at` system calls do, on any volume.
///
/// A walk that keeps a handle every couple of thousand bytes of path can go deeper than a single
/// path may spell (`PATH_MAX`), and the kernel resolves short relative paths faster than long
/// absolute ones. On the local volume the descriptor is closed when the last reference to the
/// handle goes.
///
///     let top = try DirectoryHandle(File(path: "/srv"))
///     let names = try top.entries(at: Array("www".utf8))   // the entries of /srv/www
public final class DirectoryHandle: Sendable {
    /// The volume's open directory.
    private let directory: any VolumeDirectory

    /// The directory's path, used to name files in errors.
    public var file: File { directory.file }

    /// Opens the directory at `file`, following a final symlink.
    /// - Throws: `FileError` with operation `.list`.
    /// Corresponds to `open(2)` with `O_DIRECTORY`.
    public init(_ file: File) throws(FileError) {
        directory = try file.volume.openDirectory(file, following: true)
    }

    /// Opens the directory at `relative` below `parent` (`[]` for `parent` itself), following a
    /// final symlink.
    /// - Throws: `FileError` with operation `.list`.
    /// Corresponds to `openat(2)` with `O_DIRECTORY`.
    public init(_ relative: [UInt8], in parent: DirectoryHandle) throws(FileError) {
        directory = try parent.directory.openDirectory(at: relative, following: true, path: parent.path(relative))
    }

    /// The handle of a directory a volume opened.
    init(_ directory: any VolumeDirectory) { self.directory = directory }

    /// The path of `relative` below this directory, for messages.
    public func path(_ relative: [UInt8]) -> File { directory.path(relative) }

    /// The entries of the directory at `relative` below this one (`[]` for this one), sorted by
    /// bytes, without `.` and `..`.
    /// - Throws: `FileError` with operation `.list` when the directory cannot be opened, `.read`
    ///   when reading it fails once open (an I/O error).
    /// Corresponds to `openat(2)` and `getdents64(2)`.
    public func entries(at relative: [UInt8]) throws(FileError) -> [DirectoryEntry] {
        try directory.listing(at: relative, withIdentity: false, sorted: true).entries
    }

    /// `entries(at:)`, and the identity of the directory listed (device and inode locally),
    /// taken from the listing itself (cheaper than a second lookup of `relative`), which tells a
    /// directory that is one of its own ancestors (a bind mount inside itself).
    /// - Throws: as `entries(at:)`; `.stat` when the directory cannot be examined.
    /// Corresponds to `openat(2)`, `fstat(2)` and `getdents64(2)`.
    public func entriesAndIdentity(at relative: [UInt8]) throws(FileError) -> (
        entries: [DirectoryEntry], identity: FileIdentity
    ) {
        let listing = try directory.listing(at: relative, withIdentity: true, sorted: true)
        return (listing.entries, listing.identity!)
    }

    /// Calls `body` for each entry of the directory at `relative` below this one (`[]` for this
    /// one), in the order the volume gives them, without `.` and `..`. Entries read before an
    /// error have been passed to `body` when it is thrown.
    /// - Throws: `FileError` with operation `.list` when the directory cannot be opened, `.read`
    ///   when reading it fails once open (an I/O error), or what `body` throws.
    /// Corresponds to `openat(2)` and `getdents64(2)`.
    public func forEachEntry(
        at relative: [UInt8], _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) {
        try directory.forEachEntry(at: relative, identity: nil, body)
    }

    /// What the volume knows about the entry at `relative` below this directory; a symlink is
    /// described, not followed, unless asked. A symlink's target is not read here (`linkTarget`
    /// is nil): `linkTarget(at:)` gives it byte for byte.
    /// - Throws: `FileError` with operation `.stat`.
    /// Corresponds to `fstatat(2)` (as `statx(2)`).
    public func info(at relative: [UInt8], followSymlinks: Bool = false) throws(FileError) -> FileInfo {
        try directory.info(at: relative, following: followSymlinks)
    }

    /// The identity of this directory itself, which tells a directory reached again (through a
    /// bind mount of one of its ancestors) from a new one.
    /// - Throws: `FileError` with operation `.stat`.
    /// Corresponds to `fstat(2)`.
    public func identity() throws(FileError) -> FileIdentity { try directory.identity() }

    /// The target the symlink at `relative` below this directory holds, exactly as written in the
    /// link (a trailing or doubled slash is kept).
    /// - Throws: `FileError` with operation `.readLink` (`EINVAL` when it is not a symlink).
    /// Corresponds to `readlinkat(2)`.
    public func linkTarget(at relative: [UInt8]) throws(FileError) -> [UInt8] {
        try directory.linkTarget(at: relative)
    }
}
