import SystemPackage

extension File {
    /// Creates an empty regular file, or leaves an existing one as it is unless `exclusive`.
    /// - Parameters:
    ///   - exclusive: fail with `EEXIST` when something is already there.
    ///   - mode: permission bits, less the umask.
    /// - Throws: `FileError` with operation `.createFile`.
    /// Corresponds to `open(2)` with `O_CREAT`.
    public func createFile(exclusive: Bool = false, mode: UInt32 = 0o666) throws(FileError) {
        do {
            try volume.open(self, exclusive ? .create : .append, permissions: mode).finish()
        } catch {
            throw error.reworded(as: .createFile, self)
        }
    }

    /// Replaces the file's contents with `bytes`.
    ///
    /// Atomic by default: the bytes go to a temporary file in the same directory, which is synced
    /// and renamed over this path, so a reader sees the old contents or the new, never a mix, and a
    /// failed write leaves the old contents in place. An existing file's permissions are kept; a
    /// symlink is written through to its target.
    /// - Parameter atomically: write in place instead (truncate, then write) when false.
    /// - Throws: `FileError` with operation `.write` (or `.createFile`/`.open` for the file itself).
    /// Corresponds to `open(2)`, `write(2)`, `fsync(2)` and `rename(2)`.
    public func write<Bytes: Collection>(bytes: Bytes, atomically: Bool = true) throws(FileError)
    where Bytes.Element == UInt8 {
        let contiguous = Array(bytes)
        let destination = try resolvingFinalSymlinks()
        if !atomically {
            try destination.writeInPlace(contiguous, mode: .truncate)
            return
        }
        let replacement = try destination.openReplacement()
        do {
            try replacement.output.write(contiguous[...])
        } catch {
            replacement.discard()
            throw error.reworded(as: .write, self)
        }
        // A failed commit has closed and removed the temporary file itself.
        do {
            try replacement.commit(sync: true)
        } catch {
            throw error.reworded(as: .write, self)
        }
    }

    /// Replaces the file's contents with `text` as UTF-8; atomic by default (see `write(bytes:)`).
    /// - Throws: `FileError` with operation `.write`.
    public func write(text: String, atomically: Bool = true) throws(FileError) {
        try write(bytes: Array(text.utf8), atomically: atomically)
    }

    /// Adds `bytes` to the end of the file, creating it when missing.
    /// - Throws: `FileError` with operation `.write` or `.open`.
    /// Corresponds to `open(2)` with `O_APPEND` and `write(2)`.
    public func append<Bytes: Collection>(bytes: Bytes) throws(FileError) where Bytes.Element == UInt8 {
        try writeInPlace(Array(bytes), mode: .append)
    }

    /// Adds `text` as UTF-8 to the end of the file, creating it when missing.
    /// - Throws: `FileError` with operation `.write` or `.open`.
    public func append(text: String) throws(FileError) { try append(bytes: Array(text.utf8)) }

    /// The whole contents of the file.
    /// - Throws: `FileError` with operation `.open` or `.read`.
    /// Corresponds to `open(2)` and `read(2)`.
    public func readBytes() throws(FileError) -> [UInt8] {
        let input = try volume.open(self, .read, permissions: 0)
        defer { input.close() }
        do {
            let size = try input.info().size
            var result: [UInt8] = []
            result.reserveCapacity(Int(clamping: size) + 1)
            var chunk = [UInt8](repeating: 0, count: Swift.max(65536, Swift.min(Int(clamping: size) + 1, 1 << 24)))
            while true {
                let count = try input.read(into: &chunk)
                if count == 0 { return result }
                result.append(contentsOf: chunk[..<count])
            }
        } catch {
            throw error.reworded(as: .read, self)
        }
    }

    /// The contents of the file as UTF-8 text.
    /// - Throws: `FileError` with operation `.read` and `EILSEQ` when the bytes are not UTF-8.
    public func readText() throws(FileError) -> String {
        let bytes = try readBytes()
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FileError(.read, self, .illegalByteSequence)
        }
        return text
    }

    /// Follows symlinks at the final component (up to 40), so that writes land in the target.
    /// On a volume without symlinks there is nothing to follow, and nothing is asked.
    func resolvingFinalSymlinks() throws(FileError) -> File {
        guard volume.capabilities.contains(.symlinks) else { return self }
        var current = self
        for _ in 0..<40 {
            let target: File
            do {
                target = File(bytes: try current.volume.linkTarget(of: current))
            } catch where error.errno == .invalidArgument || error.errno == .noSuchFileOrDirectory {
                return current
            }
            current = target.isAbsolute ? target.on(current.volume) : current.parent + target
        }
        throw FileError(.open, self, .tooManySymbolicLinkLevels)
    }

    /// Opens the file in `mode` and writes all of `bytes`.
    func writeInPlace(_ bytes: [UInt8], mode: OpenMode) throws(FileError) {
        let output = try volume.open(self, mode, permissions: 0o666)
        do { try output.write(bytes[...]) } catch {
            output.close()
            throw error
        }
        try output.finish()
    }
}
