import SystemPackage

/// A failed file operation: what was attempted, on which path(s), and the errno the kernel gave.
///
/// PathModel never swallows an error; every throwing method throws this type. It is data only:
/// the words (`cannot stat 'x': No such file or directory`) are the shell's to choose, and
/// ShellCore's `Diagnostics` is where they are chosen.
public struct FileError: Error, Sendable, Hashable {
    /// The operation that failed.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case stat, open, read, write, list, makeDirectory, createFile, remove, removeDirectory
        case rename, copy, move, makeLink, readLink, setAttributes, sync, resolve
    }

    /// What was attempted.
    public var operation: Operation
    /// The path the operation was applied to.
    public var path: File
    /// The second path, for operations that have one (the destination of a copy, move or link).
    public var destination: File?
    /// The error number the kernel returned.
    public var errno: Errno

    /// An error for `operation` on `path`, optionally with a `destination`.
    public init(_ operation: Operation, _ path: File, _ errno: Errno, destination: File? = nil) {
        self.operation = operation
        self.path = path
        self.errno = errno
        self.destination = destination
    }
}
