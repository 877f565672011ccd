import Foundation
import Glibc
import SeaweedFixture
import Testing

/// Ctrl-C (SIGINT) sent to a script: the command in progress stops cleanly, the script stops
/// with status 130, and nothing half-done is left behind.
@Suite(.timeLimit(.minutes(1))) struct InterruptTests {
    /// Starts shelf on `script` in `directory`, sends SIGINT after `delay` seconds, and returns
    /// the exit status and standard error.
    private func interrupt(
        _ script: String, in directory: URL, after delay: Double, environment: [String: String] = [:]
    ) throws -> (Int32, String) {
        try script.write(to: directory.appendingPathComponent("script"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ScriptTests.binary)
        process.arguments = ["script"]
        process.currentDirectoryURL = directory
        process.environment = ["HOME": directory.path, "LC_ALL": "C", "PATH": "/usr/bin:/bin"].merging(
            environment
        ) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        usleep(useconds_t(delay * 1_000_000))
        process.interrupt()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    @Test func ctrlCEndsAReadFromAFIFONobodyWritesTo() throws {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(mkfifo(directory.appendingPathComponent("fifo").path, 0o644) == 0)
        let (status, stderr) = try interrupt("cat fifo\necho never > out\n", in: directory, after: 0.5)
        #expect(status == 130)
        // Ctrl-C broke the read off: nothing to report but where the script stopped.
        #expect(stderr == "shelf: stopped at script:1\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
    }

    /// A server that accepts connections and never answers would hold `ls` for its 60 s read
    /// timeout; Ctrl-C ends it at once, without a message but where the script stopped.
    @Test func ctrlCEndsAListingThatASilentServerHolds() throws {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let listener = try SilentListener()
        defer { listener.close() }
        let environment = [
            "AWS_ACCESS_KEY_ID": "key", "AWS_SECRET_ACCESS_KEY": "secret",
            "AWS_ENDPOINT_URL": "http://127.0.0.1:\(listener.port)",
        ]
        let (status, stderr) = try interrupt(
            "ls s3://bucket\necho never > out\n", in: directory, after: 1, environment: environment)
        #expect(status == 130)
        #expect(stderr == "shelf: stopped at script:1\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
    }

    @Test func ctrlCDuringACopyLeavesNoTemporaryFile() throws {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 2 GiB of holes: nothing on disk, but every byte is copied, which takes a while.
        let big = open(directory.appendingPathComponent("big").path, O_WRONLY | O_CREAT, 0o644)
        #expect(big >= 0 && ftruncate(big, 1 << 31) == 0)
        close(big)
        let (status, _) = try interrupt("cp big copy\necho never > out\n", in: directory, after: 0.3)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        guard status != 0 else { return }  // The copy finished before Ctrl-C came.
        #expect(status == 130)
        #expect(names == ["big", "script"])
    }

    @Test func ctrlCEndsACopyOfAnEndlessDeviceAndLeavesNothing() throws {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // /dev/zero never ends: cp reads it into a regular file until Ctrl-C.
        let (status, _) = try interrupt("cp /dev/zero z\necho never > out\n", in: directory, after: 0.3)
        #expect(status == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["script"])
    }
}

/// Starts shelf with `arguments` in `directory` (no input, output discarded), sends it `signal`
/// once its work is under way — a temporary file of at least `minimumSize` bytes is there — and
/// waits for it to end.
/// - Returns: whether the work was seen under way, and how the process ended.
private func send(
    _ signal: Int32, toShelf arguments: [String], in directory: URL, onceATemporaryFileHas minimumSize: Int
) throws -> (underWay: Bool, reason: Process.TerminationReason, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ScriptTests.binary)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = ["HOME": directory.path, "LC_ALL": "C", "PATH": "/usr/bin:/bin"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    var underWay = false
    for _ in 0..<2_000 where !underWay {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        underWay = names.contains { name in
            guard name.hasSuffix(".shelf-tmp") else { return false }
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory.path + "/" + name)
            return (attributes?[.size] as? Int ?? 0) >= minimumSize
        }
        if !underWay { usleep(5_000) }
    }
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    return (underWay, process.terminationReason, process.terminationStatus)
}

/// SIGTERM and SIGHUP (a closed terminal window) stop shelf as Ctrl-C does: the command in
/// progress stops cleanly, and shelf exits with 128 + the signal's number.
@Suite(.timeLimit(.minutes(1))) struct TerminationTests {
    @Test(
        "A signal during a copy leaves no temporary file, runs nothing more, and sets the status",
        arguments: [("SIGINT", SIGINT, 130), ("SIGTERM", SIGTERM, 143), ("SIGHUP", SIGHUP, 129)])
    func signalDuringACopy(_ name: String, _ signal: Int32, _ expected: Int32) throws {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 8 GiB of holes: nothing on disk, but every byte is copied, which takes a while.
        let big = open(directory.appendingPathComponent("big").path, O_WRONLY | O_CREAT, 0o644)
        #expect(big >= 0 && ftruncate(big, 1 << 33) == 0)
        close(big)
        try "cp big copy\necho never > out\n".write(
            to: directory.appendingPathComponent("script"), atomically: true, encoding: .utf8)
        // The signal comes once the copy is under way: its temporary file exists.
        let ended = try send(signal, toShelf: ["script"], in: directory, onceATemporaryFileHas: 0)
        #expect(ended.underWay, "\(name): the copy started")
        #expect(ended.reason == .exit, "\(name)")
        #expect(ended.status == expected, "\(name)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["big", "script"], "\(name)")
    }
}

/// A command stopped half way does not leave half its output where `>` sends it.
@Suite(.timeLimit(.minutes(1))) struct InterruptedRedirectionTests {
    @Test(
        "A signal while a command writes to > keeps the target's old contents",
        arguments: [("SIGINT", SIGINT, 130), ("SIGTERM", SIGTERM, 143), ("SIGHUP", SIGHUP, 129)])
    func signalKeepsTheOldContents(_ name: String, _ signal: Int32, _ expected: Int32) throws {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        try "precious\n".write(to: out, atomically: true, encoding: .utf8)
        // The signal comes once the output is under way: its temporary file has some of it.
        let ended = try send(
            signal, toShelf: ["-c", "cat /dev/zero > out"], in: directory, onceATemporaryFileHas: 1)
        #expect(ended.underWay, "\(name): the output started")
        #expect(ended.status == expected, "\(name)")
        #expect(try String(contentsOf: out, encoding: .utf8) == "precious\n", "\(name)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out"], "\(name)")
    }
}

/// A real file-size limit (`ulimit -f`): the copy fails with EFBIG, the old destination stays,
/// and the script goes on.
@Suite struct FileSizeLimitTests {
    @Test func aCopyOverTheLimitFailsCleanly() throws {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try String(repeating: "x", count: 100_000).write(
            to: directory.appendingPathComponent("big"), atomically: true, encoding: .utf8)
        try "old\n".write(to: directory.appendingPathComponent("copy"), atomically: true, encoding: .utf8)
        let line = "ulimit -f 8 && exec \(ScriptTests.shellQuoted(ScriptTests.binary)) --keep-going -c 'cp big copy; cat copy; ls'"
        let result = try ScriptTests.run("/bin/sh", ["-c", line], in: directory)
        #expect(result.stderr == "cp: error writing 'copy': File too large\n")
        #expect(result.stdout == "old\nbig\ncopy\n")
        #expect(result.status == 0)
    }
}
