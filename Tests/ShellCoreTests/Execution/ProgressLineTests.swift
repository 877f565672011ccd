import ObjectVolume
import PathModel
import SeaweedFixture
import Synchronization
import Testing

@testable import ShellCore

/// A clock that moves on by `step` seconds each time it is read.
private final class SteppingClock: Sendable {
    private let time = Mutex(0.0)
    let step: Double
    init(step: Double) { self.step = step }
    func read() -> Double { time.withLock { $0 += step; return $0 } }
}

@Suite struct ProgressLineTests {
    @Test("Nothing for the first second, then at most ten redraws a second, then erased")
    func throttling() {
        let output = OutputStream(capturingAsTerminal: true)
        var now = 0.0
        let line = ProgressLine(output: output, verb: "cp", totalBytes: nil, now: { now })
        now = 0.5
        line.add(files: 1, bytes: 1024)
        #expect(output.text == "")
        now = 1.0
        line.add(bytes: 1024)
        #expect(output.text == "\rcp: 1 file, 2.0 KiB, 2.0 KiB/s\u{1B}[K")
        now = 1.05
        line.add(files: 1)
        #expect(output.text.components(separatedBy: "\r").count == 2, "no redraw within a tenth of a second")
        now = 1.2
        line.add(files: 1_233)
        #expect(output.text.hasSuffix("\rcp: 1,235 files, 2.0 KiB, 1.7 KiB/s\u{1B}[K"))
        line.erase()
        #expect(output.text.hasSuffix("\r\u{1B}[K"))
    }

    @Test("A single file counts its bytes of the whole, and the time left")
    func singleFile() {
        let output = OutputStream(capturingAsTerminal: true)
        var now = 0.0
        let line = ProgressLine(output: output, verb: "cp", totalBytes: 4096, now: { now })
        now = 1.0
        line.add(bytes: 2048)
        #expect(output.text == "\rcp: 2.0 KiB of 4.0 KiB, 2.0 KiB/s, 0:01 left\u{1B}[K")
    }

    @Test("Sizes and counts", arguments: [(0.0, "0 B"), (512, "512 B"), (1536, "1.5 KiB"), (59_454_668, "56.7 MiB")])
    func sizes(_ bytes: Double, _ text: String) {
        #expect(ProgressLine.size(bytes) == text)
        #expect(ProgressLine.grouped(1_234_567) == "1,234,567" && ProgressLine.grouped(12) == "12")
    }

    /// Runs `line` in an interactive shell whose standard error is (or is not) a terminal, with
    /// a clock that moves on a third of a second per reading.
    /// `s3://b/` is `volume`, when given; `file` is written beside `tree` first.
    private func stderrOf(
        _ line: String, terminal: Bool, interactive: Bool = true, s3 volume: S3Volume? = nil,
        writing file: (name: String, size: Int)? = nil
    ) throws -> String {
        let shell = TestShell(interactive: interactive)
        if let volume {
            shell.state.schemes.register(VolumeScheme(name: "s3") { _ in volume })
        }
        for index in 0..<20 { try shell.write("tree/f\(index)", String(repeating: "x", count: 1000)) }
        if let file { try shell.write(file.name, String(repeating: "x", count: file.size)) }
        let clock = SteppingClock(step: 0.3)
        shell.state.monotonicClock = { clock.read() }
        let stderr = OutputStream(capturingAsTerminal: terminal)
        let runner = Shell(state: shell.state, stdout: OutputStream(capturingAsTerminal: false), stderr: stderr)
        _ = ScriptRunner(shell: runner, origin: "test").run(source: Array(line.utf8))
        stderr.flush()
        return stderr.text
    }

    @Test("cp -r, mv and rm -r draw the line on a terminal and erase it", arguments: ["cp -r tree copy", "rm -r tree"])
    func drawnOnATerminal(_ line: String) throws {
        let text = try stderrOf(line, terminal: true)
        let verb = line.split(separator: " ")[0]
        #expect(text.contains("\r\(verb): "), "\(line)")
        #expect(text.hasSuffix("\r\u{1B}[K"), "\(line)")
    }

    @Test("cp to and from object storage draws the line too", arguments: ["cp -r tree s3://b/up", "cp -r s3://b/up back"])
    func drawnForObjectStorage(_ line: String) throws {
        try SeaweedServer.withVolume { volume in
            if line.hasPrefix("cp -r s3") { _ = try stderrOf("cp -r tree s3://b/up", terminal: false, s3: volume) }
            let text = try stderrOf(line, terminal: true, s3: volume)
            #expect(text.contains("\rcp: "), "\(line)")
            #expect(text.contains(", 19.5 KiB, "), "every byte counted: \(line)")
            #expect(text.hasSuffix("\r\u{1B}[K"), "\(line)")
        }
    }

    /// A file of 3 MiB, copied in many reads, so that the line is drawn while it goes.
    @Test("cp of one file to and from object storage counts its bytes, not files", arguments: ["cp big s3://b/one", "cp s3://b/one back"])
    func oneFileForObjectStorage(_ line: String) throws {
        try SeaweedServer.withVolume { volume in
            let setUp = "cp big s3://b/one"
            let lines = line == setUp ? line : "\(setUp)\n\(line)"
            let text = try stderrOf(lines, terminal: true, s3: volume, writing: ("big", 3 << 20))
            let drawn = text.components(separatedBy: "\r").filter { $0.hasPrefix("cp: ") }
            #expect(!drawn.isEmpty, "\(line)")
            #expect(drawn.allSatisfy { $0.contains(" of 3.0 MiB") && !$0.contains("file") }, "\(drawn)")
        }
    }

    @Test("Never in scripts or when standard error is not a terminal")
    func notDrawnElsewhere() throws {
        #expect(try stderrOf("cp -r tree copy", terminal: false) == "")
        #expect(try stderrOf("cp -r tree copy", terminal: true, interactive: false) == "")
    }
}
