/// One file system mounted on this machine, as the kernel lists it in `/proc/self/mountinfo`.
public struct MountedFileSystem: Sendable, Hashable {
    /// What is mounted: a device's path, or a name its type gives (`tmpfs`, `none`).
    public var source: [UInt8]
    /// Where it is mounted.
    public var mountPoint: File
    /// Its type (`ext4`, `tmpfs`, `proc`).
    public var type: String
    /// Its device number, as `FileIdentity.device` gives it for the files on it.
    public var device: UInt64
    /// The directory of the file system that is mounted there (`/`, or a subdirectory for a bind
    /// mount).
    public var root: [UInt8]

    /// A mounted file system from its parts.
    public init(source: [UInt8], mountPoint: File, type: String, device: UInt64, root: [UInt8]) {
        self.source = source
        self.mountPoint = mountPoint
        self.type = type
        self.device = device
        self.root = root
    }

    /// The file systems mounted for this process, in the order they were mounted.
    /// - Throws: `FileError` when `/proc/self/mountinfo` cannot be read (no `/proc`).
    /// Corresponds to reading `/proc/self/mountinfo`.
    public static func all() throws(FileError) -> [MountedFileSystem] {
        parse(try File(path: "/proc/self/mountinfo").on(LocalVolume.shared).readBytes())
    }

    /// The entries of a `mountinfo` text: `ID PARENT MAJOR:MINOR ROOT POINT OPTIONS [TAGS...] -
    /// TYPE SOURCE SUPER-OPTIONS` a line, with `\NNN` octal escapes in the names; a line that
    /// does not read so is left out.
    static func parse(_ text: [UInt8]) -> [MountedFileSystem] {
        text.split(separator: 0x0A).compactMap { line in
            let fields = line.split(separator: 0x20).map { unescaped($0) }
            guard fields.count >= 10, let dash = fields.firstIndex(of: [0x2D]), dash >= 6,
                dash + 2 < fields.count
            else { return nil }
            let numbers = fields[2].split(separator: 0x3A).compactMap {
                UInt64(String(decoding: $0, as: UTF8.self))
            }
            guard numbers.count == 2 else { return nil }
            return MountedFileSystem(
                source: fields[dash + 2], mountPoint: File(bytes: fields[4]).on(LocalVolume.shared),
                type: String(decoding: fields[dash + 1], as: UTF8.self),
                device: deviceNumber(major: numbers[0], minor: numbers[1]), root: fields[3])
        }
    }

    /// A field with its `\NNN` octal escapes (space, tab, newline, backslash) turned back into bytes.
    private static func unescaped(_ field: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = field.startIndex
        while index < field.endIndex {
            let digits = field[(index + 1)..<min(index + 4, field.endIndex)]
            if field[index] == 0x5C, digits.count == 3, digits.allSatisfy({ (0x30...0x37).contains($0) }) {
                bytes.append(digits.reduce(0) { $0 &* 8 &+ ($1 - 0x30) })
                index += 4
            } else {
                bytes.append(field[index])
                index += 1
            }
        }
        return bytes
    }

    /// A device number from its halves, as glibc's `makedev(3)` joins them.
    static func deviceNumber(major: UInt64, minor: UInt64) -> UInt64 {
        ((major & 0xFFFF_F000) << 32) | ((major & 0xFFF) << 8) | ((minor & 0xFFFF_FF00) << 12)
            | (minor & 0xFF)
    }
}
