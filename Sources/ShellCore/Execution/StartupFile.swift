import PathModel

/// The start-up file, `$XDG_CONFIG_HOME/shelf/rc` (`~/.config/shelf/rc`) or the one `--rc FILE`
/// names: statements run once before the session's first prompt or command, as a script's,
/// whose messages each say the file and line they came from.
public struct StartupFile {
    /// The file.
    public let file: File
    /// How messages name it: as given, or the default's whole path.
    public let shown: String

    /// The start-up file `file`, named `shown` in messages.
    public init(_ file: File, shown: String) {
        self.file = file
        self.shown = shown
    }

    /// The default start-up file, `shelf/rc` in the user's configuration directory
    /// (`$XDG_CONFIG_HOME`, else `~/.config`), read where it is whatever the session's volume.
    public static var standard: StartupFile {
        let file = File.configHome + "shelf/rc"
        return StartupFile(file, shown: Quoting.bare(file.bytes))
    }

    /// How running the file ended.
    public enum Outcome: Sendable, Hashable {
        /// Every line was read (a failing statement does not stop the lines after it).
        case finished
        /// It ran `exit`: the session ends with this status.
        case exited(ExitStatus)
        /// It could not be opened or read; nothing of it ran, or only what came before.
        case unreadable(FileError)
    }

    /// Runs the file's statements with `shell`'s state and output, line by line. A failing
    /// statement does not stop the file (with `set -e` in force, it stops the rest of its own
    /// line); a syntax error skips its statement. Every line a statement writes on standard error
    /// goes out as `FILE:LINE: message` (the `shelf: ` that starts the shell's own messages left
    /// out), LINE being where the statement starts; a syntax error says its line and column as
    /// in a script.
    public func run(with shell: Shell) -> Outcome {
        let input: OpenFile
        do { input = try file.open(.read) } catch { return .unreadable(error) }
        defer { input.close() }
        var lines = LineReader(input: input)
        var reader = StatementReader()
        while true {
            let next: LineRead
            do { next = try lines.nextLine(waiting: true) } catch { return .unreadable(error) }
            guard case .line(let line) = next else { break }
            guard let parsed = reader.add(line, aliases: shell.state.aliases) else { continue }
            if case .exited(let status) = run(parsed, with: shell) { return .exited(status) }
        }
        if let unfinished = reader.finish(), case .exited(let status) = run(unfinished, with: shell) {
            return .exited(status)
        }
        return .finished
    }

    /// Runs one whole statement (or the syntax error it is) with its messages prefixed.
    private func run(_ parsed: ParsedSource, with shell: Shell) -> Shell.Outcome {
        if case .failure(let error) = parsed.statements {
            let report = Diagnostics.syntaxReport(error, source: parsed.source, origin: shown, firstLine: parsed.firstLine)
            for line in report {
                shell.stderr.write(bytes: line)
                shell.stderr.line()
            }
            return .syntaxError(error)
        }
        let messages = OutputStream()
        let outcome = Shell(state: shell.state, stdout: shell.stdout, stderr: messages).run(parsed, origin: shown)
        shell.stdout.flush()
        messages.flush()
        let prefix = Array("\(shown):\(parsed.firstLine): ".utf8)
        for message in messages.contents.split(separator: 0x0A) {
            let text = message.starts(with: Self.shellPrefix) ? message.dropFirst(Self.shellPrefix.count) : message[...]
            shell.stderr.write(bytes: prefix + text)
            shell.stderr.line()
        }
        shell.stderr.flush()
        return outcome
    }

    /// What starts the shell's own messages, left out after `FILE:LINE: `.
    private static let shellPrefix = Array("shelf: ".utf8)
}
