import SystemPackage

extension File {
    /// The process's file-mode creation mask: the permission bits that new files and directories
    /// are made without, and that `chmod +w` (a mode naming no class) leaves alone.
    /// Corresponds to `umask(2)`.
    public static var creationMask: UInt32 { UInt32(Sys.umask()) }

    /// Sets the permission bits (following a symlink).
    /// - Throws: `FileError` with operation `.setAttributes`.
    /// Corresponds to `chmod(2)`.
    public func setPermissions(_ mode: UInt32) throws(FileError) {
        try volume.setAttributes(of: self, .permissions(mode), following: true)
    }

    /// Sets access and modification times; nil means now. A symlink itself is changed, not its target,
    /// unless `followSymlinks`.
    /// - Throws: `FileError` with operation `.setAttributes`.
    /// Corresponds to `utimensat(2)`.
    public func setTimes(access: Timestamp?, modification: Timestamp?, followSymlinks: Bool = true) throws(FileError) {
        let change = AttributeChange.times(access: access.map(TimeChange.to) ?? .now,
                                           modification: modification.map(TimeChange.to) ?? .now)
        try volume.setAttributes(of: self, change, following: followSymlinks)
    }
}
