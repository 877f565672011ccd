import ObjectVolume
import PathModel
import ShellCore

/// shelf's entry point: `shelf -c COMMANDS`, `shelf FILE [ARGS...]`, commands on standard input,
/// or the interactive shell when standard input and output are terminals (or with `-i`).
let options = Invocation.fromProcessOrExit()
let environment = ProcessEnvironment.current()
let commandString = options.commands
let scriptPath = options.commands == nil ? options.script.first : nil

// `s3://BUCKET/KEY` paths: object storage, configured as AWS's tools are (environment, ~/.aws),
// read and connected to only when a path first names a bucket.
let objectStorage = S3Volumes {
    Result { () throws(S3Configuration.Problem) in
        try S3Configuration(variable: environment.text, home: environment.text("HOME").map(File.init(path:)))
    }
}

let cwd: File
if let root = options.root {
    // Inside a root the session starts at its top, which is `/` for every path it names: a
    // directory, or a bucket or a prefix in one (`s3://BUCKET/PREFIX`).
    do throws(FileError) {
        if let (bucket, prefix) = objectStorageRoot(root) {
            guard let bucket else {
                ProcessEnvironment.fail("shelf: --root: \(Quoting.bare(root)): names no bucket (s3://BUCKET[/PREFIX])")
            }
            // The prefix must be a directory of the bucket (keys below it, or its marker), as
            // DIR must be one of the disk: the top of a volume below a prefix always is one.
            let bucketTop = objectStorage.volume(bucket: bucket).root
            let top = prefix.isEmpty ? bucketTop : bucketTop + File(bytes: prefix)
            guard try top.info().kind == .directory else { throw FileError(.list, top, .notDirectory) }
            cwd = objectStorage.volume(bucket: bucket, prefix: prefix).root
        } else {
            cwd = try Sandbox(File(bytes: root)).root
        }
    } catch {
        ProcessEnvironment.fail("shelf: --root: " + Diagnostics.renderBare(error, as: root))
    }
} else {
    do {
        cwd = try File.currentDirectory()
    } catch {
        ProcessEnvironment.fail("shelf: " + Diagnostics.render(error, phrase: nil))
    }
}
let onTerminal = OpenFile.standardInput.isTerminal && OpenFile.standardOutput.isTerminal
let readsStandardInput = scriptPath == nil || scriptPath == [UInt8(ascii: "-")]
let interactive = commandString == nil && readsStandardInput && (options.interactive || onTerminal)
let state = ShellState(
    cwd: cwd, environment: environment, isInteractive: interactive, stopOnError: !interactive && !options.keepGoing)
// As in sh, PWD names the directory the shell starts in, whatever the environment said; an
// OLDPWD from outside a root names nothing inside it.
state.environment["PWD"] = cwd.bytes
state.exportedNames.insert(Array("PWD".utf8))
if options.root != nil { state.environment["OLDPWD"] = nil }
// Messages go out line by line, after what standard output holds, so that `2>&1` and logs read
// in the order things happened.
let standardError = OutputStream(.standardError, flushingEveryLine: true)
let standardOutput = OutputStream(.standardOutput)
standardError.flushedFirst = standardOutput
let shell = Shell(state: state, stdout: standardOutput, stderr: standardError)
ProcessEnvironment.ignoreBrokenPipeAndFileSizeSignals()

// Inside a root no URL leads out of it.
if options.root == nil {
    state.schemes.register(
        VolumeScheme(
            name: "s3", open: { objectStorage.volume(bucket: $0) },
            authorities: { objectStorage.buckets(opening: $0) }))
}

// cp -i, mv -i and rm -i ask on the controlling terminal in scripts too; without one they answer no.
state.asker = TerminalAsker.ask
state.standardInputIsTerminal = OpenFile.standardInput.isTerminal
state.isReadOnly = options.readOnly
// No confinement reaches another process: a confined session runs built-ins only.
state.programRefusal =
    options.root != nil ? .root : options.readOnly ? .readOnly : options.noPrograms ? .noPrograms : nil
// $0 is the script's path (else `shelf`); $1... are the words after it, or after -c COMMANDS.
if let scriptPath, !readsStandardInput { state.scriptName = scriptPath }
state.arguments = Array(options.script.dropFirst(scriptPath == nil ? 0 : 1))

if !interactive {
    // Ctrl-C stops a script between steps of a command (a copy removes its temporary file) and
    // ends a blocked read; the script then stops with status 130.
    LineEditor.catchInterrupts()
    state.isCancelled = { LineEditor.isInterrupted }
}

/// Runs the start-up file this session has, if any: `--rc FILE` in any session, else the default
/// one in an interactive session or one started with `-i` (`shelf -i -c …`, as `bash -i -c`
/// reads its rc file), none with `--norc`. Returns the status to end with when it ran `exit`; a
/// `--rc FILE` that cannot be read ends the process (status 2).
@MainActor func runStartupFile() -> ExitStatus? {
    guard !options.noStartupFile else { return nil }
    let explicit = options.startupFile.map { StartupFile(File(bytes: $0), shown: Quoting.bare($0)) }
    let standard = interactive || options.interactive ? StartupFile.standard : nil
    guard let startup = explicit ?? standard else { return nil }
    switch startup.run(with: shell) {
    case .finished:
        return nil
    case .exited(let status):
        return status
    case .unreadable(let error):
        if let given = options.startupFile {
            ProcessEnvironment.fail("shelf: --rc: " + Diagnostics.renderBare(error, as: given))
        }
        // A missing default start-up file is the usual case, not a problem.
        if error.errno != .noSuchFileOrDirectory {
            shell.stderr.line("shelf: " + Diagnostics.render(error, phrase: "error reading"))
            shell.stderr.flush()
        }
        return nil
    }
}

/// Runs the session this invocation asks for and returns the status to exit with.
@MainActor func runSession() -> ExitStatus {
    if interactive {
        state.isCancelled = { LineEditor.isInterrupted }
        // Ctrl-Z and Ctrl-\ at the prompt do nothing; a program started gets them back.
        ProcessLauncher.ignoreJobControlSignals()
    }
    if let status = runStartupFile() { return status }
    if interactive {
        let historyFile = options.noHistory ? nil : File.stateHome + "shelf/history"
        let editor = LineEditor(historyFile: historyFile, messages: shell.stderr) { line, cursor in
            Completer.complete(line: line, cursor: cursor, state: state)
        }
        state.history = editor.historyLines
        return Repl(shell: shell, editor: editor, prompt: Prompt(environment: environment)).run()
    } else if let commandString {
        return ScriptRunner(shell: shell, origin: "-c").run(source: commandString)
    } else if let scriptPath, !readsStandardInput {
        let script = state.resolve(File(bytes: scriptPath))
        do {
            let input = try script.open(.read)
            defer { input.close() }
            // Named in messages as it was given, or shell-escaped when it must be (not UTF-8, control bytes).
            return ScriptRunner(shell: shell, origin: Quoting.bare(scriptPath)).run(input: input)
        } catch {
            ProcessEnvironment.fail("shelf: " + Diagnostics.renderBare(error, as: scriptPath), status: .notFound)
        }
    } else {
        return ScriptRunner(shell: shell, origin: "stdin").run(input: .standardInput)
    }
}

// A blocked system call that Ctrl-C interrupts gives up instead of waiting on.
Interruption.isRequested = { LineEditor.isInterrupted }
let status = runSession()
// A SIGTERM or SIGHUP stopped the session: its status says so, whatever the command made of it.
ProcessEnvironment.exit(LineEditor.terminationStatus ?? status)

/// The bucket and key prefix of a `--root` that is an `s3://BUCKET[/PREFIX]` URL, else nil: `.`
/// and `..` taken textually, as `cd` takes them, and slashes around the prefix dropped. The
/// bucket is nil when the URL names none (`s3://`, or `..` above the bucket).
func objectStorageRoot(_ root: [UInt8]) -> (bucket: [UInt8]?, prefix: [UInt8])? {
    let scheme = Array("s3://".utf8)
    guard root.starts(with: scheme) else { return nil }
    var names: [ArraySlice<UInt8>] = []
    for name in root.dropFirst(scheme.count).split(separator: 0x2F) {
        if name.elementsEqual([0x2E]) { continue }
        if name.elementsEqual([0x2E, 0x2E]) {
            if names.popLast() == nil { return (nil, []) }
        } else {
            names.append(name)
        }
    }
    guard let bucket = names.first else { return (nil, []) }
    let prefix = names.dropFirst().map { Array($0) + [0x2F] }.joined()
    return (Array(bucket), Array(prefix))
}
