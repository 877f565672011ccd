// A directory's entries, parsed from the records `getdents64(2)` fills a buffer with; the call
// itself is made through the one door, `Sys.readEntries`.

import Glibc
import SystemPackage

/// An open directory read with `getdents64(2)` into a buffer of its own (no `DIR`, so opening
/// one costs no `fstat` or `fcntl`); yields entries until the end, then must be closed.
final class DirectoryStream {
    /// The descriptor behind the stream, for *at calls relative to the directory.
    let descriptor: Int32
    /// Whether closing the stream closes the descriptor.
    private let owning: Bool
    private let buffer: UnsafeMutableRawPointer
    /// Where the next record starts in `buffer`, and how much of it the last read filled.
    private var position = 0
    private var filled = 0

    static let capacity = 32 * 1024
    /// Offsets in a `struct linux_dirent64` record: its length, its type, its NUL-terminated name.
    private static let lengthOffset = 16
    private static let typeOffset = 18
    private static let nameOffset = 19

    /// A stream over the open directory `descriptor`, which it now owns unless `owning` is false
    /// (then it reads it from where it is, and leaves it open).
    init(descriptor: Int32, owning: Bool = true) {
        self.descriptor = descriptor
        self.owning = owning
        buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.capacity, alignment: 8)
    }

    /// The next entry's name bytes and `d_type`, skipping `.` and `..`; nil at the end.
    func next() throws(Errno) -> (name: [UInt8], type: UInt8)? {
        while true {
            if position >= filled {
                filled = try refill()
                position = 0
                if filled == 0 { return nil }
            }
            if let entry = Self.record(in: buffer, at: &position) {
                return (Array(UnsafeRawBufferPointer(start: entry.name, count: entry.count)), entry.type)
            }
        }
    }

    /// Calls `body` with each block of records left, from where the stream is to the end, as
    /// the kernel filled the buffer; `body` may overwrite the block, which is spent when it
    /// returns. `forEachRecord(in:)` reads one. This is the fast way through a large directory.
    func readBlocks(_ body: (UnsafeMutableRawBufferPointer) -> Void) throws(Errno) {
        defer { position = filled }
        while true {
            if position >= filled {
                filled = try refill()
                position = 0
                if filled == 0 { return }
            }
            body(UnsafeMutableRawBufferPointer(start: buffer + position, count: filled - position))
            position = filled
        }
    }

    /// Calls `body` with the name, its length and the `d_type` of each record in `block` (a block
    /// `readBlocks` gave), skipping `.` and `..`. The name's bytes are followed by a NUL; `body`
    /// may overwrite the record it is given and any before it, never one after.
    static func forEachRecord(
        in block: UnsafeMutableRawBufferPointer, _ body: (UnsafeMutableRawPointer, Int, UInt8) -> Void
    ) {
        guard let base = block.baseAddress else { return }
        var position = 0
        while position < block.count {
            if let entry = record(in: base, at: &position) { body(entry.name, entry.count, entry.type) }
        }
    }

    /// The size the file system gives the open directory, a hint of how many entries it holds
    /// (20 bytes an entry on tmpfs, bytes of entries on most disk file systems); nil when it
    /// cannot be examined. Corresponds to `statx(2)`.
    func sizeHint() -> UInt64? { try? Sys.stat(fd: descriptor).size }

    /// Fills the buffer with the next records; 0 at the end.
    private func refill() throws(Errno) -> Int {
        // Consulted once a buffer, not once an entry: the plan is a task-local lookup.
        if let fault = injected(.readdir, nil) { throw fault }
        return try Sys.readEntries(descriptor, into: buffer, capacity: Self.capacity)
    }

    /// The record at `position` in `block`, moving `position` past it; nil for `.` and `..`.
    private static func record(
        in block: UnsafeMutableRawPointer, at position: inout Int
    ) -> (name: UnsafeMutableRawPointer, count: Int, type: UInt8)? {
        let record = block + position
        position += Int(record.loadUnaligned(fromByteOffset: lengthOffset, as: UInt16.self))
        let name = record + nameOffset
        let count = strlen(name.assumingMemoryBound(to: CChar.self))
        if name.load(as: UInt8.self) == 0x2E
            && (count == 1 || (count == 2 && name.load(fromByteOffset: 1, as: UInt8.self) == 0x2E))
        {
            return nil
        }
        return (name, count, record.load(fromByteOffset: typeOffset, as: UInt8.self))
    }

    /// Closes the descriptor (when it owns it) and frees the buffer.
    func close() {
        if owning { Sys.close(descriptor) }
        buffer.deallocate()
    }
}
