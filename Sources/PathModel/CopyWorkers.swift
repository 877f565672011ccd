import Dispatch
import Synchronization

/// The copies of file data a `Copier` runs on workers while it walks a tree
/// (`Volume.parallelFiles`), and the reports of the walk held back behind them, so that every
/// report is told on the walk's thread, in the walk's order, as a copy one file at a time tells
/// them.
///
/// Reports and the closures workers call (`transferred`, `isCancelled`) run under one lock, so
/// that a progress line is never drawn by two threads at once.
final class CopyWorkers: @unchecked Sendable {
    /// A report waiting for its turn: a walk's report is ready when made, a worker's once its
    /// copy has ended.
    private final class Pending: @unchecked Sendable {
        /// Signalled when the copy has ended; nil for a report of the walk.
        let ended: DispatchSemaphore?
        /// What the copy failed with (set by the worker before it signals `ended`).
        var failure: FileError?
        /// Tells the report, given the copy's failure.
        let report: (FileError?) -> Void

        init(ended: DispatchSemaphore?, report: @escaping (FileError?) -> Void) {
            self.ended = ended
            self.report = report
        }

        /// Whether the report may be told now (read under the workers' lock).
        var isReady: Bool {
            guard let ended else { return true }
            guard ended.wait(timeout: .now()) == .success else { return false }
            ended.signal()
            return true
        }
    }

    /// A copy handed to a worker, which only that worker calls.
    private struct Work: @unchecked Sendable {
        let run: () throws(FileError) -> Void
    }

    /// The most files in flight, the bytes they may add up to, and the largest one a worker takes.
    let limits: ParallelFiles
    /// The copier's own reports, which the held-back ones are told to.
    let copied: (_ source: File, _ destination: File) -> Void
    let failed: (TransferError) -> Void
    private let slots: DispatchSemaphore
    /// The bytes of the files in flight, and whether the walk waits for some to be given back.
    private let bytesInFlight = Mutex<(count: UInt64, awaited: Bool)>((0, false))
    /// Signalled when a worker gives bytes back while the walk waits for them.
    private let bytesGivenBack = DispatchSemaphore(value: 0)
    private let lock = Mutex(())
    /// The reports not yet told, in the walk's order (the walk's thread alone touches it).
    private var pending: [Pending] = []
    /// Whether every copy handed to a worker succeeded, as far as reports were told.
    private(set) var everything = true

    init(
        _ limits: ParallelFiles, copied: @escaping (_ source: File, _ destination: File) -> Void,
        failed: @escaping (TransferError) -> Void
    ) {
        self.limits = limits
        self.copied = copied
        self.failed = failed
        slots = DispatchSemaphore(value: limits.count)
    }

    /// Tells `report` now when nothing is waiting before it, else once everything before it has been told.
    func post(_ report: @escaping () -> Void) {
        pending.append(Pending(ended: nil) { _ in report() })
        tellReady()
    }

    /// Runs `copy`, the copy of `source`'s data (`size` bytes) to `destination`, on a worker
    /// once fewer than `limits.count` are in flight and their bytes leave room for `size`
    /// within `limits.bytesAtOnce`, and tells `copied` or `failed` in its turn.
    func start(
        _ copy: @escaping () throws(FileError) -> Void, size: UInt64, from source: File, to destination: File
    ) {
        tellReady()
        slots.wait()
        takeBytes(size)
        let ended = DispatchSemaphore(value: 0)
        let item = Pending(ended: ended) { [unowned self] failure in
            if let failure {
                everything = false
                failed(.file(failure))
            } else {
                copied(source, destination)
            }
        }
        pending.append(item)
        let work = Work(run: copy)
        // A queue of its own runs on a thread of its own, however many wait on the network.
        DispatchQueue(label: "shelf.copy").async { [self] in
            do throws(FileError) {
                try work.run()
            } catch {
                item.failure = error
            }
            let awaited = bytesInFlight.withLock { inFlight in
                inFlight.count -= size
                defer { inFlight.awaited = false }
                return inFlight.awaited
            }
            if awaited { bytesGivenBack.signal() }
            slots.signal()
            ended.signal()
        }
    }

    /// Waits until `size` more bytes fit within `limits.bytesAtOnce` (a file alone always
    /// does), and counts them as in flight. Only the walk's thread takes bytes.
    private func takeBytes(_ size: UInt64) {
        let limit = limits.bytesAtOnce
        while !bytesInFlight.withLock({ inFlight in
            guard inFlight.count == 0 || size <= limit - min(limit, inFlight.count) else {
                inFlight.awaited = true
                return false
            }
            inFlight.count += size
            return true
        }) {
            bytesGivenBack.wait()
        }
    }

    /// Waits for every copy in flight and tells every report left, in order.
    func finish() {
        for item in pending { item.ended?.wait() }
        for item in pending { item.ended?.signal() }
        tellReady()
    }

    /// Runs `body` (what a worker calls back into) under the lock reports are told under.
    func locked(_ body: () -> Void) {
        lock.withLock { _ in body() }
    }

    /// `locked(_:)` for a question: `isCancelled`.
    func locked(_ body: () -> Bool) -> Bool {
        lock.withLock { _ in body() }
    }

    /// Tells the reports from the front that are ready, in order.
    private func tellReady() {
        var told = 0
        while told < pending.count, pending[told].isReady {
            let item = pending[told]
            lock.withLock { _ in item.report(item.failure) }
            told += 1
        }
        pending.removeFirst(told)
    }
}
