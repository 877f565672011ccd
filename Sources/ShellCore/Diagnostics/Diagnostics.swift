import PathModel

/// The one place where a `FileError` becomes words.
public enum Diagnostics {
    /// `phrase 'path': reason`, or the error's own wording when `phrase` is nil.
    /// Paths are quoted as GNU's messages quote them (`'a b'`, `"it's"`, `$'\n'`).
    public static func render(_ error: FileError, phrase: String?) -> String {
        let path = Quoting.always(error.path.bytes)
        let destination = error.destination.map { Quoting.always($0.bytes) } ?? "''"
        switch error.operation {
        case .copyIntoItself:
            return "cannot copy a directory, \(path), into itself, \(destination)"
        case .sameFile:
            return "\(path) and \(destination) are the same file"
        case .directoryCycle:
            return "will not create hard link \(path) to directory \(destination)"
        case .writeThroughDanglingSymlink:
            return "not writing through dangling symlink \(path)"
        default:
            break
        }
        let words = phrase ?? defaultPhrase(error.operation, destination: destination)
        return "\(words) \(path): \(error.reason)"
    }

    /// `path: reason`, the shape `cat` and `cd` use (`cat: x: No such file or directory`).
    public static func renderBare(_ error: FileError, as spelled: [UInt8]) -> String {
        let name = Quoting.bare(spelled)
        return "\(name): \(error.reason)"
    }

    /// GNU find's words for a directory that is one of its own ancestors (a bind mount inside
    /// itself): `File system loop detected; 'x/sub/mnt' is part of the same file system loop as 'x'.`
    static func fileSystemLoop(_ path: [UInt8], ancestor: [UInt8]) -> String {
        "File system loop detected; \(Quoting.always(path)) is part of the same file system loop as \(Quoting.always(ancestor))."
    }

    private static func defaultPhrase(_ operation: FileError.Operation, destination: String) -> String {
        switch operation {
        case .stat: return "cannot stat"
        case .open: return "cannot open"
        case .read: return "error reading"
        case .write: return "error writing"
        case .list: return "cannot open directory"
        case .makeDirectory: return "cannot create directory"
        case .createFile: return "cannot create regular file"
        case .remove: return "cannot remove"
        case .removeDirectory: return "failed to remove"
        case .rename, .move: return "cannot move"
        case .copy: return "cannot copy"
        case .makeLink: return "cannot create link"
        case .readLink: return "cannot read symbolic link"
        case .setAttributes: return "cannot set attributes of"
        case .sync: return "cannot sync"
        case .resolve: return "cannot resolve"
        case .copyIntoItself, .sameFile, .directoryCycle, .writeThroughDanglingSymlink: return "cannot copy"
        }
    }
}
