import Dispatch
import ObjectStorage
import PathModel
import Synchronization

/// The ranges of one object fetched in parallel, each piece of a range's body handed to a sink
/// with its offset as it arrives (`PieceSource`): a download to a disk lands every byte at its
/// place, holds only the pieces being written whatever the object's size, and no range waits
/// for the one before it.
///
/// The object is cut into ranges of the volume's part size; `concurrentRequests` threads each
/// take the next range not yet taken until none is left. Every GET is on the condition that the
/// object still has the entity tag it was opened with (`If-Match`), and each answer's size and
/// entity tag are compared with those, so a changed object fails the download rather than
/// mixing two versions. A range that fails after some of its bytes came resumes at its first
/// missing byte (`S3Client.getObject(resuming:)`); one that fails for good stops the others at
/// their next piece and is the delivery's failure. While a piece is at the sink its bytes are
/// counted in the volume's `partBytesHeld`.
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
        let size = UInt64(max(head.size, 0))
        let rangeSize = UInt64(max(volume.partSize, 256 << 10))
        let rangeCount = Int((size + rangeSize - 1) / rangeSize)
        let state = DeliveryState()
        let workers = DispatchGroup()
        for _ in 0..<min(volume.concurrentRequests, rangeCount) {
            workers.enter()
            // A queue of its own runs on a thread of its own, however many wait on the network.
            DispatchQueue(label: "shelf.s3.range").async { [self] in
                defer { workers.leave() }
                while let index = state.nextRange(below: rangeCount) {
                    let first = UInt64(index) * rangeSize
                    let last = min(first + rangeSize, size) - 1
                    do throws(S3Failure) {
                        try fetch(first: first, last: last, to: sink, state: state)
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
        while workers.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            tell()
            if isCancelled() { state.fail(FileError(.read, file, .canceled)) }
        }
        tell()
        if let failure = state.failure { throw failure }
    }

    /// Fetches bytes `first...last` into `sink`, unless the delivery stops first.
    private func fetch(
        first: UInt64, last: UInt64,
        to sink: @Sendable (_ offset: UInt64, _ bytes: UnsafeRawBufferPointer) throws(FileError) -> Void,
        state: DeliveryState
    ) throws(S3Failure) {
        let answer = try volume.call {
            try volume.client.getObject(
                bucket: volume.bucket, key: key, resuming: ByteRange(first: Int64(first), last: Int64(last)),
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
                state.add(bytes.count)
            }
        }
        if answer.size != head.size || answer.eTag != head.eTag {
            throw .service(S3Error(.preconditionFailed, status: 412, code: "PreconditionFailed"))
        }
    }

    /// Thrown through the client to end a range's request once the delivery has stopped.
    private struct Stopped: Error {}
}

/// What the threads of one delivery share: the next range to take, the bytes delivered, and the
/// first failure, after which no range starts and no piece goes to the sink.
private final class DeliveryState: Sendable {
    private let state = Mutex<(next: Int, failure: FileError?)>((0, nil))
    private let count = Atomic<UInt64>(0)

    /// The index of the next range no thread took, unless every one was taken or one failed.
    func nextRange(below rangeCount: Int) -> Int? {
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

    /// Counts `bytes` more delivered.
    func add(_ bytes: Int) { count.add(UInt64(bytes), ordering: .relaxed) }

    /// The bytes delivered so far.
    var delivered: UInt64 { count.load(ordering: .relaxed) }
}
