import Foundation
import PathModel
import Testing

/// Programs run by the built binary: the options that refuse them, and words that are not UTF-8.
@Suite struct ProgramLaunchTests {
    @Test(
        "--root, --read-only and --no-programs refuse programs and ! before anything runs",
        arguments: [
            (["--root", "."], "programs cannot be confined to --root"),
            (["--read-only"], "programs cannot be confined to --read-only"),
            (["--no-programs"], "programs are turned off in this shell (--no-programs)"),
        ])
    func confinedSessionsRefusePrograms(_ options: [String], _ reason: String) throws {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (line, name) in [
            ("echo ran && vi notes", "vi"), ("echo ran && command touch made", "touch"), ("!touch made", "!"),
        ] {
            let result = try ScriptTests.shelf(options + ["--keep-going", "-c", line], in: directory)
            #expect(result.stderr == "shelf: \(name): refused: \(reason)\n", "\(line)")
            #expect(result.status == 1, "\(line)")
            #expect(result.stdout == "", "\(line)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("made").path))
    }

    @Test("Words and variables that are not UTF-8 reach a program byte for byte")
    func bytesReachAProgram() throws {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let word: [UInt8] = Array("bad".utf8) + [0xFE, 0xC3] + Array("name".utf8)
        let line = Array("printf '%s|' ".utf8) + word + Array(" \"$1\" \"$RAW\"\n!printf %s \"$RAW\"".utf8)
        let result = RawProcess.run(
            ScriptTests.binary, [Array("-c".utf8), line, word],
            environment: [Array("PATH=/usr/bin:/bin".utf8), Array("RAW=".utf8) + word], in: directory.path)
        #expect(result.stdout == word + [0x7C] + word + [0x7C] + word + [0x7C] + word)
        #expect(result.status == 0)
    }

    @Test("A program gets SIGPIPE back at its default, though shelf ignores it")
    func programsGetSignalsBack() throws {
        // With SIGPIPE ignored, yes would go on to fail with "Broken pipe" once head is gone.
        let result = try ScriptTests.shelf(["-c", "sh -c 'yes | head -1'"])
        #expect(result.stdout == "y\n")
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }
}
