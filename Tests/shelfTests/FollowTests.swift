import Foundation
import Glibc
import Testing

/// `tail -f` and `tail -F` while the files change: the same output and messages as GNU tail
/// under the same changes, and Ctrl-C ends shelf with status 130.
@Suite(
    .timeLimit(.minutes(1)),
    .enabled(if: ["/usr/bin/tail", "/usr/bin/python3"].allSatisfy(FileManager.default.isExecutableFile(atPath:))))
struct FollowTests {
    /// A change made to the directory while tail follows, then a pause for it to be seen.
    typealias Step = @Sendable (URL) throws -> Void

    /// Runs `arguments` in a fresh directory holding `log` (lines 1 to 3), makes `steps` with
    /// pauses between them, then sends SIGINT; returns status, output and messages. The program
    /// starts with no signal blocked (a test's thread may block some, and a child inherits that).
    private func follow(_ executable: String, _ arguments: [String], steps: [Step]) throws -> (Int32, String, String) {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "1\n2\n3\n".write(to: directory.appendingPathComponent("log"), atomically: false, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments =
            [
                "-c",
                "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
                    + "signal.signal(signal.SIGINT, signal.SIG_DFL); "
                    + "os.execv(sys.argv[1], [os.path.basename(sys.argv[1])] + sys.argv[2:])",
                executable,
            ] + arguments
        process.currentDirectoryURL = directory
        process.environment = ["HOME": directory.path, "LC_ALL": "C", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        usleep(600_000)
        for step in steps {
            try step(directory)
            usleep(800_000)
        }
        kill(process.processIdentifier, SIGINT)
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    private static func append(_ text: String, to name: String) -> Step {
        { directory in
            let handle = try FileHandle(forWritingTo: directory.appendingPathComponent(name))
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            try handle.close()
        }
    }

    private static func create(_ name: String, _ text: String) -> Step {
        { try text.write(to: $0.appendingPathComponent(name), atomically: false, encoding: .utf8) }
    }

    private static func rename(_ name: String, _ new: String) -> Step {
        { try FileManager.default.moveItem(at: $0.appendingPathComponent(name), to: $0.appendingPathComponent(new)) }
    }

    private static func remove(_ name: String) -> Step {
        { try FileManager.default.removeItem(at: $0.appendingPathComponent(name)) }
    }

    static let scenarios: [(String, [String], [Step])] = [
        ("lines added, then the file truncated", ["-n", "2", "-f", "log"], [append("more\n", to: "log"), create("log", ""), append("after\n", to: "log")]),
        ("a renamed file is still followed by descriptor", ["-f", "log"], [rename("log", "old"), append("moved\n", to: "old")]),
        (
            "by name: a rotated log, a file that appears, one that goes", ["-F", "log", "missing"],
            [append("more\n", to: "log"), rename("log", "log.1"), create("log", "new\n"), create("missing", "m\n"), remove("log")]
        ),
        ("two files, a header when the other one grows", ["-f", "log", "other"], [create("other", ""), append("x\n", to: "log")]),
    ]

    @Test("tail -f and -F follow files as GNU tail does", arguments: 0..<scenarios.count)
    func followsAsGNUTail(_ index: Int) throws {
        let (label, arguments, steps) = Self.scenarios[index]
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        let ours = try follow(ScriptTests.binary, ["-c", "tail -s 0.1 \(quoted)"], steps: steps)
        let theirs = try follow("/usr/bin/tail", ["-s", "0.1"] + arguments, steps: steps)
        #expect(ours.1 == theirs.1, "\(label)")
        #expect(ours.2 == theirs.2, "\(label)")
        #expect(ours.0 == 130, "\(label)")
    }

    @Test func followingNothingButAMissingFileEnds() throws {
        let (status, stdout, stderr) = try follow(ScriptTests.binary, ["-c", "tail -f missing"], steps: [])
        #expect(status == 1)
        #expect(stdout == "")
        #expect(stderr == "tail: cannot open 'missing' for reading: No such file or directory\ntail: no files remaining\n")
    }
}
