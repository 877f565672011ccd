import Foundation
import Testing

/// Script input a shell may be fed by mistake or by malice: NUL bytes, bytes that are not UTF-8,
/// very long lines and statements. Each gets a clear error or works; none crashes or hangs.
@Suite(.timeLimit(.minutes(1))) struct HostileInputTests {
    /// Runs shelf on a script file holding `script` in a fresh private directory; returns the
    /// result and the bytes of the file `out` there, if the script made one.
    private func runScript(_ script: [UInt8]) throws -> (ScriptTests.Result, [UInt8]?) {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(script).write(to: directory.appendingPathComponent("script"))
        let result = try ScriptTests.shelf(["script"], in: directory)
        let out = FileManager.default.contents(atPath: directory.appendingPathComponent("out").path)
        return (result, out.map { Array($0) })
    }

    @Test func aNulByteStopsTheScriptAtItsLine() throws {
        let (result, _) = try runScript(Array("echo one\necho t\0wo\necho three\n".utf8))
        #expect(result.stdout == "one\n")
        #expect(result.stderr == "shelf: script:2: NUL byte in script\n")
        #expect(result.status == 2)
        let piped = try ScriptTests.shelf([], input: "echo one\n\0\necho three\n")
        #expect(piped.stderr == "shelf: stdin:2: NUL byte in script\n")
        #expect(piped.status == 2)
    }

    @Test func bytesThatAreNotUTF8PassThroughAsTheyAre() throws {
        let name = Array("caf".utf8) + [0xE9, 0xFF]
        let (result, out) = try runScript(
            Array("mkdir d d/".utf8) + name + Array(" && ls d > out && echo ".utf8) + name + Array(" >> out\n".utf8))
        #expect(result.status == 0)
        #expect(out == name + [0x0A] + name + [0x0A])
    }

    @Test func aSyntaxErrorShowsTheLineWithoutItsControlBytes() throws {
        let (result, _) = try runScript(Array("echo \u{1B}[2J ok && \"open\n".utf8) + [0xFF, 0x0A])
        #expect(result.status == 2)
        let caret = String(repeating: " ", count: 16) + "^\n"
        let message = "shelf: script:1:17: syntax error: unterminated quote \"\n"
        #expect(result.stderr == message + "echo ?[2J ok && \"open\n" + caret)
    }

    @Test func aOneMebibyteLineWorks() throws {
        let word = [UInt8](repeating: 0x41, count: 1 << 20)
        let (result, out) = try runScript(Array("echo ".utf8) + word + Array(" > out\n".utf8))
        #expect(result.status == 0)
        #expect(out == word + [0x0A])
    }

    @Test func aOneMebibyteSyntaxErrorIsReportedBriefly() throws {
        let (result, _) = try runScript(Array("echo \"".utf8) + [UInt8](repeating: 0x41, count: 1 << 20) + [0x0A])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("shelf: script:1:6: syntax error: unterminated quote \"\necho \"AAAA"))
        #expect(result.stderr.utf8.count < 300)
    }

    @Test(arguments: [
        ("a quoted string of 50,000 lines", "echo \"\n" + String(repeating: "line\n", count: 50_000) + "\" > out\n",
         250_002),
        ("50,000 backslash continuations", String(repeating: "echo a \\\n", count: 50_000) + "> out\n",
         1 + 7 * 49_999 + 1),
        ("50,000 lines after &&", String(repeating: "echo a &&\n", count: 50_000) + "echo a > out\n", 2),
    ])
    func aLongStatementIsReadInLinearTime(_ label: String, _ script: String, _ size: Int) throws {
        let (result, out) = try runScript(Array(script.utf8))
        #expect(result.status == 0, "\(label)")
        #expect(out?.count == size, "\(label)")
    }
}
