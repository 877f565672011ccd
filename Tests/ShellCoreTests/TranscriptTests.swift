import PathModel
import Testing

@testable import ShellCore

/// Replays every `Transcripts/*.transcript` file against a fresh shell in a private directory.
///
/// Format: `$ command` runs a line; the lines after it are the expected standard output, except
/// `! text` (a standard error line) and `[status N]` (the expected status, 0 when absent).
/// `$TMP` in expected text stands for the test's directory; `#` lines are comments.
@Suite struct TranscriptTests {
    static let directory = File(path: #filePath).parent + "Transcripts"

    static var files: [String] {
        do {
            return try directory.childNames().filter { $0.hasSuffix(".transcript") }
        } catch {
            return ["<cannot list \(directory.string): \(error)>"]
        }
    }

    struct Step {
        var command: String
        var stdout: [String] = []
        var stderr: [String] = []
        var status: Int32 = 0
        var line: Int
    }

    static func steps(of text: String) -> [Step] {
        var steps: [Step] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("$ ") {
                steps.append(Step(command: String(line.dropFirst(2)), line: number + 1))
            } else if line.hasPrefix("#") && steps.last?.stdout.isEmpty != false || steps.isEmpty {
                continue
            } else if line.hasPrefix("! ") || line == "!" {
                steps[steps.count - 1].stderr.append(String(line.dropFirst(2)))
            } else if line.hasPrefix("[status "), line.hasSuffix("]"), let code = Int32(line.dropFirst(8).dropLast()) {
                steps[steps.count - 1].status = code
            } else {
                steps[steps.count - 1].stdout.append(String(line))
            }
        }
        for index in steps.indices {
            while steps[index].stdout.last == "" { steps[index].stdout.removeLast() }
        }
        return steps
    }

    @Test(arguments: files)
    func replays(_ name: String) throws {
        let text = try (Self.directory + name).readText()
        let shell = TestShell()
        let tmp = shell.directory.file.string
        for step in Self.steps(of: text) {
            let result = shell.run(step.command)
            let expectedOut = step.stdout.map { $0.replacing("$TMP", with: tmp) }
            let expectedErr = step.stderr.map { $0.replacing("$TMP", with: tmp) }
            let out = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast(
                result.stdout.hasSuffix("\n") || result.stdout.isEmpty ? 1 : 0)
            let err = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast(
                result.stderr.hasSuffix("\n") || result.stderr.isEmpty ? 1 : 0)
            #expect(
                Array(out) == expectedOut, "\(name):\(step.line) `\(step.command)` stdout:\n\(diff(expectedOut, Array(out)))")
            #expect(
                Array(err) == expectedErr, "\(name):\(step.line) `\(step.command)` stderr:\n\(diff(expectedErr, Array(err)))")
            #expect(result.status.code == step.status, "\(name):\(step.line) `\(step.command)` status")
        }
    }

    /// A line diff: `-` expected lines missing, `+` lines produced instead.
    func diff(_ expected: [String], _ actual: [String]) -> String {
        var lines: [String] = []
        for index in 0..<max(expected.count, actual.count) {
            let want = index < expected.count ? expected[index] : nil
            let got = index < actual.count ? actual[index] : nil
            if want == got { lines.append("  " + (want ?? "")); continue }
            if let want { lines.append("- " + want) }
            if let got { lines.append("+ " + got) }
        }
        return lines.joined(separator: "\n")
    }
}
