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
    ///   - removed: told of each entry removed.
    ///   - failed: told of each error.
    /// - Returns: whether everything was removed.
    @discardableResult
    public func removeTree(
        ignoringVanished: Bool = false,
        confirm: (RemovalStep) -> Bool = { _ in true },
        removed: (File, FileKind) -> Void = { _, _ in },
        failed: (FileError) -> Void
    ) -> Bool {
        removeTree(
            keepingTop: false, ignoringVanished: ignoringVanished, confirm: confirm, removed: removed, failed: failed)
    }

    /// `removeTree(ignoringVanished:confirm:removed:failed:)`, or with `keepingTop` only what is inside this
    /// directory, which is then opened as a directory whatever it is (so a symlink or a file
    /// fails there with `ENOTDIR`) and kept.
    private func removeTree(
        keepingTop: Bool, ignoringVanished: Bool = false, confirm: (RemovalStep) -> Bool,
        removed: (File, FileKind) -> Void, failed: (FileError) -> Void
    ) -> Bool {
        let kind: FileKind
        do { kind = keepingTop ? .directory : try info().kind } catch {
            failed(FileError(.remove, self, error.errno))
            return false
        }
        guard kind == .directory else {
            guard confirm(.remove(self, kind)) else { return false }
            do {
                try volume.removeFile(self)
                removed(self, kind)
                return true
            } catch {
                failed(FileError(.remove, self, error.errno))
                return false
            }
        }
        // One directory is open at a time, whatever the depth: going down opens the child and
        // closes the parent; coming back up opens the parent through the child's `..` and checks
        // that it is the directory left (its identity), so that a tree moved meanwhile is not
        // followed. Nothing is followed: a directory swapped for a symlink is refused (ENOTDIR).
        // Paths are built only for the callbacks, so their length does not matter.
        struct Level {
            let name: [UInt8]
            let identity: FileIdentity
            let pathLength: Int
            let entries: [DirectoryEntry]
            var index = 0
            var complete = true
        }
        /// Whether an entry's failure is only that it is gone, and that is allowed.
        func vanished(_ error: FileError) -> Bool { ignoringVanished && error.errno == .noSuchFileOrDirectory }
        /// What opening a directory of the tree gave.
        enum Opening {
            case opened(any VolumeDirectory, Level)
            /// Not opened: declined, or failed (and reported); the tree is not all removed.
            case left
            /// Gone already, and that is allowed.
            case vanished
        }
        func open(
            _ path: File, name: [UInt8], parentLength: Int, _ opening: () throws(FileError) -> any VolumeDirectory
        ) -> Opening {
            guard confirm(.descend(path)) else { return .left }
            do {
                let directory = try opening()
                let listing = try directory.listing(at: [], withIdentity: true, sorted: false)
                let level = Level(
                    name: name, identity: listing.identity!, pathLength: parentLength, entries: listing.entries)
                return .opened(directory, level)
            } catch {
                if vanished(error) { return .vanished }
                failed(FileError(.list, path, error.errno))
                return .left
            }
        }

        let opened = open(self, name: Array(nameBytes), parentLength: 0) { () throws(FileError) in
            try volume.openDirectory(self, following: false)
        }
        guard case .opened(var current, let top) = opened else { return false }
        var path = self
        var stack = [top]
        var everything = true
        while var level = stack.last {
            if level.index < level.entries.count {
                let entry = level.entries[level.index]
                level.index += 1
                stack[stack.count - 1] = level
                let entryPath = path.appending(entryName: entry.name)
                var kind = entry.kind
                if kind == nil {
                    do {
                        kind = try current.info(at: entry.name, following: false).kind
                    } catch {
                        if vanished(error) { continue }
                        failed(FileError(.remove, entryPath, error.errno))
                        stack[stack.count - 1].complete = false
                        continue
                    }
                }
                if kind == .directory {
                    let parent = current
                    let opening = open(entryPath, name: entry.name, parentLength: path.byteCount) {
                        () throws(FileError) in try parent.openDirectory(at: entry.name, following: false, path: entryPath)
                    }
                    switch opening {
                    case .opened(let child, let childLevel):
                        current = child
                        stack.append(childLevel)
                        path = entryPath
                    case .left:
                        stack[stack.count - 1].complete = false
                    case .vanished:
                        break
                    }
                    continue
                }
                guard confirm(.remove(entryPath, kind!)) else {
                    stack[stack.count - 1].complete = false
                    continue
                }
                do {
                    try current.remove(at: entry.name, directory: false)
                    removed(entryPath, kind!)
                } catch {
                    if vanished(error) { continue }
                    failed(FileError(.remove, entryPath, error.errno))
                    stack[stack.count - 1].complete = false
                }
                continue
            }
            // Every entry is handled: back to the parent, then remove the directory if it is empty.
            stack.removeLast()
            let finished = path
            if let parent = stack.last {
                let parentPath = finished.leadingBytes(level.pathLength)
                do throws(FileError) {
                    let above = try current.openDirectory(at: [0x2E, 0x2E], following: false, path: parentPath)
                    let identity = try above.identity()
                    current = above
                    guard identity == parent.identity else {
                        throw FileError(.list, finished, .noSuchFileOrDirectory)
                    }
                } catch {
                    // The tree moved under the walk: stop rather than remove from the wrong place.
                    failed(FileError(.list, parentPath, error.errno))
                    return false
                }
                path = parentPath
            }
            if stack.isEmpty && keepingTop {
                if !level.complete { everything = false }
                continue
            }
            var done = level.complete && confirm(.remove(finished, .directory))
            if done {
                do {
                    if stack.isEmpty {
                        try volume.removeDirectory(finished)
                    } else {
                        try current.remove(at: level.name, directory: true)
                    }
                    removed(finished, .directory)
                } catch {
                    // A directory that is gone was removed by someone else.
                    if !vanished(error) {
                        failed(FileError(.removeDirectory, finished, error.errno))
                        done = false
                    }
                }
            }
            if !done {
                everything = false
                if !stack.isEmpty { stack[stack.count - 1].complete = false }
            }
        }
        return everything
    }

    /// The path made of this path's first `count` bytes, which must be a path this one was built
    /// from by `appending(entryName:)`.
    fileprivate func leadingBytes(_ count: Int) -> File {
        File(normalizedStorage: Array(bytes.prefix(count)) + [0]).on(volume)
    }

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
            } catch where error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory {
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
        var copier = Copier(options: CopyOptions(recursive: true, overwrite: force ? .replace : .fail, preserve: true))
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
        } catch where error.errno == .improperLink {
            // Another file system: copy, then remove the source below.
        } catch where error.errno == .invalidArgument {
            // EINVAL from rename(2) usually means "into itself"; say so when the disk confirms it.
            // If the check itself fails, the rename's own error is the one to report.
            let conflict: TransferConflict?
            do { conflict = try TransferConflict.intoItself(self, destination) } catch { conflict = nil }
            throw conflict.map { .conflict($0) } ?? .file(FileError(.move, self, error.errno, destination: destination))
        } catch {
            throw .file(FileError(.move, self, error.errno, destination: destination))
        }
        var copier = Copier(
            options: CopyOptions(
                recursive: true, overwrite: force ? .replace : .fail, preserve: true, sync: true,
                destinations: .replace))
        var first: TransferError?
        copier.failed = { if first == nil { first = $0 } }
        copier.copy(self, to: destination)
        if let first { throw first }
        do { try delete() } catch { throw .file(error) }
    }
}
