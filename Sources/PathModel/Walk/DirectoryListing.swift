import Glibc
import SystemPackage

/// A directory's entries read in one go: every name in one buffer, with its kind when the volume
/// said it, in the volume's order until sorted. A walk keeps one per directory on its path, so a
/// large directory costs two allocations, not one per name.
public struct DirectoryListing: Sendable {
    /// Where one name lies in `names`, and its kind.
    struct Slot: Sendable {
        var start: UInt32
        var count: UInt32
        var kind: FileKind?
    }

    /// Every name, one after the other, each followed by a NUL byte (so a volume can hand a
    /// name to the kernel as it lies).
    private(set) var names: [UInt8] = []
    /// The entries, in order.
    private(set) var slots: [Slot] = []

    /// An empty listing, to append to.
    public init() {}

    /// The number of entries.
    public var count: Int { slots.count }

    /// The name of entry `index`, byte for byte.
    public func name(_ index: Int) -> ArraySlice<UInt8> {
        let slot = slots[index]
        return names[Int(slot.start)..<Int(slot.start + slot.count)]
    }

    /// The kind of entry `index` as the volume gave it with the name; nil when it did not say.
    public func kind(_ index: Int) -> FileKind? { slots[index].kind }

    /// Appends the name of entry `index` to `bytes`.
    public func appendName(_ index: Int, to bytes: inout [UInt8]) {
        let slot = slots[index]
        names.withUnsafeBufferPointer { buffer in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[Int(slot.start)..<Int(slot.start + slot.count)]))
        }
    }

    /// Whether the name of entry `index` starts with a dot.
    public func isHidden(_ index: Int) -> Bool { names[Int(slots[index].start)] == 0x2E }

    /// The entry `index` as a `DirectoryEntry`.
    public func entry(_ index: Int) -> DirectoryEntry { DirectoryEntry(name: Array(name(index)), kind: kind(index)) }

    /// Adds an entry.
    public mutating func append<Name: Collection>(name: Name, kind: FileKind?) where Name.Element == UInt8 {
        let start = names.count
        names.append(contentsOf: name)
        slots.append(Slot(start: UInt32(start), count: UInt32(names.count - start), kind: kind))
        names.append(0)
    }

    /// Adds every entry `stream` has left.
    mutating func read(_ stream: DirectoryStream) throws(Errno) {
        // Room for a typical directory at once, rather than growing by doubling from nothing.
        names.reserveCapacity(512)
        slots.reserveCapacity(32)
        try stream.readAll { name, type in
            let start = names.count
            names.append(contentsOf: name)
            names.append(0)
            slots.append(
                Slot(start: UInt32(start), count: UInt32(name.count), kind: FileKind(directoryEntryType: type)))
        }
    }

    /// Calls `body` with each entry's name as a NUL-terminated C string, in order.
    func forEachCName(_ body: (UnsafePointer<CChar>) -> Void) {
        names.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            for slot in slots { body((base + Int(slot.start)).assumingMemoryBound(to: CChar.self)) }
        }
    }

    /// Puts the entries in byte order, as `LC_ALL=C` sorts names.
    public mutating func sortByBytes() {
        names.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            slots.sort { left, right in
                let common = Int(Swift.min(left.count, right.count))
                let order = memcmp(base + Int(left.start), base + Int(right.start), common)
                return order != 0 ? order < 0 : left.count < right.count
            }
        }
    }

    /// The entries as `DirectoryEntry` values, in order.
    public var entries: [DirectoryEntry] { (0..<count).map(entry) }
}
