import Glibc
import SystemPackage

/// A volume the kernel reaches with `*at(2)` system calls: the local file system and a
/// `Sandbox`. They differ only in where a call starts (`withLocation`); every operation is
/// written here once, on the one door to the kernel (`Sys`).
protocol DescriptorVolume: Volume {
    /// Calls `body` with the directory descriptor and name a `*at` system call on `file` should
    /// use, and whether that call should follow a final symlink.
    func withLocation<R>(
        of file: File, following: Bool, _ body: (_ directory: Int32, _ name: UnsafePointer<CChar>, _ follow: Bool) throws(Errno) -> R
    ) throws(Errno) -> R
}

extension DescriptorVolume {
    public var capabilities: VolumeCapabilities { .posix }

    public func info(of file: File, following: Bool) throws(FileError) -> FileInfo {
        do {
            return try withLocation(of: file, following: following) { (dir, name, follow) throws(Errno) in
                FileInfo(try Sys.stat(name, at: dir, follow: follow))
            }
        } catch {
            throw FileError(.stat, file, error)
        }
    }

    public func linkTarget(of file: File) throws(FileError) -> [UInt8] {
        do {
            return try withLocation(of: file, following: false) { (dir, name, _) throws(Errno) in
                try Sys.readlink(name, at: dir)
            }
        } catch {
            throw FileError(.readLink, file, error)
        }
    }

    public func openDirectory(_ file: File, following: Bool) throws(FileError) -> any VolumeDirectory {
        try DescriptorDirectory(file, following: following)
    }

    public func forEachEntry(of file: File, limit: Int?, _ body: (DirectoryEntry) throws(FileError) -> Void) throws(FileError) {
        let stream: DirectoryStream
        do {
            stream = try withLocation(of: file, following: true) { (dir, name, follow) throws(Errno) in
                try Sys.openDirectory(name, at: dir, follow: follow)
            }
        } catch {
            throw FileError(.list, file, error)
        }
        defer { stream.close() }
        var left = limit ?? Int.max
        while left > 0 {
            let next: (name: [UInt8], type: UInt8)?
            do { next = try stream.next() } catch { throw FileError(.read, file, error) }
            guard let next else { return }
            try body(DirectoryEntry(name: next.name, kind: FileKind(directoryEntryType: next.type)))
            left -= 1
        }
    }

    public func open(_ file: File, _ mode: File.OpenMode, permissions: UInt32) throws(FileError) -> OpenFile {
        let flags: Int32
        switch mode {
        case .read: flags = O_RDONLY | O_NOCTTY
        case .truncate: flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY
        case .append: flags = O_WRONLY | O_CREAT | O_APPEND | O_NOCTTY
        case .create: flags = O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY
        case .modify: flags = O_WRONLY | O_NOCTTY
        case .inspect: flags = O_RDONLY | O_NONBLOCK | O_NOCTTY
        }
        do {
            let fd = try withLocation(of: file, following: mode != .create) { (dir, name, follow) throws(Errno) in
                try Sys.open(name, at: dir, flags: flags | (follow ? 0 : O_NOFOLLOW), mode: mode_t(permissions))
            }
            return OpenFile(descriptor: fd, file: file)
        } catch {
            throw FileError(mode == .create ? .createFile : .open, file, error)
        }
    }

    public func makeDirectory(_ file: File, permissions: UInt32) throws(FileError) {
        do {
            try withLocation(of: file, following: false) { (dir, name, _) throws(Errno) in
                try Sys.mkdir(name, at: dir, mode: mode_t(permissions))
            }
        } catch {
            throw FileError(.makeDirectory, file, error)
        }
    }

    public func removeFile(_ file: File) throws(FileError) {
        do {
            try withLocation(of: file, following: false) { (dir, name, _) throws(Errno) in try Sys.unlink(name, at: dir) }
        } catch {
            throw FileError(.remove, file, error)
        }
    }

    public func removeDirectory(_ file: File) throws(FileError) {
        do {
            try withLocation(of: file, following: false) { (dir, name, _) throws(Errno) in try Sys.rmdir(name, at: dir) }
        } catch {
            throw FileError(.removeDirectory, file, error)
        }
    }

    public func rename(_ source: File, to destination: File, replacing: Bool) throws(FileError) {
        do {
            try withLocation(of: source, following: false) { (oldDir, oldName, _) throws(Errno) in
                try withLocation(of: destination, following: false) { (newDir, newName, _) throws(Errno) in
                    try Sys.rename(oldName, at: oldDir, to: newName, at: newDir, noReplace: !replacing)
                }
            }
        } catch {
            throw FileError(.rename, source, error, destination: destination)
        }
    }

    public func makeSymlink(_ file: File, target: [UInt8]) throws(FileError) {
        do {
            try withCName(target) { (targetPath) throws(Errno) in
                try withLocation(of: file, following: false) { (dir, name, _) throws(Errno) in
                    try Sys.symlink(targetPath, at: name, in: dir)
                }
            }
        } catch {
            throw FileError(.makeLink, file, error, destination: File(bytes: target))
        }
    }

    public func makeHardLink(_ file: File, to existing: File) throws(FileError) {
        do {
            try withLocation(of: existing, following: false) { (existingDir, existingName, _) throws(Errno) in
                try withLocation(of: file, following: false) { (dir, name, _) throws(Errno) in
                    try Sys.link(existingName, at: existingDir, to: name, at: dir)
                }
            }
        } catch {
            throw FileError(.makeLink, file, error, destination: existing)
        }
    }

    public func setAttributes(of file: File, _ change: AttributeChange, following: Bool) throws(FileError) {
        do {
            try withLocation(of: file, following: following) { (dir, name, follow) throws(Errno) in
                if change.user != nil || change.group != nil {
                    try Sys.chown(
                        name, at: dir, uid: change.user ?? UInt32.max, gid: change.group ?? UInt32.max, follow: follow)
                }
                if let permissions = change.permissions {
                    try Sys.chmod(name, at: dir, mode: mode_t(permissions), follow: follow)
                }
                if change.accessTime != .keep || change.modificationTime != .keep {
                    try Sys.setTimes(
                        name, at: dir, access: change.accessTime.timespec, modification: change.modificationTime.timespec,
                        follow: follow)
                }
            }
        } catch {
            throw FileError(.setAttributes, file, error)
        }
    }

    public func checkAccess(of file: File, write: Bool) throws(FileError) {
        do {
            try withLocation(of: file, following: true) { (dir, name, follow) throws(Errno) in
                try Sys.access(name, at: dir, mode: write ? W_OK : X_OK, follow: follow)
            }
        } catch {
            throw FileError(write ? .open : .stat, file, error)
        }
    }
}

extension TimeChange {
    /// The `timespec` utimensat(2) takes for this change; nil for now.
    var timespec: Glibc.timespec? {
        switch self {
        case .keep: return Sys.unchangedTime
        case .now: return nil
        case .to(let time): return time.timespec
        }
    }
}
