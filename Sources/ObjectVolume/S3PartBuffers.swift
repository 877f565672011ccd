import Dispatch
import Synchronization

/// One part's bytes in memory, taken from a transfer's `PartBuffers` and given back once the
/// part has gone up or been read: its capacity (a part's size) is kept from part to part.
final class PartBuffer: @unchecked Sendable {
    /// The bytes; touched by one thread at a time, the one the buffer was handed to.
    var bytes: [UInt8] = []
}

/// The buffers of one transfer's parts in flight (uploaded, or fetched ahead of the reads): at
/// most `limit` at once, each given back for the next part to reuse. A transfer so holds a
/// bounded number of parts in memory whatever the size of its file, and the allocator sees no
/// large block made and freed part after part (which left memory in its arenas). Taking one
/// while all are out waits until one is given back.
final class PartBuffers: Sendable {
    /// The most buffers out at once.
    let limit: Int
    private let partSize: Int
    private let slots: DispatchSemaphore
    private let free = Mutex<[PartBuffer]>([])
    private let ledger: PartLedger

    /// At most `limit` buffers of `partSize` bytes, counted in `ledger` while they are out.
    init(limit: Int, partSize: Int, ledger: PartLedger) {
        self.limit = max(1, limit)
        self.partSize = partSize
        self.ledger = ledger
        slots = DispatchSemaphore(value: self.limit)
    }

    /// An empty buffer with room for a part, once fewer than `limit` are out.
    func take() -> PartBuffer {
        slots.wait()
        ledger.add(partSize)
        if let buffer = free.withLock({ $0.popLast() }) { return buffer }
        let buffer = PartBuffer()
        buffer.bytes.reserveCapacity(partSize)
        return buffer
    }

    /// Takes `buffer` back (emptied, its capacity kept) for the next part.
    func give(_ buffer: PartBuffer) {
        buffer.bytes.removeAll(keepingCapacity: true)
        free.withLock { $0.append(buffer) }
        ledger.remove(partSize)
        slots.signal()
    }
}

/// The bytes of the part buffers a volume's transfers have out now, and the most at once.
final class PartLedger: Sendable {
    private let counts = Mutex<(now: Int, peak: Int)>((0, 0))

    func add(_ bytes: Int) {
        counts.withLock { counts in
            counts.now += bytes
            counts.peak = max(counts.peak, counts.now)
        }
    }

    func remove(_ bytes: Int) {
        counts.withLock { $0.now -= bytes }
    }

    /// The bytes out now and the most out at once.
    var held: (now: Int, peak: Int) { counts.withLock { $0 } }
}
