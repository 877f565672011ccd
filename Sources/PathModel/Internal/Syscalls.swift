// The one door to the kernel: every file-system call PathModel makes goes through this file.
// Each trampoline retries EINTR, turns a failure into a thrown `Errno`, and consults the
// fault-injection plan that tests may install (FaultPlan.swift). The user database
// (UserDatabase.swift) and the parsing of directory records (DirectoryStream.swift) sit beside it.

import CPathModel
import Glibc
import Synchronization
import SystemPackage

@inline(__always)
private func lastErrno() -> Errno { Errno(rawValue: pathmodel_errno()) }

/// Calls `body` until it stops failing with EINTR; returns its result or throws its errno.
@inline(__always)
private func retrying<T: BinaryInteger>(
    _ call: SyscallName, _ path: UnsafePointer<CChar>? = nil, _ body: () -> T
) throws(Errno) -> T {
    if let fault = injected(call, path) { throw fault }
    while true {
        let result = body()
        if result >= 0 { return result }
        let error = lastErrno()
        if error != .interrupted || Interruption.isRequested?() == true { throw error }
    }
}

/// Calls `body` with `name` as a NUL-terminated C string, spelled on the stack (a walk makes
/// one such call per entry, and a heap copy of each name costs more than the lookup).
func withCName<R>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) throws(Errno) -> R) throws(Errno) -> R {
    try withUnsafeTemporaryAllocation(of: CChar.self, capacity: name.count + 1) { (terminated) throws(Errno) in
        name.withUnsafeBytes { bytes in
            UnsafeMutableRawBufferPointer(terminated).copyMemory(from: bytes)
        }
        terminated[name.count] = 0
        return try body(terminated.baseAddress!)
    }
}

/// Thin, errno-capturing wrappers over the libc calls PathModel needs.
enum Sys {
    static let cwd: Int32 = AT_FDCWD
    /// `O_PATH`: a descriptor that only names a file, for `*at` calls, `fstat` and `fchdir`.
    static let pathOnly: Int32 = pathmodel_o_path

    static func open(
        _ path: UnsafePointer<CChar>, at dir: Int32, flags: Int32, mode: mode_t = 0o666
    ) throws(Errno) -> Int32 {
        try retrying(.open, path) { openat(dir, path, flags | O_CLOEXEC, mode) }
    }

    /// Opens `path` with `dir` as the root directory: `/`, `..` and every symlink resolve inside
    /// it, and procfs magic links are refused. ENOSYS where the kernel has no openat2(2).
    static func openInRoot(_ path: UnsafePointer<CChar>, root dir: Int32, flags: Int32) throws(Errno) -> Int32 {
        try retrying(.openat2, path) { pathmodel_openat2_in_root(dir, path, flags | O_CLOEXEC) }
    }

    /// Opens `path` without letting its resolution leave `dir`: `..` above it, an absolute path
    /// or a symlink that points out fails with EXDEV, procfs magic links with ELOOP. ENOSYS
    /// where the kernel has no openat2(2).
    static func openBeneath(_ path: UnsafePointer<CChar>, in dir: Int32, flags: Int32) throws(Errno) -> Int32 {
        try retrying(.openat2, path) { pathmodel_openat2_beneath(dir, path, flags | O_CLOEXEC) }
    }

    /// A new pipe, both ends close-on-exec: (read end, write end).
    static func pipe() throws(Errno) -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        _ = try retrying(.pipe) { pathmodel_pipe_cloexec(&ends) }
        return (ends[0], ends[1])
    }

    static func close(_ fd: Int32) {
        // close(2) must not be retried on Linux: the descriptor is gone whatever it returns.
        _ = Glibc.close(fd)
    }

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retrying(.read) { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes the whole buffer, looping over short writes.
    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[offset...])
            let written = try retrying(.write) { Glibc.write(fd, chunk.baseAddress, chunk.count) }
            offset += written
        }
    }

    /// Writes the whole buffer at `offset`, looping over short writes, without moving the
    /// descriptor's offset.
    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, at offset: UInt64) throws(Errno) {
        var done = 0
        while done < buffer.count {
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[done...])
            done += try retrying(.write) {
                Glibc.pwrite(fd, chunk.baseAddress, chunk.count, off_t(offset) + off_t(done))
            }
        }
    }

    /// Writes all of `bytes`.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Errno) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try writeAll(fd, buffer) } }.get()
    }

    /// Reads into the start of `buffer`; returns the count read, 0 at the end.
    static func read(_ fd: Int32, into buffer: inout [UInt8]) throws(Errno) -> Int {
        try buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try read(fd, into: raw) } }.get()
    }

    /// Reads at `offset` without moving the descriptor's offset.
    static func read(_ fd: Int32, into buffer: inout [UInt8], at offset: UInt64) throws(Errno) -> Int {
        try buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try read(fd, into: raw, at: offset) } }
            .get()
    }

    /// Reads into `buffer` at `offset` without moving the descriptor's offset; returns the count
    /// read, 0 at the end.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(Errno) -> Int {
        try retrying(.read) { Glibc.pread(fd, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Where `lseek(2)` puts the offset of `fd`, from `offset` by `whence`: `SEEK_SET`, or
    /// `dataWhence` / `holeWhence` for the next byte of data or hole at or after `offset` (`ENXIO`
    /// when there is no data past it).
    static func seek(_ fd: Int32, to offset: Int64, whence: Int32 = SEEK_SET) throws(Errno) -> Int64 {
        Int64(try retrying(.seek) { Glibc.lseek(fd, off_t(offset), whence) })
    }

    /// `lseek(2)`'s `SEEK_DATA` and `SEEK_HOLE`.
    static let dataWhence = pathmodel_seek_data
    static let holeWhence = pathmodel_seek_hole

    /// Cuts or extends an open file to `length` bytes.
    static func truncate(_ fd: Int32, to length: Int64) throws(Errno) {
        _ = try retrying(.truncate) { ftruncate(fd, off_t(length)) }
    }

    static func fsync(_ fd: Int32) throws(Errno) {
        _ = try retrying(.fsync) { Glibc.fsync(fd) }
    }

    static func fdatasync(_ fd: Int32) throws(Errno) {
        _ = try retrying(.fsync) { Glibc.fdatasync(fd) }
    }

    static func syncfs(_ fd: Int32) throws(Errno) {
        _ = try retrying(.fsync) { pathmodel_syncfs(fd) }
    }

    /// Schedules every file system's writes; it cannot fail.
    static func syncAll() { Glibc.sync() }

    static func stat(
        _ path: UnsafePointer<CChar>, at dir: Int32, follow: Bool
    ) throws(Errno) -> pathmodel_stat {
        var result = pathmodel_stat()
        try stat(path, at: dir, follow: follow, into: &result)
        return result
    }

    /// `stat(_:at:follow:)` into a record the caller holds.
    static func stat(_ path: UnsafePointer<CChar>, at dir: Int32, follow: Bool, into result: inout pathmodel_stat) throws(Errno) {
        _ = try retrying(.stat, path) { pathmodel_statx(dir, path, follow ? 1 : 0, &result) }
    }

    /// What the file system holding `path` (from `dir`) reports, through an `O_PATH` descriptor,
    /// which needs no permission on the file itself.
    static func statfs(_ path: UnsafePointer<CChar>, at dir: Int32, follow: Bool) throws(Errno)
        -> FileSystemUsage
    {
        let fd = try open(path, at: dir, flags: pathmodel_o_path | (follow ? 0 : O_NOFOLLOW))
        defer { close(fd) }
        var raw = pathmodel_statfs()
        _ = try retrying(.statfs, path) { pathmodel_fstatfs(fd, &raw) }
        return FileSystemUsage(
            blockSize: raw.block_size, totalBlocks: raw.total_blocks, freeBlocks: raw.free_blocks,
            availableBlocks: raw.available_blocks, totalInodes: raw.total_inodes, freeInodes: raw.free_inodes,
            ioBlockSize: raw.io_block_size, type: raw.type, identifier: raw.id, nameMax: raw.name_max)
    }

    static func stat(fd: Int32) throws(Errno) -> pathmodel_stat {
        var result = pathmodel_stat()
        _ = try retrying(.stat) { pathmodel_fstatx(fd, &result) }
        return result
    }

    /// The (device, inode) of an open descriptor.
    static func identity(fd: Int32) throws(Errno) -> FileIdentity {
        let raw = try stat(fd: fd)
        return FileIdentity(device: raw.dev, inode: raw.ino)
    }

    static func mkdir(_ path: UnsafePointer<CChar>, at dir: Int32, mode: mode_t) throws(Errno) {
        _ = try retrying(.mkdir, path) { mkdirat(dir, path, mode) }
    }

    static func unlink(_ path: UnsafePointer<CChar>, at dir: Int32) throws(Errno) {
        _ = try retrying(.unlink, path) { unlinkat(dir, path, 0) }
    }

    static func rmdir(_ path: UnsafePointer<CChar>, at dir: Int32) throws(Errno) {
        _ = try retrying(.rmdir, path) { unlinkat(dir, path, AT_REMOVEDIR) }
    }

    static func rename(
        _ old: UnsafePointer<CChar>, at oldDir: Int32, to new: UnsafePointer<CChar>, at newDir: Int32,
        noReplace: Bool = false
    ) throws(Errno) {
        let flags = noReplace ? pathmodel_rename_noreplace : 0
        _ = try retrying(.rename, old) { pathmodel_renameat2(oldDir, old, newDir, new, flags) }
    }

    /// Makes a symlink named `path` (relative to `dir`) holding `target`.
    static func symlink(_ target: UnsafePointer<CChar>, at path: UnsafePointer<CChar>, in dir: Int32) throws(Errno) {
        _ = try retrying(.symlink, path) { symlinkat(target, dir, path) }
    }

    /// Makes `path` (relative to `dir`) a hard link to `existing` (relative to `existingDir`),
    /// never following a symlink.
    static func link(
        _ existing: UnsafePointer<CChar>, at existingDir: Int32, to path: UnsafePointer<CChar>, at dir: Int32
    ) throws(Errno) {
        _ = try retrying(.link, path) { linkat(existingDir, existing, dir, path, 0) }
    }

    /// The target of a symbolic link, as raw bytes.
    static func readlink(_ path: UnsafePointer<CChar>, at dir: Int32) throws(Errno) -> [UInt8] {
        var capacity = 256
        while true {
            var buffer = [UInt8](repeating: 0, count: capacity)
            let count = try buffer.withUnsafeMutableBufferPointer { (raw) throws(Errno) -> Int in
                try retrying(.readlink, path) {
                    raw.baseAddress!.withMemoryRebound(to: CChar.self, capacity: capacity) {
                        readlinkat(dir, path, $0, capacity)
                    }
                }
            }
            if count < capacity { return Array(buffer[..<count]) }
            capacity *= 4
        }
    }

    /// Sets permission bits; without `follow`, a symlink is refused (EOPNOTSUPP), never followed.
    static func chmod(_ path: UnsafePointer<CChar>, at dir: Int32, mode: mode_t, follow: Bool) throws(Errno) {
        _ = try retrying(.chmod, path) { fchmodat(dir, path, mode, follow ? 0 : AT_SYMLINK_NOFOLLOW) }
    }

    static func chmod(fd: Int32, mode: mode_t) throws(Errno) {
        _ = try retrying(.chmod) { fchmod(fd, mode) }
    }

    static func chown(
        _ path: UnsafePointer<CChar>, at dir: Int32, uid: uid_t, gid: gid_t, follow: Bool
    ) throws(Errno) {
        _ = try retrying(.chown, path) { fchownat(dir, path, uid, gid, follow ? 0 : AT_SYMLINK_NOFOLLOW) }
    }

    /// Sets access and modification times; `nil` means "now".
    static func setTimes(
        _ path: UnsafePointer<CChar>, at dir: Int32, access: timespec?, modification: timespec?, follow: Bool
    ) throws(Errno) {
        let now = timespec(tv_sec: 0, tv_nsec: Int(pathmodel_utime_now))
        var times = (access ?? now, modification ?? now)
        _ = try retrying(.utimens, path) {
            withUnsafePointer(to: &times) {
                $0.withMemoryRebound(to: timespec.self, capacity: 2) {
                    utimensat(dir, path, $0, follow ? 0 : AT_SYMLINK_NOFOLLOW)
                }
            }
        }
    }

    /// A time for `setTimes` that leaves that time as it is.
    static let unchangedTime = timespec(tv_sec: 0, tv_nsec: Int(pathmodel_utime_omit))

    /// Sets access and modification times of an open file; `nil` means "now".
    static func setTimes(fd: Int32, access: timespec?, modification: timespec?) throws(Errno) {
        let now = timespec(tv_sec: 0, tv_nsec: Int(pathmodel_utime_now))
        var times = (access ?? now, modification ?? now)
        _ = try retrying(.utimens) {
            withUnsafePointer(to: &times) { $0.withMemoryRebound(to: timespec.self, capacity: 2) { futimens(fd, $0) } }
        }
    }

    static func chown(fd: Int32, uid: uid_t, gid: gid_t) throws(Errno) {
        _ = try retrying(.chown) { fchown(fd, uid, gid) }
    }

    static func mknod(_ path: UnsafePointer<CChar>, at dir: Int32, mode: mode_t, device: dev_t) throws(Errno) {
        _ = try retrying(.mknod, path) { mknodat(dir, path, mode, device) }
    }


    /// Copies up to `length` bytes in the kernel; 0 means end of input.
    static func copyFileRange(from input: Int32, to output: Int32, length: Int) throws(Errno) -> Int {
        try retrying(.copyFileRange) { pathmodel_copy_file_range(input, output, length) }
    }

    /// Makes `output` share all of `input`'s data blocks (a reflink); `EOPNOTSUPP`, `EXDEV` or
    /// `EINVAL` where the file system cannot.
    static func cloneFile(from input: Int32, to output: Int32) throws(Errno) {
        _ = try retrying(.clone) { pathmodel_clone_file(input, output) }
    }

    /// Sends up to `length` bytes from a mappable file to any descriptor in the kernel; 0 means
    /// end of input.
    static func sendFile(from input: Int32, to output: Int32, length: Int) throws(Errno) -> Int {
        try retrying(.sendfile) { pathmodel_sendfile(input, output, length) }
    }

    /// Opens a directory stream on `path`; without `follow`, a final symlink is refused (ELOOP).
    static func openDirectory(
        _ path: UnsafePointer<CChar>, at dir: Int32, follow: Bool = true
    ) throws(Errno) -> DirectoryStream {
        let fd = try open(path, at: dir, flags: O_RDONLY | O_DIRECTORY | (follow ? 0 : O_NOFOLLOW))
        if let fault = injected(.opendir, path) {
            close(fd)
            throw fault
        }
        return DirectoryStream(descriptor: fd)
    }

    /// Fills `buffer` with the next `struct linux_dirent64` records of the open directory `fd`;
    /// returns the bytes filled, 0 at the end.
    static func readEntries(_ fd: Int32, into buffer: UnsafeMutableRawPointer, capacity: Int) throws(Errno) -> Int {
        try retrying(.readdir) { pathmodel_getdents64(fd, buffer, capacity) }
    }

    /// Checks permission as the real user; `mode` is a mask of R_OK, W_OK, X_OK.
    static func access(_ path: UnsafePointer<CChar>, at dir: Int32, mode: Int32, follow: Bool) throws(Errno) {
        _ = try retrying(.access, path) { faccessat(dir, path, mode, follow ? 0 : AT_SYMLINK_NOFOLLOW) }
    }

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Whether a read of `fd` would return at once (data, the end, or an error), without waiting.
    static func isReadable(_ fd: Int32) -> Bool {
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return Glibc.poll(&request, 1, 0) == 1
    }

    static func currentDirectory() throws(Errno) -> [UInt8] {
        var capacity = Int(PATH_MAX)
        while true {
            var buffer = [CChar](repeating: 0, count: capacity)
            if getcwd(&buffer, capacity) != nil {
                return buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            }
            let error = lastErrno()
            if error != .outOfRange { throw error }
            capacity *= 2
        }
    }

    static func changeDirectory(_ path: UnsafePointer<CChar>) throws(Errno) {
        _ = try retrying(.chdir, path) { Glibc.chdir(path) }
    }

    static func changeDirectory(fd: Int32) throws(Errno) {
        _ = try retrying(.chdir) { fchdir(fd) }
    }

    static func environment(_ name: String) -> [UInt8]? {
        guard let value = getenv(name) else { return nil }
        return Array(UnsafeRawBufferPointer(start: value, count: strlen(value)))
    }

    static func userID() -> uid_t { getuid() }
    static func groupID() -> gid_t { getgid() }

    /// The time of day, for volumes that keep their own timestamps.
    static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(seconds: Int64(spec.tv_sec), nanoseconds: UInt32(spec.tv_nsec))
    }
    /// The process's umask. Read from the kernel's record of it (`Umask:` in
    /// /proc/self/status, Linux 4.7 and later) where there is one: umask(2) can only read it by
    /// setting it, and a file another thread creates meanwhile would get the mask 0.
    static func umask() -> mode_t {
        if let mask = recordedUmask() { return mask }
        let mask = Glibc.umask(0)
        _ = Glibc.umask(mask)
        return mask
    }

    /// The `Umask:` line of /proc/self/status (its second line), or nil without procfs.
    private static func recordedUmask() -> mode_t? {
        let fd = Glibc.open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let label = Array("\nUmask:\t".utf8)
        let text = buffer[..<count]
        guard let start = text.indices.first(where: { text[$0...].starts(with: label) }) else { return nil }
        let digits = text[(start + label.count)...].prefix { (0x30...0x37).contains($0) }
        guard !digits.isEmpty else { return nil }
        return mode_t(digits.reduce(0) { $0 * 8 + UInt32($1 - 0x30) })
    }

    /// A random number for temporary names. The kernel's randomness is drawn 256 numbers at a
    /// time, so that a copy of many small files does not make a `getrandom(2)` call for each.
    static func randomNumber() -> UInt64 {
        randomNumbers.withLock { pool in
            if pool.isEmpty {
                pool = [UInt64](repeating: 0, count: 256)
                let wanted = pool.count * MemoryLayout<UInt64>.size
                let got = pool.withUnsafeMutableBytes { pathmodel_getrandom($0.baseAddress, wanted) }
                if got != wanted {
                    var generator = SystemRandomNumberGenerator()
                    pool = [generator.next()]
                }
            }
            return pool.removeLast()
        }
    }

    /// The random numbers drawn and not yet used.
    private static let randomNumbers = Mutex<[UInt64]>([])
}
