import Glibc
import SystemPackage

extension File {
    /// Makes this directory the process's current directory.
    ///
    /// Only the interactive shell calls this, to keep the process in step with the shell's own
    /// current directory; commands resolve operands against the shell's directory instead.
    /// - Throws: `FileError` with operation `.resolve` (`ENOENT`, `ENOTDIR`, `EACCES`).
    /// Corresponds to `chdir(2)`, or `fchdir(2)` in a sandbox.
    public func makeCurrentDirectory() throws(FileError) {
        do {
            guard !isLocal else {
                return try withCString { (path) throws(Errno) in try Sys.changeDirectory(path) }
            }
            try withLocation(following: true) { (dir, name, _) throws(Errno) in
                let fd = try Sys.open(name, at: dir, flags: Sys.pathOnly | O_DIRECTORY | O_NOFOLLOW)
                defer { Sys.close(fd) }
                try Sys.changeDirectory(fd: fd)
            }
        } catch {
            throw FileError(.resolve, self, error)
        }
    }
}
