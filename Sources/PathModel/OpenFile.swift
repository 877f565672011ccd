import Glibc
import SystemPackage

/// An open file descriptor with the few operations a shell needs: read, write, copy, close.
///
/// It does not close itself; call `close()` (or use `File.withOpened`). The three standard
/// streams exist as static members and are never closed by the shell.
public struct OpenFile: Sendable, Hashable {
    /// The descriptor number.
    public let descriptor: Int32
    /// The path it was opened from, for messages (`-` for the standard streams).
    public let file: File

    /// Wraps an existing descriptor.
    public init(descriptor: Int32, file: File) {
        self.descriptor = descriptor
        self.file = file
    }

    /// Standard input (descriptor 0).
    public static let standardInput = OpenFile(descriptor: 0, file: "-")
    /// Standard output (descriptor 1).
    public static let standardOutput = OpenFile(descriptor: 1, file: "-")
    /// Standard error (descriptor 2).
    public static let standardError = OpenFile(descriptor: 2, file: "-")

    /// Whether the descriptor is a terminal. Corresponds to `isatty(3)`.
    public var isTerminal: Bool { Sys.isTerminal(descriptor) }

    /// Whether a read would return without waiting: input is waiting, the writer has gone, or the
    /// descriptor is a regular file (always). Corresponds to `poll(2)` with no timeout.
    public var isReadable: Bool { Sys.isReadable(descriptor) }

    /// Reads up to `buffer.count` bytes into `buffer`; returns the count, 0 at the end.
    /// - Throws: `FileError` with operation `.read`.
    /// Corresponds to `read(2)`.
    public func read(into buffer: inout [UInt8]) throws(FileError) -> Int {
        do { return try Sys.read(descriptor, into: &buffer) } catch { throw FileError(.read, file, error) }
    }

    /// Reads everything from the offset to the end (of a file, a pipe, a terminal's input).
    /// - Throws: `FileError` with operation `.read`.
    /// Corresponds to `read(2)`.
    public func readAll() throws(FileError) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try read(into: &buffer)
            if count == 0 { return result }
            result += buffer[..<count]
        }
    }

    /// Reads up to `buffer.count` bytes at `offset` into `buffer`, leaving the descriptor's own
    /// offset alone; returns the count, 0 at or past the end.
    /// - Throws: `FileError` with operation `.read`.
    /// Corresponds to `pread(2)`.
    public func read(into buffer: inout [UInt8], at offset: UInt64) throws(FileError) -> Int {
        do { return try Sys.read(descriptor, into: &buffer, at: offset) } catch { throw FileError(.read, file, error) }
    }

    /// Writes all of `bytes`.
    /// - Throws: `FileError` with operation `.write` (`EPIPE` when the reader has gone).
    /// Corresponds to `write(2)`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        do { try Sys.writeAll(descriptor, bytes) } catch { throw FileError(.write, file, error) }
    }

    /// Writes all of `bytes`.
    /// - Throws: `FileError` with operation `.write` (`EPIPE` when the reader has gone).
    /// Corresponds to `write(2)`.
    public func write(_ bytes: ArraySlice<UInt8>) throws(FileError) {
        let result: Result<Void, FileError> = bytes.withUnsafeBytes { raw in
            Result { () throws(FileError) in try write(raw) }
        }
        try result.get()
    }

    /// What the kernel knows about the open file. Corresponds to `fstat(2)`.
    /// - Throws: `FileError` with operation `.stat`.
    public func info() throws(FileError) -> FileInfo {
        do { return FileInfo(try Sys.stat(fd: descriptor)) } catch { throw FileError(.stat, file, error) }
    }

    /// Copies everything from this descriptor's offset to its end into `output`, in the kernel
    /// when both ends allow it, else through a buffer. `isCancelled` is polled between chunks.
    /// - Throws: `FileError` (`.read` on this file, `.write` on the output; `ECANCELED` when cancelled).
    /// Corresponds to `copy_file_range(2)` (file to file), then `sendfile(2)` (file to a pipe, a
    /// device or a socket), falling back to `read(2)`/`write(2)`.
    public func copyAll(to output: OpenFile, isCancelled: () -> Bool = { false }) throws(FileError) {
        if try copyInKernel(to: output, isCancelled: isCancelled, Sys.copyFileRange(from:to:length:)) { return }
        if try copyInKernel(to: output, isCancelled: isCancelled, Sys.sendFile(from:to:length:)) { return }
        var buffer = [UInt8](repeating: 0, count: 1 << 17)
        while true {
            if isCancelled() { throw FileError(.write, output.file, .canceled) }
            let count = try read(into: &buffer)
            if count == 0 { return }
            try output.write(buffer[..<count])
        }
    }

    /// Copies with `call` in chunks of 16 MiB: true at the end of input, false as soon as the
    /// kernel says this pair of descriptors cannot be copied that way (what was copied stays).
    private func copyInKernel(
        to output: OpenFile, isCancelled: () -> Bool, _ call: (Int32, Int32, Int) throws(Errno) -> Int
    ) throws(FileError) -> Bool {
        while true {
            if isCancelled() { throw FileError(.write, output.file, .canceled) }
            do {
                if try call(descriptor, output.descriptor, 1 << 24) == 0 { return true }
            } catch where Self.kernelCopyRefusals.contains(error) {
                return false
            } catch {
                throw FileError(.write, output.file, error)
            }
        }
    }

    /// The errors by which copy_file_range(2) and sendfile(2) say "not for these descriptors".
    private static let kernelCopyRefusals: [Errno] = [
        .improperLink, .noFunction, .invalidArgument, .notSupported, .notPermitted, .badFileDescriptor,
    ]

    /// Closes the descriptor. Corresponds to `close(2)`.
    public func close() { Sys.close(descriptor) }
}

extension File {
    /// How to open a file.
    public enum OpenMode: Sendable, Hashable {
        /// Read only.
        case read
        /// Write, creating the file and cutting it to zero length.
        case truncate
        /// Write at the end, creating the file.
        case append
    }

    /// Opens this file.
    /// - Throws: `FileError` with operation `.open`.
    /// Corresponds to `open(2)`.
    public func open(_ mode: OpenMode) throws(FileError) -> OpenFile {
        let flags: Int32
        switch mode {
        case .read: flags = O_RDONLY | O_NOCTTY
        case .truncate: flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY
        case .append: flags = O_WRONLY | O_CREAT | O_APPEND | O_NOCTTY
        }
        do {
            let fd = try withLocation(following: true) { (dir, name, follow) throws(Errno) in
                try Sys.open(name, at: dir, flags: flags | (follow ? 0 : O_NOFOLLOW))
            }
            return OpenFile(descriptor: fd, file: self)
        } catch {
            throw FileError(.open, self, error)
        }
    }

    /// Opens a new temporary file next to this path for an atomic replacement: write to it, then
    /// `commit` renames it over this path, or `discard` removes it.
    /// - Throws: `FileError` with operation `.createFile`.
    public func openReplacement() throws(FileError) -> Replacement {
        let destination = try resolvingFinalSymlinks()
        var mode: UInt32 = 0o666 & ~UInt32(Sys.umask())
        do {
            mode = try destination.info(followSymlinks: true).permissions
        } catch where error.errno == .noSuchFileOrDirectory {
            // A new file gets the default mode.
        }
        let temporary = try destination.makeTemporarySibling(mode: mode)
        do {
            try Sys.chmod(fd: temporary.descriptor, mode: mode_t(mode))
        } catch {
            Sys.close(temporary.descriptor)
            temporary.file.removeQuietlyAfterFailure()
            throw FileError(.setAttributes, temporary.file, error)
        }
        return Replacement(output: OpenFile(descriptor: temporary.descriptor, file: self), temporary: temporary.file,
                           destination: destination)
    }
}

/// A temporary file that will atomically replace a destination; see `File.openReplacement()`.
public struct Replacement: Sendable {
    /// Where to write the new contents.
    public let output: OpenFile
    let temporary: File
    let destination: File

    /// Closes the temporary file and renames it over the destination. Call it, or `discard`,
    /// once: either one closes the descriptor.
    /// - Parameter sync: flush the data to the disk first (`fsync`), so that a crash right after
    ///   leaves the new contents or the old, never an empty file.
    /// - Throws: `FileError` (`.sync` or `.rename`); the temporary file is already closed and
    ///   removed then, so there is nothing left to discard.
    /// Corresponds to `fsync(2)`, `close(2)` and `rename(2)`.
    public func commit(sync: Bool = false) throws(FileError) {
        if sync {
            do { try Sys.fsync(output.descriptor) } catch {
                discard()
                throw FileError(.sync, destination, error)
            }
        }
        output.close()
        do {
            try temporary.renameReplacing(destination)
        } catch {
            temporary.removeQuietlyAfterFailure()
            throw error
        }
    }

    /// Closes and removes the temporary file, leaving the destination as it was.
    public func discard() {
        output.close()
        temporary.removeQuietlyAfterFailure()
    }
}
