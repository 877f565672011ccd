import PathModel
import ShellCore

/// shelf's entry point: `shelf -c COMMANDS`, `shelf FILE [ARGS...]`, or commands on standard input.
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current()

var keepGoing = false
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
    case "-c":
        guard index < arguments.count else {
            ProcessEnvironment.fail("shelf: -c: option requires an argument")
        }
        commandString = arguments[index]
        index += 1
    case "--help":
        print("Usage: shelf [--keep-going] [-c COMMANDS | FILE [ARGS...]]")
        print("An interactive file shell; commands run in-process. Without -c or FILE, commands are read from standard input.")
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
let state = ShellState(cwd: cwd, environment: environment, isInteractive: false, stopOnError: !keepGoing)
let shell = Shell(state: state, stdout: OutputStream(.standardOutput), stderr: OutputStream(.standardError))
ProcessEnvironment.ignoreBrokenPipeAndFileSizeSignals()

let status: ExitStatus
if let commandString {
    status = ScriptRunner(shell: shell, origin: "-c").run(source: Array(commandString.utf8))
} else if let scriptPath, scriptPath != "-" {
    let script = state.resolve(File(path: scriptPath))
    do {
        let input = try script.open(.read)
        status = ScriptRunner(shell: shell, origin: scriptPath).run(input: input)
        input.close()
    } catch {
        ProcessEnvironment.fail("shelf: " + Diagnostics.renderBare(error, as: Array(scriptPath.utf8)), status: .notFound)
    }
} else {
    status = ScriptRunner(shell: shell, origin: "stdin").run(input: .standardInput)
}
ProcessEnvironment.exit(status)
