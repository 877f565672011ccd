/// Where a `File`'s path leads: the local file system, a directory confined as its own root, a
/// tree kept in memory, and later storage that is not a disk at all.
///
/// A volume offers the operations the shell's commands need and nothing else. Each takes the
/// `File` it acts on (a path on this volume) and throws `FileError` data: the operation, the path
/// and the errno that best says what went wrong. Everything a `File` does beyond these (`mkdir
/// -p`, atomic writes, links that replace, resolving symlinks, walks) is built from them in
/// PathModel, once for every volume.
///
/// A volume says what it cannot do in `capabilities`, so a command can refuse with a clear
/// message before it starts rather than stop halfway. To add one, follow the checklist in
/// docs/ARCHITECTURE.md; `MemoryVolume` is the worked example.
public protocol Volume: AnyObject, Sendable {
    /// What this volume can do beyond listing, reading and writing files.
    var capabilities: VolumeCapabilities { get }

    /// What is known about the entry at `file`; a final symlink is described, not followed,
    /// unless `following`; its target is not read (`linkTarget(of:)` gives it).
    /// - Throws: `FileError` with operation `.stat`.
    func info(of file: File, following: Bool) throws(FileError) -> FileInfo

    /// The bytes the symlink at `file` holds, exactly as written.
    /// - Throws: `FileError` with operation `.readLink` (`EINVAL` when it is not a symlink).
    func linkTarget(of file: File) throws(FileError) -> [UInt8]

    /// Opens the directory at `file` to list it and reach what is below it by relative paths. A
    /// final symlink is followed when `following`, else refused with `ENOTDIR` (as
    /// `O_DIRECTORY | O_NOFOLLOW` refuses it), so that a removal never leaves the tree.
    /// - Throws: `FileError` with operation `.list`.
    func openDirectory(_ file: File, following: Bool) throws(FileError) -> any VolumeDirectory

    /// Opens the directory at `file` as `openDirectory(_:following:)` does, for a walk through
    /// everything below it: a volume that can list a whole tree at once (object storage's
    /// listing without a delimiter) gives a directory whose descendants, opened from it, read
    /// their entries from that listing rather than with a request each. The default opens it
    /// as usual.
    /// - Throws: `FileError` with operation `.list`.
    func openTree(_ file: File, following: Bool) throws(FileError) -> any VolumeDirectory

    /// Calls `body` with the entries of the directory at `file` (following a final symlink), in
    /// the volume's own order, without `.` and `..`; stops after `limit` entries when given.
    /// - Throws: `FileError` with operation `.list` (cannot open) or `.read` (reading failed).
    func forEachEntry(of file: File, limit: Int?, _ body: (DirectoryEntry) throws(FileError) -> Void) throws(FileError)

    /// Calls `body` with the entries of the directory at `file` whose names start with `prefix`
    /// (what completing a name offers), as `forEachEntry(of:limit:_:)` gives them. The default
    /// lists every entry and keeps those; object storage asks for those keys alone.
    /// - Throws: as `forEachEntry(of:limit:_:)`.
    func forEachEntry(
        of file: File, startingWith prefix: [UInt8], _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError)

    /// Opens the file at `file` (following a final symlink) as a stream of bytes. `.read` starts
    /// at the first byte; `.truncate` creates or empties it; `.append` creates it and writes at
    /// the end; `.create` makes a new file and fails with `EEXIST` when anything is there (a
    /// final symlink is not followed then).
    /// - Parameter permissions: the mode bits of a file that the call creates (less the umask).
    /// - Throws: `FileError` with operation `.open` (`.createFile` for `.create`).
    func open(_ file: File, _ mode: File.OpenMode, permissions: UInt32) throws(FileError) -> OpenFile

    /// Opens a new file for writing in a directory the caller has just made and filled itself
    /// (a copy of a tree), where nothing else is and the parent is known to be a directory: the
    /// default opens with `.create`; a volume whose checks cost round trips (object storage)
    /// may skip them.
    /// - Throws: `FileError` with operation `.createFile`.
    func openNew(_ file: File, permissions: UInt32) throws(FileError) -> OpenFile

    /// Opens the regular file `file` for reading, as `info` (what a listing or a look has just
    /// said of it) describes it: the default opens with `.read`; a volume whose opening asks the
    /// service what the file is (object storage) may take `info`'s word instead.
    /// - Throws: `FileError` with operation `.open`.
    func openForReading(_ file: File, describedAs info: FileInfo) throws(FileError) -> OpenFile

    /// Creates the directory `file`; its parent must exist.
    /// - Throws: `FileError` with operation `.makeDirectory`.
    func makeDirectory(_ file: File, permissions: UInt32) throws(FileError)

    /// Removes the entry at `file`, which is not a directory; a symlink itself is removed.
    /// - Throws: `FileError` with operation `.remove`.
    func removeFile(_ file: File) throws(FileError)

    /// Removes the empty directory at `file`.
    /// - Throws: `FileError` with operation `.removeDirectory`.
    func removeDirectory(_ file: File) throws(FileError)

    /// Renames the entry at `source` to `destination` on this volume in one step, replacing what
    /// is there unless `replacing` is false (then `EEXIST`). Neither final symlink is followed.
    /// - Throws: `FileError` with operation `.rename`, `destination` set.
    func rename(_ source: File, to destination: File, replacing: Bool) throws(FileError)

    /// Creates a symbolic link at `file` that holds `target`'s bytes.
    /// - Throws: `FileError` with operation `.makeLink`.
    func makeSymlink(_ file: File, target: [UInt8]) throws(FileError)

    /// Creates a hard link at `file` to the existing entry `existing` on this volume.
    /// - Throws: `FileError` with operation `.makeLink` (`EPERM`/`ENOTSUP` where the volume has
    ///   no hard links; see `capabilities`).
    func makeHardLink(_ file: File, to existing: File) throws(FileError)

    /// Changes the attributes `change` names of the entry at `file`; a final symlink is followed
    /// when `following`.
    /// - Throws: `FileError` with operation `.setAttributes`.
    func setAttributes(of file: File, _ change: AttributeChange, following: Bool) throws(FileError)

    /// Whether the calling user may write (`write`) or search (`!write`) the entry at `file`,
    /// following a final symlink.
    /// - Throws: `FileError` with operation `.open` (write) or `.stat` (search).
    func checkAccess(of file: File, write: Bool) throws(FileError)

    /// How big the file system holding `file` is and how much is used (`df`), a final symlink
    /// followed. A volume that is no file system of the kernel's keeps the default, `ENOTSUP`.
    /// - Throws: `FileError` with operation `.stat`.
    func fileSystemUsage(of file: File) throws(FileError) -> FileSystemUsage

    /// Copies the regular file `source`, `size` bytes, to `destination` (a new file, or a regular
    /// file it replaces) on this volume, without the bytes passing through this process (object
    /// storage's server-side copy); false when the volume has no such way from `source`'s
    /// volume (which may be another), and the caller copies the bytes itself.
    /// - Throws: `FileError` with operation `.createFile`, naming `destination`.
    func copyWithin(_ source: File, size: UInt64, to destination: File) throws(FileError) -> Bool

    /// How many files a copy of a tree onto or from this volume moves at once. A volume where
    /// each file waits on round trips of its own (object storage) gives more than one; the
    /// default, one at a time, keeps a copy between local volumes as it is.
    var parallelFiles: ParallelFiles { get }

    /// Removes `entries` together, each a name in an open directory of this volume, and gives a
    /// failure or nil for each: files, or with `directories`, directories whose contents have
    /// just been removed (no one checks they are empty). A volume with `.batchRemoval` sends
    /// one request for many, whatever directories they are in; the default removes each
    /// through its directory.
    func remove(_ entries: [(directory: any VolumeDirectory, name: [UInt8])], directories: Bool)
        -> [FileError?]
}

/// How many files a copy of a tree moves at once (`Volume.parallelFiles`): the `Copier` hands
/// the data of files up to `largestFile` bytes to up to `count` workers, as long as the files
/// in flight add up to no more than `bytesAtOnce`, while its walk, its questions and its reports
/// stay on one thread, in the walk's order.
public struct ParallelFiles: Sendable, Hashable {
    /// Files in flight at once; 1 copies them one after another.
    public var count: Int
    /// The largest file handed to a worker. A larger one is copied by the walk itself (its
    /// parts may go in parallel on their own).
    public var largestFile: UInt64
    /// The most bytes the files in flight add up to (what a volume that holds a file in memory
    /// on its way holds at most); never less than `largestFile`.
    public var bytesAtOnce: UInt64

    /// At most `count` files of at most `largestFile` bytes at once, adding up to at most
    /// `bytesAtOnce` (nil: `count` times `largestFile`).
    public init(count: Int, largestFile: UInt64, bytesAtOnce: UInt64? = nil) {
        self.count = max(1, count)
        self.largestFile = largestFile
        let (all, overflow) = UInt64(self.count).multipliedReportingOverflow(by: largestFile)
        self.bytesAtOnce = max(largestFile, bytesAtOnce ?? (overflow ? .max : all))
    }

    /// One file at a time.
    public static let one = ParallelFiles(count: 1, largestFile: 0)

    /// What a copy from a volume that allows `source` to one that allows `destination` may do:
    /// the one that allows more than one file, or what both allow.
    static func between(_ source: ParallelFiles, _ destination: ParallelFiles) -> ParallelFiles {
        if source.count == 1 { return destination }
        if destination.count == 1 { return source }
        return ParallelFiles(
            count: min(source.count, destination.count),
            largestFile: min(source.largestFile, destination.largestFile),
            bytesAtOnce: min(source.bytesAtOnce, destination.bytesAtOnce))
    }
}

extension Volume {
    /// The file at `path` on this volume; on any volume but the local one, relative paths start
    /// at its top.
    public func file(_ path: String) -> File { file(File(path: path)) }

    /// The file at `path`'s bytes on this volume (a path from another volume is re-homed).
    public func file(_ path: File) -> File { path.on(self) }

    /// `/` on this volume.
    public var root: File { file(File.root) }

    /// Every entry listed, those that start with `prefix` kept: the default for volumes that
    /// list a directory whole.
    public func forEachEntry(
        of file: File, startingWith prefix: [UInt8], _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) {
        try forEachEntry(of: file, limit: nil) { entry throws(FileError) in
            if entry.name.starts(with: prefix) { try body(entry) }
        }
    }

    /// The directory opened as usual: the default for volumes that list one directory at a time.
    public func openTree(_ file: File, following: Bool) throws(FileError) -> any VolumeDirectory {
        try openDirectory(file, following: following)
    }

    /// No copy without the bytes: the default for volumes that have none.
    public func copyWithin(_ source: File, size: UInt64, to destination: File) throws(FileError) -> Bool {
        false
    }

    /// `open(file, .create, permissions:)`: the default for volumes whose checks are cheap.
    public func openNew(_ file: File, permissions: UInt32) throws(FileError) -> OpenFile {
        try open(file, .create, permissions: permissions)
    }

    /// `open(file, .read, permissions:)`: the default for volumes whose opening asks nothing.
    public func openForReading(_ file: File, describedAs info: FileInfo) throws(FileError) -> OpenFile {
        try open(file, .read, permissions: 0)
    }

    /// One file at a time: the default for volumes the kernel or memory answers at once.
    public var parallelFiles: ParallelFiles { .one }

    /// Each entry removed through its own directory: the default for volumes without
    /// `.batchRemoval`.
    public func remove(
        _ entries: [(directory: any VolumeDirectory, name: [UInt8])], directories: Bool
    ) -> [FileError?] {
        entries.map { entry in
            do throws(FileError) {
                try entry.directory.remove(at: entry.name, directory: directories)
                return nil
            } catch {
                return error
            }
        }
    }
}

/// What a volume can do beyond listing, reading and writing files, so that a command refuses
/// at once with a clear error instead of doing half a job.
public struct VolumeCapabilities: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt32
    /// A capability set from its bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Several names for one file (`ln`, `cp -l`).
    public static let hardLinks = VolumeCapabilities(rawValue: 1 << 0)
    /// Symbolic links.
    public static let symlinks = VolumeCapabilities(rawValue: 1 << 1)
    /// Permission bits that can be set.
    public static let permissions = VolumeCapabilities(rawValue: 1 << 2)
    /// Owners and groups that can be set.
    public static let owners = VolumeCapabilities(rawValue: 1 << 3)
    /// Renaming in one step, replacing or not (`mv` without copying).
    public static let atomicRename = VolumeCapabilities(rawValue: 1 << 4)
    /// Device files, FIFOs and sockets.
    public static let specialFiles = VolumeCapabilities(rawValue: 1 << 5)
    /// A current directory the kernel knows, that programs started from the shell inherit.
    public static let processDirectory = VolumeCapabilities(rawValue: 1 << 6)
    /// One request removes entries of many directories (`Volume.remove(_:directories:)`), so
    /// that `File.removeTree` gathers them across directories rather than one directory's files
    /// at a time and each directory alone.
    public static let batchRemoval = VolumeCapabilities(rawValue: 1 << 7)
    /// A directory may be no more than the entries below it (object storage's prefixes without
    /// a marker): once they are removed it is gone, without being removed itself.
    public static let vanishingDirectories = VolumeCapabilities(rawValue: 1 << 8)

    /// Everything a POSIX file system does.
    public static let posix: VolumeCapabilities = [
        .hardLinks, .symlinks, .permissions, .owners, .atomicRename, .specialFiles, .processDirectory,
    ]
}

/// The attributes one `setAttributes` call changes; what is nil or `.keep` stays as it is.
public struct AttributeChange: Sendable, Hashable {
    /// New permission bits (`chmod`).
    public var permissions: UInt32?
    /// The new access time.
    public var accessTime: TimeChange = .keep
    /// The new modification time.
    public var modificationTime: TimeChange = .keep
    /// The new owner's user ID (`chown`).
    public var user: UInt32?
    /// The new group ID (`chown`, `chgrp`).
    public var group: UInt32?

    /// A change of nothing yet; set the fields to change.
    public init() {}

    /// A change of the permission bits alone.
    public static func permissions(_ mode: UInt32) -> AttributeChange {
        var change = AttributeChange()
        change.permissions = mode
        return change
    }

    /// A change of the two times alone.
    public static func times(access: TimeChange, modification: TimeChange) -> AttributeChange {
        var change = AttributeChange()
        change.accessTime = access
        change.modificationTime = modification
        return change
    }

    /// A change of owner and group alone; nil leaves that one.
    public static func owner(user: UInt32?, group: UInt32?) -> AttributeChange {
        var change = AttributeChange()
        change.user = user
        change.group = group
        return change
    }
}

/// What one time of a file becomes.
public enum TimeChange: Sendable, Hashable {
    /// Left as it is.
    case keep
    /// The current time.
    case now
    /// This time.
    case to(Timestamp)
}

/// An open directory of a volume, from which the entries below it are reached by relative paths
/// (`[]` for the directory itself). `DirectoryHandle` is the public face of one.
public protocol VolumeDirectory: AnyObject, Sendable {
    /// The directory's path, used to name files in errors.
    var file: File { get }

    /// Opens the directory at `relative` below this one (`..` for its parent), whose path is
    /// `path` (the caller has it: a walk deep in a tree would spend its time joining paths); a
    /// final symlink is followed when `following`, else refused with `ENOTDIR`.
    /// - Throws: `FileError` with operation `.list`.
    func openDirectory(at relative: [UInt8], following: Bool, path: File) throws(FileError) -> any VolumeDirectory

    /// Removes the entry `name` of this directory: an empty directory when `directory`, else
    /// anything but a directory (a symlink itself).
    /// - Throws: `FileError` with operation `.removeDirectory` or `.remove`.
    func remove(at name: [UInt8], directory: Bool) throws(FileError)

    /// Removes the entries `names` of this directory, none of them a directory (a symlink
    /// itself), as `remove(at:directory:)` removes each, and gives each one's failure in order
    /// (operation `.remove`), nil where it was removed. Object storage removes up to 1,000 in
    /// one request.
    func remove(names: [[UInt8]]) -> [FileError?]

    /// Calls `body` with each entry of the directory at `relative`, in the volume's own order,
    /// without `.` and `..`; with `identity`, first gives the listed directory's identity.
    /// - Throws: `FileError` with operation `.list` (cannot open), `.read` (reading failed once
    ///   open), `.stat` (no identity), or what `body` throws.
    func forEachEntry(
        at relative: [UInt8], identity: ((FileIdentity) -> Void)?,
        _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError)

    /// The entries of this directory itself, in the volume's own order, read in one go.
    /// - Throws: as `forEachEntry`.
    func readListing() throws(FileError) -> DirectoryListing

    /// The entries of the directory at `relative`, by bytes when `sorted` (else in the volume's
    /// own order), and its identity when asked.
    /// - Throws: as `forEachEntry`.
    func listing(at relative: [UInt8], withIdentity: Bool, sorted: Bool) throws(FileError) -> (
        entries: [DirectoryEntry], identity: FileIdentity?
    )

    /// What is known about the entry at `relative`; a symlink is not followed unless asked, and
    /// its target is not read (`linkTarget(at:)` gives it).
    /// - Throws: `FileError` with operation `.stat`.
    func info(at relative: [UInt8], following: Bool) throws(FileError) -> FileInfo

    /// What examining each entry of `listing` (read from this directory) gives, in the
    /// listing's order, a symlink not followed; nil for an entry that could not be examined
    /// (`info(at:following:)` on it alone says why).
    func infos(of listing: DirectoryListing) -> [FileInfo?]

    /// What is known about entry `index` of `listing` (read from this directory), whose name is
    /// `name`, as `info(at:following:)` says of the name; a volume where two entries may share
    /// a name (a file and a directory in object storage) tells them apart by the listing's kind.
    /// - Throws: `FileError` with operation `.stat`.
    func info(ofEntry index: Int, named name: [UInt8], in listing: DirectoryListing, following: Bool)
        throws(FileError) -> FileInfo

    /// The identity of this directory itself.
    /// - Throws: `FileError` with operation `.stat`.
    func identity() throws(FileError) -> FileIdentity

    /// The bytes the symlink at `relative` holds.
    /// - Throws: `FileError` with operation `.readLink`.
    func linkTarget(at relative: [UInt8]) throws(FileError) -> [UInt8]
}

extension VolumeDirectory {
    /// The path of `relative` below this directory, for messages.
    public func path(_ relative: [UInt8]) -> File {
        relative.isEmpty ? file : file + File(bytes: relative)
    }

    /// Examines the entry by its name: one name is one entry.
    public func info(ofEntry index: Int, named name: [UInt8], in listing: DirectoryListing, following: Bool)
        throws(FileError) -> FileInfo
    {
        try info(at: name, following: following)
    }

    /// Examines the entries one by one; the default for volumes without a faster way.
    public func infos(of listing: DirectoryListing) -> [FileInfo?] {
        (0..<listing.count).map { index in try? info(at: Array(listing.name(index)), following: false) }
    }

    /// Removes the entries one by one; the default for volumes without a faster way.
    public func remove(names: [[UInt8]]) -> [FileError?] {
        names.map { name -> FileError? in
            do throws(FileError) {
                try remove(at: name, directory: false)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Collects `forEachEntry`; the default for volumes without a faster way.
    public func readListing() throws(FileError) -> DirectoryListing {
        var listing = DirectoryListing()
        try forEachEntry(at: [], identity: nil) { listing.append(name: $0.name, kind: $0.kind) }
        return listing
    }

    /// Collects `forEachEntry` and sorts by bytes as `LC_ALL=C` does; the default for volumes
    /// without a faster way.
    public func listing(at relative: [UInt8], withIdentity: Bool, sorted: Bool) throws(FileError) -> (
        entries: [DirectoryEntry], identity: FileIdentity?
    ) {
        var entries: [DirectoryEntry] = []
        var found: FileIdentity?
        try forEachEntry(at: relative, identity: withIdentity ? { found = $0 } : nil) { entries.append($0) }
        if sorted { entries.sort { bytesPrecede($0.name, $1.name) } }
        return (entries, found)
    }
}

/// An open stream of bytes on a volume that is not reached through a file descriptor (the
/// in-memory volume, remote storage). `OpenFile` is its public face.
public protocol FileStream: AnyObject, Sendable {
    /// Reads up to `buffer.count` bytes at the stream's offset; 0 at the end.
    /// - Throws: `FileError` with operation `.read`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int
    /// Reads up to `buffer.count` bytes at `offset`, leaving the stream's offset alone.
    /// - Throws: `FileError` with operation `.read`.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(FileError) -> Int
    /// Writes all of `bytes` at the stream's offset (at the end when appending).
    /// - Throws: `FileError` with operation `.write`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(FileError)
    /// What is known about the open file.
    /// - Throws: `FileError` with operation `.stat`.
    func info() throws(FileError) -> FileInfo
    /// Changes the open file's attributes.
    /// - Throws: `FileError` with operation `.setAttributes`.
    func setAttributes(_ change: AttributeChange) throws(FileError)
    /// Cuts the file to `size` bytes, or extends it with zero bytes.
    /// - Throws: `FileError` with operation `.write`.
    func truncate(to size: UInt64) throws(FileError)
    /// Ends the stream; what was written becomes the file's contents. On a volume where a file
    /// appears only when complete (object storage), a stream closed without `finish()` is
    /// abandoned and nothing written through it appears.
    func close()
    /// Ends a stream that was written through and makes what was written the file's contents,
    /// saying whether that worked: on object storage, this is when the object is sent.
    /// - Throws: `FileError` with operation `.write`; the stream is closed either way.
    func finish() throws(FileError)
}

/// A stream that can hand its bytes over as pieces, each with its offset, in any order and from
/// several threads at once: object storage fetches ranges of an object in parallel, and each
/// range's bytes can land at their place in the destination as they arrive, where a reader in
/// order would hold the ranges that come early until those before them are in.
///
/// This is a capability of the source's stream, not of its volume or of the copier: the copier
/// stays ignorant of storage and asks any source whether it offers pieces, when the destination
/// takes positional writes (a new regular file on a disk, through `OpenFile.write(_:at:)`);
/// otherwise, and whenever the stream declines, the plain loop of reads in order runs, as for
/// every other stream. The stream keeps its own guarantees (what it checks, what it retries),
/// and a failure or a cancellation leaves the destination for the copier to discard.
public protocol PieceSource: FileStream {
    /// Hands every byte of the file to `sink` as pieces (offset, bytes), in any order, on
    /// threads of the stream's own; returns once all were delivered, true. Returns false at once,
    /// having delivered nothing, when the file is better read in order (the stream was read
    /// already, or what it checks needs the bytes in order). `progress` runs on the caller's
    /// thread with the bytes delivered since its last call; `isCancelled` is polled there.
    /// - Throws: `FileError` with operation `.read` (`ECANCELED` once `isCancelled` said so), or
    ///   what `sink` threw; no piece is delivered after the call returns or throws.
    func deliverPieces(
        to sink: @escaping @Sendable (_ offset: UInt64, _ bytes: UnsafeRawBufferPointer) throws(FileError) -> Void,
        progress: (_ bytes: UInt64) -> Void, isCancelled: () -> Bool
    ) throws(FileError) -> Bool
}

/// A stream that takes a whole file from a source it can read at any offset (a file on a disk,
/// through `pread`): object storage sends the parts of a large upload in parallel, each read
/// from the source as it goes (and again when it is sent again), where a writer in order would
/// hold every part in flight in memory.
///
/// Like `PieceSource`, a capability of the destination's stream: the copier asks any
/// destination whether it takes pieces when the source is read by offset (a descriptor);
/// otherwise, and whenever the stream declines, the plain loop of writes in order runs. A
/// failure or a cancellation leaves nothing written, as a stream closed without `finish()`.
public protocol PieceTaker: FileStream {
    /// Takes the source's first `size` bytes through `read`, which fills a buffer with the
    /// bytes at an offset (or throws, with operation `.read`: the source failed, or ended before
    /// the buffer was full), called on threads of the stream's own for any range, more than once
    /// for a range sent again; returns once the file is complete, true (`finish()` then has
    /// nothing left to do). Returns false at once, having read nothing, when the bytes are
    /// better written in order (the stream was written already, or the file is small).
    /// `progress` runs on the caller's thread with the bytes taken since its last call;
    /// `isCancelled` is polled there.
    /// - Throws: `FileError` with operation `.write` (`ECANCELED` once `isCancelled` said so),
    ///   or what `read` threw; nothing written appears either way.
    func takePieces(
        size: UInt64,
        from read: @escaping @Sendable (_ offset: UInt64, _ buffer: UnsafeMutableRawBufferPointer) throws(FileError) ->
            Void,
        progress: (_ bytes: UInt64) -> Void, isCancelled: () -> Bool
    ) throws(FileError) -> Bool
}

extension FileStream {
    /// Closes the stream: where a write is complete as soon as it returns, there is nothing more
    /// to report.
    public func finish() throws(FileError) { close() }
}
