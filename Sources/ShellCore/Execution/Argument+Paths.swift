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

/// `parent/name` as a walk prints it, without doubling a slash `parent` already ends with.
func joinedPath(_ parent: [UInt8], _ name: [UInt8]) -> [UInt8] {
    var path: [UInt8] = []
    path.reserveCapacity(parent.count + name.count + 1)
    path += parent
    if path.last != 0x2F { path.append(0x2F) }
    path += name
    return path
}
