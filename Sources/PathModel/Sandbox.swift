import Glibc
import Synchronization
import SystemPackage

/// A directory that acts as `/` for every `File` made through it, as `chroot(2)` would make it,
/// without privileges and without leaving the process confined.
///
/// Inside a sandbox `/` is the sandbox's directory, `..` at the top stays at the top, and every
/// symlink (absolute, relative, chained, with `..` in its target) resolves inside it; procfs
/// magic links such as `/proc/self/root` are refused or resolve inside too. Nothing outside can
/// be read, listed, stat'ed, created, changed or deleted through a sandboxed `File`.
///
/// Nothing is checked by path and then opened by path: every call resolves its file's parent
/// directory from the sandbox's open descriptor, with `openat2(2)`'s `RESOLVE_IN_ROOT` where the
/// kernel has it, else by a walk of one component at a time with `O_NOFOLLOW` that starts again
/// from the top on `..`. Either way, a directory swapped for a symlink while a command runs is
/// resolved inside the sandbox like any other symlink. A directory that another process moves
/// out of the sandbox while a walk holds it open can be reached for the rest of that walk.
///
///     let site = try Sandbox(File(path: "/srv/site"))
///     let page = site.file("/index.html")          // /srv/site/index.html
///     try site.file("/../../etc/passwd").read()    // /srv/site/etc/passwd, if there is one
///
/// Relative paths resolve from the sandbox's top. Paths keep their spelling inside the sandbox,
/// so `path`, errors and listings show `/index.html`, not the directory outside.
public final class Sandbox: DescriptorVolume, Hashable {
    /// The directory that is `/` inside, as it was given.
    public let directory: File
    /// An `O_PATH` descriptor of the directory, from which every path inside is resolved.
    private let descriptor: Int32
    /// Whether the kernel resolves for us; cleared when `openat2(2)` is missing (ENOSYS).
    let kernelResolves = Atomic<Bool>(true)

    /// The most symlinks one resolution follows before giving up with `ELOOP`, as the kernel does.
    private static let symlinkLimit = 40

    /// Opens `directory` as a sandbox; a final symlink in its own path is followed. A directory
    /// inside another sandbox is found there, so the new sandbox lies inside the other.
    /// - Throws: `FileError` with operation `.resolve`: `ENOENT` for an empty path or a missing
    ///   directory, `ENOTDIR` when it is not a directory.
    /// Corresponds to `open(2)` with `O_PATH | O_DIRECTORY`.
    public init(_ directory: File) throws(FileError) {
        self.directory = directory
        guard directory.byteCount > 0 else { throw FileError(.resolve, directory, .noSuchFileOrDirectory) }
        do throws(Errno) {
            descriptor = try directory.withLocation(following: true) { (dir, name, follow) throws(Errno) in
                try Sys.open(name, at: dir, flags: Sys.pathOnly | O_DIRECTORY | (follow ? 0 : O_NOFOLLOW))
            }
        } catch {
            throw FileError(.resolve, directory, error)
        }
    }

    deinit { Sys.close(descriptor) }

    /// The parent resolved in the sandbox, the last name, and false: a final symlink has
    /// already been resolved in the sandbox when `following` asked for it, and must not be
    /// followed again by the kernel, which knows nothing of the sandbox.
    func withLocation<R>(
        of file: File, following: Bool, _ body: (_ directory: Int32, _ name: UnsafePointer<CChar>, _ follow: Bool) throws(Errno) -> R
    ) throws(Errno) -> R {
        let (directory, name) = try locate(file.bytes, following: following)
        defer { Sys.close(directory) }
        return try withCName(name) { (raw) throws(Errno) in try body(directory, raw, false) }
    }

    /// Two sandboxes are equal only when they are the same instance.
    public static func == (lhs: Sandbox, rhs: Sandbox) -> Bool { lhs === rhs }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The directory descriptor and final name a `*at` system call on `path` should use, with
    /// the parent resolved inside the sandbox; the caller closes the descriptor. With
    /// `following`, a final symlink is resolved too, so the name left is never a symlink (at the
    /// moment of looking). A path ending in `.` or `..`, or the top itself, gives the directory
    /// it names and the name `.`.
    func locate(_ path: [UInt8], following: Bool) throws(Errno) -> (directory: Int32, name: [UInt8]) {
        if path.isEmpty { throw .noSuchFileOrDirectory }
        var path = path
        var links = 0
        while true {
            let (parentPath, name) = split(path)
            if name.isEmpty || isDotOrDotDot(name) { return (try openDirectory(path), [0x2E]) }
            let parent = try openDirectory(parentPath)
            guard following else { return (parent, name) }
            let target: [UInt8]
            do throws(Errno) {
                let raw = try withCName(name) { (raw) throws(Errno) in try Sys.stat(raw, at: parent, follow: false) }
                guard raw.mode & UInt32(S_IFMT) == UInt32(S_IFLNK) else { return (parent, name) }
                target = try withCName(name) { (raw) throws(Errno) in try Sys.readlink(raw, at: parent) }
            } catch .noSuchFileOrDirectory {
                return (parent, name)
            } catch {
                Sys.close(parent)
                throw error
            }
            Sys.close(parent)
            links += 1
            if links > Self.symlinkLimit { throw .tooManySymbolicLinkLevels }
            if target.isEmpty { throw .noSuchFileOrDirectory }
            // A relative target continues from the link's directory, spelled as the path that
            // led to it; resolving that spelling again stays inside whatever it finds.
            path = target.first == 0x2F ? target : parentPath + [0x2F] + target
        }
    }

    /// Opens the directory at `path` inside the sandbox as an `O_PATH` descriptor.
    private func openDirectory(_ path: [UInt8]) throws(Errno) -> Int32 {
        let spelled = path.isEmpty ? [0x2E] : path
        if kernelResolves.load(ordering: .relaxed) {
            // EAGAIN: the kernel saw a rename race around `..` and asks for a retry.
            for _ in 0..<4 {
                do throws(Errno) {
                    return try withCName(spelled) { (raw) throws(Errno) in
                        try Sys.openInRoot(raw, root: descriptor, flags: Sys.pathOnly | O_DIRECTORY)
                    }
                } catch .noFunction {
                    kernelResolves.store(false, ordering: .relaxed)
                    break
                } catch .resourceTemporarilyUnavailable {
                    continue
                } catch {
                    throw error
                }
            }
        }
        return try walk(to: spelled)
    }

    /// Opens the directory at `path` one component at a time from the top, never letting the
    /// kernel follow a symlink: each one is read and its target walked in its place, from the
    /// top when absolute. `..` drops the last directory walked and walks again from the top, so
    /// it never climbs above it.
    private func walk(to path: [UInt8]) throws(Errno) -> Int32 {
        var pending = Array(components(of: path).reversed())
        var walked: [[UInt8]] = []
        var current = try reopenTop()
        var links = 0
        while let part = pending.popLast() {
            if part == [0x2E] { continue }
            if part == [0x2E, 0x2E] {
                if walked.popLast() == nil { continue }
                Sys.close(current)
                current = try reopenTop()
                for name in walked {
                    let next: Int32
                    do throws(Errno) { next = try openComponent(name, at: current, flags: O_DIRECTORY) } catch {
                        Sys.close(current)
                        throw error
                    }
                    Sys.close(current)
                    current = next
                }
                continue
            }
            let next: Int32
            let mode: UInt32
            do throws(Errno) {
                next = try openComponent(part, at: current, flags: 0)
                do throws(Errno) { mode = try Sys.stat(fd: next).mode } catch {
                    Sys.close(next)
                    throw error
                }
            } catch {
                Sys.close(current)
                throw error
            }
            switch mode & UInt32(S_IFMT) {
            case UInt32(S_IFDIR):
                Sys.close(current)
                current = next
                walked.append(part)
            case UInt32(S_IFLNK):
                let target: [UInt8]
                do {
                    target = try withCName([]) { (empty) throws(Errno) in try Sys.readlink(empty, at: next) }
                } catch {
                    Sys.close(next)
                    Sys.close(current)
                    throw error
                }
                Sys.close(next)
                links += 1
                if links > Self.symlinkLimit || target.isEmpty {
                    Sys.close(current)
                    throw target.isEmpty ? .noSuchFileOrDirectory : .tooManySymbolicLinkLevels
                }
                if target.first == 0x2F {
                    walked.removeAll()
                    Sys.close(current)
                    current = try reopenTop()
                }
                pending.append(contentsOf: components(of: target).reversed())
            default:
                Sys.close(next)
                Sys.close(current)
                throw .notDirectory
            }
        }
        return current
    }

    /// A fresh `O_PATH` descriptor of the top.
    private func reopenTop() throws(Errno) -> Int32 {
        try withCName([0x2E]) { (dot) throws(Errno) in
            try Sys.open(dot, at: descriptor, flags: Sys.pathOnly | O_DIRECTORY)
        }
    }

    /// Opens one name in `dir` as an `O_PATH` descriptor without following it.
    private func openComponent(_ name: [UInt8], at dir: Int32, flags: Int32) throws(Errno) -> Int32 {
        try withCName(name) { (raw) throws(Errno) in try Sys.open(raw, at: dir, flags: Sys.pathOnly | O_NOFOLLOW | flags) }
    }
}

/// A path's parent spelling and its last component: `("/a", "b")` for `/a/b`, `("", "b")` for
/// `b`, `("/", "")` for `/`.
private func split(_ path: [UInt8]) -> (parent: [UInt8], name: [UInt8]) {
    var end = path.count
    while end > 1 && path[end - 1] == 0x2F { end -= 1 }
    guard let slash = path[..<end].lastIndex(of: 0x2F) else { return ([], Array(path[..<end])) }
    let name = Array(path[(slash + 1)..<end])
    var parentEnd = slash
    while parentEnd > 0 && path[parentEnd - 1] == 0x2F { parentEnd -= 1 }
    return (parentEnd == 0 ? [0x2F] : Array(path[..<parentEnd]), name)
}

/// The non-empty components of a path.
private func components(of path: [UInt8]) -> [[UInt8]] {
    path.split(separator: 0x2F, omittingEmptySubsequences: true).map(Array.init)
}
