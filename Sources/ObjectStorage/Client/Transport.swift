import AsyncHTTPClient
import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP answer as the client reads it: status, headers, and the body when it was collected
/// (an XML document or an error) rather than streamed to a sink.
struct HTTPAnswer {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    var isSuccess: Bool { (200..<300).contains(status) }
}

/// A request body the caller's thread supplies: `length` bytes read by `read` into the buffer it
/// is given (it returns how many it wrote, 0 at the end). The buffers together hold exactly
/// `length` bytes, so a source never gives more than that; one that ends early fails the request.
/// `rewind`, when there is one, starts the source over, so that the request can be sent again.
struct UploadSource {
    var length: Int64
    var read: (UnsafeMutableRawBufferPointer) throws -> Int
    var rewind: (() -> Void)?
}

/// HTTP/1.1 over async-http-client with a blocking face: every call runs on the caller's thread,
/// which waits for the event loop's news and does the reading and writing of bodies itself, so
/// no event-loop thread ever blocks on a source or a sink, and a body in flight holds at most two
/// chunks in memory (back-pressure holds the rest in the socket).
final class Transport: Sendable {
    private let client: HTTPClient

    /// The size of the chunks an upload is read in.
    static let uploadChunkSize = 256 * 1024
    /// The most of a non-streamed body (an XML document, an error) kept.
    static let collectedBodyLimit = 64 * 1024 * 1024
    /// The most connections open to the endpoint at once; requests beyond wait for one. Above
    /// the small files a copy moves at once (32 by default) and the requests of a large file
    /// beside them (10), so that neither queues behind the other.
    static let connectionLimit = 64

    /// How much one read of a connection takes: up to 512 KiB, where NIO's default stops at
    /// 64 KiB. Each read's bytes go to the caller's thread and back (a body part and its
    /// acknowledgement) and to a write of their own. A 512 MiB download in 256 KiB pieces took
    /// 0.87–0.98 s where 64 KiB pieces took 0.94–1.19 s (peak 30 MiB rather than 21; 4 rounds
    /// each, release, on a slower machine). On a faster one (6 alternating rounds, medians):
    /// 256 KiB 0.495 s, 0.40–0.47 s of CPU, peak 29 MiB; 512 KiB 0.475 s, 0.40–0.43 s, 39–42 MiB;
    /// 1 MiB 0.48 s, 0.37–0.40 s, 60–64 MiB (rclone 0.49 s, 67 MiB).
    private static let receiveBuffers = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: 512 << 10)

    /// Asked while a request waits on the connection: true gives the request up.
    private let isInterrupted: @Sendable () -> Bool
    private let answered = Atomic<Bool>(false)

    /// Whether the endpoint has answered a request (with any status) since the transport began.
    var hasAnswered: Bool { answered.load(ordering: .relaxed) }

    init(connectTimeout: Int64, readTimeout: Int64, isInterrupted: @escaping @Sendable () -> Bool) {
        self.isInterrupted = isInterrupted
        var pool = HTTPClient.Configuration.ConnectionPool()
        pool.concurrentHTTP1ConnectionsPerHostSoftLimit = Self.connectionLimit
        // A connection that cannot be made fails at once every request waiting for a
        // connection: a refused one answers in a moment, and trying again until the connect
        // timeout only made a stopped server look like a silent one. A host that does not answer
        // still takes the connect timeout. Once the endpoint has answered, the client sends such
        // requests again (`isConnectFailure`, `hasAnswered`): a connection refused in the middle
        // of a transfer is then a passing failure, not the endpoint being down.
        pool.retryConnectionEstablishment = false
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .seconds(connectTimeout), read: .seconds(readTimeout), write: .seconds(readTimeout)),
            connectionPool: pool, decompression: .disabled)
        configuration.httpVersion = .http1Only
        configuration.http1_1ConnectionDebugInitializer = { channel in
            // At once when called on the channel's loop (as async-http-client does), so that the
            // channel cannot close in between; and never failing: a failure here makes the pool
            // count the connection as never made while it lives on. A channel already closed has
            // no encoder and needs no handler (its request fails and is sent again).
            @Sendable func addHandler() {
                let pipeline = channel.pipeline.syncOperations
                guard let encoder = try? pipeline.handler(type: HTTPRequestEncoder.self) else { return }
                try? pipeline.addHandler(RequestTargetHandler(), position: .after(encoder))
                try? channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: Self.receiveBuffers)
            }
            if channel.eventLoop.inEventLoop {
                addHandler()
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            return channel.eventLoop.submit { addHandler() }
        }
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Closes the connections; the transport is unusable afterwards.
    func shutdown() throws {
        try client.syncShutdown()
    }

    /// Sends a request and blocks until its answer is complete.
    ///
    /// `target` is the request line's path and query, exactly as signed; `url` names the same
    /// place for async-http-client, which takes the host and port from it.
    ///
    /// A 2xx body goes to `sink` when there is one; every other body is collected. An error the
    /// source or the sink throws cancels the request and is rethrown as it is.
    ///
    /// Unless `interruptible` is false, the request is given up once `isInterrupted` says so.
    ///
    /// - Throws: `S3Error` for a failure below HTTP (refused, timed out, closed), or what the
    ///   source or sink threw.
    func perform(
        method: HTTPMethod, url: String, target: String, headers: HTTPHeaders, body: [UInt8]?,
        upload: UploadSource?,
        sink: ((UnsafeRawBufferPointer) throws -> Void)?, interruptible: Bool = true
    ) throws -> HTTPAnswer {
        let loop = client.eventLoopGroup.next()
        let neverInterrupted: @Sendable () -> Bool = { false }
        let events = TransferEvents(isInterrupted: interruptible ? isInterrupted : neverInterrupted)
        var requestBody: HTTPClient.Body?
        if let upload {
            requestBody = .stream(contentLength: upload.length) { writer in
                let done = loop.makePromise(of: Void.self)
                events.post(.bodyWriter(writer, done))
                return done.futureResult
            }
        } else if let body {
            requestBody = .bytes(body)
        }
        var headers = headers
        headers.add(name: RequestTargetHandler.headerName, value: target)
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: url, method: method, headers: headers, body: requestBody)
        } catch {
            throw S3Error(.unreachable, underlying: error)
        }
        // The delegate on `loop`, the connection any pooled one: a request bound to one loop's
        // connections gets a connection of its own when none is idle there, which is closed
        // after it, and every request then pays a new connection.
        let task = client.execute(
            request: request, delegate: CallerThreadDelegate(events: events),
            eventLoop: .delegate(on: loop))
        // A request refused before it reaches the delegate (the client already shut down) is
        // told only through its future; without this, the loop below would wait for ever. After
        // the delegate's own end or failure the event is never read.
        task.futureResult.whenFailure { error in
            events.post(.failure(error))
            events.end()
        }

        var answer = HTTPAnswer(status: 0, headers: [:], body: [])
        var callerFailure: (any Error)?
        var transportFailure: (any Error)?
        // The body of a request the server refused before taking it whole: left unfinished
        // until the refusal's own body has come (its Content-Length says when), so that the
        // connection is not failed before the error the server gave can be read.
        var unfinishedBody: EventLoopPromise<Void>?
        var refusalRead = false
        func finishUnfinishedBody() {
            let length = answer.headers.first(name: "content-length").flatMap(Int.init)
            guard let body = unfinishedBody, answer.status != 0, !answer.isSuccess else { return }
            refusalRead = length.map { answer.body.count >= $0 } ?? false
            if refusalRead || length == nil {
                unfinishedBody = nil
                body.fail(S3Error(.connectionClosed))
            }
        }
        serving: while true {
            switch events.next() {
            case .bodyWriter(let writer, let done):
                guard let upload, callerFailure == nil else {
                    done.succeed(())
                    continue
                }
                do {
                    try Self.pump(upload, to: writer, events: events)
                    done.succeed(())
                } catch is RequestEnded {
                    unfinishedBody = done
                    finishUnfinishedBody()
                } catch let error as WriteFailed {
                    done.fail(error.underlying)
                } catch {
                    callerFailure = error
                    done.fail(error)
                    task.cancel()
                }
            case .head(let head):
                answered.store(true, ordering: .relaxed)
                answer.status = Int(head.status.code)
                answer.headers = head.headers
                finishUnfinishedBody()
            case .bodyPart(let buffer, let acknowledged):
                if let sink, answer.isSuccess {
                    if callerFailure == nil {
                        do {
                            try buffer.withUnsafeReadableBytes(sink)
                        } catch {
                            callerFailure = error
                            task.cancel()
                        }
                    }
                } else if answer.body.count < Self.collectedBodyLimit {
                    answer.body += buffer.readableBytesView
                }
                acknowledged.succeed(())
                finishUnfinishedBody()
            case .end:
                break serving
            case .failure(let error):
                transportFailure = error
                break serving
            case .interrupted:
                // The request's end (its failure, once cancelled) still comes, and ends the loop.
                if callerFailure == nil { callerFailure = S3Error(.interrupted) }
                unfinishedBody?.fail(S3Error(.interrupted))
                unfinishedBody = nil
                task.cancel()
            }
        }
        unfinishedBody?.fail(S3Error(.connectionClosed))
        _ = try? task.futureResult.wait()
        if let callerFailure { throw callerFailure }
        // A refusal read whole says more than the connection's end that followed it.
        if let transportFailure, !refusalRead { throw Self.s3Error(transportFailure) }
        return answer
    }

    /// Reads `upload` chunk by chunk and writes it, one write in flight while the next chunk is
    /// read. A request that ends while a write is pending (the connection dropped, or the
    /// server answered before the body was through) stops the pump: such a write may never
    /// complete.
    private static func pump(
        _ upload: UploadSource, to writer: HTTPClient.Body.StreamWriter, events: TransferEvents
    ) throws {
        var remaining = upload.length
        var inFlight: EventLoopFuture<Void>?
        while remaining > 0 {
            var chunk = ByteBufferAllocator().buffer(capacity: Int(min(Int64(uploadChunkSize), remaining)))
            let count = try chunk.writeWithUnsafeMutableBytes(minimumWritableBytes: chunk.capacity) {
                buffer in
                try upload.read(
                    UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, Int(remaining))]))
            }
            if count == 0 { break }
            remaining -= Int64(count)
            if let inFlight { try events.wait(for: inFlight) }
            inFlight = writer.write(.byteBuffer(chunk))
        }
        if let inFlight { try events.wait(for: inFlight) }
        if remaining != 0 {
            throw S3Error(.sourceLengthMismatch)
        }
    }

    /// Whether `error` is a connection that could not be made (refused, or not made within the
    /// connect timeout), as opposed to one that failed once made.
    static func isConnectFailure(_ error: S3Error) -> Bool {
        switch (error.underlying as? SendableError)?.error {
        case let failure as HTTPClientError: return failure == .connectTimeout
        case let failure as ChannelError:
            if case .connectTimeout = failure { return true }
            return false
        case is NIOConnectionError: return true
        case let failure as IOError: return failure.errnoCode == ECONNREFUSED
        default: return error.kind == .connectionRefused
        }
    }

    /// The S3 error a transport failure stands for.
    static func s3Error(_ error: any Error) -> S3Error {
        let sendable = SendableError(error)
        if let error = error as? S3Error { return error }
        if error is NIOSSLError || error is BoringSSLError { return S3Error(.tlsFailure, underlying: sendable) }
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout, .readTimeout, .deadlineExceeded, .writeTimeout:
                return S3Error(.timedOut, underlying: sendable)
            case .remoteConnectionClosed, .bodyLengthMismatch:
                return S3Error(.connectionClosed, underlying: sendable)
            default:
                return S3Error(.unreachable, underlying: sendable)
            }
        }
        // An answer cut before its announced length: the connection closed midway.
        if let error = error as? HTTPParserError, case .invalidEOFState = error {
            return S3Error(.connectionClosed, underlying: sendable)
        }
        if let error = error as? NIOConnectionError {
            let refused = error.connectionErrors.contains { failure in
                (failure.error as? IOError)?.errnoCode == ECONNREFUSED
            }
            return S3Error(refused ? .connectionRefused : .unreachable, underlying: sendable)
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return S3Error(.connectionRefused, underlying: sendable)
            case ECONNRESET, EPIPE: return S3Error(.connectionClosed, underlying: sendable)
            case ETIMEDOUT: return S3Error(.timedOut, underlying: sendable)
            default: return S3Error(.unreachable, underlying: sendable)
            }
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return S3Error(.timedOut, underlying: sendable)
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed:
                return S3Error(.connectionClosed, underlying: sendable)
            default: return S3Error(.unreachable, underlying: sendable)
            }
        }
        return S3Error(.unreachable, underlying: sendable)
    }
}

/// A transport error carried across threads inside an `S3Error`.
public struct SendableError: Error, @unchecked Sendable, CustomStringConvertible {
    /// The error as the transport threw it.
    public let error: any Error

    init(_ error: any Error) { self.error = error }

    /// The transport's own description, for logs and tests.
    public var description: String { String(describing: error) }
}

/// A write to the connection failed: the request itself has failed, and its error follows.
private struct WriteFailed: Error {
    var underlying: any Error
}

/// The request ended (answered, or failed) while a write of its body was pending.
private struct RequestEnded: Error {}

/// What the event loop tells the caller's thread, in order.
private enum TransferEvent: @unchecked Sendable {
    case bodyWriter(HTTPClient.Body.StreamWriter, EventLoopPromise<Void>)
    case head(HTTPResponseHead)
    case bodyPart(ByteBuffer, EventLoopPromise<Void>)
    case end
    case failure(any Error)
    /// The user asked to stop (told once per request).
    case interrupted
}

/// A queue from the event loop to the one caller thread that waits on it, and the end of the
/// request, which releases that thread from waiting on a write.
private final class TransferEvents: Sendable {
    private let queue = NIOLockedValueBox<[TransferEvent]>([])
    private let available = DispatchSemaphore(value: 0)
    /// Signalled when a write completes, and when the request ends.
    private let writeProgress = DispatchSemaphore(value: 0)
    private let ended = NIOLockedValueBox(false)
    /// Asked every `pollInterval` while waiting.
    private let isInterrupted: @Sendable () -> Bool
    /// Whether `next()` has told of the interruption already.
    private let interruptionTold = NIOLockedValueBox(false)
    /// How long a wait lasts before `isInterrupted` is asked again.
    private static let pollInterval = DispatchTimeInterval.milliseconds(100)

    init(isInterrupted: @escaping @Sendable () -> Bool) { self.isInterrupted = isInterrupted }

    /// Notes that the request is over (answered or failed): no pending write need complete.
    func end() {
        ended.withLockedValue { $0 = true }
        writeProgress.signal()
    }

    /// Waits until `write` completes, or the request ends first.
    /// - Throws: `WriteFailed` with the write's error, `RequestEnded` when the request ended
    ///   with the write pending, `S3Error(.interrupted)` when the user asked to stop.
    func wait(for write: EventLoopFuture<Void>) throws {
        let outcome = NIOLockedValueBox<Result<Void, any Error>?>(nil)
        write.whenComplete { result in
            outcome.withLockedValue { $0 = result }
            self.writeProgress.signal()
        }
        while true {
            if let result = outcome.withLockedValue({ $0 }) {
                do { return try result.get() } catch { throw WriteFailed(underlying: error) }
            }
            if ended.withLockedValue({ $0 }) { throw RequestEnded() }
            if writeProgress.wait(timeout: .now() + Self.pollInterval) == .timedOut, isInterrupted() {
                throw S3Error(.interrupted)
            }
        }
    }

    func post(_ event: TransferEvent) {
        queue.withLockedValue { $0.append(event) }
        available.signal()
    }

    /// The next event; `.interrupted` once, when the user asks to stop while none comes.
    /// Asked before every wait, so that a server trickling bytes faster than `pollInterval` can
    /// be given up too.
    func next() -> TransferEvent {
        while true {
            if isInterrupted(), interruptionTold.withLockedValue({ told in defer { told = true }; return !told }) {
                return .interrupted
            }
            if available.wait(timeout: .now() + Self.pollInterval) == .success {
                return queue.withLockedValue { $0.removeFirst() }
            }
        }
    }
}

/// Passes what the connection delivers to the caller's thread; a body part is acknowledged (and
/// the next one read from the socket) only once that thread has handled it.
private final class CallerThreadDelegate: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void

    let events: TransferEvents

    init(events: TransferEvents) { self.events = events }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        events.post(.head(head))
        // A refusal that comes while the body is still going out (503 to a part) ends the
        // request for the caller: the rest of the body will never be taken.
        if !(200..<300).contains(head.status.code) { events.end() }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let acknowledged = task.eventLoop.makePromise(of: Void.self)
        events.post(.bodyPart(buffer, acknowledged))
        return acknowledged.futureResult
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        events.post(.failure(error))
        events.end()
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        events.post(.end)
        events.end()
    }
}

/// Puts each request's target (path and query, percent-encoded as signed) on the wire as it is.
///
/// async-http-client takes the target from Foundation's `URL`, whose decoded path is empty when
/// the percent-escapes are not UTF-8 (a key that is not UTF-8), and then sends `/`. The transport
/// passes the target in a header of its own, and this handler, between async-http-client and the
/// HTTP encoder, moves it into the request line; the header never leaves the process.
private final class RequestTargetHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    static let headerName = "x-shelf-request-target"

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data),
            let target = head.headers.first(name: Self.headerName)
        else {
            context.write(data, promise: promise)
            return
        }
        head.uri = target
        head.headers.remove(name: Self.headerName)
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
