import Glibc
import SystemPackage

/// A directory held open, whose entries are listed and examined by name relative to it.
///
/// Examining an entry through the open directory (`fstatat`) spares building a path for each
/// entry and the kernel walking that path from the start: the fast way to list a large directory
/// with metadata (`ls -l`). Close it with `close()`; it also closes when released.
///
///     let directory = try File(path: "/etc").openDirectory()
///     try directory.forEachEntry { entry in
///         let info = try directory.info(ofEntry: entry.name)
///     }
public final class OpenDirectory {
    /// The directory's path, for messages.
    public let file: File
    private var stream: DirectoryStream?

    init(file: File, stream: DirectoryStream) {
        self.file = file
        self.stream = stream
    }

    deinit { close() }

    /// Calls `body` for each entry, in the order the kernel gives them, without `.` and `..`.
    ///
    /// The stream is read once: a second call yields nothing.
    /// - Throws: `FileError` with operation `.list`, or what `body` throws.
    /// Corresponds to `readdir(3)`.
    public func forEachEntry(_ body: (DirectoryEntry) throws(FileError) -> Void) throws(FileError) {
        guard let stream else { throw FileError(.list, file, .badFileDescriptor) }
        while true {
            let next: (name: [UInt8], type: UInt8)?
            do { next = try stream.next() } catch { throw FileError(.list, file, error) }
            guard let next else { return }
            try body(DirectoryEntry(name: next.name, kind: FileKind(directoryEntryType: next.type)))
        }
    }

    /// What the kernel knows about the entry called `name`; symlinks are described, not followed,
    /// unless asked.
    ///
    /// - Parameters:
    ///   - name: the entry's name within this directory (one component, no slash).
    ///   - followSymlinks: describe what a symlink points to instead of the link itself.
    /// - Throws: `FileError` with operation `.stat` on the entry's full path.
    /// Corresponds to `statx(2)` relative to the directory (as `fstatat`), plus `readlinkat(2)`
    /// for a symlink.
    public func info(ofEntry name: [UInt8], followSymlinks: Bool = false) throws(FileError) -> FileInfo {
        guard let stream else { throw FileError(.stat, file.appending(name: name), .badFileDescriptor) }
        let directory = stream.descriptor
        do {
            return try withCName(name) { (path) throws(Errno) -> FileInfo in
                let raw = try Sys.stat(path, at: directory, follow: followSymlinks)
                guard FileKind(mode: raw.mode) == .symlink else { return FileInfo(raw) }
                return FileInfo(raw, linkTarget: File(bytes: try Sys.readlink(path, at: directory)))
            }
        } catch {
            throw FileError(.stat, file.appending(name: name), error)
        }
    }

    /// What the kernel knows about the directory itself.
    /// - Throws: `FileError` with operation `.stat`.
    /// Corresponds to `fstat(2)` (through `statx(2)`).
    public func info() throws(FileError) -> FileInfo {
        guard let stream else { throw FileError(.stat, file, .badFileDescriptor) }
        do { return FileInfo(try Sys.stat(fd: stream.descriptor)) } catch {
            throw FileError(.stat, file, error)
        }
    }

    /// Closes the directory; later calls throw `EBADF`. Corresponds to `closedir(3)`.
    public func close() {
        stream?.close()
        stream = nil
    }
}

extension File {
    /// Opens this directory to list its entries and examine them by name (see `OpenDirectory`).
    /// A final symlink is followed.
    /// - Throws: `FileError` with operation `.list`.
    /// Corresponds to `open(2)` with `O_DIRECTORY` and `fdopendir(3)`.
    public func openDirectory() throws(FileError) -> OpenDirectory {
        do {
            let stream = try withCString { (path) throws(Errno) in try Sys.openDirectory(path) }
            return OpenDirectory(file: self, stream: stream)
        } catch {
            throw FileError(.list, self, error)
        }
    }
}
