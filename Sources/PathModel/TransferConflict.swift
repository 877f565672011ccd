import SystemPackage

/// Why one entry is not copied or moved onto another, whatever the kernel would allow: the two
/// are one file, the destination lies inside the source, one is a directory and the other not,
/// or the copy would loop or write where no file is.
///
/// It is data, as `FileError` is; the shell words it (`'a' and 'b' are the same file`). The
/// checks that `cp` and `mv` share are decided here, once: `between(_:_:_:existing:)` and
/// `intoItself(_:_:)`.
public struct TransferConflict: Error, Sendable, Hashable {
    /// What stands in the way.
    public enum Kind: Sendable, Hashable {
        /// The source and the destination are one file (one device and inode).
        case sameFile
        /// The destination is the source directory or lies below it.
        case intoItself
        /// The source is a directory and the destination an existing non-directory.
        case directoryOverNonDirectory
        /// The source is not a directory and the destination an existing directory.
        case nonDirectoryOverDirectory
        /// The source directory was met again below itself (a bind mount inside itself): its
        /// copy at the destination would repeat the one being made at `ancestorCopy`.
        case directoryCycle(ancestorCopy: File)
        /// The destination is a symlink that leads nowhere; a copy is not written through it,
        /// as GNU cp will not guess where such a file should be made.
        case danglingDestinationSymlink
    }

    /// What stands in the way.
    public var kind: Kind
    /// What was to be copied or moved.
    public var source: File
    /// Where it was to go.
    public var destination: File

    /// A conflict of `kind` between `source` and `destination`.
    public init(_ kind: Kind, source: File, destination: File) {
        self.kind = kind
        self.source = source
        self.destination = destination
    }

    /// The conflict between `source`, described by `info`, and what is at `destination`
    /// (`existing`, nil when nothing is): the same file, else a directory against a
    /// non-directory. Looks nothing up.
    public static func between(
        _ source: File, _ info: FileInfo, _ destination: File, existing: FileInfo?
    ) -> TransferConflict? {
        guard let existing else { return nil }
        if existing.identity == info.identity {
            return TransferConflict(.sameFile, source: source, destination: destination)
        }
        switch (info.kind == .directory, existing.kind == .directory) {
        case (true, false):
            return TransferConflict(.directoryOverNonDirectory, source: source, destination: destination)
        case (false, true):
            return TransferConflict(.nonDirectoryOverDirectory, source: source, destination: destination)
        default: return nil
        }
    }

    /// `.intoItself` when `destination` is the directory `source` or lies below it, spelled
    /// through `..` or symlinks or not.
    /// - Throws: `FileError` when the ancestors of `destination` cannot be looked up.
    public static func intoItself(_ source: File, _ destination: File) throws(FileError) -> TransferConflict?
    {
        try source.contains(destination)
            ? TransferConflict(.intoItself, source: source, destination: destination) : nil
    }
}

/// Why a copy or move did not happen: the system refused an operation, or the source and
/// destination conflict.
public enum TransferError: Error, Sendable, Hashable {
    /// An operation failed.
    case file(FileError)
    /// The source and destination conflict.
    case conflict(TransferConflict)

    /// The errno of a failed operation; nil for a conflict.
    public var errno: Errno? {
        if case .file(let error) = self { return error.errno }
        return nil
    }
}
