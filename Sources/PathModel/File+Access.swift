import Glibc
import SystemPackage

extension File {
    /// Checks that the real user may write to this file (a symlink is followed).
    /// - Throws: `FileError` with operation `.open` (`EACCES` when writing is not allowed,
    ///   `EROFS` on a read-only file system).
    /// Corresponds to `access(2)` with `W_OK`.
    public func checkWritable() throws(FileError) {
        try volume.checkAccess(of: self, write: true)
    }
}
