import CPathModel
import Glibc
import SystemPackage

/// How a `Copier` copies.
public struct CopyOptions: Sendable, Hashable {
    /// What to do when a destination file already exists.
    public enum Overwrite: Sendable, Hashable {
        /// Replace it (atomically, through a temporary name).
        case replace
        /// Leave it and go on (`cp -n`).
        case skip
        /// Report `EEXIST` for it.
        case fail
        /// Replace it only when the source is newer (`cp -u`).
        case ifNewer
    }

    /// What a copy makes of a source that is a FIFO, a device or a socket.
    public enum SpecialFiles: Sendable, Hashable {
        /// Make the same kind of file at the destination (`cp -R`, `mv`).
        case recreate
        /// Read it to its end into a regular file (`cp` without `-R`); a socket cannot be read (`ENXIO`).
        case copyContents
    }

    /// What a copy of file data does with a destination that exists and is not a directory.
    public enum Destinations: Sendable, Hashable {
        /// Write into the file it is or leads to (`cp`): a regular file is replaced through a
        /// temporary name beside it, a device or FIFO is opened and written in place, and a
        /// symlink that leads nowhere is refused (`TransferConflict.Kind.danglingDestinationSymlink`).
        case writeThrough
        /// Replace the entry itself with a new file, whatever it is or leads to (`mv`).
        case replace
    }

    /// The attributes of a source that its copy keeps (`cp --preserve=LIST`).
    public struct Preserved: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        /// An attribute set from its bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The permission bits, set-id and sticky bits included.
        public static let mode = Preserved(rawValue: 1 << 0)
        /// Owner and group, when the user may give files away.
        public static let ownership = Preserved(rawValue: 1 << 1)
        /// Access and modification times.
        public static let timestamps = Preserved(rawValue: 1 << 2)
        /// Hard links among the files copied: a file met again under another name becomes another
        /// hard link to its first copy.
        public static let links = Preserved(rawValue: 1 << 3)
        /// Mode, ownership and times (`cp -p`, `mv`).
        public static let standard: Preserved = [.mode, .ownership, .timestamps]
        /// Everything a copier can keep (`cp -a`).
        public static let all: Preserved = [.mode, .ownership, .timestamps, .links]
    }

    /// Whether a copy's data shares the source's blocks (a reflink, where the file system has
    /// copy-on-write) rather than being written anew.
    public enum Reflink: Sendable, Hashable {
        /// As the kernel's copy_file_range(2) chooses: some file systems share blocks by it.
        case kernelChooses
        /// Never: every byte is read and written (`cp --reflink=never`).
        case never
        /// Shared where the file system can, else copied (`cp --reflink=auto`).
        case auto
        /// Shared, or the file is not copied: `FileError` `.clone` (`cp --reflink=always`).
        case always
    }

    /// Which runs of zeros a copy leaves as holes (unwritten, taking no room on disk).
    public enum Sparse: Sendable, Hashable {
        /// None: every byte is written (`cp --sparse=never`, and cp without the option).
        case never
        /// The source's own holes, found by `lseek(2)`'s `SEEK_HOLE` (`cp --sparse=auto`).
        case auto
        /// Those, and every block of zeros in its data as well (`cp --sparse=always`).
        case always
    }

    /// Copy directories and everything in them; without it, a directory is an error (`EISDIR`).
    public var recursive: Bool
    /// The policy for existing destination files.
    public var overwrite: Overwrite
    /// The attributes copies keep.
    public var preserve: Preserved
    /// Whether a mode or times `preserve` asks for that the destination's volume cannot keep
    /// (object storage keeps neither) fail the file once its data is copied, `FileError`
    /// `.setAttributes` with `ENOTSUP`, as GNU `cp -p` reports them; without it they are left
    /// silently, as `mv` leaves them.
    public var requiresPreservation: Bool
    /// Give new files and directories the default mode, 0666 or 0777 less the umask, rather
    /// than the source's (`cp --no-preserve=mode`).
    public var defaultModes: Bool
    /// Follow a symlink given as the source itself (cp without `-R` does).
    public var followSourceSymlink: Bool
    /// Follow every symlink inside a copied directory as well, copying what it leads to
    /// (`cp -L`); otherwise links found inside are copied as links.
    public var followEverySymlink: Bool
    /// Make links to the sources instead of copying their data: each file that is not a
    /// directory becomes a hard link to it (`cp -l`), or a symlink holding the path
    /// `Copier.symlinkTarget` gives (`cp -s`); directories are still made.
    public var linksInstead: File.LinkKind?
    /// Stay on the file system of the source: a directory on another one is made, empty (`cp -x`).
    public var oneFileSystem: Bool
    /// Whether file data is shared with the source rather than copied.
    public var reflink: Reflink
    /// Which runs of zeros new regular files leave as holes.
    public var sparse: Sparse
    /// fsync each file before it is renamed into place (for a move across file systems).
    public var sync: Bool
    /// What a FIFO, device or socket source becomes.
    public var specialFiles: SpecialFiles
    /// What an existing destination that is not a directory becomes.
    public var destinations: Destinations

    /// Options for a copy.
    public init(
        recursive: Bool = true, overwrite: Overwrite = .replace, preserve: Preserved = [],
        requiresPreservation: Bool = false, defaultModes: Bool = false, followSourceSymlink: Bool = false,
        followEverySymlink: Bool = false,
        linksInstead: File.LinkKind? = nil, oneFileSystem: Bool = false, reflink: Reflink = .kernelChooses,
        sparse: Sparse = .never, sync: Bool = false,
        specialFiles: SpecialFiles = .recreate, destinations: Destinations = .writeThrough
    ) {
        self.recursive = recursive
        self.overwrite = overwrite
        self.preserve = preserve
        self.requiresPreservation = requiresPreservation
        self.defaultModes = defaultModes
        self.followSourceSymlink = followSourceSymlink
        self.followEverySymlink = followEverySymlink
        self.linksInstead = linksInstead
        self.oneFileSystem = oneFileSystem
        self.reflink = reflink
        self.sparse = sparse
        self.sync = sync
        self.specialFiles = specialFiles
        self.destinations = destinations
    }
}

/// Copies files and trees, reporting each step to its closures; the engine behind
/// `File.copy(to:force:)` and a shell's `cp`.
///
/// Regular files are written to a temporary name in the destination directory and renamed into
/// place: a destination never holds half a file, and an existing one keeps its contents when the
/// copy fails. A destination that is a device or FIFO is written in place instead. Data moves by
/// `copy_file_range(2)`, falling back to `read`/`write`.
public struct Copier {
    /// The options in force.
    public var options: CopyOptions
    /// Asked before an existing destination file is replaced; false skips it (`cp -i`).
    public var confirmReplace: (_ source: File, _ destination: File) -> Bool = { _, _ in true }
    /// Told of each entry copied (`cp -v`); a directory only when it was created, not when an
    /// existing one is merged into.
    public var copied: (_ source: File, _ destination: File) -> Void = { _, _ in }
    /// Told of each failed operation and each conflict; the copy goes on with the other entries.
    public var failed: (TransferError) -> Void = { _ in }
    /// Polled between files and chunks; true stops the copy (the partial file is removed).
    public var isCancelled: () -> Bool = { false }
    /// Told of the bytes each chunk of file data moved, for progress reports.
    public var transferred: (_ bytes: UInt64) -> Void = { _ in }
    /// With `linksInstead: .symbolic`, the path the symlink to `source` made at `destination`
    /// holds; nil when none may be made there (the closure reported why).
    public var symlinkTarget: (_ source: File, _ destination: File) -> File? = { source, _ in source }
    /// Called before an existing destination that is not a directory is replaced, to keep it
    /// under another name (`cp --backup`): true once it is kept (the destination is then taken
    /// as gone), false when it could not be (the closure reported why; that entry is not copied).
    public var backUp: ((_ destination: File) -> Bool)?
    /// With `preserve` holding `.links`: the first copy of each file with more than one link,
    /// by the source's identity. Kept across `copy(_:to:)` calls, so that operands that are
    /// links to one file are copied as links to one file too.
    public var linkedCopies: [FileIdentity: File] = [:]
    /// Make nothing (`cp --dry-run`): every decision is taken on what is there, and each file,
    /// link and directory the copy would make is told to `copied` (after `backUp`, which is then
    /// to keep nothing either) without being made; directories made so are taken as empty.
    public var rehearsing = false
    /// How a directory copied into itself or below itself is met: refused before anything is
    /// copied (false), or (true, as `cp` does) copied until the walk meets the first directory
    /// this copy made, where that operand's copy stops with the `.intoItself` conflict and the
    /// directories made so far get their modes. Only on a volume whose identities follow a
    /// directory whatever its path (one with hard links); a rehearsal is always refused.
    public var copiesIntoItself = false

    /// Whether a file's copy was stopped by `isCancelled`: the copy of a tree ends there.
    private var stopped = false

    /// While a tree is copied between volumes that move several files at once: the workers
    /// that copy file data, behind which every report waits its turn.
    private var workers: CopyWorkers?

    /// The process umask, read once: new files and directories get the source's mode less it.
    private let umask = UInt32(Sys.umask())

    /// A copier with `options` and no-op reporting closures.
    public init(options: CopyOptions) { self.options = options }

    /// What a caller found at a destination just before a copy, looked at with symlinks
    /// followed, so that the copy does not ask again (each question is a request on object
    /// storage).
    public enum Found {
        /// Nothing is there (`ENOENT`).
        case nothing
        /// This entry is there.
        case entry(FileInfo)
    }

    /// Copies `source` to exactly `destination`. Returns whether everything was copied.
    @discardableResult
    public mutating func copy(_ source: File, to destination: File) -> Bool {
        let info: FileInfo
        do {
            info = try source.info(followSymlinks: options.followSourceSymlink)
        } catch {
            failed(.file(error))
            return false
        }
        return copy(source, describedAs: info, to: destination)
    }

    /// Copies `source`, which `info` describes (looked at as `options.followSourceSymlink`
    /// says), to exactly `destination`, where the caller found `found` just before (nil: the
    /// copy looks). Returns whether everything was copied.
    @discardableResult
    public mutating func copy(
        _ source: File, describedAs info: FileInfo, to destination: File, found: Found? = nil
    ) -> Bool {
        let existing: FileInfo?
        switch found {
        case .nothing: existing = nil
        case .entry(let entry): existing = entry
        case nil:
            do {
                existing = try destination.info(followSymlinks: true)
            } catch where error.errno == .noSuchFileOrDirectory {
                existing = nil
            } catch {
                failed(.file(error))
                return false
            }
        }
        if info.kind == .directory && !options.recursive {
            failed(.file(FileError(.copy, source, .isDirectory, destination: destination)))
            return false
        }
        if let conflict = TransferConflict.between(source, info, destination, existing: existing) {
            failed(.conflict(conflict))
            return false
        }
        if info.kind == .directory {
            do {
                if let conflict = try TransferConflict.intoItself(source, destination) {
                    guard copiesIntoItself, !rehearsing, destination.volume.capabilities.contains(.hardLinks) else {
                        failed(.conflict(conflict))
                        return false
                    }
                    return copyTree(source, info: info, to: destination, existing: existing, meeting: conflict)
                }
            } catch {
                failed(.file(error))
                return false
            }
            return copyTree(source, info: info, to: destination, existing: existing)
        }
        return copyEntry(source, info: info, to: destination, existing: existing)
    }

    /// A directory of the source being copied, and its copy.
    private struct Level {
        /// The source directory and its copy, anchored every `File.anchorDistance` bytes, so
        /// that the descriptors held do not grow with the depth.
        let source: File
        let target: File
        /// The two opened themselves, so that their entries are reached by bare name; only the
        /// directory whose entries are being copied keeps them open.
        var near: (source: File, target: File)?
        /// Whether this copy made the target (then nothing is looked up in it: it was empty).
        let madeHere: Bool
        /// The source directory's metadata, given to the copy once its contents are copied.
        let info: FileInfo
        /// How long the walk's path of the source directory is, to find it as an ancestor.
        let pathLength: Int
    }

    /// Copies a directory tree as `walkTree` does; between volumes that move several files at
    /// once (`Volume.parallelFiles`), the data of files on workers, while the walk, its
    /// questions and its reports stay on this thread and in the walk's order: a report is
    /// held back until those before it have been told, and a question (`confirmReplace`,
    /// `backUp`, `symlinkTarget`) waits for every copy in flight.
    private mutating func copyTree(
        _ source: File, info: FileInfo, to destination: File, existing: FileInfo?,
        meeting intoItself: TransferConflict? = nil
    ) -> Bool {
        let limits = ParallelFiles.between(source.volume.parallelFiles, destination.volume.parallelFiles)
        guard limits.count > 1, !rehearsing else {
            return walkTree(source, info: info, to: destination, existing: existing, meeting: intoItself)
        }
        let workers = CopyWorkers(limits, copied: copied, failed: failed)
        let told = (copied, failed, confirmReplace, backUp, symlinkTarget, transferred, isCancelled)
        copied = { source, destination in workers.post { workers.copied(source, destination) } }
        failed = { error in workers.post { workers.failed(error) } }
        confirmReplace = { [confirmReplace] source, destination in
            workers.finish()
            return confirmReplace(source, destination)
        }
        backUp = backUp.map { backUp in
            { destination in
                workers.finish()
                return backUp(destination)
            }
        }
        symlinkTarget = { [symlinkTarget] source, destination in
            workers.finish()
            return symlinkTarget(source, destination)
        }
        transferred = { [transferred] bytes in workers.locked { transferred(bytes) } }
        isCancelled = { [isCancelled] in workers.locked(isCancelled) }
        self.workers = workers
        let everything = walkTree(source, info: info, to: destination, existing: existing, meeting: intoItself)
        workers.finish()
        (copied, failed, confirmReplace, backUp, symlinkTarget, transferred, isCancelled) = told
        self.workers = nil
        return everything && workers.everything
    }

    /// Copies a directory tree as `TreeWalk` goes through it (no recursion, whatever its depth).
    /// Each directory gets its mode and times once its contents are copied. A directory met
    /// again below itself (a bind mount inside itself) is not copied a second time. With
    /// `intoItself` (the destination lies inside the source), the walk stops where it meets the
    /// first directory it made, and reports that conflict.
    private mutating func walkTree(
        _ source: File, info: FileInfo, to destination: File, existing: FileInfo?,
        meeting intoItself: TransferConflict? = nil
    ) -> Bool {
        var everything = true
        // The first directory this copy made, when the copy goes into itself.
        var firstMade: FileIdentity?
        let following: TreeWalk.Following =
            options.followEverySymlink ? .always : options.followSourceSymlink ? .start : .never
        var walk = TreeWalk(
            source, info: info, options: TreeWalk.Options(sorted: true, following: following, examinesEveryEntry: true))
        // The directories entered, from the top down; nil for one whose copy could not be made.
        var levels: [Level?] = []
        while let event = walk.next() {
            if case .leave = event {
                guard let level = levels.removeLast() else { continue }
                // A directory's mode and times come after its files, copies on workers included.
                if level.target.volume.capabilities.contains(.permissions) { workers?.finish() }
                if !finish(level.target, like: level.info) { everything = false }
                continue
            }
            if case .directory = event { continue }
            if case .failure(let error) = event {
                failed(.file(error))
                everything = false
                continue
            }
            if isCancelled() { return false }
            if walk.depth > 0 && levels.last! == nil {
                // Below a directory that was not copied: nothing to do (the walk was told to skip it).
                continue
            }
            // A directory to copy is reached from its parent's sparse anchors, which the copy
            // keeps while below it; anything else by bare name from the parent's near ones.
            let isDirectory: Bool
            switch event {
            case .enter, .unreadable: isDirectory = true
            default: isDirectory = false
            }
            let parent = walk.depth == 0 ? nil : isDirectory ? levels[levels.count - 1]! : nearLevel(&levels)
            let entrySource =
                parent.map { ($0.near?.source ?? $0.source).appending(entryName: walk.name) } ?? source
            let target = parent.map { ($0.near?.target ?? $0.target).appending(entryName: walk.name) } ?? destination
            let entryInfo: FileInfo
            let targetInfo: FileInfo?
            do {
                entryInfo = try walk.info()
                if walk.depth == 0 {
                    targetInfo = existing
                } else if parent!.madeHere {
                    targetInfo = nil
                } else {
                    do { targetInfo = try target.info() } catch where error.errno == .noSuchFileOrDirectory {
                        targetInfo = nil
                    }
                }
            } catch {
                failed(.file(error))
                everything = false
                if case .enter = event {
                    walk.visit([])
                    levels.append(nil)
                }
                continue
            }
            switch event {
            case .entry where options.followEverySymlink && entryInfo.kind == .symlink:
                // A symlink the walk could not follow: what it leads to cannot be copied.
                do {
                    _ = try entrySource.info(followSymlinks: true)
                } catch {
                    failed(.file(error))
                }
                everything = false
            case .entry:
                if !copyEntry(entrySource, info: entryInfo, to: target, existing: targetInfo, isNew: parent!.madeHere) {
                    if stopped { return false }
                    everything = false
                }
            case .cycle(let ancestor):
                let ancestorLevel = levels.last { $0?.pathLength == ancestor.count } ?? nil
                let ancestorCopy = ancestorLevel?.target ?? destination
                failed(
                    .conflict(
                        TransferConflict(.directoryCycle(ancestorCopy: ancestorCopy), source: entrySource, destination: target)))
                everything = false
            case .enter where intoItself != nil && entryInfo.identity == firstMade:
                // The copy has reached itself: nothing more of this operand is copied.
                failed(.conflict(intoItself!))
                workers?.finish()
                for level in levels.reversed() {
                    if let level { _ = finish(level.target, like: level.info) }
                }
                return false
            case .enter, .unreadable:
                let level = makeCopy(
                    of: entrySource, info: entryInfo, at: target, existing: targetInfo, pathLength: walk.path.count)
                if case .unreadable(let error) = event {
                    failed(.file(error))
                    everything = false
                    if let level, !finish(level.target, like: level.info) { everything = false }
                    continue
                }
                if intoItself != nil, firstMade == nil, let level, level.madeHere {
                    do { firstMade = try level.target.info().identity } catch { failed(.file(error)) }
                }
                if level == nil {
                    everything = false
                    walk.visit([])
                } else if options.oneFileSystem && entryInfo.device != info.device {
                    walk.visit([])  // Another file system: its mount point is made, empty.
                } else {
                    walk.visit(Self.filesFirst(walk.children))
                }
                if !levels.isEmpty, levels[levels.count - 1] != nil { levels[levels.count - 1]!.near = nil }
                levels.append(level)
            case .leave, .directory, .failure:
                break
            }
        }
        if let intoItself {
            // Its listing was read before the copy was made in it (`cp -r s s`): everything
            // else was copied.
            failed(.conflict(intoItself))
            return false
        }
        return everything
    }

    /// The entries of a directory, those that are not directories first (in byte order, as
    /// listed), so that its own files are copied while its anchors are open, before the walk
    /// goes below it.
    private static func filesFirst(_ children: DirectoryListing) -> [Int] {
        let indices = 0..<children.count
        return indices.filter { children.kind($0) != .directory } + indices.filter { children.kind($0) == .directory }
    }

    /// Makes the copy of the source directory `directory` at `target` (merging into an existing
    /// directory there); nil, after a report, when it cannot be made.
    private mutating func makeCopy(
        of directory: File, info: FileInfo, at target: File, existing: FileInfo?, pathLength: Int
    ) -> Level? {
        if let existing, existing.kind != .directory {
            failed(.conflict(TransferConflict(.directoryOverNonDirectory, source: directory, destination: target)))
            return nil
        }
        let madeHere = existing == nil
        if madeHere && !rehearsing {
            do {
                try target.makeDirectory(mode: info.permissions | 0o700)
            } catch {
                failed(.file(error))
                return nil
            }
        }
        // Only a directory made here was copied; one that existed is merged into.
        if madeHere { copied(directory, target) }
        return Level(
            source: directory.anchored(), target: target.anchored(), madeHere: madeHere, info: info,
            pathLength: pathLength)
    }

    /// The level of the directory whose entries are being copied, its near anchors opened.
    private func nearLevel(_ levels: inout [Level?]) -> Level {
        var level = levels[levels.count - 1]!
        if level.near == nil {
            level.near = (level.source.anchored(beyond: 0), level.target.anchored(beyond: 0))
            levels[levels.count - 1] = level
        }
        return level
    }

    /// Gives a copied directory its mode (and with `preserve`, its times) from `sourceInfo`.
    private func finish(_ target: File, like sourceInfo: FileInfo) -> Bool {
        if rehearsing { return true }
        do {
            // A volume without permission bits (object storage) has no attributes to give.
            guard target.volume.capabilities.contains(.permissions) else {
                try requireKept(at: target)
                return true
            }
            if options.preserve.contains(.ownership) { try setOwner(target, like: sourceInfo) }
            // Without `preserve` a directory keeps its sticky bit but not its set-id bits, as with GNU cp.
            let mode =
                options.preserve.contains(.mode)
                ? sourceInfo.permissions : (options.defaultModes ? 0o777 : sourceInfo.permissions & 0o1777) & ~umask
            try target.setPermissions(mode)
            if options.preserve.contains(.timestamps) {
                try target.setTimes(access: sourceInfo.accessTime, modification: sourceInfo.modificationTime)
            }
            return true
        } catch {
            failed(.file(error))
            return false
        }
    }

    /// Gives `target` (never followed) the source's owner and group, as `cp -p` does: a user who
    /// may not give files away keeps them. Changing the owner clears the set-user-ID and
    /// set-group-ID bits, so it comes before the mode.
    private func setOwner(_ target: File, like sourceInfo: FileInfo) throws(FileError) {
        do {
            try target.volume.setAttributes(
                of: target, .owner(user: sourceInfo.userID, group: sourceInfo.groupID), following: false)
        } catch where error.errno == .notPermitted || error.errno == .invalidArgument {
            // Not the user's to give away: it stays theirs.
        }
    }

    /// Copies one non-directory entry, honouring the overwrite policy. With `isNew`, the
    /// destination is known not to exist, and a file that appears there meanwhile is not replaced.
    private mutating func copyEntry(
        _ source: File, info: FileInfo, to destination: File, existing: FileInfo?, isNew: Bool = false
    ) -> Bool {
        let keepsLink = options.preserve.contains(.links) && info.linkCount > 1
        if keepsLink, let first = linkedCopies[info.identity] {
            return linkEntry(.hard, to: first, source: source, info: info, at: destination, existing: existing)
        }
        if let kind = options.linksInstead {
            return linkEntry(kind, to: kind == .hard ? source : nil, source: source, info: info, at: destination, existing: existing)
        }
        let copiesData =
            info.kind == .regular || (options.specialFiles == .copyContents && info.kind != .symlink)
        var target = destination
        var existing = existing
        if copiesData && options.destinations == .writeThrough && !isNew && backUp == nil {
            do { (target, existing) = try dataTarget(source, destination, existing: existing) } catch {
                failed(error)
                return false
            }
        }
        if let found = existing {
            if found.kind == .directory {
                failed(.conflict(TransferConflict(.nonDirectoryOverDirectory, source: source, destination: destination)))
                return false
            }
            switch options.overwrite {
            case .skip: return true
            case .fail:
                failed(.file(FileError(.copy, source, .fileExists, destination: destination)))
                return false
            case .ifNewer where found.modificationTime >= info.modificationTime:
                return true
            case .replace, .ifNewer:
                guard confirmReplace(source, destination) else { return true }
            }
            if let backUp {
                guard backUp(destination) else { return false }
                existing = nil
            }
        }
        if copiesData, !rehearsing, !keepsLink, info.kind == .regular, let workers,
            info.size <= workers.limits.largestFile
        {
            // Copied on a worker; its report is told in its turn.
            let copier = self
            workers.start(
                { [target, existing] () throws(FileError) in
                    try copier.copyData(
                        source, info: info, to: target, named: destination, existing: existing, isNew: isNew)
                }, size: info.size, from: source, to: destination)
            return true
        }
        do {
            if rehearsing {
                // Nothing is made: the entry counts as copied.
            } else if copiesData {
                try copyData(
                    source, info: info, to: target, named: destination, existing: existing, isNew: isNew)
            } else if info.kind == .symlink {
                try copySymlink(source, info: info, to: destination, isNew: isNew)
            } else {
                try copySpecial(source, info: info, to: destination, isNew: isNew)
            }
        } catch {
            if error.errno == .canceled { stopped = true }
            failed(.file(error))
            return false
        }
        if keepsLink { linkedCopies[info.identity] = destination.unanchored }
        copied(source, destination)
        return true
    }

    /// Makes `destination` a link of `kind` to `target` (for nil, what `symlinkTarget` gives)
    /// instead of a copy of `source`, replacing what is there as the overwrite policy says (with
    /// `.fail`, link(2) or symlink(2) tells `EEXIST`). As GNU cp does, the link is reported to
    /// `copied` before it is made.
    private mutating func linkEntry(
        _ kind: File.LinkKind, to target: File?, source: File, info: FileInfo, at destination: File,
        existing: FileInfo?
    ) -> Bool {
        // Whatever entry is there, a symlink that leads nowhere included.
        var replacing = destination.exists
        if let existing, existing.kind == .directory {
            failed(.conflict(TransferConflict(.nonDirectoryOverDirectory, source: source, destination: destination)))
            return false
        }
        if replacing {
            switch options.overwrite {
            case .skip: return true
            case .fail: replacing = false
            case .ifNewer where (existing?.modificationTime ?? info.modificationTime) >= info.modificationTime:
                return true
            case .replace, .ifNewer:
                guard confirmReplace(source, destination) else { return true }
            }
            if replacing, let backUp {
                guard backUp(destination) else { return false }
                replacing = false
            }
        }
        copied(source, destination)
        guard let target = target ?? symlinkTarget(source, destination) else { return false }
        if rehearsing { return true }
        do {
            try destination.makeLink(kind, to: target, replacing: replacing)
        } catch {
            failed(.file(error))
            return false
        }
        if kind == .symbolic && options.preserve.contains(.ownership) {
            do { try setOwner(destination, like: info) } catch {
                failed(.file(error))
                return false
            }
        }
        if options.preserve.contains(.links) && info.linkCount > 1 && linkedCopies[info.identity] == nil {
            linkedCopies[info.identity] = destination.unanchored
        }
        return true
    }

    /// Where data written through `destination` lands: the file its symlinks lead to, and what
    /// is there (nil for nothing). `existing` is what is known of `destination` already.
    /// - Throws: `.conflict` with `.danglingDestinationSymlink` for a symlink that leads
    ///   nowhere: GNU cp will not guess where such a file should be made.
    private func dataTarget(
        _ source: File, _ destination: File, existing: FileInfo?
    ) throws(TransferError) -> (File, FileInfo?) {
        let resolved: File
        do { resolved = try destination.resolvingFinalSymlinks() } catch { throw .file(error) }
        if let existing, existing.kind != .symlink { return (resolved, existing) }
        // No symlink led anywhere, and nothing was there when looked at: asking again would
        // only tell the same.
        if existing == nil && resolved == destination { return (destination, nil) }
        do {
            return (resolved, try resolved.info())
        } catch where error.errno == .noSuchFileOrDirectory {
            guard resolved == destination else {
                throw .conflict(TransferConflict(.danglingDestinationSymlink, source: source, destination: destination))
            }
            return (destination, nil)
        } catch {
            throw .file(error)
        }
    }

    /// Copies the data of `source` (a regular file, or with `.copyContents` anything that can be
    /// read) to `target`: into an existing device or FIFO in place, as GNU cp does; otherwise
    /// to a temporary file renamed into place. `destination` is the path asked for, which
    /// messages name when `target` is a file a symlink leads to.
    private func copyData(
        _ source: File, info: FileInfo, to target: File, named destination: File, existing: FileInfo?,
        isNew: Bool
    ) throws(FileError) {
        // Where the target's volume can copy by itself (object storage, within a bucket or from
        // another of the same server), no byte comes here.
        if existing.map({ $0.kind == .regular }) ?? true,
            try target.volume.copyWithin(source, size: info.size, to: target)
        {
            return try requireKept(at: target)
        }
        // What the walk or the look before said of a regular file spares the volume asking again.
        let input =
            try info.kind == .regular
            ? source.volume.openForReading(source, describedAs: info) : source.open(.read)
        defer { input.close() }
        if let existing, options.destinations == .writeThrough, existing.kind != .regular {
            try writeInPlace(from: input, source: source, to: target, named: destination)
        } else {
            try writeReplacement(
                from: input, source: source, info: info, to: target, existingMode: existing?.permissions,
                isNew: isNew)
        }
        try requireKept(at: target)
    }

    /// Fails with `.setAttributes` and `ENOTSUP` when `options` require a mode or times that
    /// `target`'s volume cannot keep (it has no permission bits, as object storage).
    private func requireKept(at target: File) throws(FileError) {
        guard options.requiresPreservation, !options.preserve.isDisjoint(with: [.mode, .timestamps]),
            !target.volume.capabilities.contains(.permissions)
        else { return }
        throw FileError(.setAttributes, target, .notSupported)
    }

    /// Writes everything from `input` into `target`, a device or FIFO, opened for writing: such
    /// a file is never replaced (and a temporary file could not stand in for it).
    private func writeInPlace(
        from input: OpenFile, source: File, to target: File, named destination: File
    ) throws(FileError) {
        let output: OpenFile
        do {
            output = try target.open(.truncate)
        } catch {
            throw error.reworded(as: .createFile, destination)
        }
        defer { output.close() }
        try transfer(from: input, source: source, to: output, destination: destination)
    }

    /// Writes everything from `input` to a new temporary file beside `destination`, gives it its
    /// mode (and with `preserve`, owner and times), and renames it into place.
    private func writeReplacement(
        from input: OpenFile, source: File, info: FileInfo, to destination: File, existingMode: UInt32?,
        isNew: Bool
    ) throws(FileError) {
        if !destination.volume.capabilities.contains(.atomicRename) {
            return try writeWhole(from: input, source: source, size: info.size, to: destination, isNew: isNew)
        }
        // Without `preserve`, as GNU cp: a new file gets no set-id or sticky bit (a copy of a
        // set-user-ID program is an ordinary one), and the umask applies.
        let mode =
            options.preserve.contains(.mode)
            ? info.permissions : (existingMode ?? (options.defaultModes ? 0o666 : info.permissions & 0o777) & ~umask)
        let temporary = try destination.makeTemporarySibling(mode: mode & 0o777)
        // A new file already has its mode when the umask took from the one it was made with just
        // what the mode lacks; a file it replaces keeps the old mode, set explicitly.
        let madeWithMode = existingMode == nil && (mode & 0o777 | 0o600) & ~umask == mode
        do throws(FileError) {
            let output = temporary.output.named(destination)
            defer { output.close() }
            try transfer(
                from: input, source: source, size: info.size, to: output, destination: destination, intoNewFile: true)
            // The owner first: changing it clears the set-user-ID and set-group-ID bits.
            if options.preserve.contains(.ownership) {
                do {
                    try output.setAttributes(.owner(user: info.userID, group: info.groupID))
                } catch where error.errno == .notPermitted || error.errno == .invalidArgument {
                    // As cp -p does: a user who may not give files away keeps them.
                }
            }
            var change = AttributeChange()
            if !madeWithMode { change.permissions = mode }
            if options.preserve.contains(.timestamps) {
                change.accessTime = .to(info.accessTime)
                change.modificationTime = .to(info.modificationTime)
            }
            try output.setAttributes(change)
            if options.sync {
                do {
                    try output.sync()
                } catch {
                    throw error.reworded(as: .write, destination)
                }
            }
            try commit(temporary.file, to: destination, source: source, isNew: isNew)
        } catch {
            temporary.file.removeQuietlyAfterFailure()
            throw error
        }
    }

    /// Writes everything from `input` straight to `destination`, on a volume without an atomic
    /// rename (object storage), where a file appears only once it is complete: a temporary
    /// sibling renamed into place would be a second copy of every byte there. Such a volume keeps
    /// no mode or times to preserve (`mv` across volumes copies the contents alone, as GNU mv
    /// onto a file system without them does). A destination known to be new, in a directory
    /// this copy made, is opened without the volume looking first (`Volume.openNew`).
    private func writeWhole(from input: OpenFile, source: File, size: UInt64, to destination: File, isNew: Bool)
        throws(FileError)
    {
        let output: OpenFile
        do {
            output =
                try isNew
                ? destination.volume.openNew(destination, permissions: 0o666) : destination.open(.truncate)
        } catch {
            throw error.reworded(as: .createFile, destination)
        }
        do {
            try transfer(from: input, source: source, size: size, to: output, destination: destination)
        } catch {
            output.close()
            throw error
        }
        try output.finish()
    }

    /// Moves all bytes from `input` to `output`, in the kernel when it can; with `reflink`
    /// `.auto` or `.always`, first by sharing the source's blocks (`ioctl(FICLONE)`). Into a new
    /// regular file (`intoNewFile`), holes may be left, and a source that hands its bytes over
    /// as pieces in any order (`PieceSource`, object storage) writes each where it belongs; a
    /// destination that reads a file on a disk by offset (`PieceTaker`, object storage) takes
    /// it so.
    /// `size`, the size the source was seen with, only sizes the buffer: a small file is not read
    /// through a large one (zeroing it would cost more than the copy).
    private func transfer(
        from input: OpenFile, source: File, size: UInt64? = nil, to output: OpenFile, destination: File,
        intoNewFile: Bool = false
    ) throws(FileError) {
        if options.reflink == .auto || options.reflink == .always {
            do throws(Errno) {
                guard let input = input.descriptor, let output = output.descriptor else { throw .notSupported }
                try Sys.cloneFile(from: input, to: output)
                return
            } catch {
                if options.reflink == .always { throw FileError(.clone, source, error, destination: destination) }
            }
        }
        // Holes are looked for in a file whose size says where it ends: not in what procfs
        // shows as empty, nor in a FIFO.
        if intoNewFile && options.sparse != .never, let inputDescriptor = input.descriptor,
            let outputDescriptor = output.descriptor, let info = try? input.info(), info.kind == .regular,
            info.size > 0
        {
            return try transferLeavingHoles(
                from: input, inputDescriptor, size: Int64(info.size), source: source, to: output, outputDescriptor,
                destination: destination)
        }
        if intoNewFile, input.descriptor == nil, output.descriptor != nil {
            do {
                let delivered = try input.deliverPieces(
                    to: { (offset, bytes) throws(FileError) in try output.write(bytes, at: offset) },
                    progress: transferred, isCancelled: isCancelled)
                if delivered { return }
            } catch where error.errno == .canceled {
                throw FileError(.write, destination, .canceled)
            } catch where error.operation == .write {
                throw error  // The destination's own failure.
            } catch {
                throw error.reworded(as: .read, source)
            }
        }
        if input.descriptor != nil, output.descriptor == nil, let info = try? input.info(), info.kind == .regular {
            do {
                let taken = try output.takePieces(
                    of: input, size: info.size, progress: transferred, isCancelled: isCancelled)
                if taken { return }
            } catch where error.operation == .read {
                throw error.reworded(as: .read, source)
            }
        }
        var kernelCopy = options.reflink != .never && input.descriptor != nil && output.descriptor != nil
        while kernelCopy, let input = input.descriptor, let output = output.descriptor {
            if isCancelled() { throw FileError(.write, destination, .canceled) }
            do {
                // 64 MiB at a time, so that a cancellation is seen within a fraction of a second.
                let moved = try Sys.copyFileRange(from: input, to: output, length: 1 << 26)
                if moved == 0 { return }
                transferred(UInt64(moved))
            } catch where [.improperLink, .noFunction, .invalidArgument, .notSupported, .notPermitted, .badFileDescriptor].contains(error) {
                kernelCopy = false
            } catch {
                throw FileError(.write, destination, error)
            }
        }
        // One byte more than the size, so that the end is seen by the second read.
        let bufferSize = size.map { Int(clamping: max(1 << 14, min(1 << 18, $0 + 1))) } ?? 1 << 18
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        while true {
            if isCancelled() { throw FileError(.write, destination, .canceled) }
            let count: Int
            do { count = try input.read(into: &buffer) } catch {
                throw error.reworded(as: .read, source)
            }
            if count == 0 { return }
            try output.write(buffer[..<count])
            transferred(UInt64(count))
        }
    }

    /// Copies the data of `input`, a regular file of `size` bytes, into the new regular file
    /// `output`, leaving as holes the source's holes (found by `SEEK_DATA` and `SEEK_HOLE`, the
    /// whole file being data where the file system cannot tell) and, with `.always`, every block
    /// of zeros of 4 KiB at an offset that is a multiple of it (and a last shorter one); the file
    /// is then given its full size.
    private func transferLeavingHoles(
        from input: OpenFile, _ inputDescriptor: Int32, size: Int64, source: File, to output: OpenFile,
        _ outputDescriptor: Int32, destination: File
    ) throws(FileError) {
        let block = 4096
        var buffer: [UInt8] = []
        var offset: Int64 = 0
        while offset < size {
            let dataStart: Int64
            let dataEnd: Int64
            do throws(Errno) {
                dataStart = try Sys.seek(inputDescriptor, to: offset, whence: Sys.dataWhence)
                dataEnd = min(size, try Sys.seek(inputDescriptor, to: dataStart, whence: Sys.holeWhence))
                _ = try Sys.seek(inputDescriptor, to: dataStart)
            } catch where error == .noSuchAddressOrDevice {
                break  // Nothing but a hole from `offset` to the end.
            } catch {
                throw FileError(.read, source, error)
            }
            var position = dataStart
            while position < dataEnd {
                if isCancelled() { throw FileError(.write, destination, .canceled) }
                // 256 KiB at a time, or what is left of this run of data.
                let wanted = Int(min(Int64(64 * block), dataEnd - position))
                if buffer.count != wanted { buffer = [UInt8](repeating: 0, count: wanted) }
                let count: Int
                do { count = try input.read(into: &buffer) } catch {
                    throw error.reworded(as: .read, source)
                }
                if count == 0 { break }
                var start = 0
                while start < count {
                    let end = min(count, start + block)
                    let chunk = buffer[start..<end]
                    if options.sparse != .always || chunk.contains(where: { $0 != 0 }) {
                        do throws(Errno) {
                            _ = try Sys.seek(outputDescriptor, to: position + Int64(start))
                        } catch { throw FileError(.write, destination, error) }
                        try output.write(chunk)
                    }
                    start = end
                }
                position += Int64(count)
                transferred(UInt64(count))
            }
            offset = max(dataEnd, offset + 1)
        }
        try output.truncate(to: UInt64(size))
    }

    /// Renames a finished temporary file into place: over what is there, or, for a destination
    /// known to be new, only while nothing is.
    private func commit(_ temporary: File, to destination: File, source: File, isNew: Bool) throws(FileError) {
        guard isNew else { return try temporary.renameReplacing(destination) }
        do {
            try temporary.renameEntry(to: destination, replacing: false)
        } catch where error.errno == .fileExists {
            throw FileError(.copy, source, .fileExists, destination: destination)
        } catch where error.errno == .invalidArgument {
            // The file system cannot refuse to replace (no RENAME_NOREPLACE): rename over it.
            try temporary.renameReplacing(destination)
        }
    }

    private func copySymlink(_ source: File, info: FileInfo, to destination: File, isNew: Bool) throws(FileError) {
        let target = try source.linkTarget()
        try makeThenRename(of: source, at: destination, isNew: isNew) { (made) throws(FileError) in
            try made.makeSymlink(to: target)
            if options.preserve.contains(.ownership) { try setOwner(made, like: info) }
        }
    }

    /// Makes a FIFO, device or socket like `source` (`mknod(2)`), replacing what is there.
    private func copySpecial(
        _ source: File, info: FileInfo, to destination: File, isNew: Bool
    ) throws(FileError) {
        try makeThenRename(of: source, at: destination, isNew: isNew) { (made) throws(FileError) in
            do throws(Errno) {
                try made.withLocation(following: false) { (dir, name, _) throws(Errno) in
                    try Sys.mknod(
                        name, at: dir, mode: mode_t(info.mode), device: dev_t(info.representedDevice))
                }
            } catch {
                throw FileError(.copy, source, error, destination: made)
            }
        }
    }

    /// Makes the copy of `source` with `make` under a temporary name beside `destination`, then
    /// renames it into place, so that what was there stays until the copy exists.
    /// - Throws: `FileError` with operation `.copy`, from `source` to `destination`.
    private func makeThenRename(
        of source: File, at destination: File, isNew: Bool, _ make: (File) throws(FileError) -> Void
    ) throws(FileError) {
        let temporary = try destination.makeTemporarySibling(mode: 0o600)
        temporary.output.close()
        temporary.file.removeQuietlyAfterFailure()
        do {
            try make(temporary.file)
            try commit(temporary.file, to: destination, source: source, isNew: isNew)
        } catch {
            temporary.file.removeQuietlyAfterFailure()
            throw error.reworded(as: .copy, source, destination: destination)
        }
    }
}
