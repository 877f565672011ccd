// How long a client waits before trying a request again: the bounds of each wait, which double
// with the attempt up to the most, and the jitter that spreads the waits below them. Computed,
// never waited: the draws come from a seeded generator of the test's own.

import Testing

@testable import ObjectStorage

@Suite struct RetryPolicyTests {
    /// A policy and the longest wait it allows after each attempt.
    struct Row: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let policy: RetryPolicy
        /// The longest wait after attempt 1, 2…, in seconds.
        let longest: [Double]
    }

    static let rows = [
        Row(testDescription: "the default: up to 0.1, 0.2 and 0.4 s", policy: RetryPolicy(), longest: [0.1, 0.2, 0.4]),
        Row(
            testDescription: "doubling from baseDelay up to maxDelay, then staying there",
            policy: RetryPolicy(baseDelay: 1, maxDelay: 5), longest: [1, 2, 4, 5, 5, 5]),
        Row(
            testDescription: "no longer than maxDelay from the first", policy: RetryPolicy(baseDelay: 2, maxDelay: 1),
            longest: [1, 1]),
    ]

    @Test(arguments: rows) func theLongestWaitDoublesWithTheAttemptUpToTheMost(_ row: Row) {
        #expect((1...row.longest.count).map(row.policy.longestDelay(after:)) == row.longest)
    }

    @Test func aFarAttemptWaitsNoLongerThanTheMost() {
        let policy = RetryPolicy(maxAttempts: 100, baseDelay: 0.1, maxDelay: 5)
        #expect([30, 64, 99].map(policy.longestDelay(after:)) == [5, 5, 5])
    }

    /// Full jitter: every wait is between 0 and its bound, and the waits spread over all of it.
    @Test func eachWaitIsADrawBelowItsBound() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: 0.1, maxDelay: 5)
        var random = SplitMix64(seed: 42)
        for attempt in 1...9 {
            let longest = policy.longestDelay(after: attempt)
            let waits = (0..<1000).map { _ in policy.delay(after: attempt, using: &random) }
            #expect(waits.allSatisfy { (0...longest).contains($0) }, "attempt \(attempt)")
            #expect(waits.min()! < longest * 0.05, "attempt \(attempt)")
            #expect(waits.max()! > longest * 0.95, "attempt \(attempt)")
        }
    }

    /// The same draws at each attempt: each wait is twice the one before, until the most.
    @Test func theWaitsGrowWithTheAttempt() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: 0.1, maxDelay: 5)
        func waits(after attempt: Int) -> [Double] {
            var random = SplitMix64(seed: 7)
            return (0..<100).map { _ in policy.delay(after: attempt, using: &random) }
        }
        for attempt in 1...8 {
            let (now, next) = (waits(after: attempt), waits(after: attempt + 1))
            if policy.longestDelay(after: attempt + 1) < policy.maxDelay {
                #expect(next == now.map { 2 * $0 }, "attempt \(attempt)")
            } else {
                #expect(zip(now, next).allSatisfy { $0 <= $1 }, "attempt \(attempt)")
            }
        }
    }
}

/// A small seeded generator (SplitMix64), so that a test's draws are the same at every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
