import Glibc
import SystemPackage

/// An open directory standing for the first `length` bytes of the paths anchored to it.
final class Anchor: Sendable {
    /// An `O_PATH` descriptor of the directory.
    let descriptor: Int32
    /// How many bytes of an anchored path name the directory.
    let length: Int

    init(descriptor: Int32, length: Int) {
        self.descriptor = descriptor
        self.length = length
    }

    deinit { Sys.close(descriptor) }
}

extension File {
    /// A relative path from an anchor longer than this is not handed to the kernel.
    static let anchorDistance = 2048

    /// Calls `body` with the directory descriptor and name a `*at` system call on this file
    /// should use, and whether that call should follow a final symlink: the local volume's or a
    /// sandbox's `withLocation`. A volume that the kernel does not reach gives `ENOTSUP`: code
    /// that may meet one goes through `volume` instead.
    @inline(__always)
    func withLocation<R>(
        following: Bool, _ body: (_ directory: Int32, _ name: UnsafePointer<CChar>, _ follow: Bool) throws(Errno) -> R
    ) throws(Errno) -> R {
        if isLocal { return try withLocalLocation(following: following, body) }
        guard let sandbox = volume as? Sandbox else { throw .notSupported }
        return try sandbox.withLocation(of: self, following: following, body)
    }

    /// The local volume's location: the current directory and the whole path, following as
    /// asked, or the anchor and the rest of the path after it.
    @inline(__always)
    func withLocalLocation<R>(
        following: Bool, _ body: (_ directory: Int32, _ name: UnsafePointer<CChar>, _ follow: Bool) throws(Errno) -> R
    ) throws(Errno) -> R {
        try storage.withUnsafeBufferPointer { (buffer) throws(Errno) -> R in
            let start = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            guard let anchor else { return try body(Sys.cwd, start, following) }
            // The rest after the anchor's bytes and their slash; the anchored directory is `.`.
            if anchor.length + 1 >= buffer.count {
                return try withCName([0x2E]) { (dot) throws(Errno) in try body(anchor.descriptor, dot, following) }
            }
            return try body(anchor.descriptor, start + anchor.length + 1, following)
        }
    }

    /// `result`, a path built from this one, on this path's volume, and anchored as this one is
    /// when it still starts with the anchored directory's path.
    func inheriting(_ result: File) -> File {
        var result = result
        result.volume = volume
        if let anchor, result.storage.count - 1 >= anchor.length,
            result.storage.count - 1 == anchor.length || result.storage[anchor.length] == 0x2F,
            Self.samePrefix(result.storage, storage, length: anchor.length)
        {
            result.anchor = anchor
        }
        return result
    }

    /// Whether `a` and `b` start with the same `length` bytes (memcmp: paths deep in a tree are
    /// tens of kilobytes, and this is asked for every entry a walk reaches).
    private static func samePrefix(_ a: [UInt8], _ b: [UInt8], length: Int) -> Bool {
        guard a.count >= length, b.count >= length else { return false }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in length == 0 || memcmp(a.baseAddress!, b.baseAddress!, length) == 0 }
        }
    }

    /// This path without its anchor, so that keeping it holds no directory open (a path
    /// remembered after the walk that made it has moved on).
    var unanchored: File {
        var plain = self
        plain.anchor = nil
        return plain
    }

    /// This directory path, anchored to the directory itself when the path a system call would
    /// be given is longer than `distance` bytes: by default `anchorDistance`, so that walks below
    /// it never hand the kernel a path near `PATH_MAX`; 0 anchors every directory, so that the
    /// calls on its entries are given bare names and the kernel looks up one name each.
    /// Unchanged on any volume but the local one, or when the directory cannot be opened (the
    /// next call on it reports why).
    func anchored(beyond distance: Int = File.anchorDistance) -> File {
        guard isLocal, byteCount - (anchor?.length ?? 0) > distance else { return self }
        do {
            let descriptor = try withLocation(following: false) { (dir, name, _) throws(Errno) in
                try Sys.open(name, at: dir, flags: Sys.pathOnly | O_DIRECTORY | O_NOFOLLOW)
            }
            var result = self
            result.anchor = Anchor(descriptor: descriptor, length: byteCount)
            return result
        } catch {
            return self
        }
    }
}
