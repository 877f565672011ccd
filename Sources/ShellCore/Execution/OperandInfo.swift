import PathModel

extension CommandContext {
    /// What the kernel knows about an operand, read the way the kernel reads the operand as typed.
    ///
    /// `File` drops a trailing slash, but the kernel does not: `x/` must be a directory, reached
    /// through a symlink if need be, and an empty name names nothing.
    /// - Throws: `FileError` with operation `.stat` (`ENOTDIR` for `file/`, `ENOENT` for `''`).
    /// Corresponds to `statx(2)`.
    func info(of operand: Argument, followSymlinks: Bool) throws(FileError) -> FileInfo {
        let path = resolve(operand)
        guard !operand.bytes.isEmpty else { throw FileError(.stat, path, .noSuchFileOrDirectory) }
        guard operand.bytes.last == 0x2F else { return try path.info(followSymlinks: followSymlinks) }
        let info = try path.info(followSymlinks: true)
        guard info.kind == .directory else { throw FileError(.stat, path, .notDirectory) }
        return info
    }
}

extension CommandContext {
    /// Opens an operand for reading, as the kernel opens the operand as typed: `x/` must be a
    /// directory, reached through a symlink if need be, though `File` drops the slash.
    /// - Throws: `FileError`: `.stat` with `ENOTDIR` for `file/`, `.open` otherwise.
    /// Corresponds to `open(2)`.
    func openForReading(_ operand: Argument) throws(FileError) -> OpenFile {
        let file = resolve(operand)
        // Checked before opening: a FIFO written `fifo/` must fail at once, not wait for a writer.
        if operand.hasTrailingSlash { _ = try operand.info(at: file, followSymlinks: true) }
        return try file.open(.read)
    }
}
