import PathModel
import ShellCore

/// The interactive loop: prompt, read a line (more while the statement is unfinished), keep it
/// in history, run it, and keep the process's directory in step with the shell's.
struct Repl {
    /// The shell that runs the lines.
    let shell: Shell
    /// The terminal's line editor.
    let editor: LineEditor
    /// The prompts.
    let prompt: Prompt

    /// Runs until `exit` or Ctrl-D; returns the status to exit with.
    func run() -> ExitStatus {
        let state = shell.state
        var reader = StatementReader()
        var directoryProblem: File?
        while true {
            if let status = LineEditor.terminationStatus { return status }
            LineEditor.clearInterrupt()
            state.terminalWidth = LineEditor.terminalWidth
            if !reader.isWaiting, state.cwd.volume.capabilities.contains(.processDirectory) {
                // Readline and anything else that looks at the process follow the shell's cwd
                // (on a volume that the kernel can make the process's directory).
                do {
                    try state.cwd.makeCurrentDirectory()
                    directoryProblem = nil
                } catch {
                    if directoryProblem != state.cwd {
                        shell.stderr.line("shelf: " + Diagnostics.render(error, phrase: nil))
                        shell.stderr.flush()
                    }
                    directoryProblem = state.cwd
                }
            }
            let shown = reader.isWaiting ? prompt.continuation : prompt.primary(state)
            let input = editor.readLine(prompt: shown)
            let line: [UInt8]
            switch input {
            case .endOfInput:
                shell.stdout.line()
                shell.stdout.flush()
                guard let unfinished = reader.finish() else { return .success }
                // The input ended inside a quote or after && : report it as the syntax error it is.
                _ = shell.run(unfinished, origin: "shelf")
                shell.stderr.flush()
                return .usage
            case .interrupted:
                reader.discard()
                state.lastStatus = .interrupted
                continue
            case .line(let text):
                line = text
            }
            guard let parsed = reader.add(line + [0x0A], aliases: state.aliases) else { continue }
            let source = Array(parsed.source.dropLast())
            guard source.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            if editor.remember(source) {
                state.history.append(source)
                if state.history.count > LineEditor.historyLimit { state.history.removeFirst() }
            }
            let outcome = shell.run(parsed, origin: "shelf")
            if LineEditor.isInterrupted {
                // The terminal echoed ^C where the output stopped; the prompt starts a new line.
                shell.stdout.line()
            }
            shell.stdout.flush()
            shell.stderr.flush()
            if case .exited(let status) = outcome { return status }
        }
    }
}

/// Asks yes/no questions on the controlling terminal (`/dev/tty`), as `rm -i` does.
enum TerminalAsker {
    /// Writes `question` (which ends with its own blank, as GNU words it: `rm: remove regular
    /// file 'x'? `), reads a line; yes when it starts with `y` or `Y`.
    /// nil when there is no terminal to ask.
    static func ask(_ question: String) -> Bool? {
        let terminal = File(path: "/dev/tty")
        do {
            let output = try terminal.open(.append)
            defer { output.close() }
            try output.write(Array(question.utf8)[...])
            let input = try terminal.open(.read)
            defer { input.close() }
            var answer: [UInt8] = []
            var byte = [UInt8](repeating: 0, count: 1)
            while try input.read(into: &byte) == 1, byte[0] != 0x0A { answer.append(byte[0]) }
            return answer.first == 0x79 || answer.first == 0x59
        } catch {
            return nil
        }
    }
}
