import Synchronization
import SystemPackage

/// A tree of directories, files and symlinks kept in memory: small, exact, and the model every
/// volume that is not the kernel's follows.
///
/// It answers as a POSIX file system does, with the same errno for the same mistake (`ENOENT`,
/// `ENOTDIR`, `EISDIR`, `EEXIST`, `ENOTEMPTY`, `EINVAL` for a directory moved into itself,
/// `ELOOP` past 40 symlinks), so that commands and their messages behave alike on both. It keeps
/// owners, permission bits and times but, like the superuser, is never refused by them; it has
/// no device files, FIFOs or sockets, and no process can make it its current directory.
///
/// `/` is the volume's top and relative paths start there too. Every call takes one lock, so
/// several tasks may share a volume.
///
///     let volume = MemoryVolume()
///     let notes = volume.file("/notes/a.txt")
///     try notes.parent.makeDirectory()
///     try notes.write(text: "hello")
///     try notes.readText()                       // "hello"
public final class MemoryVolume: Volume {
    /// Everything in the volume, behind one lock.
    private let tree: Mutex<MemoryTree>
    /// The device number entries report, different for every volume.
    fileprivate let device: UInt64

    private static let devices = Atomic<UInt64>(0)

    /// An empty volume: only `/`, owned by the calling user.
    public init() {
        device = 0x6D65_6D00_0000_0000 | Self.devices.add(1, ordering: .relaxed).newValue
        tree = Mutex(MemoryTree(now: Sys.now()))
    }

    /// Hard links, symlinks, permission bits, owners and renames in one step.
    public var capabilities: VolumeCapabilities { [.hardLinks, .symlinks, .permissions, .owners, .atomicRename] }

    /// Runs `body` on the tree under the lock, turning an errno into `FileError(operation, file)`;
    /// the streams and directories the volume hands out use it too.
    fileprivate func locked<R: Sendable>(
        _ operation: FileError.Operation, _ file: File, destination: File? = nil,
        _ body: (inout MemoryTree) throws(Errno) -> R
    ) throws(FileError) -> R {
        let result: Result<R, Errno> = tree.withLock { tree in
            do throws(Errno) { return .success(try body(&tree)) } catch { return .failure(error) }
        }
        switch result {
        case .success(let value): return value
        case .failure(let errno): throw FileError(operation, file, errno, destination: destination)
        }
    }

    public func info(of file: File, following: Bool) throws(FileError) -> FileInfo {
        let device = device
        return try locked(.stat, file) { (tree) throws(Errno) in
            try tree.node(at: file.bytes, following: following).info(device: device)
        }
    }

    public func linkTarget(of file: File) throws(FileError) -> [UInt8] {
        try locked(.readLink, file) { (tree) throws(Errno) in try tree.linkTarget(file.bytes) }
    }

    public func openDirectory(_ file: File, following: Bool) throws(FileError) -> any VolumeDirectory {
        let node = try locked(.list, file) { (tree) throws(Errno) in
            try tree.directory(file.bytes, from: tree.root, following: following)
        }
        return MemoryDirectory(volume: self, node: node, file: file)
    }

    public func forEachEntry(
        of file: File, limit: Int?, _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) {
        let entries = try locked(.list, file) { (tree) throws(Errno) in
            let directory = try tree.directory(file.bytes, from: tree.root)
            return limit.map { directory.entries(first: $0) } ?? directory.entries
        }
        for entry in entries { try body(entry) }
    }

    public func open(_ file: File, _ mode: File.OpenMode, permissions: UInt32) throws(FileError) -> OpenFile {
        let node = try locked(mode == .create ? .createFile : .open, file) { (tree) throws(Errno) in
            try tree.open(file.bytes, mode, permissions: permissions)
        }
        return OpenFile(stream: MemoryStream(volume: self, node: node, file: file, appending: mode == .append), file: file)
    }

    public func makeDirectory(_ file: File, permissions: UInt32) throws(FileError) {
        try locked(.makeDirectory, file) { (tree) throws(Errno) in
            try tree.create(file.bytes, MemoryNode(directoryWith: permissions & ~tree.umask, tree: tree))
        }
    }

    public func removeFile(_ file: File) throws(FileError) {
        try locked(.remove, file) { (tree) throws(Errno) in try tree.remove(file.bytes, directory: false) }
    }

    public func removeDirectory(_ file: File) throws(FileError) {
        try locked(.removeDirectory, file) { (tree) throws(Errno) in try tree.remove(file.bytes, directory: true) }
    }

    public func rename(_ source: File, to destination: File, replacing: Bool) throws(FileError) {
        try locked(.rename, source, destination: destination) { (tree) throws(Errno) in
            try tree.rename(source.bytes, to: destination.bytes, replacing: replacing)
        }
    }

    public func makeSymlink(_ file: File, target: [UInt8]) throws(FileError) {
        try locked(.makeLink, file, destination: File(bytes: target)) { (tree) throws(Errno) in
            try tree.create(file.bytes, MemoryNode(symlinkTo: target, tree: tree))
        }
    }

    public func makeHardLink(_ file: File, to existing: File) throws(FileError) {
        try locked(.makeLink, file, destination: existing) { (tree) throws(Errno) in
            let node = try tree.node(at: existing.bytes, following: false)
            if node.kind == .directory { throw .notPermitted }
            try tree.create(file.bytes, node)
            node.linkCount += 1
        }
    }

    public func setAttributes(of file: File, _ change: AttributeChange, following: Bool) throws(FileError) {
        try locked(.setAttributes, file) { (tree) throws(Errno) in
            try tree.node(at: file.bytes, following: following).apply(change, now: Sys.now())
        }
    }

    public func checkAccess(of file: File, write: Bool) throws(FileError) {
        try locked(write ? .open : .stat, file) { (tree) throws(Errno) in
            _ = try tree.node(at: file.bytes, following: true)
        }
    }
}

/// One entry of a memory volume: a directory, a regular file or a symlink. Reached only under
/// the volume's lock.
final class MemoryNode: @unchecked Sendable {
    let kind: FileKind
    let inode: UInt64
    var permissions: UInt32
    var userID: UInt32
    var groupID: UInt32
    var linkCount: UInt32 = 1
    var accessTime: Timestamp
    var modificationTime: Timestamp
    var changeTime: Timestamp
    /// A regular file's bytes.
    var contents: [UInt8] = []
    /// A directory's entries by name, and the directory it is in (itself for the top).
    var children: [[UInt8]: MemoryNode] = [:]
    weak var parent: MemoryNode?
    /// A symlink's target.
    var target: [UInt8]?

    private init(kind: FileKind, permissions: UInt32, tree: MemoryTree) {
        self.kind = kind
        inode = tree.nextInode()
        self.permissions = permissions
        userID = tree.userID
        groupID = tree.groupID
        let now = Sys.now()
        accessTime = now
        modificationTime = now
        changeTime = now
    }

    convenience init(directoryWith permissions: UInt32, tree: MemoryTree) {
        self.init(kind: .directory, permissions: permissions, tree: tree)
        linkCount = 2
    }

    convenience init(fileWith permissions: UInt32, tree: MemoryTree) {
        self.init(kind: .regular, permissions: permissions, tree: tree)
    }

    convenience init(symlinkTo target: [UInt8], tree: MemoryTree) {
        self.init(kind: .symlink, permissions: 0o777, tree: tree)
        self.target = target
    }

    /// The top directory.
    init(top now: Timestamp, userID: UInt32, groupID: UInt32) {
        kind = .directory
        inode = 1
        permissions = 0o755
        self.userID = userID
        self.groupID = groupID
        linkCount = 2
        accessTime = now
        modificationTime = now
        changeTime = now
    }

    var size: UInt64 {
        switch kind {
        case .regular: return UInt64(contents.count)
        case .symlink: return UInt64(target?.count ?? 0)
        default: return 4096
        }
    }

    func info(device: UInt64) -> FileInfo {
        FileInfo(
            kind: kind, permissions: permissions, size: size, identity: FileIdentity(device: device, inode: inode),
            linkCount: linkCount, userID: userID, groupID: groupID, modificationTime: modificationTime,
            accessTime: accessTime, changeTime: changeTime)
    }

    /// The directory's entries, sorted by bytes.
    var entries: [DirectoryEntry] {
        children.map { DirectoryEntry(name: $0.key, kind: $0.value.kind) }.sorted { bytesPrecede($0.name, $1.name) }
    }

    /// Up to `count` entries, in no particular order (enough to tell an empty directory).
    func entries(first count: Int) -> [DirectoryEntry] {
        children.prefix(count).map { DirectoryEntry(name: $0.key, kind: $0.value.kind) }
    }

    func apply(_ change: AttributeChange, now: Timestamp) {
        if let user = change.user { userID = user }
        if let group = change.group { groupID = group }
        if (change.user != nil || change.group != nil) && kind != .directory && kind != .symlink {
            // A change of owner drops set-user-ID, and set-group-ID with group execute, as Linux does.
            permissions &= permissions & 0o010 != 0 ? ~0o6000 : ~0o4000
        }
        if let permissions = change.permissions { self.permissions = permissions & 0o7777 }
        switch change.accessTime {
        case .keep: break
        case .now: accessTime = now
        case .to(let time): accessTime = time
        }
        switch change.modificationTime {
        case .keep: break
        case .now: modificationTime = now
        case .to(let time): modificationTime = time
        }
        changeTime = now
    }
}

/// Where a path leads in a memory tree: the directory holding its last name and that name (nil
/// for the top, or a path ending in `.` or `..`), and the node there if there is one.
struct MemoryLocation {
    var parent: MemoryNode?
    var name: [UInt8]?
    var node: MemoryNode?
}

/// The state of a memory volume; every method runs under the volume's lock.
struct MemoryTree: @unchecked Sendable {
    let root: MemoryNode
    let userID: UInt32
    let groupID: UInt32
    let umask: UInt32
    private var inodes = InodeCounter()

    /// The most symlinks one lookup follows, as the kernel.
    private static let symlinkLimit = 40

    init(now: Timestamp) {
        userID = Sys.userID()
        groupID = Sys.groupID()
        umask = UInt32(Sys.umask())
        root = MemoryNode(top: now, userID: userID, groupID: groupID)
    }

    func nextInode() -> UInt64 { inodes.next() }

    /// Finds `path` from `start` (from the top when it is absolute); intermediate symlinks are
    /// followed, a final one only when `following`.
    func lookup(_ path: [UInt8], following: Bool, from start: MemoryNode? = nil) throws(Errno) -> MemoryLocation {
        if path.isEmpty { throw .noSuchFileOrDirectory }
        var pending = Array(path.split(separator: 0x2F, omittingEmptySubsequences: true).reversed().map(Array.init))
        var current = path.first == 0x2F ? root : (start ?? root)
        var location = MemoryLocation(parent: nil, name: nil, node: current)
        var links = 0
        while let part = pending.popLast() {
            guard current.kind == .directory else { throw .notDirectory }
            if part == [0x2E] {
                location = MemoryLocation(parent: nil, name: nil, node: current)
                continue
            }
            if part == [0x2E, 0x2E] {
                current = current.parent ?? root
                location = MemoryLocation(parent: nil, name: nil, node: current)
                continue
            }
            let child = current.children[part]
            location = MemoryLocation(parent: current, name: part, node: child)
            guard let child else {
                if pending.isEmpty { return location }
                throw .noSuchFileOrDirectory
            }
            if child.kind == .symlink, let target = child.target, following || !pending.isEmpty {
                links += 1
                if links > Self.symlinkLimit { throw .tooManySymbolicLinkLevels }
                if target.isEmpty { throw .noSuchFileOrDirectory }
                if target.first == 0x2F { current = root }
                pending.append(contentsOf: target.split(separator: 0x2F, omittingEmptySubsequences: true).reversed().map(Array.init))
                if pending.isEmpty { location = MemoryLocation(parent: nil, name: nil, node: current) }
                continue
            }
            current = child
        }
        return location
    }

    /// The entry at `path` (from `start`, or the top): `ENOENT` when nothing is there.
    func node(at path: [UInt8], following: Bool, from start: MemoryNode? = nil) throws(Errno) -> MemoryNode {
        guard let node = try lookup(path, following: following, from: start).node else { throw .noSuchFileOrDirectory }
        return node
    }

    /// The bytes the symlink at `path` holds: `EINVAL` when it is not a symlink.
    func linkTarget(_ path: [UInt8], from start: MemoryNode? = nil) throws(Errno) -> [UInt8] {
        guard let target = try node(at: path, following: false, from: start).target else { throw .invalidArgument }
        return target
    }

    /// The directory at `path` (following a final symlink unless told not to): `ENOENT` or
    /// `ENOTDIR` otherwise.
    func directory(_ path: [UInt8], from start: MemoryNode, following: Bool = true) throws(Errno) -> MemoryNode {
        let node = try node(at: path, following: following, from: start)
        guard node.kind == .directory else { throw .notDirectory }
        return node
    }

    /// Puts `node` at `path`, which must be free and in an existing directory.
    func create(_ path: [UInt8], _ node: MemoryNode) throws(Errno) {
        let location = try lookup(path, following: false)
        guard location.node == nil, let parent = location.parent, let name = location.name else { throw .fileExists }
        insert(node, named: name, in: parent)
    }

    private func insert(_ node: MemoryNode, named name: [UInt8], in parent: MemoryNode) {
        parent.children[name] = node
        if node.kind == .directory {
            node.parent = parent
            parent.linkCount += 1
        }
        let now = Sys.now()
        parent.modificationTime = now
        parent.changeTime = now
    }

    private func detach(named name: [UInt8], from parent: MemoryNode) {
        guard let node = parent.children.removeValue(forKey: name) else { return }
        if node.kind == .directory { parent.linkCount -= 1 } else { node.linkCount -= 1 }
        let now = Sys.now()
        parent.modificationTime = now
        parent.changeTime = now
        node.changeTime = now
    }

    /// Opens `path` as `open(2)` would with the flags `mode` stands for.
    func open(_ path: [UInt8], _ mode: File.OpenMode, permissions: UInt32) throws(Errno) -> MemoryNode {
        let location = try lookup(path, following: mode != .create)
        if let node = location.node {
            if mode == .create { throw .fileExists }
            if node.kind == .symlink { throw .tooManySymbolicLinkLevels }
            if node.kind == .directory && mode != .read && mode != .inspect { throw .isDirectory }
            if mode == .truncate {
                node.contents = []
                let now = Sys.now()
                node.modificationTime = now
                node.changeTime = now
            }
            return node
        }
        if mode == .read || mode == .inspect || mode == .modify { throw .noSuchFileOrDirectory }
        guard let parent = location.parent, let name = location.name else { throw .isDirectory }
        let node = MemoryNode(fileWith: permissions & ~umask, tree: self)
        insert(node, named: name, in: parent)
        return node
    }

    /// Removes the entry at `path`: a directory (empty) when `directory`, else anything else.
    func remove(_ path: [UInt8], directory: Bool, from start: MemoryNode? = nil) throws(Errno) {
        let location = try lookup(path, following: false, from: start)
        guard let node = location.node else { throw .noSuchFileOrDirectory }
        guard let parent = location.parent, let name = location.name else {
            throw directory ? (node === root ? .resourceBusy : .invalidArgument) : .isDirectory
        }
        if directory {
            guard node.kind == .directory else { throw .notDirectory }
            guard node.children.isEmpty else { throw .directoryNotEmpty }
        } else if node.kind == .directory {
            throw .isDirectory
        }
        detach(named: name, from: parent)
    }

    /// Renames as `rename(2)` (`renameat2` with `RENAME_NOREPLACE` unless `replacing`) does.
    func rename(_ source: [UInt8], to destination: [UInt8], replacing: Bool) throws(Errno) {
        let from = try lookup(source, following: false)
        guard let node = from.node else { throw .noSuchFileOrDirectory }
        guard let fromParent = from.parent, let fromName = from.name else { throw .resourceBusy }
        let to = try lookup(destination, following: false)
        guard let toParent = to.parent, let toName = to.name else { throw to.node === root ? .resourceBusy : .fileExists }
        if let existing = to.node {
            if existing === node { return }
            if !replacing { throw .fileExists }
            if node.kind == .directory {
                guard existing.kind == .directory else { throw .notDirectory }
                guard existing.children.isEmpty else { throw .directoryNotEmpty }
            } else if existing.kind == .directory {
                throw .isDirectory
            }
        }
        if node.kind == .directory {
            var ancestor: MemoryNode? = toParent
            while let current = ancestor {
                if current === node { throw .invalidArgument }
                ancestor = current === root ? nil : current.parent
            }
        }
        if to.node != nil { detach(named: toName, from: toParent) }
        detach(named: fromName, from: fromParent)
        if node.kind != .directory { node.linkCount += 1 }
        insert(node, named: toName, in: toParent)
    }
}

/// Hands out inode numbers (the top is 1).
private final class InodeCounter: @unchecked Sendable {
    private var last: UInt64 = 1
    func next() -> UInt64 {
        last += 1
        return last
    }
}

/// An open directory of a memory volume.
final class MemoryDirectory: VolumeDirectory {
    let file: File
    private let volume: MemoryVolume
    private let node: MemoryNode

    init(volume: MemoryVolume, node: MemoryNode, file: File) {
        self.volume = volume
        self.node = node
        self.file = file
    }

    func openDirectory(at relative: [UInt8], following: Bool, path: File) throws(FileError) -> any VolumeDirectory {
        let node = node
        let found = try volume.locked(.list, path) { (tree) throws(Errno) in
            try tree.directory(relative.isEmpty ? [0x2E] : relative, from: node, following: following)
        }
        return MemoryDirectory(volume: volume, node: found, file: path)
    }

    func remove(at name: [UInt8], directory: Bool) throws(FileError) {
        let node = node
        try volume.locked(directory ? .removeDirectory : .remove, path(name)) { (tree) throws(Errno) in
            try tree.remove(name, directory: directory, from: node)
        }
    }

    func forEachEntry(
        at relative: [UInt8], identity: ((FileIdentity) -> Void)?, _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) {
        let node = node
        let (entries, inode) = try volume.locked(.list, path(relative)) { (tree) throws(Errno) in
            let directory = try tree.directory(relative.isEmpty ? [0x2E] : relative, from: node)
            return (directory.entries, directory.inode)
        }
        identity?(FileIdentity(device: volume.device, inode: inode))
        for entry in entries { try body(entry) }
    }

    func info(at relative: [UInt8], following: Bool) throws(FileError) -> FileInfo {
        let node = node
        let device = volume.device
        return try volume.locked(.stat, path(relative)) { (tree) throws(Errno) in
            try tree.node(at: relative.isEmpty ? [0x2E] : relative, following: following, from: node)
                .info(device: device)
        }
    }

    func identity() throws(FileError) -> FileIdentity {
        FileIdentity(device: volume.device, inode: node.inode)
    }

    func linkTarget(at relative: [UInt8]) throws(FileError) -> [UInt8] {
        let node = node
        return try volume.locked(.readLink, path(relative)) { (tree) throws(Errno) in
            try tree.linkTarget(relative, from: node)
        }
    }
}

/// An open file of a memory volume: reads and writes go straight to its node, as they would to
/// an inode, so a file removed while open can still be read through the stream.
final class MemoryStream: FileStream, @unchecked Sendable {
    private let volume: MemoryVolume
    private let node: MemoryNode
    private let file: File
    private let appending: Bool
    /// Touched only by the one task that uses the stream.
    private var offset = 0

    init(volume: MemoryVolume, node: MemoryNode, file: File, appending: Bool) {
        self.volume = volume
        self.node = node
        self.file = file
        self.appending = appending
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
        let count = try read(into: buffer, at: UInt64(offset))
        offset += count
        return count
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(FileError) -> Int {
        let node = node
        return try volume.locked(.read, file) { (_) throws(Errno) in
            if node.kind == .directory { throw .isDirectory }
            let start = Int(clamping: offset)
            guard start < node.contents.count else { return 0 }
            let count = Swift.min(buffer.count, node.contents.count - start)
            node.contents.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + start, byteCount: count)
            }
            return count
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        let node = node
        let start = offset
        let appending = appending
        offset = try volume.locked(.write, file) { (_) throws(Errno) in
            if node.kind == .directory { throw .badFileDescriptor }
            let at = appending ? node.contents.count : start
            if node.contents.count < at { node.contents += [UInt8](repeating: 0, count: at - node.contents.count) }
            let overlap = Swift.min(bytes.count, node.contents.count - at)
            node.contents.replaceSubrange(at..<(at + overlap), with: bytes)
            let now = Sys.now()
            node.modificationTime = now
            node.changeTime = now
            return at + bytes.count
        }
    }

    func info() throws(FileError) -> FileInfo {
        let node = node
        let device = volume.device
        return try volume.locked(.stat, file) { (_) throws(Errno) in node.info(device: device) }
    }

    func setAttributes(_ change: AttributeChange) throws(FileError) {
        let node = node
        try volume.locked(.setAttributes, file) { (_) throws(Errno) in node.apply(change, now: Sys.now()) }
    }

    func truncate(to size: UInt64) throws(FileError) {
        let node = node
        try volume.locked(.write, file) { (_) throws(Errno) in
            if node.kind != .regular { throw .invalidArgument }
            guard let count = Int(exactly: size) else { throw .fileTooLarge }
            if count < node.contents.count {
                node.contents.removeSubrange(count...)
            } else {
                node.contents += [UInt8](repeating: 0, count: count - node.contents.count)
            }
            let now = Sys.now()
            node.modificationTime = now
            node.changeTime = now
        }
    }

    func close() {}
}
