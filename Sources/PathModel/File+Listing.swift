import Glibc
import SystemPackage

/// One entry of a directory listing: its name as bytes and the kind `readdir` reported.
public struct DirectoryEntry: Sendable, Hashable {
    /// The entry's name, byte for byte.
    public let name: [UInt8]
    /// The kind from `d_type`, or nil when the file system did not say (stat the entry to learn it).
    public let kind: FileKind?

    /// A listing entry from its parts.
    public init(name: [UInt8], kind: FileKind?) {
        self.name = name
        self.kind = kind
    }

    /// The name as text; bytes that are not UTF-8 become U+FFFD.
    public var nameString: String { String(decoding: name, as: UTF8.self) }

    /// Whether the name starts with a dot.
    public var isHidden: Bool { name.first == 0x2E }
}

/// Whether `lhs` sorts before `rhs` by bytes (`memcmp` order, as `LC_ALL=C`).
@inlinable
public func bytesPrecede(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool { bytesPrecede(lhs[...], rhs[...]) }

/// Whether `lhs` sorts before `rhs` by bytes, for names that lie in a larger buffer.
@inlinable
public func bytesPrecede(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Bool {
    lhs.withUnsafeBufferPointer { left in
        rhs.withUnsafeBufferPointer { right in
            let count = Swift.min(left.count, right.count)
            if count > 0 {
                let order = memcmp(left.baseAddress!, right.baseAddress!, count)
                if order != 0 { return order < 0 }
            }
            return left.count < right.count
        }
    }
}

extension File {
    /// Calls `body` for each entry of this directory, in the order the kernel gives them, without
    /// `.` and `..`. The fastest listing: no sorting and one small allocation per name.
    /// - Throws: `FileError` with operation `.list` when the directory cannot be opened, `.read`
    ///   when reading it fails once open (an I/O error).
    /// Corresponds to `openat(2)` and `getdents64(2)`.
    public func forEachEntry(_ body: (DirectoryEntry) throws(FileError) -> Void) throws(FileError) {
        try volume.forEachEntry(of: self, limit: nil, body)
    }

    /// Calls `body` for each entry of this directory whose name starts with `prefix`, in the
    /// volume's order: on object storage, only those keys are listed.
    /// - Throws: `FileError` with operation `.list` or `.read`.
    /// Corresponds to `openat(2)` and `getdents64(2)`.
    public func forEachEntry(
        startingWith prefix: [UInt8], _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) {
        try volume.forEachEntry(of: self, startingWith: prefix, body)
    }

    /// The entries of this directory, sorted by bytes, without `.` and `..`.
    /// - Throws: `FileError` with operation `.list`.
    /// Corresponds to `openat(2)` and `getdents64(2)`.
    public func entries() throws(FileError) -> [DirectoryEntry] {
        var result: [DirectoryEntry] = []
        try forEachEntry { result.append($0) }
        result.sort { bytesPrecede($0.name, $1.name) }
        return result
    }

    /// The files and directories in this directory, sorted by bytes.
    /// - Parameter includeHidden: include names that start with a dot.
    /// - Throws: `FileError` with operation `.list`.
    public func children(includeHidden: Bool = true) throws(FileError) -> [File] {
        try entries().lazy.filter { includeHidden || !$0.isHidden }.map { appending(entryName: $0.name) }
    }

    /// The names in this directory as text, sorted by bytes. Names that are not UTF-8 show U+FFFD;
    /// use `entries()` to keep their bytes.
    /// - Throws: `FileError` with operation `.list`.
    public func childNames() throws(FileError) -> [String] {
        try entries().map(\.nameString)
    }

    /// A lazy walk over everything below this directory, depth first, parents before children.
    ///
    ///     for case .success(let entry) in File.home.walk(WalkOptions(maxDepth: 2)) {
    ///         print(entry.file)
    ///     }
    public func walk(_ options: WalkOptions = WalkOptions()) -> FileWalk {
        FileWalk(root: self, options: options)
    }
}

/// How a `FileWalk` goes through a tree.
public struct WalkOptions: Sendable, Hashable {
    /// The deepest level to yield and enter, nil for no limit: the start itself is level 0 and
    /// is never yielded, its children are level 1. With 1 the children are yielded and none is
    /// entered; with 0 (or less) nothing is yielded and the start is not even read, as
    /// `find -maxdepth 0` goes no further than its start.
    public var maxDepth: Int?
    /// The shallowest level to yield (1: the children; deeper levels are still walked through).
    public var minDepth: Int
    /// Whether names starting with a dot are yielded and descended into.
    public var includeHidden: Bool
    /// Whether symlinks to directories are descended into. Loops are detected and reported.
    public var followSymlinks: Bool
    /// The kinds to yield (e.g. `[.regular]` for files only); nil yields every kind.
    /// Directories are walked through whatever this says.
    public var kinds: Set<FileKind>?
    /// Whether each directory's entries come in byte order (otherwise in the kernel's order).
    public var sorted: Bool

    /// Options for a walk; the defaults walk everything, sorted, without following symlinks.
    public init(
        maxDepth: Int? = nil, minDepth: Int = 1, includeHidden: Bool = true, followSymlinks: Bool = false,
        kinds: Set<FileKind>? = nil, sorted: Bool = true
    ) {
        self.maxDepth = maxDepth
        self.minDepth = minDepth
        self.includeHidden = includeHidden
        self.followSymlinks = followSymlinks
        self.kinds = kinds
        self.sorted = sorted
    }
}

/// One file found by a walk.
public struct WalkEntry: Sendable, Hashable {
    /// The path: the walk's root joined with the names below it.
    public let file: File
    /// How far below the root: 1 for its children.
    public let depth: Int
    /// The entry's kind; for a followed symlink, the kind of its target.
    public let kind: FileKind
}

/// A lazy, depth-first walk of a directory tree; created by `File.walk(_:)`. It is `TreeWalk`
/// seen as a sequence of entries.
///
/// Memory grows with the depth of the current path (one directory listing per level), never
/// with the size of the tree. An error in one subdirectory is yielded as `.failure` and the walk
/// goes on with the rest.
public struct FileWalk: Sequence, IteratorProtocol {
    private var walk: TreeWalk
    private let options: WalkOptions

    init(root: File, options: WalkOptions) {
        self.options = options
        // The root itself is listed through a final symlink, whatever the options say; each
        // directory is announced before it is read, so it is read only when the walk gets there.
        walk = TreeWalk(
            root,
            options: TreeWalk.Options(
                sorted: options.sorted, maxDepth: options.maxDepth, following: options.followSymlinks ? .always : .start,
                includeHidden: options.includeHidden, announcesDirectories: true))
    }

    /// The next entry, or an error met on the way; nil when the walk is over.
    public mutating func next() -> Result<WalkEntry, FileError>? {
        // With a depth of 0 or less nothing is given and the start is not even read, as
        // `find -maxdepth 0` goes no further than its start.
        if let maxDepth = options.maxDepth, maxDepth <= 0 { return nil }
        while let event = walk.next() {
            switch event {
            case .enter, .leave:
                continue
            case .failure(let error) where walk.depth == 0:
                return .failure(error.reworded(as: .list, walk.start))
            case .failure(let error), .unreadable(let error):
                return .failure(error)
            case .cycle:
                return .failure(FileError(.list, walk.file, .tooManySymbolicLinkLevels))
            case .entry where walk.depth == 0:
                // Not a directory: there is nothing to walk.
                return .failure(FileError(.list, walk.start, .notDirectory))
            case .directory where walk.depth == 0:
                continue
            case .entry, .directory:
                if let entry = yielded() { return .success(entry) }
            }
        }
        return nil
    }

    /// The current entry, unless the options leave it out.
    private func yielded() -> WalkEntry? {
        guard walk.depth >= options.minDepth, let kind = walk.kind else { return nil }
        if let kinds = options.kinds, !kinds.contains(kind) { return nil }
        return WalkEntry(file: walk.file, depth: walk.depth, kind: kind)
    }
}
