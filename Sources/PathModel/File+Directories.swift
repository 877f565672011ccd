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
        var created: [File] = []
        for directory in try missingDirectories() {
            do {
                try volume.makeDirectory(directory, permissions: mode)
                created.append(directory)
            } catch where error.errno == .fileExists && directory.isDirectory {
                continue  // made by someone else meanwhile: mkdir -p accepts that.
            }
        }
        return created
    }

    /// The directories `makeDirectory(intermediates: true)` makes for this path, outermost
    /// first; none when it is a directory already. Changes nothing (`mkdir -p --dry-run`).
    /// - Throws: `FileError` with operation `.makeDirectory`, as making them would: `EEXIST` for
    ///   the path taken by something that is not a directory, `ENOTDIR` naming such a thing above it.
    public func missingDirectories() throws(FileError) -> [File] {
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
                throw error.reworded(as: .makeDirectory, self)
            }
        }
        return missing.reversed()
    }
}
