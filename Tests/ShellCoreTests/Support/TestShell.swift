import Glibc
import PathModel
import ShellCore

/// A private temporary directory (mode 0700) for one test, removed by `remove()`.
struct TemporaryDirectory {
    let file: File

    init() {
        var template = Array("/tmp/shelf-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        file = File(cString: made!)
    }

    /// Removes the directory and everything in it.
    func remove() {
        do { try file.delete() } catch { print("warning: could not remove \(file.string): \(error)") }
    }
}

/// The outcome of running lines through a fresh shell.
struct Transcript {
    var stdout: String
    var stderr: String
    var status: ExitStatus
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
