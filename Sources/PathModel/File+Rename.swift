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
            throw FileError(.move, self, error.errno, destination: destination)
        }
    }
}
