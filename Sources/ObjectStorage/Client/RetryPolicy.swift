#if canImport(Glibc)
    import Glibc
#endif

/// How a client tries a failed request again: after a wait that grows with each attempt,
/// randomly spread ("full jitter": up to `baseDelay` × 2ⁿ, at most `maxDelay`), so that many
/// clients slowed down at once do not come back at once.
///
/// Only failures that another attempt may not meet are retried: the service asked to slow down
/// (`SlowDown`, 503) or failed (5xx), or the connection closed before the answer was complete.
/// A refused or silent endpoint is not: it fails at once when refused, after the client's
/// connect timeout when silent. A request
/// is retried only when it can be sent again as it was: its body is in memory or its source can
/// start over, and none of its answer's body was handed to the caller yet.
public struct RetryPolicy: Sendable, Hashable {
    /// The most attempts a request gets, the first one included (1: no retry).
    public var maxAttempts: Int
    /// The longest wait before the first retry, in seconds.
    public var baseDelay: Double
    /// The longest wait before any retry, in seconds.
    public var maxDelay: Double

    /// A policy; by default 4 attempts with waits of up to 0.1, 0.2 and 0.4 s.
    public init(maxAttempts: Int = 4, baseDelay: Double = 0.1, maxDelay: Double = 5) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// Whether a request that failed with `error` may succeed if sent again.
    public static func isTransient(_ error: S3Error) -> Bool {
        switch error.kind {
        // Bytes changed on the way (a checksum refused) come right when sent again.
        case .slowDown, .serverFailure, .connectionClosed, .badDigest: return true
        default: return false
        }
    }

    /// Waits before attempt `attempt + 1` (`delay(after:using:)` seconds).
    func wait(after attempt: Int) {
        var random = SystemRandomNumberGenerator()
        usleep(UInt32(delay(after: attempt, using: &random) * 1_000_000))
    }

    /// The wait before attempt `attempt + 1`, in seconds: a share drawn from `random`
    /// of `longestDelay(after:)` (full jitter). Apart from `wait(after:)` so that tests can
    /// draw it from a generator of their own without waiting.
    func delay<Random: RandomNumberGenerator>(after attempt: Int, using random: inout Random) -> Double {
        longestDelay(after: attempt) * Double.random(in: 0...1, using: &random)
    }

    /// The longest wait before attempt `attempt + 1` (the first retry follows attempt 1):
    /// `baseDelay` × 2^(`attempt` − 1), at most `maxDelay`.
    func longestDelay(after attempt: Int) -> Double {
        max(0, min(maxDelay, baseDelay * Double(1 << min(attempt - 1, 20))))
    }
}
