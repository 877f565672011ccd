import Glibc
import SystemPackage

/// A directory's entries read in one go: every name in one buffer, with its kind when the volume
/// said it, in the volume's order until sorted. A walk keeps one per directory on its path, so a
/// large directory costs two allocations, not one per name.
public struct DirectoryListing: Sendable {
    /// Where one name lies in `names`, and its kind: eight bytes, so that a sort moves little.
    struct Slot: Sendable {
        var start: UInt32
        /// The name's length in the low 24 bits, the kind's `code` in the high 8.
        private var lengthAndKind: UInt32

        init(start: Int, count: Int, kindCode: UInt8) {
            self.start = UInt32(start)
            lengthAndKind = UInt32(count) | UInt32(kindCode) << 24
        }

        /// The name's length in bytes.
        var count: Int { Int(lengthAndKind & 0xFF_FFFF) }

        /// The kind, nil when the volume did not say.
        var kind: FileKind? { FileKind(slotCode: UInt8(lengthAndKind >> 24)) }
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
        return names[Int(slot.start)..<Int(slot.start) + slot.count]
    }

    /// The kind of entry `index` as the volume gave it with the name; nil when it did not say.
    public func kind(_ index: Int) -> FileKind? { slots[index].kind }

    /// Appends the name of entry `index` to `bytes`.
    public func appendName(_ index: Int, to bytes: inout [UInt8]) {
        let slot = slots[index]
        names.withUnsafeBufferPointer { buffer in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[Int(slot.start)..<Int(slot.start) + slot.count]))
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
        precondition(names.count - start < 1 << 24, "a name longer than 16 MiB")
        slots.append(Slot(start: start, count: names.count - start, kindCode: kind.slotCode))
        names.append(0)
    }

    /// Adds every entry `stream` has left. Each block of records the kernel fills is packed in
    /// place into names and NULs and appended at once; a directory that fills the first block
    /// gets room for all of its entries from its size, so that a large one is not copied as it
    /// grows.
    mutating func read(_ stream: DirectoryStream) throws(Errno) {
        var first = true
        slots.reserveCapacity(32)
        try stream.readBlocks { block in
            guard let base = block.baseAddress else { return }
            var packed = 0
            let offset = names.count
            DirectoryStream.forEachRecord(in: block) { name, count, type in
                // The name moves down to where the packed names end: never past its own record.
                memmove(base + packed, name, count + 1)
                slots.append(Slot(start: offset + packed, count: count, kindCode: type))
                packed += count + 1
            }
            if first {
                first = false
                reserve(for: stream, firstBlock: block.count, nameBytes: packed)
            }
            names.append(contentsOf: UnsafeRawBufferPointer(start: base, count: packed))
        }
    }

    /// Reserves room for the whole directory when its first block of records (`firstBlock`
    /// bytes, packed into `nameBytes` of names for the entries so far) fills most of a buffer,
    /// from the directory's size and the names' average length (untouched room costs no memory:
    /// the kernel gives pages when they are written).
    private mutating func reserve(for stream: DirectoryStream, firstBlock: Int, nameBytes: Int) {
        guard firstBlock > DirectoryStream.capacity / 2, let size = stream.sizeHint() else {
            names.reserveCapacity(Swift.max(512, nameBytes))
            return
        }
        let entries = Swift.max(Int(Swift.min(size / 16, 1 << 22)), slots.count)
        let average = slots.isEmpty ? 32 : nameBytes / slots.count + 1
        slots.reserveCapacity(entries)
        // Eight bytes more for the padding `sortByBytes` adds.
        names.reserveCapacity(entries * average + average + 8)
    }

    /// Calls `body` with each entry's name as a NUL-terminated C string, in order.
    func forEachCName(_ body: (UnsafePointer<CChar>) -> Void) {
        names.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            for slot in slots { body((base + Int(slot.start)).assumingMemoryBound(to: CChar.self)) }
        }
    }

    /// Puts the entries in byte order, as `LC_ALL=C` sorts names. Names are compared eight bytes
    /// at a time, as big-endian integers.
    public mutating func sortByBytes() {
        // Any eight-byte load that starts inside a name then stays inside the buffer.
        names.append(contentsOf: repeatElement(0, count: 8))
        defer { names.removeLast(8) }
        names.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            slots.sort { left, right in
                Self.precedes(base + Int(left.start), left.count, base + Int(right.start), right.count)
            }
        }
    }

    /// Whether the name of `leftCount` bytes at `left` comes before the one at `right` in byte
    /// order (a name before any longer one it starts).
    private static func precedes(
        _ left: UnsafePointer<UInt8>, _ leftCount: Int, _ right: UnsafePointer<UInt8>, _ rightCount: Int
    ) -> Bool {
        var offset = 0
        while true {
            let leftWord = word(left + offset, count: leftCount - offset)
            let rightWord = word(right + offset, count: rightCount - offset)
            if leftWord != rightWord { return leftWord < rightWord }
            offset += 8
            // Equal so far, and one name has ended (names hold no NUL, so a word that ran past a
            // name's end can equal the other's only where that one ended too).
            if offset >= leftCount || offset >= rightCount { return leftCount < rightCount }
        }
    }

    /// The eight bytes at `start` as a big-endian integer, which orders as the bytes do; when
    /// fewer than eight of them, `count`, belong to the name, the rest count as zeros.
    private static func word(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let word = UInt64(bigEndian: UnsafeRawPointer(start).loadUnaligned(as: UInt64.self))
        return count >= 8 ? word : word & ~(UInt64.max >> (count * 8))
    }

    /// Calls `emit` with the names of the entries, in order or reversed, each followed by
    /// `terminator`, in blocks of about `blockSize` bytes, leaving out those starting with a dot
    /// when `skippingHidden`; stops when `emit` returns false. This is how a plain listing is
    /// written: no value is made per entry.
    public func forEachBlockOfLines(
        reversed: Bool, skippingHidden: Bool, terminator: UInt8, blockSize: Int,
        _ emit: ([UInt8]) -> Bool
    ) {
        // Every line fits in a block, however long its name.
        let capacity = Swift.max(blockSize, (slots.lazy.map(\.count).max() ?? 0) + 1)
        var position = 0
        while position < count {
            let block = names.withUnsafeBufferPointer { names in
                slots.withUnsafeBufferPointer { slots in
                    [UInt8](unsafeUninitializedCapacity: capacity) { block, used in
                        used = 0
                        while position < slots.count && used < blockSize {
                            let slot = slots[reversed ? slots.count - 1 - position : position]
                            let start = Int(slot.start)
                            if skippingHidden && names[start] == 0x2E {
                                position += 1
                                continue
                            }
                            guard used + slot.count < capacity else { break }
                            UnsafeMutableRawPointer(block.baseAddress! + used)
                                .copyMemory(from: names.baseAddress! + start, byteCount: slot.count)
                            block[used + slot.count] = terminator
                            used += slot.count + 1
                            position += 1
                        }
                    }
                }
            }
            if block.isEmpty || !emit(block) { return }
        }
    }

    /// The entries as `DirectoryEntry` values, in order.
    public var entries: [DirectoryEntry] { (0..<count).map(entry) }
}

extension Optional where Wrapped == FileKind {
    /// The kind as a listing keeps it: a `d_type` where there is one, 0 for none, 255 for
    /// `unknown`.
    var slotCode: UInt8 {
        switch self {
        case nil: 0
        case .regular?: UInt8(DT_REG)
        case .directory?: UInt8(DT_DIR)
        case .symlink?: UInt8(DT_LNK)
        case .fifo?: UInt8(DT_FIFO)
        case .socket?: UInt8(DT_SOCK)
        case .characterDevice?: UInt8(DT_CHR)
        case .blockDevice?: UInt8(DT_BLK)
        case .unknown?: 255
        }
    }
}

extension FileKind {
    /// The kind a listing's `slotCode` stands for; nil for none.
    init?(slotCode code: UInt8) {
        if code == 255 {
            self = .unknown
        } else {
            self.init(directoryEntryType: code)
        }
    }
}
