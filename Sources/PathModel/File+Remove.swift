import SystemPackage

extension File {
    /// Removes this entry if it is an empty directory.
    /// - Throws: `FileError` with operation `.removeDirectory` (`ENOTEMPTY`, `ENOTDIR`…).
    /// Corresponds to `rmdir(2)`.
    public func removeEmptyDirectory() throws(FileError) {
        try volume.removeDirectory(self)
    }

    /// Removes this entry if it is not a directory (a symlink itself, never its target).
    /// - Throws: `FileError` with operation `.remove` (`EISDIR` for a directory).
    /// Corresponds to `unlink(2)`.
    public func removeFile() throws(FileError) {
        try volume.removeFile(self)
    }
}
