import Glibc
import SystemPackage

/// A step of a recursive removal that a caller may veto (as `rm -i` does).
public enum RemovalStep: Sendable, Hashable {
    /// About to read a directory's entries in order to remove them.
    case descend(File)
    /// About to remove an entry (a directory only once it is empty).
    case remove(File, FileKind)
}

extension File {
    /// Removes this file, or this directory and everything in it. Symlinks are removed, never
    /// followed, and the walk goes by directory descriptor so that a directory swapped for a
    /// symlink meanwhile is not followed either.
    /// - Throws: the first `TransferError` met.(`.remove`, `.removeDirectory` or `.list`); everything
    ///   that could be removed before it is gone.
    /// Corresponds to `unlinkat(2)` and `openat(2)` with `O_NOFOLLOW`.
    public func delete() throws(FileError) {
        try removeTreeStoppingAtFirstError(keepingTop: false)
    }

    /// Removes everything inside this directory, keeping the directory itself, as `delete()`
    /// removes a tree: by directory descriptor, removing symlinks and never following them.
    ///
    /// The directory is opened without following a final symlink, so a symlink to a directory is
    /// refused as not a directory, and what it points to is left as it is.
    /// - Throws: the first `TransferError` met. everything that could be removed before it is gone.
    ///   `.list` with `ENOTDIR` when this path is a symlink (what `O_NOFOLLOW | O_DIRECTORY`
    ///   gives) or anything else but a directory.
    /// Corresponds to `openat(2)` with `O_NOFOLLOW | O_DIRECTORY` and `unlinkat(2)`.
    public func deleteAllChildren() throws(FileError) {
        try removeTreeStoppingAtFirstError(keepingTop: true)
    }

    /// Removes as `removeTree` does, taking no step after the first error, and throws that error.
    private func removeTreeStoppingAtFirstError(keepingTop: Bool) throws(FileError) {
        var first: FileError?
        _ = removeTree(
            keepingTop: keepingTop, confirm: { _ in first == nil }, removed: { _, _ in },
            failed: { if first == nil { first = $0 } })
        if let first { throw first }
    }

    /// Removes this entry and, for a directory, everything below it, reporting each step.
    ///
    /// An error on one entry is passed to `failed` and the removal goes on with the others; a
    /// directory whose entries were not all removed is left in place.
    /// - Parameters:
    ///   - ignoringVanished: an entry that is gone when its turn comes (another process removed
    ///     it first: ENOENT), this directory included once the walk is in it, counts as removed,
    ///     not as a failure, as `rm -f` has it.
    ///   - confirm: asked before each step; false skips it (and, for `.descend`, the directory).
    ///   - inBatches: the entries of a directory that are not directories are removed together
    ///     (`VolumeDirectory.remove(names:)`: on object storage one request for up to 1,000) once
    ///     the walk moves on from them, and `removed` and `failed` are told of them then, in
    ///     order. Only for a `confirm` that asks no one: a question would come before the report
    ///     of a removal confirmed earlier.
    ///   - rehearsing: remove nothing: every removal the walk comes to counts as made and is
    ///     told to `removed` (`rm --dry-run`); what cannot be read is reported as in a removal.
    ///   - removed: told of each entry removed.
    ///   - failed: told of each error.
    /// - Returns: whether everything was removed.
    @discardableResult
    public func removeTree(
        ignoringVanished: Bool = false,
        inBatches: Bool = false,
        rehearsing: Bool = false,
        confirm: (RemovalStep) -> Bool = { _ in true },
        removed: (File, FileKind) -> Void = { _, _ in },
        failed: (FileError) -> Void
    ) -> Bool {
        removeTree(
            keepingTop: false, ignoringVanished: ignoringVanished, inBatches: inBatches && !rehearsing,
            rehearsing: rehearsing, confirm: confirm, removed: removed, failed: failed)
    }

    /// `removeTree(ignoringVanished:confirm:removed:failed:)`, or with `keepingTop` only what is inside this
    /// directory, which is then opened as a directory whatever it is (so a symlink or a file
    /// fails there with `ENOTDIR`) and kept.
    ///
    /// The walk is `TreeWalk`'s: each directory is opened from its parent without following a
    /// symlink and its entries are removed through it, so a directory swapped for a symlink
    /// meanwhile is refused (ENOTDIR), never followed out of the tree.
    private func removeTree(
        keepingTop: Bool, ignoringVanished: Bool = false, inBatches: Bool = false, rehearsing: Bool = false,
        confirm: (RemovalStep) -> Bool,
        removed: (File, FileKind) -> Void, failed: (FileError) -> Void
    ) -> Bool {
        /// Whether an entry's failure is only that it is gone, and that is allowed.
        func vanished(_ error: FileError) -> Bool {
            ignoringVanished && error.errno == .noSuchFileOrDirectory
        }
        /// Whether a directory whose entries were all removed is gone, or a file of its name is
        /// all that stands there (object storage), because it was no more than its entries.
        func wentWithItsEntries(_ error: FileError) -> Bool {
            volume.capabilities.contains(.vanishingDirectories)
                && (error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory)
        }
        var walk = TreeWalk(self)
        // Whether the top was removed (with `keepingTop`: everything in it).
        var result = false
        // For each directory entered, whether everything in it has been removed so far.
        var complete: [Bool] = []
        /// Notes that the directory being walked keeps something.
        func keep() { if !complete.isEmpty { complete[complete.count - 1] = false } }
        // Entries of one directory confirmed and not yet removed, with `inBatches`.
        var batch = RemovalBatch()
        // With `inBatches` on a volume with `.batchRemoval`: entries of any directories, and the
        // directories themselves once left, removed together.
        let spanning = inBatches && volume.capabilities.contains(.batchRemoval)
        // As many batches' worth as the volume moves files at once; it sends them as many at a
        // time as it allows.
        let acrossLimit = RemovalBatch.limit * max(1, volume.parallelFiles.count)
        var across = RemovalsAcross()
        /// Removes what `across` holds and reports each entry, in order; what stayed is kept by
        /// the directory still open above it.
        func flushAcross() {
            for (item, outcome) in zip(across.items, across.remove(on: volume, vanished: vanished)) {
                switch outcome {
                case .removed: removed(item.file, item.kind)
                case .vanished, .kept: break
                case .failed(let error):
                    failed(
                        FileError(
                            item.kind == .directory ? .removeDirectory : .remove, item.file, error.errno))
                }
            }
            for depth in across.keptInOpenDirectories() where depth - 1 < complete.count {
                complete[depth - 1] = false
            }
            across = RemovalsAcross()
        }
        /// Removes the batch's entries and reports each, in order.
        func flush() {
            if spanning { return flushAcross() }
            guard let directory = batch.directory else { return }
            let failures = directory.remove(names: batch.names)
            for (index, failure) in failures.enumerated() {
                if let failure {
                    if vanished(failure) { continue }
                    failed(failure.reworded(as: .remove, batch.files[index]))
                    keep()
                } else {
                    removed(batch.files[index], batch.kinds[index])
                }
            }
            batch = RemovalBatch()
        }
        while let event = walk.next() {
            // Across directories, only a report of the walk's own (or the end) needs what is
            // gathered told first.
            let gathersOn =
                spanning && (event == .enter || event == .directory || (event == .leave && walk.depth > 0))
            if event != .entry && !gathersOn { flush() }
            switch event {
            case .failure(let error):
                if vanished(error) { continue }
                failed(error.reworded(as: .remove, walk.file))
                keep()
            case .entry:
                let kind = walk.kind ?? .unknown
                if keepingTop && walk.depth == 0 {
                    failed(FileError(.list, self, .notDirectory))
                    return false
                }
                guard confirm(.remove(walk.file, kind)) else {
                    keep()
                    continue
                }
                if spanning && walk.depth > 0 && kind != .directory {
                    do {
                        across.add(
                            walk.file, kind, name: Array(walk.name), in: try walk.directoryHoldingCurrent(),
                            depth: walk.depth)
                        if across.items.count >= acrossLimit { flush() }
                    } catch {
                        flush()
                        failed(error.reworded(as: .remove, walk.file))
                        keep()
                    }
                    continue
                }
                if inBatches && walk.depth > 0 && kind != .directory {
                    do {
                        let directory = try walk.directoryHoldingCurrent()
                        if let pending = batch.directory, pending !== directory { flush() }
                        batch.add(walk.file, Array(walk.name), kind, in: directory)
                        if batch.names.count == RemovalBatch.limit { flush() }
                    } catch {
                        failed(error.reworded(as: .remove, walk.file))
                        keep()
                    }
                    continue
                }
                if spanning { flush() }
                do {
                    if !rehearsing { try walk.remove() }
                    removed(walk.file, kind)
                    if walk.depth == 0 { result = true }
                } catch {
                    if vanished(error) { continue }
                    failed(error.reworded(as: .remove, walk.file))
                    keep()
                }
            case .enter:
                guard confirm(.descend(walk.file)) else {
                    walk.visit([])
                    complete.append(false)
                    continue
                }
                complete.append(true)
            case .unreadable(let error):
                if vanished(error) { continue }
                guard confirm(.descend(walk.file)) else {
                    keep()
                    continue
                }
                failed(error.reworded(as: .list, walk.file))
                keep()
            case .cycle:
                // A bind mount of a directory inside itself: what is below it is already being removed.
                failed(FileError(.list, walk.file, .tooManySymbolicLinkLevels))
                keep()
            case .directory:
                continue
            case .leave where gathersOn:
                // Removed with the next batch, after what was below it, unless something stays.
                if complete.removeLast() && confirm(.remove(walk.file, .directory)) {
                    do {
                        across.add(
                            walk.file, .directory, name: Array(walk.name),
                            in: try walk.directoryHoldingCurrent(), depth: walk.depth)
                    } catch {
                        flush()
                        failed(error.reworded(as: .removeDirectory, walk.file))
                        keep()
                    }
                } else {
                    across.keep(depth: walk.depth)
                    keep()
                }
                if across.items.count >= acrossLimit { flush() }
            case .leave:
                let everything = complete.removeLast()
                if walk.depth == 0 && keepingTop { result = everything }
                if walk.depth == 0 && keepingTop { continue }
                var done = everything && confirm(.remove(walk.file, .directory))
                if done {
                    do {
                        if !rehearsing { try walk.remove() }
                        removed(walk.file, .directory)
                    } catch {
                        if wentWithItsEntries(error) {
                            removed(walk.file, .directory)
                        } else if !vanished(error) {
                            // A directory that is gone was removed by someone else.
                            failed(error.reworded(as: .removeDirectory, walk.file))
                            done = false
                        }
                    }
                }
                if walk.depth == 0 {
                    result = done
                } else if !done {
                    keep()
                }
            }
        }
        flush()
        return result
    }
}

/// Entries of several directories to remove together, on a volume with `.batchRemoval`
/// (`File.removeTree(inBatches:)`): files as the walk meets them, and each directory once the
/// walk has left it (after everything below it, which it holds too unless removed before).
private struct RemovalsAcross {
    /// An entry to remove, or a directory kept (a placeholder that nothing is sent for).
    struct Item {
        let file: File
        let kind: FileKind
        let name: [UInt8]
        /// Its directory; nil for a directory kept.
        let directory: (any VolumeDirectory)?
        let depth: Int
    }

    /// What became of an item.
    enum Outcome {
        case removed
        /// It was gone already, and that is allowed.
        case vanished
        /// Not removed: something below it stayed (or it was kept by the walk).
        case kept
        case failed(FileError)

        /// Whether its directory may go.
        var isGone: Bool {
            switch self {
            case .removed, .vanished: true
            case .kept, .failed: false
            }
        }
    }

    private(set) var items: [Item] = []
    /// Each item's outcome, once `remove` has run.
    private var outcomes: [Outcome] = []

    mutating func add(
        _ file: File, _ kind: FileKind, name: [UInt8], in directory: any VolumeDirectory, depth: Int
    ) {
        items.append(Item(file: file, kind: kind, name: name, directory: directory, depth: depth))
    }

    /// Notes that the directory the walk has just left at `depth` stays: what below it in
    /// this batch fails is its own, not that of a directory after it.
    mutating func keep(depth: Int) {
        items.append(Item(file: File.root, kind: .directory, name: [], directory: nil, depth: depth))
    }

    /// Removes the files in one go, then the directories whose contents are all gone, the
    /// deepest first, one go per depth (a directory goes only after what was in it); gives
    /// each item's outcome.
    mutating func remove(on volume: any Volume, vanished: (FileError) -> Bool) -> [Outcome] {
        outcomes = items.map { $0.directory == nil ? .kept : .removed }
        let files = items.indices.filter { items[$0].kind != .directory }
        record(
            volume.remove(files.map { (items[$0].directory!, items[$0].name) }, directories: false),
            at: files, vanished)
        let directories = items.indices.filter { items[$0].kind == .directory && items[$0].directory != nil }
        for depth in Set(directories.map { items[$0].depth }).sorted(by: >) {
            var ready: [Int] = []
            for index in directories where items[index].depth == depth {
                if contents(of: index).allSatisfy({ outcomes[$0].isGone }) {
                    ready.append(index)
                } else {
                    outcomes[index] = .kept
                }
            }
            record(
                volume.remove(ready.map { (items[$0].directory!, items[$0].name) }, directories: true),
                at: ready, vanished)
        }
        for index in items.indices where items[index].directory == nil {
            outcomes[index] = .kept
        }
        return outcomes
    }

    /// The depths of the items that stayed whose directory is not in the batch: it is still
    /// open in the walk, and keeps them.
    func keptInOpenDirectories() -> [Int] {
        items.indices.compactMap { index in
            guard !outcomes[index].isGone else { return nil }
            let depth = items[index].depth
            // The next item less deep is its directory, if that was left before the batch went.
            let next = items[(index + 1)...].first { $0.depth < depth }
            return next?.depth == depth - 1 ? nil : depth
        }
    }

    /// The items inside the directory at `index`: those before it that are deeper, back to the
    /// last one that is not.
    private func contents(of index: Int) -> [Int] {
        let depth = items[index].depth
        var start = index
        while start > 0 && items[start - 1].depth > depth { start -= 1 }
        return Array(start..<index)
    }

    private mutating func record(_ failures: [FileError?], at indices: [Int], _ vanished: (FileError) -> Bool)
    {
        for (index, failure) in zip(indices, failures) {
            guard let failure else { continue }
            outcomes[index] = vanished(failure) ? .vanished : .failed(failure)
        }
    }
}

/// Entries of one directory to remove together (`File.removeTree(inBatches:)`).
private struct RemovalBatch {
    /// The most entries one batch holds: what one DeleteObjects request of object storage takes.
    static let limit = 1000

    /// The directory holding them; nil while the batch is empty.
    var directory: (any VolumeDirectory)?
    var names: [[UInt8]] = []
    var files: [File] = []
    var kinds: [FileKind] = []

    /// Adds the entry `name` of `directory`, whose path is `file`.
    mutating func add(_ file: File, _ name: [UInt8], _ kind: FileKind, in directory: any VolumeDirectory) {
        self.directory = directory
        names.append(name)
        files.append(file)
        kinds.append(kind)
    }
}

extension File {
    /// Whether `other` is this directory or lies below it, judged by (device, inode) of `other`'s
    /// existing ancestors, so that links and `..` in the spelling cannot hide it.
    /// Corresponds to `stat(2)` on each existing ancestor of `other`.
    public func contains(_ other: File) throws(FileError) -> Bool {
        let mine = try info(followSymlinks: true).identity
        // A relative path on another volume starts at its top, not at the process's directory.
        let start = other.isLocal ? File.current : File.root.on(other.volume)
        var cursor = (other.isAbsolute ? other : start + other).normalized
        while true {
            do {
                if try cursor.info(followSymlinks: true).identity == mine { return true }
            } catch  where error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory {
                // Not there yet (a destination about to be made): look further up.
            }
            if cursor.isRoot || cursor.depth == 0 { return false }
            cursor = cursor.parent
        }
    }

    /// Copies this file or directory tree to `destination` (the new path, not a folder to copy into).
    ///
    /// Directories are copied recursively; symlinks are copied as symlinks; permissions and times
    /// are kept. Each regular file is written to a temporary name and renamed into place, so an
    /// existing destination file keeps its old contents if the copy fails.
    /// - Parameter force: replace existing destination files (directories are merged); otherwise
    ///   an existing destination fails with `EEXIST`.
    /// - Throws: the first `TransferError` met.
    /// Corresponds to `copy_file_range(2)` (with a `read`/`write` fallback), `mkdir(2)`,
    /// `symlink(2)`, `fchmod(2)`, `futimens(2)` and `rename(2)`.
    public func copy(to destination: File, force: Bool = false) throws(TransferError) {
        var copier = Copier(
            options: CopyOptions(recursive: true, overwrite: force ? .replace : .fail, preserve: .standard))
        var first: TransferError?
        copier.failed = { if first == nil { first = $0 } }
        copier.copy(self, to: destination)
        if let first { throw first }
    }

    /// Moves this entry to `destination` (the new path). Within one file system this is a
    /// rename; across file systems the tree is copied, synced, and only then the source removed.
    /// - Parameter force: replace an existing destination; otherwise fail with `EEXIST`.
    /// - Throws: `.file` with operation `.move`, `.conflict` with `.intoItself`, or the copy's errors.
    /// Corresponds to `renameat2(2)`, with `RENAME_NOREPLACE` unless `force`.
    public func move(to destination: File, force: Bool = false) throws(TransferError) {
        do {
            try renameEntry(to: destination, replacing: force)
            return
        } catch  where error.errno == .improperLink {
            // Another file system: copy, then remove the source below.
        } catch  where error.errno == .invalidArgument {
            // EINVAL from rename(2) usually means "into itself"; say so when the disk confirms it.
            // If the check itself fails, the rename's own error is the one to report.
            let conflict: TransferConflict?
            do { conflict = try TransferConflict.intoItself(self, destination) } catch { conflict = nil }
            throw conflict.map { .conflict($0) }
                ?? .file(error.reworded(as: .move, self, destination: destination))
        } catch {
            throw .file(error.reworded(as: .move, self, destination: destination))
        }
        var copier = Copier(
            options: CopyOptions(
                recursive: true, overwrite: force ? .replace : .fail, preserve: .standard, sync: true,
                destinations: .replace))
        var first: TransferError?
        copier.failed = { if first == nil { first = $0 } }
        copier.copy(self, to: destination)
        if let first { throw first }
        do { try delete() } catch { throw .file(error) }
    }
}
