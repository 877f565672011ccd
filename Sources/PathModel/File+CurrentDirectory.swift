import SystemPackage

extension File {
    /// Makes this directory the process's current directory.
    ///
    /// Only the interactive shell calls this, to keep the process in step with the shell's own
    /// current directory; commands resolve operands against the shell's directory instead.
    /// - Throws: `FileError` with operation `.resolve` (`ENOENT`, `ENOTDIR`, `EACCES`).
    /// Corresponds to `chdir(2)`.
    public func makeCurrentDirectory() throws(FileError) {
        do {
            try withCString { (path) throws(Errno) in try Sys.changeDirectory(path) }
        } catch {
            throw FileError(.resolve, self, error)
        }
    }
}
