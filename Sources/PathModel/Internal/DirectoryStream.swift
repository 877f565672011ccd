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

    private static let capacity = 32 * 1024
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
            if let entry = record(at: &position) { return (Array(entry.name), entry.type) }
        }
    }

    /// Calls `body` with the name bytes and `d_type` of every entry left, skipping `.` and
    /// `..`; the name is valid only during the call. Reads a buffer at a time, with no state
    /// kept between entries, which is the fast way through a large directory.
    func readAll(_ body: (UnsafeRawBufferPointer, UInt8) -> Void) throws(Errno) {
        var position = self.position
        var filled = self.filled
        defer {
            self.position = position
            self.filled = filled
        }
        while true {
            if position >= filled {
                filled = try refill()
                position = 0
                if filled == 0 { return }
            }
            if let entry = record(at: &position) { body(entry.name, entry.type) }
        }
    }

    /// Fills the buffer with the next records; 0 at the end.
    private func refill() throws(Errno) -> Int {
        // Consulted once a buffer, not once an entry: the plan is a task-local lookup.
        if let fault = injected(.readdir, nil) { throw fault }
        return try Sys.readEntries(descriptor, into: buffer, capacity: Self.capacity)
    }

    /// The record at `position` in the buffer, moving `position` past it; nil for `.` and `..`.
    private func record(at position: inout Int) -> (name: UnsafeRawBufferPointer, type: UInt8)? {
        let record = buffer + position
        position += Int(record.loadUnaligned(fromByteOffset: Self.lengthOffset, as: UInt16.self))
        let start = (record + Self.nameOffset).assumingMemoryBound(to: CChar.self)
        let name = UnsafeRawBufferPointer(start: start, count: strlen(start))
        if name.count == 1 && name[0] == 0x2E { return nil }
        if name.count == 2 && name[0] == 0x2E && name[1] == 0x2E { return nil }
        return (name, record.load(fromByteOffset: Self.typeOffset, as: UInt8.self))
    }

    /// Closes the descriptor (when it owns it) and frees the buffer.
    func close() {
        if owning { Sys.close(descriptor) }
        buffer.deallocate()
    }
}
