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
public func bytesPrecede(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
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

/// A lazy, depth-first walk of a directory tree; created by `File.walk(_:)`.
///
/// Memory grows with the depth of the current path (one directory listing per level), never
/// with the size of the tree. An error in one subdirectory is yielded as `.failure` and the walk
/// goes on with the rest.
public struct FileWalk: Sequence, IteratorProtocol {
    private struct Frame {
        let directory: File
        let depth: Int
        let entries: [DirectoryEntry]
        var index: Int
        let identity: FileIdentity?
    }

    private let options: WalkOptions
    private var stack: [Frame] = []
    private var pending: (file: File, depth: Int)?

    init(root: File, options: WalkOptions) {
        self.options = options
        if options.maxDepth.map({ $0 > 0 }) ?? true { pending = (root, 0) }
    }

    /// The next entry, or an error met on the way; nil when the walk is over.
    public mutating func next() -> Result<WalkEntry, FileError>? {
        while true {
            if let (directory, depth) = pending {
                pending = nil
                if let error = descend(into: directory, depth: depth) { return .failure(error) }
            }
            guard var frame = stack.last else { return nil }
            guard frame.index < frame.entries.count else {
                stack.removeLast()
                continue
            }
            let entry = frame.entries[frame.index]
            frame.index += 1
            stack[stack.count - 1] = frame
            if !options.includeHidden && entry.isHidden { continue }
            let file = frame.directory.appending(entryName: entry.name)
            let depth = frame.depth + 1
            var kind: FileKind
            if let known = entry.kind {
                kind = known
            } else {
                do { kind = try file.info().kind } catch { return .failure(error) }
            }
            if kind == .symlink && options.followSymlinks {
                do {
                    kind = try file.info(followSymlinks: true).kind
                } catch where error.errno == .noSuchFileOrDirectory || error.errno == .tooManySymbolicLinkLevels {
                    // A dangling or self-referring link is still an entry; it just leads nowhere.
                } catch {
                    return .failure(error)
                }
            }
            if kind == .directory && (options.maxDepth.map { depth < $0 } ?? true) {
                pending = (file, depth)
            }
            if depth < options.minDepth { continue }
            if let kinds = options.kinds, !kinds.contains(kind) { continue }
            return .success(WalkEntry(file: file, depth: depth, kind: kind))
        }
    }

    /// Reads `directory` and pushes it; returns the error instead when it cannot be read or would loop.
    private mutating func descend(into directory: File, depth: Int) -> FileError? {
        var identity: FileIdentity?
        if options.followSymlinks {
            do { identity = try directory.info(followSymlinks: true).identity } catch { return error }
            if stack.contains(where: { $0.identity == identity }) {
                return FileError(.list, directory, .tooManySymbolicLinkLevels)
            }
        }
        var entries: [DirectoryEntry] = []
        do {
            try directory.forEachEntry { entries.append($0) }
        } catch {
            return error
        }
        if options.sorted { entries.sort { bytesPrecede($0.name, $1.name) } }
        stack.append(Frame(directory: directory, depth: depth, entries: entries, index: 0, identity: identity))
        return nil
    }
}
