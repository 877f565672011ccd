import Glibc
import SystemPackage

extension File {
    /// Creates this directory.
    ///
    /// - Parameters:
    ///   - intermediates: also create missing parents, and succeed when the directory already
    ///     exists (`mkdir -p`).
    ///   - mode: permission bits, less the umask.
    /// - Returns: the directories that were created, outermost first.
    /// - Throws: `FileError` with operation `.makeDirectory`.
    /// Corresponds to `mkdir(2)`.
    @discardableResult
    public func makeDirectory(intermediates: Bool = false, mode: UInt32 = 0o777) throws(FileError) -> [File] {
        if !intermediates {
            try volume.makeDirectory(self, permissions: mode)
            return [self]
        }
        var missing: [File] = []
        var cursor = self
        while true {
            do throws(FileError) {
                let existing = try cursor.info(followSymlinks: true)
                if existing.kind != .directory {
                    // As mkdir -p: the path itself taken by a file is EEXIST; a file above it, ENOTDIR.
                    let reason: Errno = missing.isEmpty ? .fileExists : .notDirectory
                    throw FileError(.makeDirectory, missing.isEmpty ? self : cursor, reason)
                }
                break
            } catch where error.operation == .stat
                && (error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory)
            {
                // Missing, or below a file: climb to what is there (a file found above is the one
                // the error names, as mkdir -p names it). `x/.` and `x/..` come into being with
                // `x`, so only `x` is made (mkdir -p makes `x/../y` by making x, then y).
                if isDotOrDotDot(cursor.nameBytes) {
                    guard let before = cursor.droppingLastName else { break }
                    cursor = before
                    continue
                }
                missing.append(cursor)
                let parent = cursor.parent
                if parent == cursor { break }
                cursor = parent
            } catch where error.operation == .stat {
                throw FileError(.makeDirectory, self, error.errno)
            }
        }
        var created: [File] = []
        for directory in missing.reversed() {
            do {
                try volume.makeDirectory(directory, permissions: mode)
                created.append(directory)
            } catch where error.errno == .fileExists && directory.isDirectory {
                continue  // made by someone else meanwhile: mkdir -p accepts that.
            }
        }
        return created
    }

    /// Creates an empty regular file, or leaves an existing one as it is unless `exclusive`.
    /// - Parameters:
    ///   - exclusive: fail with `EEXIST` when something is already there.
    ///   - mode: permission bits, less the umask.
    /// - Throws: `FileError` with operation `.createFile`.
    /// Corresponds to `open(2)` with `O_CREAT`.
    public func createFile(exclusive: Bool = false, mode: UInt32 = 0o666) throws(FileError) {
        do {
            try volume.open(self, exclusive ? .create : .append, permissions: mode).close()
        } catch {
            throw FileError(.createFile, self, error.errno)
        }
    }

    /// Replaces the file's contents with `bytes`.
    ///
    /// Atomic by default: the bytes go to a temporary file in the same directory, which is synced
    /// and renamed over this path, so a reader sees the old contents or the new, never a mix, and a
    /// failed write leaves the old contents in place. An existing file's permissions are kept; a
    /// symlink is written through to its target.
    /// - Parameter atomically: write in place instead (truncate, then write) when false.
    /// - Throws: `FileError` with operation `.write` (or `.createFile`/`.open` for the file itself).
    /// Corresponds to `open(2)`, `write(2)`, `fsync(2)` and `rename(2)`.
    public func write<Bytes: Collection>(bytes: Bytes, atomically: Bool = true) throws(FileError)
    where Bytes.Element == UInt8 {
        let contiguous = Array(bytes)
        let destination = try resolvingFinalSymlinks()
        if !atomically {
            try destination.writeInPlace(contiguous, mode: .truncate)
            return
        }
        let replacement = try destination.openReplacement()
        do {
            try replacement.output.write(contiguous[...])
        } catch {
            replacement.discard()
            throw FileError(.write, self, error.errno)
        }
        // A failed commit has closed and removed the temporary file itself.
        do { try replacement.commit(sync: true) } catch { throw FileError(.write, self, error.errno) }
    }

    /// Replaces the file's contents with `text` as UTF-8; atomic by default (see `write(bytes:)`).
    /// - Throws: `FileError` with operation `.write`.
    public func write(text: String, atomically: Bool = true) throws(FileError) {
        try write(bytes: Array(text.utf8), atomically: atomically)
    }

    /// Adds `bytes` to the end of the file, creating it when missing.
    /// - Throws: `FileError` with operation `.write` or `.open`.
    /// Corresponds to `open(2)` with `O_APPEND` and `write(2)`.
    public func append<Bytes: Collection>(bytes: Bytes) throws(FileError) where Bytes.Element == UInt8 {
        try writeInPlace(Array(bytes), mode: .append)
    }

    /// Adds `text` as UTF-8 to the end of the file, creating it when missing.
    /// - Throws: `FileError` with operation `.write` or `.open`.
    public func append(text: String) throws(FileError) { try append(bytes: Array(text.utf8)) }

    /// The whole contents of the file.
    /// - Throws: `FileError` with operation `.open` or `.read`.
    /// Corresponds to `open(2)` and `read(2)`.
    public func readBytes() throws(FileError) -> [UInt8] {
        let input = try volume.open(self, .read, permissions: 0)
        defer { input.close() }
        do {
            let size = try input.info().size
            var result: [UInt8] = []
            result.reserveCapacity(Int(clamping: size) + 1)
            var chunk = [UInt8](repeating: 0, count: Swift.max(65536, Swift.min(Int(clamping: size) + 1, 1 << 24)))
            while true {
                let count = try input.read(into: &chunk)
                if count == 0 { return result }
                result.append(contentsOf: chunk[..<count])
            }
        } catch {
            throw FileError(.read, self, error.errno)
        }
    }

    /// The contents of the file as UTF-8 text.
    /// - Throws: `FileError` with operation `.read` and `EILSEQ` when the bytes are not UTF-8.
    public func readText() throws(FileError) -> String {
        let bytes = try readBytes()
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FileError(.read, self, .illegalByteSequence)
        }
        return text
    }

    /// Creates a symbolic link at this path that holds `target`.
    /// - Throws: `FileError` with operation `.makeLink`.
    /// Corresponds to `symlink(2)`.
    public func makeSymlink(to target: File) throws(FileError) {
        do {
            try volume.makeSymlink(self, target: target.bytes)
        } catch {
            throw FileError(.makeLink, self, error.errno, destination: target)
        }
    }

    /// Creates a hard link at this path to the existing file `existing`.
    /// - Throws: `FileError` with operation `.makeLink`.
    /// Corresponds to `link(2)`.
    public func makeHardLink(to existing: File) throws(FileError) {
        guard existing.volume === volume else { throw FileError(.makeLink, self, .improperLink, destination: existing) }
        try volume.makeHardLink(self, to: existing)
    }

    /// Sets the permission bits (following a symlink).
    /// - Throws: `FileError` with operation `.setAttributes`.
    /// Corresponds to `chmod(2)`.
    public func setPermissions(_ mode: UInt32) throws(FileError) {
        try volume.setAttributes(of: self, .permissions(mode), following: true)
    }

    /// Sets access and modification times; nil means now. A symlink itself is changed, not its target,
    /// unless `followSymlinks`.
    /// - Throws: `FileError` with operation `.setAttributes`.
    /// Corresponds to `utimensat(2)`.
    public func setTimes(access: Timestamp?, modification: Timestamp?, followSymlinks: Bool = true) throws(FileError) {
        let change = AttributeChange.times(access: access.map(TimeChange.to) ?? .now,
                                           modification: modification.map(TimeChange.to) ?? .now)
        try volume.setAttributes(of: self, change, following: followSymlinks)
    }

    /// Renames this entry within its directory and returns the new path.
    /// - Parameter newName: the new name; it must not contain `/`.
    /// - Throws: `FileError` with operation `.rename` (`EINVAL` for a name with `/` or an empty one,
    ///   `EEXIST` when the name is taken).
    /// Corresponds to `renameat2(2)` with `RENAME_NOREPLACE`.
    @discardableResult
    public func rename(to newName: String) throws(FileError) -> File {
        guard !newName.isEmpty, !newName.utf8.contains(0x2F), !isDotOrDotDot(newName.utf8) else {
            throw FileError(.rename, self, .invalidArgument, destination: File(path: newName))
        }
        let target = parent.appending(entryName: Array(newName.utf8))
        try renameEntry(to: target, replacing: false)
        return target
    }

    // MARK: - Internal helpers

    /// Follows symlinks at the final component (up to 40), so that writes land in the target.
    func resolvingFinalSymlinks() throws(FileError) -> File {
        var current = self
        for _ in 0..<40 {
            let target: File
            do {
                target = File(bytes: try current.volume.linkTarget(of: current))
            } catch where error.errno == .invalidArgument || error.errno == .noSuchFileOrDirectory {
                return current
            }
            current = target.isAbsolute ? current.rehoming(target) : current.parent + target
        }
        throw FileError(.open, self, .tooManySymbolicLinkLevels)
    }

    /// Opens the file in `mode` and writes all of `bytes`.
    func writeInPlace(_ bytes: [UInt8], mode: OpenMode) throws(FileError) {
        let output = try volume.open(self, mode, permissions: 0o666)
        defer { output.close() }
        try output.write(bytes[...])
    }

    /// How a link refers to its target.
    public enum LinkKind: Sendable, Hashable {
        /// A symbolic link holding the target's path as written.
        case symbolic
        /// Another name for the target's inode.
        case hard
    }

    /// Creates a link at this path; with `replacing`, whatever non-directory is there is
    /// replaced in one step: the link is made under a temporary name beside this path and renamed
    /// over it, so the old entry stays until the new link exists.
    /// - Throws: `FileError` with operation `.makeLink` (`EEXIST` without `replacing`, `EISDIR`
    ///   when a directory is in the way).
    /// Corresponds to `symlink(2)` or `link(2)`, then `rename(2)`.
    public func makeLink(_ kind: LinkKind, to target: File, replacing: Bool) throws(FileError) {
        func make(at path: File) throws(FileError) {
            switch kind {
            case .symbolic: try path.makeSymlink(to: target)
            case .hard: try path.makeHardLink(to: target)
            }
        }
        guard replacing else { return try make(at: self) }
        for _ in 0..<100 {
            let candidate = temporarySiblingName()
            do {
                try make(at: candidate)
            } catch where error.errno == .fileExists {
                continue
            } catch {
                throw FileError(.makeLink, self, error.errno, destination: target)
            }
            do {
                try candidate.renameReplacing(self)
            } catch {
                candidate.removeQuietlyAfterFailure()
                throw FileError(.makeLink, self, error.errno, destination: target)
            }
            // rename(2) between two names of one inode does nothing: the temporary name is left.
            do {
                try candidate.removeFile()
            } catch where error.errno == .noSuchFileOrDirectory {
                // Renamed away, as usual.
            }
            return
        }
        throw FileError(.makeLink, self, .fileExists, destination: target)
    }

    /// A fresh name next to this one for a temporary entry (`.name.XXXXXXXX.shelf-tmp`).
    private func temporarySiblingName() -> File {
        var name: [UInt8] = [0x2E]
        name.append(contentsOf: nameBytes.prefix(100))
        name.append(0x2E)
        name.append(contentsOf: hexDigits(Sys.randomNumber()))
        name.append(contentsOf: Array(".shelf-tmp".utf8))
        return parent.appending(entryName: name)
    }

    /// Creates a new, empty, uniquely named file next to this one (`.name.XXXXXXXX.shelf-tmp`)
    /// and returns it open for writing.
    func makeTemporarySibling(mode: UInt32) throws(FileError) -> (file: File, output: OpenFile) {
        for _ in 0..<100 {
            let candidate = temporarySiblingName()
            do {
                return (candidate, try volume.open(candidate, .create, permissions: (mode & 0o777) | 0o600))
            } catch where error.errno == .fileExists {
                continue
            } catch {
                throw FileError(.createFile, self, error.errno)
            }
        }
        throw FileError(.createFile, self, .fileExists)
    }

    /// Renames this file over `destination`, replacing what is there.
    func renameReplacing(_ destination: File) throws(FileError) {
        try renameEntry(to: destination, replacing: true)
    }

    /// Unlinks a temporary file after a failed write. The original failure is what the caller
    /// reports; a failure to clean up here cannot be reported more usefully than that one.
    func removeQuietlyAfterFailure() {
        try? volume.removeFile(self)
    }

    /// Renames this entry to `destination` on the same volume; neither final symlink is followed.
    /// - Throws: `FileError` with operation `.rename` (`EXDEV` for another volume).
    func renameEntry(to destination: File, replacing: Bool) throws(FileError) {
        guard destination.volume === volume else {
            throw FileError(.rename, self, .improperLink, destination: destination)
        }
        try volume.rename(self, to: destination, replacing: replacing)
    }

    /// `path` on this file's volume: an absolute symlink target means a path from its top.
    func rehoming(_ path: File) -> File {
        var result = path.on(volume)
        result.anchor = nil
        return result
    }
}

private func hexDigits(_ value: UInt64) -> [UInt8] {
    let digits = Array("0123456789abcdef".utf8)
    return (0..<8).map { digits[Int((value >> (UInt64($0) * 4)) & 0xF)] }
}
