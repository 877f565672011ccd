import CReadline
import Glibc
import PathModel
import ShellCore
import SystemPackage

/// Line editing on the terminal through GNU readline: the prompt, history (Up, Down, Ctrl-R),
/// Tab completion and Ctrl-C. The one file that talks to the readline shim.
final class LineEditor {
    /// What reading a line gave.
    enum Input {
        /// A line, without its newline.
        case line([UInt8])
        /// Ctrl-C: the half-typed line was thrown away.
        case interrupted
        /// Ctrl-D on an empty line, or the end of input.
        case endOfInput
    }

    /// How many entries the history keeps, in memory and on disk.
    static let historyLimit = 10_000

    /// Answers Tab: the line and the cursor (a byte offset) in, the completion out.
    private let complete: ([UInt8], Int) -> Completion
    /// Where history is kept between sessions; nil when it could not be set up.
    private var historyFile: File?
    /// The last line added to history, to skip consecutive duplicates.
    private var lastRemembered: [UInt8]?
    /// Where problems with the history file are reported (once).
    private let messages: OutputStream
    private var historyProblemReported = false

    /// Sets readline up for shelf and loads the history from `historyFile` (none kept when nil).
    init(historyFile: File?, messages: OutputStream, complete: @escaping ([UInt8], Int) -> Completion) {
        self.complete = complete
        self.messages = messages
        shelf_rl_initialize(LineEditor.completionCallback, Unmanaged.passUnretained(self).toOpaque())
        shelf_rl_stifle_history(Int32(LineEditor.historyLimit))
        if let historyFile { loadHistory(from: historyFile) }
    }

    /// Readline's Tab hook: runs the completer and hands its answer back to the shim.
    private static let completionCallback: shelf_rl_completer = { line, length, cursor, context in
        guard let line, let context else { return }
        let editor = Unmanaged<LineEditor>.fromOpaque(context).takeUnretainedValue()
        let bytes = Array(UnsafeRawBufferPointer(start: line, count: Int(length)))
        let completion = editor.complete(bytes, Int(cursor))
        shelf_rl_completion_set_start(Int32(completion.range.lowerBound))
        if let common = completion.commonPrefix {
            withCString(common) { shelf_rl_completion_add($0, nil, 1) }
        }
        for candidate in completion.candidates {
            withCString(candidate.replacement) { replacement in
                withCString(printable(candidate.display)) { display in
                    shelf_rl_completion_add(replacement, display, 0)
                }
            }
        }
    }

    /// Reads one line after `prompt` (bytes; invisible parts wrapped in `\u{1}` and `\u{2}`).
    func readLine(prompt: [UInt8]) -> Input {
        var line: UnsafeMutablePointer<CChar>?
        let outcome = withCString(prompt) { shelf_rl_readline($0, &line) }
        switch outcome {
        case shelf_rl_interrupt:
            return .interrupted
        case shelf_rl_line:
            guard let line else { return .endOfInput }
            defer { shelf_rl_free(line) }
            return .line(Array(UnsafeRawBufferPointer(start: line, count: strlen(line))))
        default:
            return .endOfInput
        }
    }

    /// Adds a line that was run to history and appends it to the history file at once, so that
    /// a crash or a hang-up loses nothing. Lines starting with a space, and a line equal to the
    /// one before, are not kept.
    /// - Returns: whether the line was kept.
    @discardableResult
    func remember(_ line: [UInt8]) -> Bool {
        guard let first = line.first, first != 0x20, line != lastRemembered else { return false }
        lastRemembered = line
        withCString(line) { shelf_rl_add_history($0) }
        guard let historyFile else { return true }
        let status = historyFile.withCString { path -> Int32 in
            let appended = shelf_rl_append_history(1, path)
            return appended != 0 ? appended : shelf_rl_truncate_history(path, Int32(LineEditor.historyLimit))
        }
        if status != 0 { reportHistoryProblem(FileError(.write, historyFile, Errno(rawValue: status))) }
        return true
    }

    /// The lines in readline's history, oldest first (those loaded from the file at start).
    var historyLines: [[UInt8]] {
        (0..<Int(shelf_rl_history_length())).compactMap { index in
            shelf_rl_history_entry(Int32(index)).map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
        }
    }

    /// Whether Ctrl-C has been pressed since the last `clearInterrupt()`.
    static var isInterrupted: Bool { shelf_rl_interrupted() != 0 }

    /// Makes Ctrl-C (SIGINT), SIGTERM and SIGHUP set `isInterrupted` rather than end the
    /// process, for a script, so that a command in progress can stop cleanly (a copy removes its
    /// temporary file). The interactive editor does this from the start.
    static func catchInterrupts() { shelf_rl_catch_interrupt() }

    /// The status to exit with once a SIGTERM or SIGHUP has arrived (128 + its number): the
    /// command in progress has been stopped and the session is over. Nil before.
    static var terminationStatus: ExitStatus? {
        let signal = shelf_rl_terminating_signal()
        return signal == 0 ? nil : ExitStatus(128 + signal)
    }

    /// Forgets a Ctrl-C; the REPL does this before each prompt.
    static func clearInterrupt() { shelf_rl_clear_interrupt() }

    /// The terminal's width in columns, when standard output is a terminal.
    static var terminalWidth: Int? {
        let width = Int(shelf_rl_terminal_width(1))
        return width > 0 ? width : nil
    }

    /// Creates the history file (mode 0600, and its directory) if needed and reads it.
    private func loadHistory(from file: File) {
        do {
            _ = try file.parent.makeDirectory(intermediates: true, mode: 0o700)
            do {
                // Private, as the lines typed may name private things.
                try file.createFile(exclusive: true, mode: 0o600)
            } catch where error.errno == .fileExists {
                // Kept from an earlier session.
            }
        } catch {
            reportHistoryProblem(error)
            return
        }
        historyFile = file
        let status = file.withCString { shelf_rl_read_history($0) }
        if status != 0 {
            reportHistoryProblem(FileError(.read, file, Errno(rawValue: status)))
            return
        }
        let count = Int(shelf_rl_history_length())
        if count > 0, let last = shelf_rl_history_entry(Int32(count - 1)) {
            lastRemembered = Array(UnsafeRawBufferPointer(start: last, count: strlen(last)))
        }
    }

    private func reportHistoryProblem(_ error: FileError) {
        guard !historyProblemReported else { return }
        historyProblemReported = true
        messages.line("shelf: history: " + Diagnostics.render(error, phrase: nil))
        messages.flush()
    }
}

/// A name as a list of choices shows it: as it is when printable, else in shell-escape quoting (as
/// `ls` shows it on a terminal), with a directory's `/` after the quotes.
private func printable(_ name: [UInt8]) -> [UInt8] {
    guard !Quoting.isPrintable(name) else { return name }
    let directory = name.count > 1 && name.last == 0x2F
    return Array(Quoting.ifNeeded(Array(name.dropLast(directory ? 1 : 0))).utf8) + (directory ? [0x2F] : [])
}

/// Calls `body` with `bytes` as a NUL-terminated C string.
private func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
    (bytes + [0]).withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
}
