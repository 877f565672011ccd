// The workers a copy of a tree hands file data to: how many files go at once, and how many
// bytes they may add up to.

import Dispatch
import Glibc
import Synchronization
import Testing

@testable import PathModel

@Suite struct CopyWorkersTests {
    /// The most files in flight at once, as the copies themselves count them.
    final class InFlight: Sendable {
        private let counts = Mutex((now: 0, most: 0))

        /// Counts a copy in while `body` runs.
        func during(_ body: () -> Void) {
            counts.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            body()
            counts.withLock { $0.now -= 1 }
        }

        var most: Int { counts.withLock { $0.most } }
    }

    /// The names of the files the workers said were copied, in order.
    final class Told: Sendable {
        private let names = Mutex<[String]>([])

        func add(_ name: String) { names.withLock { $0.append(name) } }

        var all: [String] { names.withLock { $0 } }
    }

    /// Workers for `limits`, telling `told` of each file copied.
    static func workers(_ limits: ParallelFiles, telling told: Told) -> CopyWorkers {
        CopyWorkers(
            limits, copied: { source, _ in told.add(source.name) },
            failed: { _ in Issue.record("no copy fails here") })
    }

    static let names = (0..<12).map { "f\($0)" }

    @Test func filesInFlightAddUpToNoMoreThanTheBytesAllowed() {
        // Eight workers, but files of 7 bytes within 20 bytes: two at a time. The first copies
        // wait until two are in flight, which they are unless the bytes hold back more.
        let told = Told()
        let workers = Self.workers(ParallelFiles(count: 8, largestFile: 10, bytesAtOnce: 20), telling: told)
        let inFlight = InFlight()
        for name in Self.names {
            workers.start(
                { inFlight.during { Self.wait(until: { inFlight.most >= 2 }) } }, size: 7,
                from: File(path: "/s/\(name)"), to: File(path: "/d/\(name)"))
        }
        workers.finish()
        #expect(inFlight.most == 2)
        #expect(told.all == Self.names)
    }

    /// Polls `condition` until it holds or 20 seconds have gone by.
    static func wait(until condition: () -> Bool) {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition() && ContinuousClock.now < deadline { usleep(1_000) }
    }

    @Test func smallFilesTakeEveryWorker() {
        // Files of 1 byte within 20: the eight workers are the limit. Each copy waits until all
        // eight are in flight, which they never are when the bytes hold them back.
        let told = Told()
        let workers = Self.workers(ParallelFiles(count: 8, largestFile: 10, bytesAtOnce: 20), telling: told)
        let inFlight = InFlight()
        for name in Self.names.prefix(8) {
            workers.start(
                { inFlight.during { Self.wait(until: { inFlight.most == 8 }) } }, size: 1,
                from: File(path: "/s/\(name)"), to: File(path: "/d/\(name)"))
        }
        workers.finish()
        #expect(inFlight.most == 8)
        #expect(told.all == Array(Self.names.prefix(8)))
    }

    /// Limits as given, and the bytes they allow at once.
    static let byteLimits: [(limits: ParallelFiles, bytes: UInt64)] = [
        (ParallelFiles(count: 4, largestFile: 10), 40),
        (ParallelFiles(count: 4, largestFile: 10, bytesAtOnce: 5), 10),
        (ParallelFiles(count: 4, largestFile: .max), .max),
    ]

    @Test(arguments: byteLimits)
    func theBytesAllowedAreCountTimesTheLargestFileUnlessToldAndNeverLess(
        _ limits: ParallelFiles, _ bytes: UInt64
    ) {
        #expect(limits.bytesAtOnce == bytes)
    }
}
