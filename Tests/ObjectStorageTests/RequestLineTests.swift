import Dispatch
import Glibc
import SeaweedFixture
import Synchronization
import Testing

@testable import ObjectStorage

/// What goes on the wire, read by a listener that records one request's head and hangs up.
@Suite struct RequestLineTests {
    @Test func aKeyThatIsNotUTF8KeepsItsBytesInTheRequestLine() throws {
        let head = try RecordingListener.head {
            try $0.getObject(bucket: "bucket", key: [0x6E, 0xFF, 0xFE, 0x2F, 0x80, 0x20]) { _ in }
        }
        #expect(head.hasPrefix("GET /bucket/n%FF%FE/%80%20 HTTP/1.1\r\n"))
    }

    @Test func theQueryIsSentAsSigned() throws {
        let head = try RecordingListener.head {
            try $0.listObjects(bucket: "bucket", prefix: [0xFF, 0x2B], delimiter: "/")
        }
        #expect(
            head.hasPrefix(
                "GET /bucket?delimiter=%2F&encoding-type=url&list-type=2&prefix=%FF%2B HTTP/1.1\r\n"))
    }

    @Test func noPrivateHeaderLeavesTheProcess() throws {
        let head = try RecordingListener.head { try $0.headObject(bucket: "bucket", key: Array("k".utf8)) }
        #expect(!head.lowercased().contains("x-shelf"))
        #expect(head.lowercased().contains("\r\nauthorization: aws4-hmac-sha256 credential=k/"))
    }

    @Test func anEmptyBodyIsSentWithoutExpect() throws {
        let head = try RecordingListener.head {
            try $0.putObject(bucket: "bucket", key: Array("dir/".utf8), bytes: [])
        }
        #expect(head.hasPrefix("PUT /bucket/dir/ HTTP/1.1\r\n"))
        #expect(!head.lowercased().contains("expect:"))
        #expect(head.lowercased().contains("\r\ncontent-length: 0\r\n"))
    }
}

/// A listener on 127.0.0.1 that accepts one connection, reads the request head and closes.
enum RecordingListener {
    /// Runs `call` with a client of the listener and gives the head of the request it sent; the
    /// call itself fails, as the connection closes without an answer.
    static func head(_ call: (S3Client) throws -> Void) throws -> String {
        let listener = try SilentListener()
        defer { listener.close() }
        let recorded = Mutex<[UInt8]>([])
        let done = DispatchSemaphore(value: 0)
        let descriptor = listener.descriptor
        DispatchQueue.global().async {
            defer { done.signal() }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }
            defer { Glibc.close(connection) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !bytes.ends(with: Array("\r\n\r\n".utf8)) {
                let count = recv(connection, &buffer, buffer.count, 0)
                if count <= 0 { break }
                bytes += buffer[..<count]
            }
            recorded.withLock { $0 = bytes }
        }
        // One attempt: the listener takes one connection, and a retry would wait for another.
        let client = S3Client(
            endpoint: S3Endpoint(url: "http://127.0.0.1:\(listener.port)")!,
            credentials: Credentials(accessKeyID: "k", secretAccessKey: "s"),
            retryPolicy: RetryPolicy(maxAttempts: 1))
        defer { try? client.shutdown() }
        let error = try #require(throws: S3Error.self) { try call(client) }
        #expect(error.kind == .connectionClosed)
        done.wait()
        return String(decoding: recorded.withLock { $0 }, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
