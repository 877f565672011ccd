import SystemPackage

/// The one walk of a directory tree on any volume, as events: every command that goes through
/// a tree (find, du, tree, ls -R, cp -r, rm -r) and the public `FileWalk` consume it.
///
/// The walk is iterative and goes directory by directory through the volume: each directory is
/// opened from its parent's open directory by name, never by a path that could grow past
/// `PATH_MAX`, and read whole into one buffer before its entries are given. At most
/// `openDirectoryLimit` directories stay open; going back up to one that was closed reopens it
/// through `..` and checks that it is the directory left (its identity), so that a tree moved
/// meanwhile is not followed. A directory that is one of its own ancestors (a bind mount inside
/// itself, or a symlink loop when following) is reported, not entered.
///
/// The entry the last event is about is the walk's *current entry*: its `path`, `name`,
/// `depth`, `kind`, and on demand its `info()`. Nothing is allocated for an entry unless asked.
///
///     var walk = TreeWalk(File(path: "/srv"))
///     while let event = walk.next() {
///         if event == .entry { print(String(decoding: walk.path, as: UTF8.self)) }
///     }
public struct TreeWalk {
    /// What happened at the current entry.
    public enum Event: Sendable, Equatable {
        /// An entry that is not entered: anything but a directory, or a directory the walk does
        /// not go into (`maxDepth`, or a symlink not followed).
        case entry
        /// A directory entered: its entries have been read (`children`), and events for them
        /// follow, then `.leave`.
        case enter
        /// The walk is done with a directory entered (the current entry again).
        case leave
        /// A directory to enter that could not be opened (operation `.list`) or read (`.read`);
        /// nothing of it follows, no `.leave` either.
        case unreadable(FileError)
        /// A directory that is one of the directories being walked above it, whose path is
        /// `ancestor`; it is not entered.
        case cycle(ancestor: [UInt8])
        /// A directory about to be entered, given only with `announcesDirectories`: nothing of
        /// it has been opened yet, and the next event says how entering it went (`.enter`,
        /// `.unreadable` or `.cycle`).
        case directory
        /// The entry could not be examined (operation `.stat`), for instance because it was
        /// removed since its directory was read.
        case failure(FileError)
    }

    /// Which symlinks the walk follows.
    public enum Following: Sendable, Hashable {
        /// None: a symlink is an entry like a file (`find -P`).
        case never
        /// The starting point only, when it is a symlink (`find -H`).
        case start
        /// Every symlink that leads to something (`find -L`); entries describe what it leads to.
        case always
    }

    /// How a walk goes through a tree.
    public struct Options: Sendable, Hashable {
        /// Each directory's entries in byte order (`LC_ALL=C`), else in the volume's own order.
        public var sorted: Bool
        /// The deepest level given: the start is level 0, its entries level 1. Directories at
        /// this level are given as `.entry`, not entered; nil for no limit.
        public var maxDepth: Int?
        /// Which symlinks are followed.
        public var following: Following
        /// Whether names that start with a dot are given (and entered).
        public var includeHidden: Bool
        /// Whether every entry is examined (`info()` then costs nothing more); otherwise only
        /// entries whose kind the listing did not give, and followed symlinks, are.
        public var examinesEveryEntry: Bool
        /// Whether each directory to enter is first given as `.directory`, before it is opened,
        /// so that nothing of it is read until the consumer asks for the next event.
        public var announcesDirectories: Bool

        /// Options for a walk; the defaults give everything, in the volume's order, following
        /// no symlink.
        public init(
            sorted: Bool = false, maxDepth: Int? = nil, following: Following = .never, includeHidden: Bool = true,
            examinesEveryEntry: Bool = false, announcesDirectories: Bool = false
        ) {
            self.announcesDirectories = announcesDirectories
            self.sorted = sorted
            self.maxDepth = maxDepth
            self.following = following
            self.includeHidden = includeHidden
            self.examinesEveryEntry = examinesEveryEntry
        }
    }

    /// How many directories stay open at once; deeper ones close the oldest.
    public static let openDirectoryLimit = 16

    /// A directory entered, with where the walk is in it.
    private struct Frame {
        /// The open directory; nil when it was closed to stay within `openDirectoryLimit`.
        var directory: (any VolumeDirectory)?
        /// The directory's path on the volume.
        let file: File
        let identity: FileIdentity
        let listing: DirectoryListing
        /// The order the entries are given in (indices into `listing`); nil for the listing's.
        var order: [Int]?
        /// What is known of each entry, filled in as entries are examined (empty until one is).
        var infos: [FileInfo?]
        /// The next entry to give (an index into `order`, else into `listing`).
        var next = 0
        /// How many bytes of the walk's path are this directory's own path.
        let pathLength: Int
        /// Where this directory's name starts in that path.
        let nameStart: Int
        let depth: Int
        /// The directory's own index in the listing of the directory above it.
        let index: Int
        /// Whether the directory was reached by following a symlink.
        let followed: Bool
        /// What is known of the directory itself.
        var info: FileInfo?

        /// The number of entries to give.
        var count: Int { order?.count ?? listing.count }

        /// What is known of entry `index`, if it has been examined.
        func info(_ index: Int) -> FileInfo? { infos.isEmpty ? nil : infos[index] }

        /// Remembers what examining entry `index` gave.
        mutating func remember(_ info: FileInfo, at index: Int) {
            if infos.isEmpty { infos = Array(repeating: nil, count: listing.count) }
            infos[index] = info
        }
    }

    /// The starting point, on its volume.
    public let start: File
    /// How the walk goes.
    public let options: Options
    private var stack: [Frame] = []
    /// What the start's examination gave, when the caller had it.
    private var startInfo: FileInfo?
    private var started = false
    /// Whether the last event was `.directory`: the current entry is to be entered next.
    private var descending = false
    /// The identities of the directories on the stack.
    private var ancestors: Set<FileIdentity> = []

    /// The current entry's path: the start as it was spelled, then `/` and the names below it.
    public private(set) var path: [UInt8]
    /// Where the current entry's name starts in `path`.
    private var nameStart = 0
    /// How far below the start the current entry is: 0 for the start itself.
    public private(set) var depth = 0
    /// The current entry's kind: what the listing said, or what examining it gave (for a
    /// followed symlink, what it leads to); nil when neither is known (after `.failure`).
    public private(set) var kind: FileKind?
    /// What examining the current entry gave, when it has been examined.
    private var currentInfo: FileInfo?
    /// Whether the current entry is a symlink the walk followed.
    public private(set) var isFollowedSymlink = false
    /// The listing index of the current entry in the directory above it (for its cached info).
    private var currentIndex = 0
    /// A name buffer reused for the calls that take a name.
    private var scratch: [UInt8] = []

    /// A walk of the tree at `start`, whose path is printed as `spelled` (the operand as the user
    /// wrote it; `start`'s own path by default). `info` is what examining the start gave, when
    /// the caller has it already (it decides whether the start is a directory).
    public init(_ start: File, spelled: [UInt8]? = nil, info: FileInfo? = nil, options: Options = Options()) {
        self.start = start
        self.options = options
        path = spelled ?? start.bytes
        startInfo = info
        path.reserveCapacity(4096)
        scratch.reserveCapacity(256)
    }

    /// The current entry's name: the last component of `path` (for the start, without trailing
    /// slashes).
    public var name: ArraySlice<UInt8> {
        if depth > 0 { return path[nameStart...] }
        var end = path.count
        while end > 1 && path[end - 1] == 0x2F { end -= 1 }
        var begin = end
        while begin > 0 && path[begin - 1] != 0x2F { begin -= 1 }
        return begin == end ? path[0..<end] : path[begin..<end]
    }

    /// The current entry as a `File` on the start's volume: the start joined with the names
    /// below it.
    public var file: File {
        guard depth > 0 else { return start }
        if isEnteredCurrent { return stack[stack.count - 1].file }
        return stack[stack.count - 1].file.appending(entryName: path[nameStart...])
    }

    /// The entries of the directory just entered (at `.enter`), in the volume's order or
    /// sorted as the options say, whatever order `visit(_:)` then sets.
    public var children: DirectoryListing { stack[stack.count - 1].listing }

    /// At `.enter`: gives only these entries of `children`, in this order (an empty list gives
    /// none; `.leave` still follows).
    public mutating func visit(_ order: [Int]) {
        stack[stack.count - 1].order = order
    }

    /// What the volume says of the current entry (for a followed symlink, of what it leads to);
    /// examined once, then remembered.
    /// - Throws: `FileError` with operation `.stat`.
    public mutating func info() throws(FileError) -> FileInfo {
        if let currentInfo { return currentInfo }
        let info = try examine(following: isFollowedSymlink)
        currentInfo = info
        cacheInfo(info)
        return info
    }

    /// What the volume says of child `index` of the directory just entered (at `.enter`): a
    /// symlink is followed when `following` says so, by default when the walk follows symlinks.
    /// With `remembering`, what the walk's own rule gives is kept for when the walk reaches the
    /// entry (a consumer that keeps it itself, or will not visit the entry, saves the memory).
    /// - Throws: `FileError` with operation `.stat`.
    public mutating func childInfo(_ index: Int, following: Bool? = nil, remembering: Bool = true) throws(FileError)
        -> FileInfo
    {
        let walkRule = options.following == .always
        let follows = following ?? walkRule
        let top = stack.count - 1
        if follows == walkRule, let known = stack[top].info(index) { return known }
        let info = try examineChild(index, in: top, following: follows)
        if follows == walkRule && remembering { stack[top].remember(info, at: index) }
        return info
    }

    /// The bytes child `index` of the directory just entered (at `.enter`), a symlink, holds.
    /// - Throws: `FileError` with operation `.readLink`.
    public mutating func childLinkTarget(_ index: Int) throws(FileError) -> [UInt8] {
        let top = stack.count - 1
        scratch.removeAll(keepingCapacity: true)
        stack[top].listing.appendName(index, to: &scratch)
        return try reopened(top).linkTarget(at: scratch)
    }

    /// The bytes the current entry, a symlink, holds.
    /// - Throws: `FileError` with operation `.readLink`.
    public mutating func linkTarget() throws(FileError) -> [UInt8] {
        guard depth > 0 else { return try start.volume.linkTarget(of: start) }
        let parent = try reopened(parentIndex)
        return try parent.linkTarget(at: currentName())
    }

    /// Removes the current entry: a file, symlink or empty directory (at `.leave`, the directory
    /// just left, once its entries are gone).
    /// - Throws: `FileError` with operation `.remove` or `.removeDirectory`.
    public mutating func remove() throws(FileError) {
        let isDirectory = kind == .directory && !isFollowedSymlink
        guard depth > 0 else {
            if isDirectory { try start.volume.removeDirectory(start) } else { try start.volume.removeFile(start) }
            return
        }
        let parent = try reopened(parentIndex)
        try parent.remove(at: currentName(), directory: isDirectory)
    }

    /// The open directory that holds the current entry (below the start), through which it can
    /// be removed together with others of that directory.
    /// - Throws: `FileError` with operation `.list`.
    mutating func directoryHoldingCurrent() throws(FileError) -> any VolumeDirectory {
        try reopened(parentIndex)
    }

    /// Opens the current entry, a directory, to read or reach what is below it; at `.enter`,
    /// the directory the walk itself opened.
    /// - Throws: `FileError` with operation `.list`.
    public mutating func openDirectory() throws(FileError) -> DirectoryHandle {
        if isEnteredCurrent, let directory = stack[stack.count - 1].directory { return DirectoryHandle(directory) }
        guard depth > 0 else { return DirectoryHandle(try start.volume.openDirectory(start, following: true)) }
        let parent = try reopened(parentIndex)
        return DirectoryHandle(try parent.openDirectory(at: currentName(), following: true, path: file))
    }

    /// Whether the current entry is the directory on top of the stack (at `.enter` and `.leave`
    /// the walk stands on the directory it entered or left).
    private var isEnteredCurrent: Bool {
        guard let top = stack.last else { return false }
        return top.depth == depth && top.pathLength == path.count
    }

    /// Where the directory holding the current entry is on the stack (below the top when the
    /// current entry is the directory entered).
    private var parentIndex: Int { stack.count - 1 - (isEnteredCurrent ? 1 : 0) }

    /// The next event; nil when the walk is over.
    public mutating func next() -> Event? {
        if !started {
            started = true
            return first()
        }
        if descending {
            return depth == 0 ? first() : descend(index: currentIndex, in: stack.count - 1)
        }
        while let top = stack.indices.last {
            if stack[top].next == stack[top].count {
                return leave()
            }
            let position = stack[top].next
            stack[top].next += 1
            let index = stack[top].order?[position] ?? position
            if !options.includeHidden && stack[top].listing.isHidden(index) { continue }
            return arrive(at: index, in: top)
        }
        return nil
    }

    /// The event for the start itself.
    private mutating func first() -> Event {
        depth = 0
        nameStart = 0
        currentInfo = startInfo
        isFollowedSymlink = false
        let following = options.following != .never
        if currentInfo == nil {
            do {
                currentInfo = try start.volume.info(of: start, following: following)
            } catch where following && error.errno == .noSuchFileOrDirectory {
                // A dangling symlink is still an entry.
                do { currentInfo = try start.volume.info(of: start, following: false) } catch { return .failure(error) }
            } catch {
                return .failure(error)
            }
        }
        kind = currentInfo!.kind
        guard kind == .directory, options.maxDepth.map({ $0 > 0 }) ?? true else { return .entry }
        if options.announcesDirectories && !descending {
            descending = true
            return .directory
        }
        descending = false
        let directory: any VolumeDirectory
        do {
            // A start the caller found to be a directory (perhaps `link/`) is opened as such;
            // otherwise a symlink is followed only as the options say.
            let follows = options.following != .never || startInfo?.kind == .directory
            // A walk that goes below the start's own entries lets the volume list the tree at once.
            directory =
                options.maxDepth.map({ $0 > 1 }) ?? true
                ? try start.volume.openTree(start, following: follows)
                : try start.volume.openDirectory(start, following: follows)
        } catch {
            return .unreadable(error)
        }
        return enter(directory, start, identity: currentInfo!.identity, index: 0, followed: false)
    }

    /// Moves to entry `index` of the directory at `stack[top]` and gives its event.
    private mutating func arrive(at index: Int, in top: Int) -> Event {
        // The frame is read in place: a copy would retain each of its arrays.
        truncatePath(to: stack[top].pathLength)
        if path.last != 0x2F { path.append(0x2F) }
        nameStart = path.count
        stack[top].listing.appendName(index, to: &path)
        depth = stack[top].depth + 1
        currentIndex = index
        kind = stack[top].listing.kind(index)
        isFollowedSymlink = false
        // FileInfo is large: it is read into `currentInfo` once, without optionals in between.
        if let known = stack[top].info(index) {
            // Following every symlink, what was remembered of one is what it leads to.
            isFollowedSymlink = kind == .symlink && options.following == .always && known.kind != .symlink
            kind = known.kind
            currentInfo = known
        } else if kind == nil || options.examinesEveryEntry {
            do {
                let examined = try examineChild(index, in: top, following: false)
                kind = examined.kind
                currentInfo = examined
            } catch {
                kind = nil
                currentInfo = nil
                return .failure(error)
            }
        } else {
            currentInfo = nil
        }
        if kind == .symlink && options.following == .always {
            do {
                let target = try examineChild(index, in: top, following: true)
                currentInfo = target
                kind = target.kind
                isFollowedSymlink = true
            } catch where error.errno == .noSuchFileOrDirectory || error.errno == .tooManySymbolicLinkLevels {
                // Dangling or looping: an entry that leads nowhere.
            } catch {
                return .failure(error)
            }
        }
        guard kind == .directory, options.maxDepth.map({ depth < $0 }) ?? true else { return .entry }
        if options.announcesDirectories {
            descending = true
            return .directory
        }
        return descend(index: index, in: top)
    }

    /// Opens the current entry, a directory at `index` of the directory at `stack[top]`, and
    /// enters it, or says why not.
    private mutating func descend(index: Int, in top: Int) -> Event {
        descending = false
        let directory: any VolumeDirectory
        let file = stack[top].file.appending(entryName: path[nameStart...])
        do {
            let parent = try reopened(top)
            directory = try parent.openDirectory(at: currentName(), following: isFollowedSymlink, path: file)
        } catch {
            return .unreadable(error)
        }
        let identity: FileIdentity
        if let examined = currentInfo?.identity {
            identity = examined
        } else {
            do { identity = try directory.identity() } catch { return .unreadable(error) }
        }
        return enter(directory, file, identity: identity, index: index, followed: isFollowedSymlink)
    }

    /// Reads the directory just opened for the current entry and pushes it, or says why not.
    private mutating func enter(
        _ directory: any VolumeDirectory, _ file: File, identity: FileIdentity, index: Int, followed: Bool
    ) -> Event {
        if ancestors.contains(identity), let ancestor = stack.last(where: { $0.identity == identity }) {
            return .cycle(ancestor: Array(path[..<ancestor.pathLength]))
        }
        var listing: DirectoryListing
        do {
            listing = try directory.readListing()
        } catch {
            return .unreadable(error)
        }
        if options.sorted { listing.sortByBytes() }
        // Examined all at once, as each would be on arrival: the volume does it in one call.
        let infos = options.examinesEveryEntry && options.following != .always ? directory.infos(of: listing) : []
        if stack.count >= Self.openDirectoryLimit {
            // The oldest open directory is closed; coming back to it reopens it.
            stack[stack.count - Self.openDirectoryLimit].directory = nil
        }
        stack.append(
            Frame(
                directory: directory, file: file, identity: identity, listing: listing, infos: infos, pathLength: path.count,
                nameStart: nameStart, depth: depth, index: index, followed: followed, info: currentInfo))
        ancestors.insert(identity)
        return .enter
    }

    /// Pops the directory on top, making it the current entry again.
    private mutating func leave() -> Event {
        let finished = stack.removeLast()
        ancestors.remove(finished.identity)
        truncatePath(to: finished.pathLength)
        nameStart = finished.nameStart
        depth = finished.depth
        currentIndex = finished.index
        kind = .directory
        currentInfo = finished.info
        isFollowedSymlink = finished.followed
        if let parent = stack.indices.last, stack[parent].directory == nil, let below = finished.directory {
            // Reopened through `..` while the directory just left is still open.
            do throws(FileError) {
                let above = try below.openDirectory(at: [0x2E, 0x2E], following: false, path: stack[parent].file)
                guard try above.identity() == stack[parent].identity else {
                    throw FileError(.list, below.file, .noSuchFileOrDirectory)
                }
                stack[parent].directory = above
            } catch {
                // The tree moved under the walk: stop rather than go on in the wrong place.
                stack.removeAll()
                ancestors.removeAll()
                return .unreadable(error)
            }
        }
        return .leave
    }

    /// Cuts `path` back to its first `length` bytes.
    private mutating func truncatePath(to length: Int) {
        if path.count > length { path.removeSubrange(length..<path.count) }
    }

    /// The open directory of `stack[index]`.
    private func reopened(_ index: Int) throws(FileError) -> any VolumeDirectory {
        guard let directory = stack[index].directory else {
            // Only directories far above the current one are closed, and the walk is never
            // back in one before its child has reopened it.
            throw FileError(.list, file, .badFileDescriptor)
        }
        return directory
    }

    /// The current entry's name as an array (reusing one buffer).
    private mutating func currentName() -> [UInt8] {
        scratch.removeAll(keepingCapacity: true)
        let start = nameStart
        path.withUnsafeBufferPointer { scratch.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start...])) }
        return scratch
    }

    /// Examines the current entry.
    private mutating func examine(following: Bool) throws(FileError) -> FileInfo {
        guard depth > 0 else { return try start.volume.info(of: start, following: following) }
        let top = parentIndex
        return try reopened(top).info(at: currentName(), following: following)
    }

    /// Examines entry `index` of the directory at `stack[top]`.
    private mutating func examineChild(_ index: Int, in top: Int, following: Bool) throws(FileError) -> FileInfo {
        scratch.removeAll(keepingCapacity: true)
        stack[top].listing.appendName(index, to: &scratch)
        return try reopened(top).info(ofEntry: index, named: scratch, in: stack[top].listing, following: following)
    }

    /// Remembers the current entry's info in its directory's frame, and in its own when it is
    /// the directory entered.
    private mutating func cacheInfo(_ info: FileInfo) {
        if isEnteredCurrent { stack[stack.count - 1].info = info }
        guard depth > 0 else { return }
        stack[parentIndex].remember(info, at: currentIndex)
    }
}
