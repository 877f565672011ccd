import Glibc
import SystemPackage

/// A path to a file or directory, whether or not anything exists there.
///
/// A `File` is a value: building, joining and taking it apart is pure syntax and never touches
/// the disk. Methods that do touch the disk say so by throwing (`info()`, `children()`,
/// `write(bytes:)`…); the few non-throwing conveniences that look at the disk (`exists`,
/// `isDirectory`…) are documented as such.
///
/// Names are bytes: a `File` keeps exactly the bytes it was made from, so a name that is not
/// UTF-8 survives every operation, and NFC/NFD twins stay two files. Repeated slashes are folded
/// (but the `//` after a URL's scheme, `s3://b`) and a trailing slash is dropped, as `FilePath`
/// does; `.` and `..` stay until `normalized`.
///
///     let notes = File.home + "notes" + "a.txt"   // /home/ann/notes/a.txt
///     notes.name                                  // "a.txt"
///     notes.extension                             // ".txt"
public struct File: Sendable {
    /// The normalised path bytes followed by one NUL, so that system calls take them as they are.
    @usableFromInline internal var storage: [UInt8]

    /// The volume this path is on: the local file system unless the path was made on another
    /// (`Sandbox.file(_:)`, `MemoryVolume.file(_:)`…). Paths built from this one (`+`, `parent`,
    /// `normalized`…) stay on the same volume.
    public internal(set) var volume: any Volume = LocalVolume.shared

    /// The sandbox whose top this path's `/` means, or nil when its volume is not a sandbox.
    public var sandbox: Sandbox? { volume as? Sandbox }

    /// Whether this path is on the local file system, reached from the process's directory.
    var isLocal: Bool { volume === LocalVolume.shared }

    /// An open directory that a leading part of this path names, from which system calls reach
    /// the rest by a short relative path: how a deep walk goes below `PATH_MAX`. Only on the
    /// local volume, and dropped by anything that does not keep that leading part.
    var anchor: Anchor?

    /// A path from raw bytes; a NUL byte ends the path.
    public init<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.underestimatedCount + 1)
        for byte in bytes {
            if byte == 0 { break }
            if byte == 0x2F, result.last == 0x2F, !Self.isSchemeStart(result) { continue }
            result.append(byte)
        }
        if result.count > 1, result.last == 0x2F { result.removeLast() }
        result.append(0)
        storage = result
    }

    /// Whether `bytes` are a URL scheme, `:` and one `/` (`s3:/`), after which a second `/` is
    /// kept so that a URL (`s3://bucket/key`) keeps its spelling in messages; the kernel reads
    /// `s3://x` as `s3:/x` all the same.
    private static func isSchemeStart(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 3, bytes[bytes.count - 1] == 0x2F, bytes[bytes.count - 2] == 0x3A else {
            return false
        }
        let scheme = bytes[..<(bytes.count - 2)]
        guard let first = scheme.first, (0x61...0x7A).contains(first | 0x20) else { return false }
        return scheme.allSatisfy { byte in
            (0x61...0x7A).contains(byte | 0x20) || (0x30...0x39).contains(byte) || byte == 0x2B
                || byte == 0x2D
                || byte == 0x2E
        }
    }

    /// A path from text, taken as its UTF-8 bytes.
    public init(path: String) { self.init(bytes: path.utf8) }

    /// A path from a swift-system `FilePath`, byte for byte.
    public init(_ filePath: FilePath) {
        self = filePath.withPlatformString { File(cString: $0) }
    }

    /// A path from a NUL-terminated C string.
    public init(cString: UnsafePointer<CChar>) {
        self.init(bytes: UnsafeRawBufferPointer(start: cString, count: strlen(cString)))
    }

    /// Takes `storage` as it is; the caller guarantees it is normalised and NUL-terminated.
    internal init(normalizedStorage: [UInt8]) { storage = normalizedStorage }

    /// The path's bytes, without a terminating NUL.
    public var bytes: [UInt8] { Array(storage.dropLast()) }

    /// The number of bytes in the path.
    public var byteCount: Int { storage.count - 1 }

    /// Calls `body` with the path's bytes (no NUL).
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0.dropLast())) }
    }

    /// Calls `body` with the path as a NUL-terminated C string, without copying.
    public func withCString<R, E: Error>(_ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        try storage.withUnsafeBufferPointer { (buffer) throws(E) -> R in
            try body(UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self))
        }
    }

    /// The path as text; bytes that are not UTF-8 become U+FFFD. Use `bytes` to keep them.
    public var string: String { String(decoding: storage.dropLast(), as: UTF8.self) }

    /// The path as a swift-system `FilePath`.
    public var filePath: FilePath {
        withCString { FilePath(platformString: $0) }
    }

    /// Whether the path's bytes are valid UTF-8.
    public var isValidUTF8: Bool { String(validating: storage.dropLast(), as: UTF8.self) != nil }

    /// Whether the path starts at the root (`/`).
    public var isAbsolute: Bool { storage.first == 0x2F }

    /// Whether the path is the root directory itself.
    public var isRoot: Bool { storage.count == 2 && storage[0] == 0x2F }

    /// The byte range of the last component within `storage` (empty for `""`; `/` for the root).
    private var nameRange: Range<Int> {
        let end = storage.count - 1
        if isRoot { return 0..<1 }
        var start = end
        while start > 0 && storage[start - 1] != 0x2F { start -= 1 }
        return start..<end
    }

    /// The last component's bytes (`/` for the root).
    public var nameBytes: ArraySlice<UInt8> { storage[nameRange] }

    /// The last component: `"a.txt"` for `/x/a.txt`, `"/"` for the root.
    public var name: String { String(decoding: nameBytes, as: UTF8.self) }

    /// Where the extension's dot is within the name, if the name has an extension.
    private var extensionDot: Int? {
        let range = nameRange
        guard let dot = storage[range].lastIndex(of: 0x2E) else { return nil }
        // A leading dot marks a hidden file, not an extension; a trailing dot starts none.
        if dot == range.lowerBound || dot == range.upperBound - 1 { return nil }
        return dot
    }

    /// The extension with its dot (`".txt"`), or `""` when the name has none.
    public var `extension`: String {
        guard let dot = extensionDot else { return "" }
        return String(decoding: storage[dot..<nameRange.upperBound], as: UTF8.self)
    }

    /// The extension without its dot (`"txt"`), or `""`.
    public var extensionWithoutDot: String {
        guard let dot = extensionDot else { return "" }
        return String(decoding: storage[(dot + 1)..<nameRange.upperBound], as: UTF8.self)
    }

    /// The name without its extension (`"a"` for `a.txt`, `".bashrc"` for `.bashrc`).
    public var nameWithoutExtension: String {
        let range = nameRange
        return String(decoding: storage[range.lowerBound..<(extensionDot ?? range.upperBound)], as: UTF8.self)
    }

    /// Whether the name starts with a dot (`.` and `..` themselves are not hidden).
    public var isHidden: Bool {
        let name = nameBytes
        return name.first == 0x2E && !isDotOrDotDot(name)
    }

    /// The directory that contains this path, by syntax alone.
    ///
    /// The parent of `/` is `/`; of `a` is `.`; of `.` and `..` is `..` and `../..`.
    public var parent: File {
        inheriting(syntacticParent)
    }

    private var syntacticParent: File {
        if isRoot { return self }
        let range = nameRange
        if range.count == 1 && storage[range.lowerBound] == 0x2E {
            // `x/.` is `x` itself, so its parent is `x/..`; the parent of `.` is `..`.
            return File(normalizedStorage: Array(storage[..<range.lowerBound]) + [0x2E, 0x2E, 0])
        }
        if range.isEmpty || isDotOrDotDot(storage[range]) { return self + ".." }
        return leadingPart ?? File(path: ".")
    }

    /// The path without its last name (`x` for `x/..`, `/` for `/x`), or nil when nothing comes
    /// before the name (`x`, `..`, `/`).
    var droppingLastName: File? {
        leadingPart.map(inheriting)
    }

    /// What comes before the last name, by syntax alone; nil when nothing does.
    private var leadingPart: File? {
        let range = nameRange
        if isRoot || range.lowerBound == 0 { return nil }
        if range.lowerBound == 1 { return File(path: "/") }
        return File(normalizedStorage: Array(storage[..<(range.lowerBound - 1)]) + [0])
    }

    /// The components as byte slices, without the root.
    public var componentBytes: [ArraySlice<UInt8>] {
        storage.dropLast().split(separator: 0x2F, omittingEmptySubsequences: true)
    }

    /// The components as text, without the root: `["usr", "bin"]` for `/usr/bin`.
    public var components: [String] { componentBytes.map { String(decoding: $0, as: UTF8.self) } }

    /// The number of components (`/usr/bin` has 2; `/` has 0).
    public var depth: Int { componentBytes.count }

    /// The path with `.` removed and `..` applied lexically, without touching the disk.
    ///
    /// `..` at the top of an absolute path stays at the root; leading `..` of a relative path stays.
    /// An empty result is `.`.
    public var normalized: File {
        var parts: [ArraySlice<UInt8>] = []
        for part in componentBytes {
            if isDot(part) { continue }
            if isDotDot(part) {
                if let last = parts.last, !isDotDot(last) {
                    parts.removeLast()
                } else if !isAbsolute {
                    parts.append(part)
                }
                continue
            }
            parts.append(part)
        }
        return inheriting(File(joining: parts, absolute: isAbsolute))
    }

    private init(joining parts: [ArraySlice<UInt8>], absolute: Bool) {
        var result: [UInt8] = absolute ? [0x2F] : []
        for (index, part) in parts.enumerated() {
            if index > 0 { result.append(0x2F) }
            result.append(contentsOf: part)
        }
        if result.isEmpty { result = [0x2E] }
        result.append(0)
        storage = result
    }

    /// This path relative to `base`, lexically: `/a/b/c` relative to `/a/x` is `../b/c`. The
    /// result is on this path's volume, where a relative path starts at the top: join it to
    /// `base` to reach the file.
    ///
    /// Returns nil when syntax alone cannot tell: one path is absolute and the other is not, the
    /// two are on different volumes, or `base` climbs with `..` above what the two share
    /// (`a` relative to `../b` would need the name of the directory `..` leaves).
    public func relative(to base: File) -> File? {
        guard isAbsolute == base.isAbsolute, volume === base.volume else { return nil }
        // `normalized` spells an empty path `.`, which is no component to climb out of.
        let mine = normalized.componentBytes.filter { !isDot($0) }
        let theirs = base.normalized.componentBytes.filter { !isDot($0) }
        var common = 0
        while common < mine.count && common < theirs.count && mine[common] == theirs[common] { common += 1 }
        if theirs[common...].contains(where: isDotDot) { return nil }
        let dotDot: ArraySlice<UInt8> = [0x2E, 0x2E]
        let parts = Array(repeating: dotDot, count: theirs.count - common) + mine[common...]
        return File(joining: Array(parts), absolute: false).on(volume)
    }

    /// The path with a leading `~` or `~/` replaced by `home`; `~user` by that user's home.
    ///
    /// A path that does not start with `~`, or names a user the system does not know, is returned
    /// unchanged. A path on another volume stays on it: the home's bytes name a directory there.
    public func expandingTilde(home: File = .home) -> File {
        guard storage.first == 0x7E else { return self }
        let rest = storage.dropLast().dropFirst()
        let slash = rest.firstIndex(of: 0x2F) ?? rest.endIndex
        let user = rest[rest.startIndex..<slash]
        let base: File
        if user.isEmpty {
            base = home
        } else if let dir = Sys.homeDirectory(named: String(decoding: user, as: UTF8.self)) {
            base = File(bytes: dir)
        } else {
            return self
        }
        return (slash == rest.endIndex ? base : base + File(bytes: rest[(slash + 1)...])).on(volume)
    }

    /// Joins a relative path onto a directory path: `File.home + "notes"`.
    public static func + (directory: File, component: String) -> File {
        directory + File(path: component)
    }

    /// The same path's bytes on `volume`: `File.root.on(volume)` is that volume's top.
    public func on(_ volume: any Volume) -> File {
        var result = self
        result.volume = volume
        if !result.isLocal { result.anchor = nil }
        return result
    }

    /// Joins two paths; the right side is appended even when it starts with `/`.
    /// The result is on the left side's volume, or the right side's when the left is local.
    public static func + (directory: File, rest: File) -> File {
        var joined = directory.inheriting(directory.joining(rest))
        if joined.isLocal { joined.volume = rest.volume }
        return joined
    }

    private func joining(_ rest: File) -> File {
        if storage.count == 1 { return rest }
        let tail = rest.storage.drop { $0 == 0x2F }
        // An empty right side, or one that is only the root (`/`), adds no component.
        if tail.count == 1 { return self }
        var result = storage
        result.removeLast()
        if result.last != 0x2F { result.append(0x2F) }
        result.append(contentsOf: tail)
        return File(normalizedStorage: result)
    }

    /// Joins one name given as bytes (a directory entry's name) onto this path; as in
    /// `init(bytes:)`, a NUL byte ends the name, so that the path a system call sees is the path
    /// this value shows.
    ///
    /// The name must name an entry of this directory: one that is empty, holds `/`, or is `.` or
    /// `..` would make a path to somewhere else, so it is refused. Use `+` to join a path.
    ///
    ///     try File(path: "/x").appending(name: Array("a.txt".utf8))   // /x/a.txt
    ///     try File(path: "/x").appending(name: Array("../etc".utf8))  // throws EINVAL
    /// - Throws: `FileError` with operation `.resolve`, this path, `EINVAL`, and the name as
    ///   `destination`.
    public func appending<Name: Collection>(name: Name) throws(FileError) -> File where Name.Element == UInt8 {
        let name = name.prefix { $0 != 0 }
        guard !name.isEmpty, !name.contains(0x2F), !isDotOrDotDot(name) else {
            throw FileError(.resolve, self, .invalidArgument, destination: File(bytes: name))
        }
        return appending(entryName: name)
    }

    /// Joins a name the kernel listed (never empty, `.`, `..` or holding `/`), or a component
    /// already split from a path, without checking it. A NUL byte ends the name.
    func appending<Name: Collection>(entryName name: Name) -> File where Name.Element == UInt8 {
        var result = storage
        result.removeLast()
        if !result.isEmpty && result.last != 0x2F { result.append(0x2F) }
        result.append(contentsOf: name.prefix { $0 != 0 })
        result.append(0)
        return inheriting(File(normalizedStorage: result))
    }
}

extension File: Hashable {
    /// Two paths are equal when they have the same bytes on the same volume (an anchor is only
    /// a way to reach the path).
    public static func == (lhs: File, rhs: File) -> Bool {
        lhs.storage == rhs.storage && lhs.volume === rhs.volume
    }

    /// Hashes the bytes and the volume.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage)
        hasher.combine(ObjectIdentifier(volume))
    }
}

/// Whether a name is `.`.
@inline(__always)
func isDot<C: Collection>(_ name: C) -> Bool where C.Element == UInt8 {
    name.count == 1 && name.first == 0x2E
}

/// Whether a name is `..`.
@inline(__always)
func isDotDot<C: Collection>(_ name: C) -> Bool where C.Element == UInt8 {
    name.count == 2 && name.allSatisfy { $0 == 0x2E }
}

/// Whether a name is `.` or `..`.
@inline(__always)
func isDotOrDotDot<C: Collection>(_ name: C) -> Bool where C.Element == UInt8 {
    var iterator = name.makeIterator()
    guard iterator.next() == 0x2E else { return false }
    guard let second = iterator.next() else { return true }
    return second == 0x2E && iterator.next() == nil
}

extension File: Comparable {
    /// Orders paths by their bytes, as `LC_ALL=C` sorting does.
    public static func < (lhs: File, rhs: File) -> Bool {
        lhs.storage.withUnsafeBufferPointer { left in
            rhs.storage.withUnsafeBufferPointer { right in
                let count = Swift.min(left.count, right.count)
                let order = memcmp(left.baseAddress!, right.baseAddress!, count)
                return order < 0 || (order == 0 && left.count < right.count)
            }
        }
    }
}

extension File: ExpressibleByStringLiteral {
    /// A path from a literal: `let etc: File = "/etc"`.
    public init(stringLiteral value: String) { self.init(path: value) }
}

extension File: CustomStringConvertible {
    /// The path as text (bytes that are not UTF-8 replaced). Never looks at the volume: a
    /// description is made where no one expects a wait (a log line, a test library reporting a
    /// failure), and on object storage a look is a request, which can wait on a server or
    /// never be answered after the client is shut down.
    public var description: String { string }
}

extension File: CustomReflectable {
    /// A path reflects as its text alone. Its volume can be a live object that other threads
    /// change (an object storage client's connections), which a reflection must not walk into:
    /// a test library describing a failed expectation would read it without a lock.
    public var customMirror: Mirror { Mirror(self, children: ["path": string], displayStyle: .struct) }
}

extension File: Codable {
    /// Decodes a path from a string, or from an array of bytes for a path that is not UTF-8.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            self.init(path: try container.decode(String.self))
        } catch DecodingError.typeMismatch {
            self.init(bytes: try container.decode([UInt8].self))
        }
    }

    /// Encodes the path as a string when it is UTF-8, else as an array of its bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if isValidUTF8 { try container.encode(string) } else { try container.encode(bytes) }
    }
}
