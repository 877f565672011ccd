import Glibc
import PathModel
import SystemPackage

/// The one place where a `FileError` or a `TransferConflict` becomes words: GNU's words, as
/// coreutils under `LC_ALL=C` writes them.
public enum Diagnostics {
    /// `phrase 'path': reason`, with the operation's own phrase when `phrase` is nil
    /// (`cannot stat 'x': No such file or directory`, `cannot move 'a' to 'b': File exists`). Paths are quoted as GNU's messages quote
    /// them (`'a b'`, `"it's"`, `$'\n'`).
    public static func render(_ error: FileError, phrase: String?) -> String {
        let path = Quoting.always(error.path.bytes)
        guard let phrase else {
            let words = defaultPhrase(error.operation)
            guard let destination = error.destination, [.rename, .move, .copy].contains(error.operation)
            else {
                return "\(words) \(path): \(error.reason)"
            }
            return "\(words) \(path) to \(Quoting.always(destination.bytes)): \(error.reason)"
        }
        return "\(phrase) \(path): \(error.reason)"
    }

    /// GNU's words for a copy or move that conflicts with its destination (without the command
    /// name): `'a' and 'b' are the same file`, `cannot overwrite directory 'b' with non-directory`.
    /// `moving` words a directory moved into itself as mv does, else as cp does; `quoted` names
    /// each path as the user spelled it.
    static func render(_ conflict: TransferConflict, moving: Bool = false, quoted: (File) -> String) -> String
    {
        let source = quoted(conflict.source)
        let destination = quoted(conflict.destination)
        switch conflict.kind {
        case .sameFile:
            return "\(source) and \(destination) are the same file"
        case .intoItself where moving:
            return "cannot move \(source) to a subdirectory of itself, \(destination)"
        case .intoItself:
            return "cannot copy a directory, \(source), into itself, \(destination)"
        case .directoryOverNonDirectory:
            return "cannot overwrite non-directory \(destination) with directory \(source)"
        case .nonDirectoryOverDirectory:
            return "cannot overwrite directory \(destination) with non-directory"
        case .directoryCycle(let ancestorCopy):
            return "will not create hard link \(destination) to directory \(quoted(ancestorCopy))"
        case .danglingDestinationSymlink:
            return "not writing through dangling symlink \(destination)"
        }
    }

    /// The system's text for `errno`, as `strerror(3)` gives it (`No such file or directory`).
    static func reason(_ errno: Errno) -> String { String(cString: strerror(errno.rawValue)) }

    /// Words for what a storage service answered, in the place of the errno's text.
    static func reason(_ failure: FileError.ServiceFailure) -> String {
        switch failure {
        case .noSuchBucket: return "No such bucket"
        case .signatureMismatch: return "Signature does not match (wrong secret access key?)"
        case .unknownAccessKey: return "Unknown access key ID"
        case .missingCredentials:
            return "No credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE)"
        case .badSetting(let name, let value):
            return "Unusable setting \(name)=\(value) (an endpoint is http[s]://HOST[:PORT])"
        case .tlsFailure:
            return "TLS handshake failed (an https:// endpoint that speaks plain HTTP, or a certificate not trusted)"
        case .unknownProfile(let name):
            return "No profile \(name) (AWS_PROFILE) in the credentials or config file"
        case .serverFailure(let code): return "Server error" + (code.map { " (\($0))" } ?? "")
        case .refused(let code): return "Refused by the server (\(code))"
        case .malformedAnswer: return "Unreadable answer from the server"
        case .checksumMismatch: return "Checksum mismatch (the bytes changed on the way)"
        }
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

    private static func defaultPhrase(_ operation: FileError.Operation) -> String {
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
        case .clone: return "failed to clone"
        }
    }
}

extension FileError {
    /// The system's text for the errno (`No such file or directory`), or what a storage service
    /// said when it says more (`No such bucket`): the end of every message about this error.
    var reason: String { serviceFailure.map(Diagnostics.reason) ?? Diagnostics.reason(errno) }
}
