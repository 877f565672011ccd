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
