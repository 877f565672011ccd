import PathModel

extension Argument {
    /// Whether the operand ends with a slash (`link/`), which asks for a directory: the one a
    /// symlink leads to, if it is a symlink.
    var hasTrailingSlash: Bool { bytes.count > 1 && bytes.last == 0x2F }

    /// The operand as GNU's tree walks spell it in messages: repeated trailing slashes become
    /// one, except in `//`.
    var walkSpelling: [UInt8] {
        var result = bytes
        guard result.count > 2 else { return result }
        while result.count > 1, result.last == 0x2F, result[result.count - 2] == 0x2F { result.removeLast() }
        return result
    }

    /// What the operand names, as `stat(2)` sees it spelled: an empty operand names nothing, and
    /// `x/` must be a directory (a symlink to one is followed).
    /// - Parameters:
    ///   - file: the operand's absolute path (`CommandContext.resolve`).
    ///   - followSymlinks: follow a final symlink even without a trailing slash.
    /// - Throws: `FileError` with operation `.stat`.
    func info(at file: File, followSymlinks: Bool) throws(FileError) -> FileInfo {
        if bytes.isEmpty { throw FileError(.stat, self.file, .noSuchFileOrDirectory) }
        guard hasTrailingSlash else { return try file.info(followSymlinks: followSymlinks) }
        let info = try file.info(followSymlinks: true)
        guard info.kind == .directory else { throw FileError(.stat, self.file, .notDirectory) }
        return info
    }
}
