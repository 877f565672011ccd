import Dispatch
import ObjectStorage
import PathModel
import Synchronization

/// The ranges of one object fetched in parallel, each piece of a range's body handed to a sink
/// with its offset as it arrives (`PieceSource`): a download to a disk lands every byte at its
/// place, holds only the pieces being written whatever the object's size, and no range waits
/// for the one before it.
///
/// The object is cut into ranges of the volume's part size, or into twice as many ranges as
/// requests in flight when those are larger (a 512 MiB object in 20 ranges of 25.6 MiB, not 64
/// of 8 MiB); `concurrentRequests` threads each take the next range not yet taken until none
/// is left. Every GET is on the condition that the
/// object still has the entity tag it was opened with (`If-Match`), and each answer's size and
/// entity tag are compared with those, so a changed object fails the download rather than
/// mixing two versions. A range that fails after some of its bytes came resumes at its first
/// missing byte (`S3Client.getObject(resuming:)`); one that fails for good stops the others at
/// their next piece and is the delivery's failure. While a piece is at the sink its bytes are
/// counted in the volume's `partBytesHeld`.
///
/// An object made of parts that carried checksums (a composite checksum) is cut where its parts
/// begin and end instead, as S3 lists them (`S3Volume.partSizes`): each range's bytes come in
/// order, so its part's checksum is worked out as they arrive, and once every part is in, the
/// parts' checksums must make the object's, or the delivery fails with `EIO` (a checksum
/// mismatch). An object of a few large parts so comes down on as few connections. Where S3
/// does not list the parts (an object with no such checksum, or a server that may not or
/// cannot say), the object is not checked.
struct ParallelRanges: Sendable {
    let volume: S3Volume
    let key: [UInt8]
    let head: ObjectHead
    let file: File

    /// Hands every byte of the object to `sink`, as `PieceSource.deliverPieces` says.
    func deliver(
        to sink: @escaping @Sendable (_ offset: UInt64, _ bytes: UnsafeRawBufferPointer) throws(FileError) -> Void,
        progress: (_ bytes: UInt64) -> Void, isCancelled: () -> Bool
    ) throws(FileError) {
        let (ranges, composite) = try plan()
        let state = DeliveryState(rangeCount: ranges.count)
        let workers = DispatchGroup()
        for _ in 0..<min(volume.concurrentRequests, ranges.count) {
            workers.enter()
            // A queue of its own runs on a thread of its own, however many wait on the network.
            DispatchQueue(label: "shelf.s3.range").async { [self] in
                defer { workers.leave() }
                while let index = state.nextRange() {
                    do throws(S3Failure) {
                        let checksum = try fetch(
                            ranges[index], checksummed: composite != nil, to: sink, state: state)
                        if let checksum { state.keep(checksum, ofRange: index) }
                    } catch {
                        if case .other(let stop) = error, stop is Stopped { return }
                        // Ctrl-C seen by a range's request before the caller's own check:
                        // the same stop, told as the caller tells it.
                        if case .service(let failure) = error, failure.kind == .interrupted {
                            state.fail(FileError(.read, file, .canceled))
                        } else {
                            state.fail(error.fileError(.read, file))
                        }
                    }
                }
            }
        }
        var told: UInt64 = 0
        func tell() {
            let delivered = state.delivered
            if delivered > told { progress(delivered - told) }
            told = delivered
        }
        // Asked once more after the last range: a stop asked for while the download ran stops
        // it, however soon the ranges came.
        var finished = false
        while !finished {
            finished = workers.wait(timeout: .now() + .milliseconds(50)) == .success
            tell()
            if isCancelled() { state.fail(FileError(.read, file, .canceled)) }
        }
        if let failure = state.failure { throw failure }
        if let composite, !composite.isMade(of: state.checksums) {
            throw S3Failure.service(S3Error(.badDigest)).fileError(.read, file)
        }
    }

    /// The ranges to fetch, as offset and length, and the composite checksum to check them
    /// against when they are the object's parts.
    private func plan() throws(FileError) -> (ranges: [(first: UInt64, count: UInt64)], composite: CompositeChecksum?) {
        let size = UInt64(max(head.size, 0))
        if let composite = head.compositeChecksum, let parts = try volume.partSizes(of: key, head: head, file: file) {
            var first: UInt64 = 0
            let ranges = parts.map { part in
                defer { first += UInt64(part) }
                return (first: first, count: UInt64(part))
            }
            return (ranges, composite)
        }
        // Fewer, larger requests for a large object: ranges of a part, or of a twentieth of it
        // (twice the requests in flight, so that a slow range still leaves the others work).
        let perRange = (size + UInt64(2 * volume.concurrentRequests) - 1) / UInt64(2 * volume.concurrentRequests)
        let rangeSize = max(UInt64(max(volume.partSize, 256 << 10)), perRange)
        let ranges = stride(from: 0, to: size, by: Int(rangeSize)).map { first in
            (first: UInt64(first), count: min(rangeSize, size - UInt64(first)))
        }
        return (ranges, nil)
    }

    /// Fetches `range` into `sink`, unless the delivery stops first.
    /// - Returns: the checksum of the range's bytes, when `checksummed`.
    private func fetch(
        _ range: (first: UInt64, count: UInt64), checksummed: Bool,
        to sink: @Sendable (_ offset: UInt64, _ bytes: UnsafeRawBufferPointer) throws(FileError) -> Void,
        state: DeliveryState
    ) throws(S3Failure) -> ObjectChecksum? {
        var computation = checksummed ? ChecksumComputation() : nil
        // An empty part asks for nothing (a range names at least one byte).
        guard range.count > 0 else { return computation?.finished() }
        let answer = try volume.call {
            try volume.client.getObject(
                bucket: volume.bucket, key: key,
                resuming: ByteRange(first: Int64(range.first), last: Int64(range.first + range.count - 1)),
                ifMatch: head.eTag
            ) { offset, bytes in
                guard state.failure == nil else { throw Stopped() }
                volume.partLedger.add(bytes.count)
                defer { volume.partLedger.remove(bytes.count) }
                do throws(FileError) {
                    try sink(UInt64(offset), bytes)
                } catch {
                    // The destination's failure, told as it is (not as a read of the object).
                    state.fail(error)
                    throw Stopped()
                }
                // The client gives a range's bytes in order, resumed or not.
                computation?.add(bytes)
                state.add(bytes.count)
            }
        }
        if answer.size != head.size || answer.eTag != head.eTag {
            throw .service(S3Error(.preconditionFailed, status: 412, code: "PreconditionFailed"))
        }
        return computation?.finished()
    }

    /// Thrown through the client to end a range's request once the delivery has stopped.
    private struct Stopped: Error {}
}

/// What the threads of one delivery share: the next range to take, the bytes delivered, the
/// checksum of each range fetched, and the first failure, after which no range starts and no
/// piece goes to the sink.
private final class DeliveryState: Sendable {
    private let rangeCount: Int
    private let state: Mutex<(next: Int, failure: FileError?, checksums: [ObjectChecksum?])>
    private let count = Atomic<UInt64>(0)

    /// The state of a delivery of `rangeCount` ranges.
    init(rangeCount: Int) {
        self.rangeCount = rangeCount
        state = Mutex((0, nil, Array(repeating: nil, count: rangeCount)))
    }

    /// The index of the next range no thread took, unless every one was taken or one failed.
    func nextRange() -> Int? {
        state.withLock { state in
            guard state.failure == nil, state.next < rangeCount else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    /// Notes `error` as the delivery's failure, unless one came first.
    func fail(_ error: FileError) {
        state.withLock { state in
            if state.failure == nil { state.failure = error }
        }
    }

    /// The delivery's failure, once there is one.
    var failure: FileError? { state.withLock { $0.failure } }

    /// Keeps `checksum` as that of range `index`.
    func keep(_ checksum: ObjectChecksum, ofRange index: Int) {
        state.withLock { $0.checksums[index] = checksum }
    }

    /// The checksums kept, in range order, once every range was fetched.
    var checksums: [ObjectChecksum] { state.withLock { $0.checksums.compactMap { $0 } } }

    /// Counts `bytes` more delivered.
    func add(_ bytes: Int) { count.add(UInt64(bytes), ordering: .relaxed) }

    /// The bytes delivered so far.
    var delivered: UInt64 { count.load(ordering: .relaxed) }
}
