import PathModel
import ShellCore

/// shelf's entry point: `shelf -c COMMANDS`, `shelf FILE [ARGS...]`, commands on standard input,
/// or the interactive shell when standard input and output are terminals (or with `-i`).
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current()

var keepGoing = false
var forceInteractive = false
var commandString: String?
var scriptPath: String?
var scriptArguments: [String] = []
var index = 0
while index < arguments.count {
    let argument = arguments[index]
    index += 1
    if scriptPath != nil {
        scriptArguments.append(argument)
        continue
    }
    switch argument {
    case "--keep-going":
        keepGoing = true
    case "-i":
        forceInteractive = true
    case "-c":
        guard index < arguments.count else {
            ProcessEnvironment.fail("shelf: -c: option requires an argument")
        }
        commandString = arguments[index]
        index += 1
    case "--help":
        print("Usage: shelf [-i] [--keep-going] [-c COMMANDS | FILE [ARGS...]]")
        print("An interactive file shell; commands run in-process. Without -c or FILE, commands are read")
        print("from standard input, interactively when standard input and output are terminals (or with -i).")
        ProcessEnvironment.exit(.success)
    default:
        if argument.hasPrefix("-") && argument != "-" {
            ProcessEnvironment.fail("shelf: unrecognized option '\(argument)'\nTry 'shelf --help' for more information.")
        }
        if commandString != nil {
            scriptArguments.append(argument)
        } else {
            scriptPath = argument
        }
    }
}

let cwd: File
do {
    cwd = try File.currentDirectory()
} catch {
    ProcessEnvironment.fail("shelf: " + Diagnostics.render(error, phrase: nil))
}
let onTerminal = OpenFile.standardInput.isTerminal && OpenFile.standardOutput.isTerminal
let interactive = commandString == nil && (scriptPath == nil || scriptPath == "-") && (forceInteractive || onTerminal)
let state = ShellState(
    cwd: cwd, environment: environment, isInteractive: interactive, stopOnError: !interactive && !keepGoing)
let shell = Shell(state: state, stdout: OutputStream(.standardOutput), stderr: OutputStream(.standardError))
ProcessEnvironment.ignoreBrokenPipeAndFileSizeSignals()

// cp -i, mv -i and rm -i ask on the controlling terminal in scripts too; without one they answer no.
state.asker = TerminalAsker.ask
state.standardInputIsTerminal = OpenFile.standardInput.isTerminal

if !interactive {
    // Ctrl-C stops a script between steps of a command (a copy removes its temporary file) and
    // ends a blocked read; the script then stops with status 130.
    LineEditor.catchInterrupts()
    state.isCancelled = { LineEditor.isInterrupted }
}

/// Runs the session this invocation asks for and returns the status to exit with.
@MainActor func runSession() -> ExitStatus {
    if interactive {
        state.isCancelled = { LineEditor.isInterrupted }
        let historyFile = File.stateHome + "shelf/history"
        let editor = LineEditor(historyFile: historyFile, messages: shell.stderr) { line, cursor in
            Completer.complete(line: line, cursor: cursor, state: state)
        }
        state.history = editor.historyLines
        return Repl(shell: shell, editor: editor, prompt: Prompt(environment: environment)).run()
    } else if let commandString {
        return ScriptRunner(shell: shell, origin: "-c").run(source: Array(commandString.utf8))
    } else if let scriptPath, scriptPath != "-" {
        let script = state.resolve(File(path: scriptPath))
        do {
            let input = try script.open(.read)
            defer { input.close() }
            return ScriptRunner(shell: shell, origin: scriptPath).run(input: input)
        } catch {
            ProcessEnvironment.fail("shelf: " + Diagnostics.renderBare(error, as: Array(scriptPath.utf8)), status: .notFound)
        }
    } else {
        return ScriptRunner(shell: shell, origin: "stdin").run(input: .standardInput)
    }
}

// A blocked system call that Ctrl-C interrupts gives up instead of waiting on.
let status = Interruption.$isRequested.withValue({ LineEditor.isInterrupted }) { runSession() }
ProcessEnvironment.exit(status)
