import Glibc
import PathModel
import ShellCore
import Testing

/// The volume the command tests run on: the local file system, or with
/// `SHELF_TEST_VOLUME=memory` in the environment an in-memory volume per shell (`make test` runs
/// them both ways).
enum TestVolume {
    /// Whether the tests run on the in-memory volume.
    static let isMemory = getenv("SHELF_TEST_VOLUME").map { String(cString: $0) } == "memory"
    /// Whether the tests run on the local file system (the GNU comparisons need it).
    static var isLocal: Bool { !isMemory }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only on the local file system, for the reason `why`: it compares with a GNU
    /// tool that reads the fixture from disk, or needs what only the kernel has (FIFOs, devices,
    /// /proc, another file system, injected syscall faults).
    static func needsLocalFileSystem(_ why: Comment) -> Self { .enabled(if: TestVolume.isLocal, why) }
}

/// A private temporary directory (mode 0700) for one test, removed by `remove()`; on a fresh
/// in-memory volume when the tests run there, unless it must be on disk.
struct TemporaryDirectory {
    let file: File

    /// A new directory; `onLocalDisk` keeps it on the local file system whatever the tests run
    /// on, for a GNU tool to work in.
    init(onLocalDisk: Bool = false) {
        if TestVolume.isMemory && !onLocalDisk {
            file = MemoryVolume().file("/tmp/shelf-test")
            do { try file.makeDirectory(intermediates: true, mode: 0o700) } catch { preconditionFailure("\(error)") }
            return
        }
        var template = Array("/tmp/shelf-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        file = File(cString: made!)
    }

    /// Removes the directory and everything in it.
    func remove() {
        if file.volume is MemoryVolume { return }  // The volume goes with its last file.
        do { try file.delete() } catch { print("warning: could not remove \(file.string): \(error)") }
    }
}

/// The outcome of running lines through a fresh shell.
struct Transcript {
    var stdout: String
    var stderr: String
    var status: ShellCore.ExitStatus
}

extension Environment {
    /// Sets `name` to the bytes of `text`.
    mutating func set(_ name: String, _ text: String) { self[name] = Array(text.utf8) }
}

/// A shell whose cwd is a private temporary directory and whose output is captured.
final class TestShell {
    let directory: TemporaryDirectory
    let state: ShellState
    private(set) var stdout = OutputStream(capturingAsTerminal: false)
    private(set) var stderr = OutputStream(capturingAsTerminal: false)

    init(interactive: Bool = true, environment: [String: String] = [:]) {
        directory = TemporaryDirectory()
        var env: Environment = ["HOME": directory.file.string, "PATH": "/usr/bin:/bin", "LC_ALL": "C"]
        for (name, value) in environment { env.set(name, value) }
        state = ShellState(cwd: directory.file, environment: env, isInteractive: interactive, stopOnError: !interactive)
    }

    deinit { directory.remove() }

    /// The temporary directory joined with `relative`.
    func path(_ relative: String) -> File { directory.file + relative }

    /// Runs `source` (one or more lines) and returns what it printed since the last call.
    @discardableResult
    func run(_ source: String) -> Transcript {
        stdout = OutputStream(capturingAsTerminal: false)
        stderr = OutputStream(capturingAsTerminal: false)
        let shell = Shell(state: state, stdout: stdout, stderr: stderr)
        let status = ScriptRunner(shell: shell, origin: "test").run(source: Array(source.utf8))
        stdout.flush()
        stderr.flush()
        return Transcript(stdout: stdout.text, stderr: stderr.text, status: status)
    }

    /// Writes a file with `text` below the temporary directory, creating parents.
    func write(_ relative: String, _ text: String = "") throws {
        let file = path(relative)
        try file.parent.makeDirectory(intermediates: true)
        try file.write(text: text)
    }
}
