import Glibc
import SystemPackage

extension File {
    /// Renames this entry to `destination` (a full path, in any directory of the same file
    /// system), and nothing else: unlike `move(to:force:)`, it never falls back to copying.
    ///
    /// A shell's `mv` uses it to make its own, cancellable copy when the rename is refused with
    /// `EXDEV` (another file system).
    /// - Parameter replacing: replace an existing destination (atomically, as `rename(2)` does);
    ///   otherwise fail with `EEXIST`.
    /// - Throws: `FileError` with operation `.move` and the kernel's errno (`EXDEV`, `ENOTEMPTY`,
    ///   `EISDIR`, `ENOTDIR`, `EINVAL` for a directory moved below itself…).
    /// Corresponds to `renameat2(2)`, with `RENAME_NOREPLACE` unless `replacing`.
    public func moveByRenaming(to destination: File, replacing: Bool) throws(FileError) {
        do {
            try renameEntry(to: destination, replacing: replacing)
        } catch {
            throw error.reworded(as: .move, self, destination: destination)
        }
    }
}

extension File {
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

    /// Renames this file over `destination`, replacing what is there.
    func renameReplacing(_ destination: File) throws(FileError) {
        try renameEntry(to: destination, replacing: true)
    }

    /// Renames this entry to `destination` on the same volume; neither final symlink is followed.
    /// - Throws: `FileError` with operation `.rename` (`EXDEV` for another volume).
    func renameEntry(to destination: File, replacing: Bool) throws(FileError) {
        guard destination.volume === volume else {
            throw FileError(.rename, self, .improperLink, destination: destination)
        }
        try volume.rename(self, to: destination, replacing: replacing)
    }
}
