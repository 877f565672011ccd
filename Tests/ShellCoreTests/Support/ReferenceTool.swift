import Foundation
import Glibc
import PathModel
import Testing

@testable import ShellCore

/// Runs a GNU tool (`/usr/bin/ls`, `/usr/bin/stat`) on the same fixture as a shelf command, so
/// that tests can compare the two outputs byte for byte.
enum ReferenceTool {
    /// Whether the tool is installed here; comparison tests are skipped without it.
    static func isInstalled(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Runs `path` with `arguments` in `directory` under `LC_ALL=C` and `TZ=UTC` (plus
    /// `environment`), and returns its output. Messages name the tool by its base name
    /// (`ls: …`), as shelf's do.
    static func run(
        _ path: String, _ arguments: [String], in directory: File, environment: [String: String] = [:]
    ) throws -> Transcript {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory.string)
        var variables = ["LC_ALL": "C", "TZ": "UTC", "PATH": "/usr/bin:/bin"]
        variables.merge(environment) { $1 }
        process.environment = variables
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let name = (path as NSString).lastPathComponent
        let messages = String(decoding: stderr, as: UTF8.self).replacingOccurrences(
            of: path + ":", with: name + ":")
        return Transcript(
            stdout: String(decoding: stdout, as: UTF8.self), stderr: messages,
            status: ExitStatus(process.terminationStatus))
    }

    /// A command line for shelf that passes `arguments` as they are: each one single-quoted.
    static func commandLine(_ name: String, _ arguments: [String]) -> String {
        ([name] + arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }).joined(
            separator: " ")
    }
}

extension TestShell {
    /// Runs `tool` with `arguments` in this shell and GNU's `/usr/bin/TOOL` in its directory (with
    /// `environment` added), and expects the same output, messages and status of both.
    func expectSameAsGNU(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:], _ comment: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let expected = try ReferenceTool.run("/usr/bin/" + tool, arguments, in: directory.file, environment: environment)
        let actual = run(ReferenceTool.commandLine(tool, arguments))
        #expect(actual.stdout == expected.stdout, "\(comment)", sourceLocation: sourceLocation)
        #expect(actual.stderr == expected.stderr, "\(comment)", sourceLocation: sourceLocation)
        #expect(actual.status == expected.status, "\(comment)", sourceLocation: sourceLocation)
    }

    /// Runs `source` with standard output posing as a terminal `width` columns wide.
    func runOnTerminal(_ source: String, width: Int = 80) -> Transcript {
        let stdout = OutputStream(capturingAsTerminal: true)
        let stderr = OutputStream(capturingAsTerminal: false)
        state.terminalWidth = width
        defer { state.terminalWidth = nil }
        let shell = Shell(state: state, stdout: stdout, stderr: stderr)
        let status = ScriptRunner(shell: shell, origin: "test").run(source: Array(source.utf8))
        stdout.flush()
        stderr.flush()
        return Transcript(stdout: stdout.text, stderr: stderr.text, status: status)
    }

    /// Sets a file's access and modification times (without following a symlink).
    func setTime(_ relative: String, _ seconds: Int64) throws {
        let time = Timestamp(seconds: seconds, nanoseconds: 0)
        try path(relative).setTimes(access: time, modification: time, followSymlinks: false)
    }
}

/// A device number from its halves, as glibc's `makedev(3)` joins them.
func deviceNumber(major: UInt64, minor: UInt64) -> dev_t {
    dev_t(((major & 0xFFF) << 8) | ((major & ~0xFFF) << 32) | (minor & 0xFF) | ((minor & ~0xFF) << 12))
}
