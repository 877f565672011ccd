import CPathModel
import Glibc
import Synchronization
import SystemPackage

/// An open directory of a `DescriptorVolume` (the local file system or a sandbox): a descriptor
/// from which the entries below it are reached by the `*at` system calls.
///
/// For a directory in a sandbox, a call that follows no final symlink on one of its own entries,
/// or on an entry whose parent the kernel finds beneath it (`RESOLVE_BENEATH`), goes through the
/// descriptor: neither can leave the directory. Other relative paths (`..` above it, symlinks that
/// lead out) are resolved in the sandbox, from its top, like any other path there, since the
/// descriptor does not confine the symlinks below it.
final class DescriptorDirectory: VolumeDirectory {
    /// The directory's path, used to name files in errors.
    let file: File
    private let descriptor: Int32
    /// The sandbox the directory is in, if it is in one.
    private let sandbox: Sandbox?
    /// Whether the descriptor has been read as a directory stream (it is then at its end).
    private let ownStreamTaken = Atomic<Bool>(false)

    /// Opens the directory at `file`, following a final symlink unless told not to.
    /// - Throws: `FileError` with operation `.list`.
    /// Corresponds to `open(2)` with `O_DIRECTORY`.
    init(_ file: File, following: Bool = true) throws(FileError) {
        self.file = file
        sandbox = file.sandbox
        do {
            descriptor = try file.withLocation(following: following) { (dir, name, follow) throws(Errno) in
                try Sys.open(name, at: dir, flags: O_RDONLY | O_DIRECTORY | (follow ? 0 : O_NOFOLLOW))
            }
        } catch {
            throw FileError(.list, file, error)
        }
    }

    /// Opens the directory at `relative` below `parent` (`[]` for `parent` itself), following a
    /// final symlink unless told not to.
    /// - Throws: `FileError` with operation `.list`.
    /// Corresponds to `openat(2)` with `O_DIRECTORY`.
    init(_ relative: [UInt8], in parent: DescriptorDirectory, following: Bool, path: File) throws(FileError) {
        file = path
        sandbox = parent.sandbox
        do {
            descriptor = try parent.withRelative(relative, following: following, refusesSymlinks: true) {
                (dir, name, follow) throws(Errno) in
                try Sys.open(name, at: dir, flags: O_RDONLY | O_DIRECTORY | (follow ? 0 : O_NOFOLLOW))
            }
        } catch {
            throw FileError(.list, file, error)
        }
    }

    deinit { Sys.close(descriptor) }

    /// Calls `body` with the directory descriptor, name and follow flag for a `*at` call on
    /// `relative` below this directory (`.` for `[]`).
    ///
    /// In a sandbox, an entry of this directory, or one beneath it, is reached through the
    /// descriptor with the follow flag off (`withEntryBelow`); when `following` asks for a symlink
    /// to be followed, that is done only for a call that `refusesSymlinks` (fails with ELOOP or
    /// ENOTDIR on one, as `O_NOFOLLOW` opens do), which is then made again on the path resolved in
    /// the sandbox. Anything else is resolved in the sandbox, as `File.withLocation` does.
    private func withRelative<R>(
        _ relative: [UInt8], following: Bool, refusesSymlinks: Bool = false,
        _ body: (Int32, UnsafePointer<CChar>, Bool) throws(Errno) -> R
    ) throws(Errno) -> R {
        let spelled = relative.isEmpty ? [0x2E] : relative
        guard sandbox != nil else {
            return try withCName(spelled) { (name) throws(Errno) in try body(descriptor, name, following) }
        }
        if !following || refusesSymlinks || relative.isEmpty {
            do {
                if let result = try withEntryBelow(relative, body) { return result }
            } catch where following && (error == .tooManySymbolicLinkLevels || error == .notDirectory) {
                // Perhaps a symlink (O_NOFOLLOW | O_DIRECTORY gives ENOTDIR for one): followed
                // below, inside the sandbox.
            }
        }
        return try path(relative).withLocation(following: following, body)
    }

    /// In a sandbox, calls `body` on `relative` through this directory's descriptor when that
    /// cannot leave it: an entry of its own, or one whose parent the kernel finds beneath it
    /// (`openat2(2)` with `RESOLVE_BENEATH`). A final symlink is not followed. Nil when the
    /// parent cannot be found that way (it is above, a symlink leads out, the kernel has no
    /// `openat2`): the caller resolves it in the sandbox, which also reports any error.
    private func withEntryBelow<R>(
        _ relative: [UInt8], _ body: (Int32, UnsafePointer<CChar>, Bool) throws(Errno) -> R
    ) throws(Errno) -> R? {
        guard let slash = relative.lastIndex(of: 0x2F) else {
            // An entry of this directory: nothing to resolve.
            if relative == [0x2E, 0x2E] { return nil }
            return try withCName(relative.isEmpty ? [0x2E] : relative) { (name) throws(Errno) in
                try body(descriptor, name, false)
            }
        }
        let name = Array(relative[(slash + 1)...])
        if name.isEmpty || name == [0x2E] || name == [0x2E, 0x2E] { return nil }
        guard let sandbox, sandbox.kernelResolves.load(ordering: .relaxed) else { return nil }
        let parent: Int32
        do {
            parent = try withCName(Array(relative[..<slash])) { (raw) throws(Errno) in
                try Sys.openBeneath(raw, in: descriptor, flags: Sys.pathOnly | O_DIRECTORY)
            }
        } catch {
            return nil
        }
        defer { Sys.close(parent) }
        return try withCName(name) { (raw) throws(Errno) in try body(parent, raw, false) }
    }

    func openDirectory(at relative: [UInt8], following: Bool, path: File) throws(FileError) -> any VolumeDirectory {
        try DescriptorDirectory(relative, in: self, following: following, path: path)
    }

    func remove(at name: [UInt8], directory: Bool) throws(FileError) {
        do {
            try withRelative(name, following: false) { (dir, raw, _) throws(Errno) in
                if directory { try Sys.rmdir(raw, at: dir) } else { try Sys.unlink(raw, at: dir) }
            }
        } catch {
            throw FileError(directory ? .removeDirectory : .remove, path(name), error)
        }
    }

    /// The names are read into one buffer and sorted there, which is several times faster for a
    /// large directory than sorting arrays of names.
    func listing(at relative: [UInt8], withIdentity: Bool, sorted: Bool) throws(FileError) -> (
        entries: [DirectoryEntry], identity: FileIdentity?
    ) {
        var identity: FileIdentity?
        var listing = try read(relative) { (stream) throws(FileError) in
            if withIdentity {
                do throws(Errno) {
                    identity = try Sys.identity(fd: stream.descriptor)
                } catch {
                    throw FileError(.stat, path(relative), error)
                }
            }
        }
        if sorted { listing.sortByBytes() }
        return (listing.entries, identity)
    }

    func readListing() throws(FileError) -> DirectoryListing { try read([]) { _ in } }

    /// The entries of the directory at `relative`, read into one buffer; `opened` is called with
    /// the stream before it is read.
    private func read(
        _ relative: [UInt8], opened: (DirectoryStream) throws(FileError) -> Void
    ) throws(FileError) -> DirectoryListing {
        let stream: DirectoryStream
        do { stream = try openStream(at: relative) } catch { throw FileError(.list, path(relative), error) }
        defer { stream.close() }
        try opened(stream)
        var listing = DirectoryListing()
        do { try listing.read(stream) } catch { throw FileError(.read, path(relative), error) }
        return listing
    }

    func forEachEntry(
        at relative: [UInt8], identity: ((FileIdentity) -> Void)?, _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) {
        let stream: DirectoryStream
        do { stream = try openStream(at: relative) } catch { throw FileError(.list, path(relative), error) }
        defer { stream.close() }
        if let identity {
            do { identity(try Sys.identity(fd: stream.descriptor)) } catch { throw FileError(.stat, path(relative), error) }
        }
        while true {
            let next: (name: [UInt8], type: UInt8)?
            do { next = try stream.next() } catch { throw FileError(.read, path(relative), error) }
            guard let next else { return }
            try body(DirectoryEntry(name: next.name, kind: FileKind(directoryEntryType: next.type)))
        }
    }

    /// A directory stream on `relative` below this directory (`.` for `[]`). The first stream on
    /// the directory itself reads its own descriptor (one open per directory read); later ones
    /// open it again, to start from its first entry.
    private func openStream(at relative: [UInt8]) throws(Errno) -> DirectoryStream {
        if relative.isEmpty, !ownStreamTaken.exchange(true, ordering: .relaxed) {
            return DirectoryStream(descriptor: descriptor, owning: false)
        }
        return try withRelative(relative, following: true, refusesSymlinks: true) { (dir, name, follow) throws(Errno) in
            try Sys.openDirectory(name, at: dir, follow: follow)
        }
    }

    /// What the kernel knows about the entry at `relative` below this directory; a symlink is
    /// described, not followed, unless asked. A symlink's target is not read here (`linkTarget`
    /// is nil): `linkTarget(at:)` gives it byte for byte.
    /// - Throws: `FileError` with operation `.stat`.
    /// Corresponds to `fstatat(2)` (as `statx(2)`).
    func info(at relative: [UInt8], following followSymlinks: Bool) throws(FileError) -> FileInfo {
        // The kernel's record is filled in place and made into a `FileInfo` once: both are large,
        // and a walk that examines every entry would copy them through each closure.
        var raw = pathmodel_stat()
        do {
            try withRelative(relative, following: followSymlinks) { (dir, name, follow) throws(Errno) in
                try Sys.stat(name, at: dir, follow: follow, into: &raw)
            }
        } catch {
            throw FileError(.stat, path(relative), error)
        }
        return FileInfo(raw)
    }

    /// Examines every entry through the descriptor, each name as the listing holds it (a
    /// listing's names are single components, never `..`, so even in a sandbox none can lead
    /// out when its final symlink is not followed).
    /// Corresponds to `fstatat(2)` (as `statx(2)`) for each entry.
    func infos(of listing: DirectoryListing) -> [FileInfo?] {
        var infos: [FileInfo?] = []
        infos.reserveCapacity(listing.count)
        var raw = pathmodel_stat()
        listing.forEachCName { name in
            do {
                try Sys.stat(name, at: descriptor, follow: false, into: &raw)
                infos.append(FileInfo(raw))
            } catch {
                infos.append(nil)
            }
        }
        return infos
    }

    /// The (device, inode) of this directory itself, which tells a directory reached again
    /// (through a bind mount of one of its ancestors) from a new one.
    /// - Throws: `FileError` with operation `.stat`.
    /// Corresponds to `fstat(2)`.
    func identity() throws(FileError) -> FileIdentity {
        do { return try Sys.identity(fd: descriptor) } catch { throw FileError(.stat, file, error) }
    }

    /// The target the symlink at `relative` below this directory holds, exactly as written in the
    /// link (a trailing or doubled slash is kept).
    /// - Throws: `FileError` with operation `.readLink` (`EINVAL` when it is not a symlink).
    /// Corresponds to `readlinkat(2)`.
    func linkTarget(at relative: [UInt8]) throws(FileError) -> [UInt8] {
        do {
            return try withRelative(relative, following: false) { (dir, name, _) throws(Errno) in
                try Sys.readlink(name, at: dir)
            }
        } catch {
            throw FileError(.readLink, path(relative), error)
        }
    }
}
