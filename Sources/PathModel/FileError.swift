import Glibc
import SystemPackage

/// A failed file operation: what was attempted, on which path(s), and the errno the kernel gave.
///
/// PathModel never swallows an error; every throwing method throws this type. The wording of
/// `description` follows coreutils (`cannot stat '/x/y': No such file or directory`); a shell
/// renders its own command-specific phrasing from the same data.
public struct FileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operation that failed.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case stat, open, read, write, list, makeDirectory, createFile, remove, removeDirectory
        case rename, copy, move, makeLink, readLink, setAttributes, sync, resolve
        /// Copying or moving a directory into itself or below itself.
        case copyIntoItself
        /// Source and destination are the same file.
        case sameFile
        /// A directory met again below itself (a bind mount inside itself) during a copy: its
        /// copy at `path` would repeat the one being made at `destination`.
        case directoryCycle
        /// Writing a copy through a destination symlink that leads nowhere (refused, as GNU cp
        /// refuses it).
        case writeThroughDanglingSymlink
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

    /// The system's text for the errno, as `strerror(3)` gives it (`No such file or directory`).
    public var reason: String { String(cString: strerror(errno.rawValue)) }

    /// The coreutils-shaped message, e.g. `cannot stat 'a b': No such file or directory`.
    public var description: String {
        let quoted = "'" + path.string + "'"
        let phrase: String
        switch operation {
        case .stat: phrase = "cannot stat \(quoted)"
        case .open: phrase = "cannot open \(quoted)"
        case .read: phrase = "error reading \(quoted)"
        case .write: phrase = "error writing \(quoted)"
        case .list: phrase = "cannot open directory \(quoted)"
        case .makeDirectory: phrase = "cannot create directory \(quoted)"
        case .createFile: phrase = "cannot create regular file \(quoted)"
        case .remove: phrase = "cannot remove \(quoted)"
        case .removeDirectory: phrase = "failed to remove \(quoted)"
        case .rename, .move:
            phrase = "cannot move \(quoted) to '\(destination?.string ?? "")'"
        case .copy:
            phrase = "cannot copy \(quoted) to '\(destination?.string ?? "")'"
        case .makeLink: phrase = "cannot create link \(quoted)"
        case .readLink: phrase = "cannot read symbolic link \(quoted)"
        case .setAttributes: phrase = "cannot set attributes of \(quoted)"
        case .sync: phrase = "cannot sync \(quoted)"
        case .resolve: phrase = "cannot resolve \(quoted)"
        case .copyIntoItself:
            return "cannot copy a directory, \(quoted), into itself, '\(destination?.string ?? "")'"
        case .sameFile:
            return "\(quoted) and '\(destination?.string ?? "")' are the same file"
        case .directoryCycle:
            return "will not create hard link \(quoted) to directory '\(destination?.string ?? "")'"
        case .writeThroughDanglingSymlink:
            return "not writing through dangling symlink \(quoted)"
        }
        return phrase + ": " + reason
    }
}
