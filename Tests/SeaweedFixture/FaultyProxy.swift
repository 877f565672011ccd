import Foundation
import Glibc
import Testing

/// A loopback TCP proxy between a client and a server that breaks one request on purpose, so
/// that a test sees the client recover from a real fault on a real connection.
///
/// Bytes pass unchanged both ways. The first request whose bytes (its request line, as the
/// client sends it) contain `pattern` meets `fault` (or the first `times` such requests): its
/// connection is dropped, or answered with an error (`503 Service Unavailable`, S3's `SlowDown`,
/// `InternalError`, `AccessDenied`, `NotImplemented`) and closed, or one byte of its body or of
/// its answer's body is changed on the way, or its answer is cut midway, or it is held until
/// another such request arrives. Every other request goes through.
public final class FaultyProxy: @unchecked Sendable {
    /// What happens to the request that meets the fault.
    public enum Fault: Sendable, CustomTestStringConvertible {
        /// Its connection is closed in both directions before the server sees it.
        case dropConnection
        /// It is answered `503 Service Unavailable` without a body, and the connection closed.
        case serviceUnavailable
        /// It is answered `503` with S3's error code `SlowDown` (what S3 answers a client that
        /// sends too many requests), and the connection closed.
        case slowDown
        /// It is answered `500` with S3's error code `InternalError`, and the connection closed.
        case internalError
        /// It is answered `403` with S3's error code `AccessDenied` (credentials that may not
        /// do this), and the connection closed.
        case accessDenied
        /// It is answered `501` with S3's error code `NotImplemented` (a call the server does
        /// not have), and the connection closed.
        case notImplemented
        /// The first byte of its body reaches the server changed.
        case corruptRequestBody
        /// The first byte of its answer's body reaches the client changed.
        case corruptAnswerBody
        /// Its answer's first `answerBytesBeforeCut` bytes (head and body) reach the client,
        /// then the connection is closed: an answer cut in the middle of its body.
        case cutAnswer
        /// Its answer's status line says `200` where the server said `206 Partial Content`: the
        /// client sees a server that ignored the request's `Range` (which is signed, so the
        /// proxy cannot take it out of the request).
        case wholeForRange
        /// It is held, none of it passed on, until another request containing the pattern
        /// arrives (or `longestHold` has passed), then goes through unchanged. A request that
        /// arrives meanwhile was sent while the held one had no answer: `requestsThatJoinedAHeldOne`
        /// counts the held requests that saw one, and shows requests in flight at once without
        /// depending on how fast either goes.
        case heldUntilAnotherArrives

        /// The answer the proxy sends in the server's place, if it sends one.
        var answer: [UInt8]? {
            switch self {
            case .serviceUnavailable: return FaultyProxy.errorAnswer("503 Service Unavailable", code: nil)
            case .slowDown: return FaultyProxy.errorAnswer("503 Slow Down", code: "SlowDown")
            case .internalError: return FaultyProxy.errorAnswer("500 Internal Server Error", code: "InternalError")
            case .accessDenied: return FaultyProxy.errorAnswer("403 Forbidden", code: "AccessDenied")
            case .notImplemented: return FaultyProxy.errorAnswer("501 Not Implemented", code: "NotImplemented")
            case .dropConnection, .corruptRequestBody, .corruptAnswerBody, .cutAnswer, .wholeForRange,
                .heldUntilAnotherArrives:
                return nil
            }
        }

        public var testDescription: String {
            switch self {
            case .dropConnection: return "a dropped connection"
            case .serviceUnavailable: return "a 503 answer"
            case .slowDown: return "a SlowDown answer"
            case .internalError: return "an InternalError answer"
            case .accessDenied: return "an AccessDenied answer"
            case .notImplemented: return "a NotImplemented answer"
            case .corruptRequestBody: return "a changed byte in the request"
            case .corruptAnswerBody: return "a changed byte in the answer"
            case .cutAnswer: return "an answer cut midway"
            case .wholeForRange: return "a range answered as the whole object"
            case .heldUntilAnotherArrives: return "a request held until another arrives"
            }
        }
    }

    /// The port on 127.0.0.1 where the proxy listens.
    public let port: Int
    private let upstreamPort: Int
    private let pattern: [UInt8]
    private let fault: Fault
    private let times: Int
    private let listener: Int32
    private let lock = NSLock()
    private var fired = 0
    private var open: Set<Int32> = []
    private var waiting = 0
    private var mostWaiting = 0
    private var accepted = 0
    private var stopped = false
    /// Guards `arrivals` and `joined`, and wakes a held request when another arrives.
    private let arrival = NSCondition()
    /// How many times the pattern was seen in what clients sent.
    private var arrivals = 0
    /// How many held requests saw another arrive before they went on.
    private var joined = 0

    /// Starts a proxy to `upstreamPort` on 127.0.0.1 whose first `times` requests containing
    /// `pattern` meet `fault` (`Int.max`: every one).
    public init(
        to upstreamPort: Int, breakingFirstRequestContaining pattern: String, with fault: Fault, times: Int = 1
    ) throws {
        self.upstreamPort = upstreamPort
        self.pattern = Array(pattern.utf8)
        self.fault = fault
        self.times = times
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw FixtureError.noFreePorts }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw FixtureError.noFreePorts
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// Whether a request has met the fault.
    public var hasFired: Bool { lock.withLock { fired > 0 } }

    /// How many requests have met the fault.
    public var faultsMet: Int { lock.withLock { fired } }

    /// The most requests in flight at one time: a request counts from its first bytes until
    /// the server's answer to it begins.
    public var mostRequestsAtOnce: Int { lock.withLock { mostWaiting } }

    /// How many requests held by `.heldUntilAnotherArrives` saw another request containing the
    /// pattern arrive while they were held (rather than going on after `longestHold`).
    public var requestsThatJoinedAHeldOne: Int { arrival.withLock { joined } }

    /// How long `.heldUntilAnotherArrives` holds a request that no other joins, in seconds: far
    /// longer than a client takes to send the next request, shorter than its read timeout (60 s),
    /// so that the held request is not sent again meanwhile. A bound that only a test that is
    /// failing meets, never an assertion.
    public static let longestHold: TimeInterval = 20

    /// How many connections clients have opened through the proxy.
    public var connectionsAccepted: Int { lock.withLock { accepted } }

    /// Stops listening and closes every connection.
    public func stop() {
        lock.withLock {
            stopped = true
            for descriptor in open { Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
        arrival.withLock { arrival.broadcast() }
        Glibc.shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptConnections() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: upstreamPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            let admitted = lock.withLock { () -> Bool in
                guard connected, !stopped else { return false }
                accepted += 1
                open.formUnion([client, server])
                return true
            }
            guard admitted else {
                close(client)
                close(server)
                continue
            }
            let pair = ConnectionPair()
            Thread.detachNewThread { [self] in
                forwardRequests(from: client, to: server, pair)
                finish(pair, client, server)
            }
            Thread.detachNewThread { [self] in
                forwardAnswers(from: server, to: client, pair)
                finish(pair, client, server)
            }
        }
    }

    /// Passes the client's bytes on, breaking the first request that contains the pattern.
    private func forwardRequests(from client: Int32, to server: Int32, _ pair: ConnectionPair) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        // The end of the previous read, in case the pattern straddles two reads.
        var tail: [UInt8] = []
        var corruption: BodyCorruption?
        while true {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { break }
            lock.withLock {
                if !pair.awaitingAnswer {
                    pair.awaitingAnswer = true
                    waiting += 1
                    mostWaiting = max(mostWaiting, waiting)
                }
            }
            let seen = tail + buffer[..<count]
            let matches = Self.contains(seen, pattern)
            // How many requests containing the pattern have arrived, this one included.
            let arrived = !matches ? 0 : arrival.withLock { () -> Int in
                arrivals += 1
                arrival.broadcast()
                return arrivals
            }
            let breaks = lock.withLock { () -> Bool in
                guard fired < times, matches else { return false }
                fired += 1
                return true
            }
            if breaks, case .heldUntilAnotherArrives = fault {
                holdUntilAnotherArrives(after: arrived)
            } else if breaks, case .wholeForRange = fault {
                lock.withLock { pair.statusAsWhole = true }
            } else if breaks, case .cutAnswer = fault {
                lock.withLock { pair.answerAllowance = Self.answerBytesBeforeCut }
            } else if breaks, case .corruptAnswerBody = fault {
                lock.withLock { pair.answerCorruption = BodyCorruption() }
            } else if breaks, case .corruptRequestBody = fault {
                corruption = BodyCorruption()
            } else if breaks {
                if let answer = fault.answer {
                    _ = Glibc.send(client, answer, answer.count, Int32(MSG_NOSIGNAL))
                }
                break
            }
            tail = Array(seen.suffix(pattern.count))
            corruption?.apply(to: &buffer[..<count])
            guard Self.writeAll(buffer[..<count], to: server) else { break }
        }
        Glibc.shutdown(client, Int32(SHUT_RDWR))
        Glibc.shutdown(server, Int32(SHUT_RDWR))
    }

    /// Returns once the pattern has arrived more than `arrived` times (counted in `joined`), or
    /// the proxy stops, or `longestHold` has passed.
    private func holdUntilAnotherArrives(after arrived: Int) {
        let deadline = Date(timeIntervalSinceNow: Self.longestHold)
        arrival.withLock {
            while arrivals == arrived && !lock.withLock({ stopped }) && arrival.wait(until: deadline) {}
            if arrivals > arrived { joined += 1 }
        }
    }

    /// Passes the server's answers back until either side closes, then closes both.
    private func forwardAnswers(from server: Int32, to client: Int32, _ pair: ConnectionPair) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(server, &buffer, buffer.count)
            lock.withLock {
                if pair.awaitingAnswer {
                    pair.awaitingAnswer = false
                    waiting -= 1
                }
            }
            if count > 0 { lock.withLock { pair.answerCorruption?.apply(to: &buffer[..<count]) } }
            if count >= 12, lock.withLock({ pair.statusAsWhole }), Array(buffer[9..<12]) == Array("206".utf8) {
                lock.withLock { pair.statusAsWhole = false }
                buffer.replaceSubrange(9..<12, with: Array("200".utf8))
            }
            let allowed = lock.withLock { () -> Int in
                guard let allowance = pair.answerAllowance else { return count }
                pair.answerAllowance = allowance - min(allowance, count)
                return min(allowance, count)
            }
            if count <= 0 || !Self.writeAll(buffer[..<allowed], to: client) || allowed < count { break }
        }
        Glibc.shutdown(client, Int32(SHUT_RDWR))
        Glibc.shutdown(server, Int32(SHUT_RDWR))
    }

    /// Closes a connection's two sockets once both of its threads are done with them.
    private func finish(_ pair: ConnectionPair, _ client: Int32, _ server: Int32) {
        guard pair.lastOneOut() else { return }
        lock.withLock {
            open.remove(client)
            open.remove(server)
        }
        close(client)
        close(server)
    }

    /// The two threads of one connection, so that the last to end closes its sockets.
    private final class ConnectionPair: @unchecked Sendable {
        private let lock = NSLock()
        private var running = 2
        /// Whether a request was seen and its answer has not begun (under the proxy's lock).
        var awaitingAnswer = false
        /// The change to make to the next answer (under the proxy's lock).
        var answerCorruption: BodyCorruption?
        /// Whether the next answer's `206` is to read `200` (under the proxy's lock).
        var statusAsWhole = false
        /// How many more bytes of the answers pass before the connection is cut, when it is to
        /// be cut (under the proxy's lock).
        var answerAllowance: Int?

        /// Notes that one thread is done; true for the second.
        func lastOneOut() -> Bool {
            lock.withLock {
                running -= 1
                return running == 0
            }
        }
    }

    /// Changes the first byte after the end of an HTTP head (`CRLF CRLF`) in a stream given in
    /// pieces, once.
    struct BodyCorruption {
        /// How many bytes of `CRLF CRLF` the stream ended with so far; 4 once the head is over.
        private var matched = 0
        private var done = false

        mutating func apply(to bytes: inout ArraySlice<UInt8>) {
            let terminator: [UInt8] = [13, 10, 13, 10]
            var index = bytes.startIndex
            while !done && index < bytes.endIndex {
                if matched == 4 {
                    bytes[index] ^= 0xFF
                    done = true
                } else if bytes[index] == terminator[matched] {
                    matched += 1
                } else {
                    matched = bytes[index] == 13 ? 1 : 0
                }
                index += 1
            }
        }
    }

    /// How many bytes of an answer meeting `.cutAnswer` reach the client: its head and the
    /// first 100 KB or so of its body.
    public static let answerBytesBeforeCut = 100_000

    private static func errorAnswer(_ status: String, code: String?) -> [UInt8] {
        let body = code.map { "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>\($0)</Code>"
            + "<Message>from the test's proxy</Message></Error>" } ?? ""
        return Array(
            ("HTTP/1.1 \(status)\r\nContent-Type: application/xml\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body).utf8)
    }

    private static func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) -> Bool {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let written = bytes[start...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return false }
            start += written
        }
        return true
    }

    private static func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
        guard bytes.count >= pattern.count, !pattern.isEmpty else { return false }
        for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
            if bytes[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
        }
        return false
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
