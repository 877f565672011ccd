import Foundation
import Glibc
import SeaweedFixture
import Testing

/// The test fixture itself: a server that checks signatures, and leaves nothing behind.
@Suite struct SeaweedServerTests {
    @Test func aServerAnswersRefusesUnsignedRequestsAndLeavesNothingWhenStopped() throws {
        let server = try SeaweedServer.start()
        let pid = server.processIdentifier
        #expect(kill(pid, 0) == 0)
        #expect(server.statusLine() == "HTTP/1.1 403 Forbidden")
        let permissions = try FileManager.default.attributesOfItem(atPath: server.directory.path)[
            .posixPermissions]
        #expect(permissions as? Int == 0o700)
        server.stop()
        #expect(kill(pid, 0) == -1)
        #expect(!FileManager.default.fileExists(atPath: server.directory.path))
        #expect(server.statusLine() == nil)
    }

    /// Where `startsAServerAndWaitsToBeKilled` writes its server's pid and directory: set only in
    /// the test process that `aServerEndsWithTheProcessThatStartedItWhenThatIsKilled` starts.
    static let starterReport = ProcessInfo.processInfo.environment["SHELF_SEAWEED_STARTER_REPORT"]

    @Test func aServerEndsWithTheProcessThatStartedItWhenThatIsKilled() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "shelf-starter-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("server")
        let log = directory.appendingPathComponent("starter.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        // The starter is this test binary again, running only the test below.
        let starter = Process()
        starter.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(
                atPath: "/proc/self/exe"))
        starter.arguments = [
            "--testing-library", "swift-testing", "--filter", "startsAServerAndWaitsToBeKilled",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["SHELF_SEAWEED_STARTER_REPORT"] = report.path
        starter.environment = environment
        starter.standardOutput = try FileHandle(forWritingTo: log)
        starter.standardError = starter.standardOutput
        starter.standardInput = FileHandle.nullDevice
        try starter.run()
        defer {
            if starter.isRunning { kill(starter.processIdentifier, SIGKILL) }
            starter.waitUntilExit()
        }
        let deadline = ContinuousClock.now + .seconds(120)
        var line: [Substring] = []
        while line.count != 2, starter.isRunning, ContinuousClock.now < deadline {
            usleep(50_000)
            let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
            if text.hasSuffix("\n") { line = text.dropLast().split(separator: " ", maxSplits: 1) }
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let pid = try #require(line.first.flatMap { pid_t($0) }, "the starter reported no server:\n\(output)")
        let serverDirectory = String(line[1])
        defer {
            if Self.isRunning(pid) { kill(pid, SIGKILL) }
            try? FileManager.default.removeItem(atPath: serverDirectory)
        }
        #expect(Self.isRunning(pid))

        kill(starter.processIdentifier, SIGKILL)
        starter.waitUntilExit()
        let ended = ContinuousClock.now + .seconds(30)
        while Self.isRunning(pid), ContinuousClock.now < ended { usleep(20_000) }
        #expect(!Self.isRunning(pid), "weed mini outlived the process that started it")
    }

    /// Starts a server, says which in `starterReport`, and waits to be killed. Run only by
    /// `aServerEndsWithTheProcessThatStartedItWhenThatIsKilled`, in a test process of its own.
    @Test(.enabled(if: starterReport != nil, "run by aServerEndsWithTheProcessThatStartedItWhenThatIsKilled"))
    func startsAServerAndWaitsToBeKilled() throws {
        let report = try #require(Self.starterReport)
        let server = try SeaweedServer.start()
        let line = "\(server.processIdentifier) \(server.directory.path)\n"
        try line.write(toFile: report, atomically: true, encoding: .utf8)
        while true { sleep(60) }
    }

    /// Whether process `pid` runs: it exists and is not a zombie waiting to be reaped.
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        return !stat[end...].hasPrefix(") Z")
    }
}
