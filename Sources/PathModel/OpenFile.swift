import Glibc
import SystemPackage

/// An open file with the few operations a shell needs: read, write, copy, close. On a volume the
/// kernel reaches it is a file descriptor; on others (memory, remote storage) the volume's own
/// stream.
///
/// It does not close itself; call `close()`. The three standard streams exist as static members
/// and are never closed by the shell.
public struct OpenFile: Sendable, Hashable {
    /// What reads and writes go to.
    enum Backing: Sendable {
        case descriptor(Int32)
        case stream(any FileStream)
    }

    let backing: Backing
    /// The path it was opened from, for messages (`-` for the standard streams).
    public let file: File

    /// Wraps an existing descriptor.
    public init(descriptor: Int32, file: File) {
        backing = .descriptor(descriptor)
        self.file = file
    }

    /// Wraps a volume's stream.
    public init(stream: any FileStream, file: File) {
        backing = .stream(stream)
        self.file = file
    }

    /// The descriptor number, or nil for a volume's stream.
    public var descriptor: Int32? {
        if case .descriptor(let fd) = backing { return fd }
        return nil
    }

    /// Two open files are equal when they are the same descriptor or the same stream.
    public static func == (lhs: OpenFile, rhs: OpenFile) -> Bool {
        lhs.identity == rhs.identity && lhs.file == rhs.file
    }

    /// Hashes the descriptor or stream and the path.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
        hasher.combine(file)
    }

    /// The descriptor or the stream, as a value that tells one from the other.
    private enum Identity: Hashable {
        case descriptor(Int32)
        case stream(ObjectIdentifier)
    }

    private var identity: Identity {
        switch backing {
        case .descriptor(let fd): return .descriptor(fd)
        case .stream(let stream): return .stream(ObjectIdentifier(stream))
        }
    }

    /// Standard input (descriptor 0).
    public static let standardInput = OpenFile(descriptor: 0, file: "-")
    /// Standard output (descriptor 1).
    public static let standardOutput = OpenFile(descriptor: 1, file: "-")
    /// Standard error (descriptor 2).
    public static let standardError = OpenFile(descriptor: 2, file: "-")

    /// Whether the descriptor is a terminal (never a volume's stream). Corresponds to `isatty(3)`.
    public var isTerminal: Bool { descriptor.map(Sys.isTerminal) ?? false }

    /// Whether a read would return without waiting: input is waiting, the writer has gone, or the
    /// descriptor is a regular file or a volume's stream (always). Corresponds to `poll(2)` with
    /// no timeout.
    public var isReadable: Bool { descriptor.map(Sys.isReadable) ?? true }

    /// Reads up to `buffer.count` bytes into `buffer`; returns the count, 0 at the end.
    /// - Throws: `FileError` with operation `.read`.
    /// Corresponds to `read(2)`.
    public func read(into buffer: inout [UInt8]) throws(FileError) -> Int {
        switch backing {
        case .descriptor(let fd):
            do { return try Sys.read(fd, into: &buffer) } catch { throw FileError(.read, file, error) }
        case .stream(let stream):
            let result: Result<Int, FileError> = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(FileError) in try stream.read(into: raw) }
            }
            return try result.get()
        }
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
        switch backing {
        case .descriptor(let fd):
            do { return try Sys.read(fd, into: &buffer, at: offset) } catch { throw FileError(.read, file, error) }
        case .stream(let stream):
            let result: Result<Int, FileError> = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(FileError) in try stream.read(into: raw, at: offset) }
            }
            return try result.get()
        }
    }

    /// Takes the first `size` bytes of `source`, a file read by offset, when its stream offers
    /// to (`PieceTaker`: object storage reads the parts of a large upload from the source as
    /// they go, in parallel): true once the file is complete, false (nothing read) when the
    /// bytes are to be written in order instead. `progress` and `isCancelled` are as for
    /// `deliverPieces`. A source that ends before `size` (it shrank) fails with `EIO`.
    /// - Throws: `FileError` with operation `.write`, or `.read` for the source's own failure.
    /// Corresponds to `pread(2)` on the source.
    public func takePieces(
        of source: OpenFile, size: UInt64, progress: (_ bytes: UInt64) -> Void, isCancelled: () -> Bool
    ) throws(FileError) -> Bool {
        guard case .stream(let stream) = backing, let taker = stream as? any PieceTaker,
            case .descriptor(let fd) = source.backing
        else { return false }
        let sourceFile = source.file
        return try taker.takePieces(
            size: size,
            from: { (offset, buffer) throws(FileError) in
                var filled = 0
                while filled < buffer.count {
                    let got: Int
                    do throws(Errno) {
                        got = try Sys.read(
                            fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]),
                            at: offset + UInt64(filled))
                    } catch {
                        throw FileError(.read, sourceFile, error)
                    }
                    if got == 0 { throw FileError(.read, sourceFile, .ioError) }
                    filled += got
                }
            }, progress: progress, isCancelled: isCancelled)
    }

    /// Writes all of `bytes`.
    /// - Throws: `FileError` with operation `.write` (`EPIPE` when the reader has gone).
    /// Corresponds to `write(2)`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        switch backing {
        case .descriptor(let fd):
            do { try Sys.writeAll(fd, bytes) } catch { throw FileError(.write, file, error) }
        case .stream(let stream):
            try stream.write(bytes)
        }
    }

    /// Writes all of `bytes` at `offset`, leaving the descriptor's own offset alone; safe from
    /// several threads at once. Only a descriptor takes positional writes.
    /// - Throws: `FileError` with operation `.write` (`ESPIPE` for a pipe, a FIFO or a volume's
    ///   stream).
    /// Corresponds to `pwrite(2)`.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws(FileError) {
        guard case .descriptor(let fd) = backing else { throw FileError(.write, file, .illegalSeek) }
        do { try Sys.writeAll(fd, bytes, at: offset) } catch { throw FileError(.write, file, error) }
    }

    /// Hands every byte of the file to `sink` as pieces with their offsets, in any order and
    /// from several threads at once, when its stream offers to (`PieceSource`): true once all
    /// were delivered, false (nothing delivered) when the file is to be read in order instead.
    /// `progress` is told, on the caller's thread, of the bytes delivered since it was last
    /// told; `isCancelled` is polled there, and true stops the delivery with `ECANCELED`.
    /// - Throws: `FileError` with operation `.read`, or what `sink` threw.
    public func deliverPieces(
        to sink: @escaping @Sendable (_ offset: UInt64, _ bytes: UnsafeRawBufferPointer) throws(FileError) -> Void,
        progress: (_ bytes: UInt64) -> Void, isCancelled: () -> Bool
    ) throws(FileError) -> Bool {
        guard case .stream(let stream) = backing, let source = stream as? any PieceSource else { return false }
        return try source.deliverPieces(to: sink, progress: progress, isCancelled: isCancelled)
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
        switch backing {
        case .descriptor(let fd):
            do { return FileInfo(try Sys.stat(fd: fd)) } catch { throw FileError(.stat, file, error) }
        case .stream(let stream):
            return try stream.info()
        }
    }

    /// Changes the open file's owner, then permission bits, then times (changing the owner
    /// clears the set-user-ID and set-group-ID bits), whatever its name now leads to.
    /// - Throws: `FileError` with operation `.setAttributes`.
    /// Corresponds to `fchown(2)`, `fchmod(2)` and `futimens(2)`.
    public func setAttributes(_ change: AttributeChange) throws(FileError) {
        switch backing {
        case .descriptor(let fd):
            do throws(Errno) {
                if change.user != nil || change.group != nil {
                    try Sys.chown(fd: fd, uid: change.user ?? UInt32.max, gid: change.group ?? UInt32.max)
                }
                if let permissions = change.permissions { try Sys.chmod(fd: fd, mode: mode_t(permissions)) }
                if change.accessTime != .keep || change.modificationTime != .keep {
                    try Sys.setTimes(fd: fd, access: change.accessTime.timespec, modification: change.modificationTime.timespec)
                }
            } catch {
                throw FileError(.setAttributes, file, error)
            }
        case .stream(let stream):
            try stream.setAttributes(change)
        }
    }

    /// Cuts the open file to `size` bytes, or extends it with zero bytes to that size.
    /// - Throws: `FileError` with operation `.write` (`EINVAL` for a file that cannot be resized).
    /// Corresponds to `ftruncate(2)`.
    public func truncate(to size: UInt64) throws(FileError) {
        switch backing {
        case .descriptor(let fd):
            do {
                try Sys.truncate(fd, to: Int64(clamping: size))
            } catch {
                throw FileError(.write, file, error)
            }
        case .stream(let stream):
            try stream.truncate(to: size)
        }
    }

    /// Flushes what was written to the storage, so that a crash right after leaves it there.
    /// - Throws: `FileError` with operation `.sync`.
    /// Corresponds to `fsync(2)`; a volume's stream is stored when it is closed.
    public func sync() throws(FileError) {
        guard let descriptor else { return }
        do { try Sys.fsync(descriptor) } catch { throw FileError(.sync, file, error) }
    }

    /// Flushes the file's data to the storage, and of its metadata only what reading the data
    /// back needs (its size).
    /// - Throws: `FileError` with operation `.sync`.
    /// Corresponds to `fdatasync(2)`; a volume's stream is stored when it is closed.
    public func syncData() throws(FileError) {
        guard let descriptor else { return }
        do { try Sys.fdatasync(descriptor) } catch { throw FileError(.sync, file, error) }
    }

    /// Flushes everything written to the file system this file is on.
    /// - Throws: `FileError` with operation `.sync`.
    /// Corresponds to `syncfs(2)`; a volume's stream is stored when it is closed.
    public func syncFileSystem() throws(FileError) {
        guard let descriptor else { return }
        do { try Sys.syncfs(descriptor) } catch { throw FileError(.sync, file, error) }
    }

    /// The same open file, named `file` in messages.
    func named(_ file: File) -> OpenFile {
        switch backing {
        case .descriptor(let fd): return OpenFile(descriptor: fd, file: file)
        case .stream(let stream): return OpenFile(stream: stream, file: file)
        }
    }

    /// Copies everything from this descriptor's offset to its end into `output`, in the kernel
    /// when both ends allow it, else through a buffer. `isCancelled` is polled between chunks.
    /// A terminal is always read through the buffer: `sendfile` from it into a pipe waits for
    /// typing while holding the pipe's lock, so the pipe's reader could not even be interrupted.
    /// - Throws: `FileError` (`.read` on this file, `.write` on the output; `ECANCELED` when cancelled).
    /// Corresponds to `copy_file_range(2)` (file to file), then `sendfile(2)` (file to a pipe, a
    /// device or a socket), falling back to `read(2)`/`write(2)`.
    public func copyAll(to output: OpenFile, isCancelled: () -> Bool = { false }) throws(FileError) {
        if !isTerminal {
            if try copyInKernel(to: output, isCancelled: isCancelled, Sys.copyFileRange(from:to:length:)) { return }
            if try copyInKernel(to: output, isCancelled: isCancelled, Sys.sendFile(from:to:length:)) { return }
        }
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
        guard let descriptor, let outputDescriptor = output.descriptor else { return false }
        while true {
            if isCancelled() { throw FileError(.write, output.file, .canceled) }
            do {
                if try call(descriptor, outputDescriptor, 1 << 24) == 0 { return true }
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

    /// A new pipe: what is written to `output` is read from `input`. Both ends are closed when a
    /// program is started, unless handed to it as one of its standard streams.
    /// - Throws: `FileError` with operation `.open` (`EMFILE` when no descriptor is left).
    /// Corresponds to `pipe2(2)` with `O_CLOEXEC`.
    public static func pipe() throws(FileError) -> (input: OpenFile, output: OpenFile) {
        do {
            let (input, output) = try Sys.pipe()
            return (OpenFile(descriptor: input, file: "|"), OpenFile(descriptor: output, file: "|"))
        } catch {
            throw FileError(.open, "|", error)
        }
    }

    /// Ends a file that was written through: closes the descriptor, or finishes the volume's
    /// stream, which on object storage is when the object is sent (`close()` alone would abandon
    /// it there). Call it, rather than `close()`, once everything is written.
    /// - Throws: `FileError` with operation `.write` when what was written could not be kept.
    /// Corresponds to `close(2)`.
    public func finish() throws(FileError) {
        switch backing {
        case .descriptor(let fd): Sys.close(fd)
        case .stream(let stream): try stream.finish()
        }
    }

    /// Closes the descriptor, or ends the volume's stream. Corresponds to `close(2)`.
    public func close() {
        switch backing {
        case .descriptor(let fd): Sys.close(fd)
        case .stream(let stream): stream.close()
        }
    }
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
        /// Write a new file; fail with `EEXIST` when anything is there.
        case create
        /// Write in place from the first byte; the file must exist (`ENOENT` otherwise).
        case modify
        /// Read only, without waiting: a FIFO with no writer, or a device that is not ready,
        /// opens at once (`O_NONBLOCK`), to be synced or examined rather than read.
        case inspect
    }

    /// Flushes everything written to every file system to the storage.
    /// Corresponds to `sync(2)`.
    public static func syncAll() { Sys.syncAll() }

    /// Opens this file.
    /// - Throws: `FileError` with operation `.open`.
    /// Corresponds to `open(2)`.
    public func open(_ mode: OpenMode) throws(FileError) -> OpenFile {
        try volume.open(self, mode, permissions: 0o666)
    }

    /// Opens a new temporary file next to this path for an atomic replacement: write to it, then
    /// `commit` renames it over this path, or `discard` removes it.
    ///
    /// The new file takes the old one's permission bits, owner and group, so that replacing a
    /// file changes its contents alone. Where that cannot be done atomically — the user may write
    /// the file but not its directory, or may not give a file the old one's owner or group — the
    /// file itself is opened and emptied, as `open(2)` with `O_TRUNC` would (`isAtomic` is false).
    /// - Throws: `FileError` with operation `.open` (`EACCES` for an existing file the user may
    ///   not write, as `open(2)` refuses it) or `.createFile`.
    public func openReplacement() throws(FileError) -> Replacement {
        let destination = try resolvingFinalSymlinks()
        if !destination.volume.capabilities.contains(.atomicRename) {
            // Where a file appears only once complete (object storage), the file itself is written.
            return try Replacement(inPlace: destination, named: self)
        }
        var existing: FileInfo?
        do {
            existing = try destination.info(followSymlinks: true)
        } catch where error.errno == .noSuchFileOrDirectory {
            // A new file gets the default mode.
        }
        if existing != nil { try destination.checkWritable() }
        let mode = existing?.permissions ?? 0o666 & ~UInt32(Sys.umask())
        let temporary: (file: File, output: OpenFile)
        do {
            temporary = try destination.makeTemporarySibling(mode: mode)
        } catch where existing != nil && error.errno == .permissionDenied {
            return try Replacement(inPlace: destination, named: self)
        }
        do {
            if let existing {
                let made = try temporary.output.info()
                if made.userID != existing.userID || made.groupID != existing.groupID {
                    // Before the mode: a change of owner clears the set-ID bits.
                    try temporary.output.setAttributes(.owner(user: existing.userID, group: existing.groupID))
                }
            }
            // The new file's mode was cut by the umask; the old file's is kept whole.
            try temporary.output.setAttributes(.permissions(mode))
        } catch {
            temporary.output.close()
            temporary.file.removeQuietlyAfterFailure()
            if error.errno == .notPermitted { return try Replacement(inPlace: destination, named: self) }
            throw error
        }
        return Replacement(output: temporary.output.named(self), temporary: temporary.file, destination: destination)
    }
}

/// New contents for a destination: a temporary file that will atomically replace it, or the
/// destination itself where that cannot be done faithfully; see `File.openReplacement()`.
public struct Replacement: Sendable {
    /// Where to write the new contents.
    public let output: OpenFile
    /// The temporary file renamed over the destination, or nil where the destination itself is
    /// written (a volume on which a file appears only once complete).
    let temporary: File?
    let destination: File

    /// Whether the new contents appear all at once, by a rename; false where the destination
    /// itself is written (then `discard` leaves what was written so far).
    public var isAtomic: Bool { temporary != nil }

    init(output: OpenFile, temporary: File?, destination: File) {
        self.output = output
        self.temporary = temporary
        self.destination = destination
    }

    /// The destination itself, opened and emptied, written under the name `spelled`.
    init(inPlace destination: File, named spelled: File) throws(FileError) {
        let output = try destination.volume.open(destination, .truncate, permissions: 0o666)
        self.init(output: output.named(spelled), temporary: nil, destination: destination)
    }

    /// Closes the temporary file and renames it over the destination (or finishes the
    /// destination written in place). Call it, or `discard`, once: either one closes the output.
    /// - Parameter sync: flush the data to the disk first (`fsync`), so that a crash right after
    ///   leaves the new contents or the old, never an empty file.
    /// - Throws: `FileError` (`.sync` or `.rename`); the temporary file is already closed and
    ///   removed then, so there is nothing left to discard.
    /// Corresponds to `fsync(2)`, `close(2)` and `rename(2)`.
    public func commit(sync: Bool = false) throws(FileError) {
        guard let temporary else { return try output.finish() }
        if sync {
            do { try output.sync() } catch {
                discard()
                throw error.reworded(as: .sync, destination)
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

    /// Closes and removes the temporary file (abandons the destination's new contents), leaving
    /// the destination as it was; a destination written in place keeps what was written.
    public func discard() {
        output.close()
        temporary?.removeQuietlyAfterFailure()
    }
}
