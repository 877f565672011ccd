import SystemPackage

extension File {
    /// Creates a symbolic link at this path that holds `target`.
    /// - Throws: `FileError` with operation `.makeLink`.
    /// Corresponds to `symlink(2)`.
    public func makeSymlink(to target: File) throws(FileError) {
        do {
            try volume.makeSymlink(self, target: target.bytes)
        } catch {
            throw error.reworded(as: .makeLink, self, destination: target)
        }
    }

    /// Creates a hard link at this path to the existing file `existing`.
    /// - Throws: `FileError` with operation `.makeLink`.
    /// Corresponds to `link(2)`.
    public func makeHardLink(to existing: File) throws(FileError) {
        guard existing.volume === volume else { throw FileError(.makeLink, self, .improperLink, destination: existing) }
        try volume.makeHardLink(self, to: existing)
    }

    /// How a link refers to its target.
    public enum LinkKind: Sendable, Hashable {
        /// A symbolic link holding the target's path as written.
        case symbolic
        /// Another name for the target's inode.
        case hard
    }

    /// Creates a link at this path; with `replacing`, whatever non-directory is there is
    /// replaced in one step: the link is made under a temporary name beside this path and renamed
    /// over it, so the old entry stays until the new link exists.
    /// - Throws: `FileError` with operation `.makeLink` (`EEXIST` without `replacing`, `EISDIR`
    ///   when a directory is in the way).
    /// Corresponds to `symlink(2)` or `link(2)`, then `rename(2)`.
    public func makeLink(_ kind: LinkKind, to target: File, replacing: Bool) throws(FileError) {
        func make(at path: File) throws(FileError) {
            switch kind {
            case .symbolic: try path.makeSymlink(to: target)
            case .hard: try path.makeHardLink(to: target)
            }
        }
        guard replacing else { return try make(at: self) }
        for _ in 0..<100 {
            let candidate = temporarySiblingName()
            do {
                try make(at: candidate)
            } catch where error.errno == .fileExists {
                continue
            } catch {
                throw error.reworded(as: .makeLink, self, destination: target)
            }
            do {
                try candidate.renameReplacing(self)
            } catch {
                candidate.removeQuietlyAfterFailure()
                throw error.reworded(as: .makeLink, self, destination: target)
            }
            // rename(2) between two names of one inode does nothing: the temporary name is left.
            do {
                try candidate.removeFile()
            } catch where error.errno == .noSuchFileOrDirectory {
                // Renamed away, as usual.
            }
            return
        }
        throw FileError(.makeLink, self, .fileExists, destination: target)
    }
}
