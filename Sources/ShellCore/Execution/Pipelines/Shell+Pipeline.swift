import PathModel

extension Shell {
    /// Runs `a | b | c`: every command at once, each reading what the one before writes, built-ins
    /// on threads of their own (no process is added for them) and programs as processes. Returns
    /// the pipeline's status and whether its failure is ignored (a leading `-`).
    ///
    /// The status is the last failure of any command (pipefail), where a command that stopped
    /// because its reader went away (a built-in meeting EPIPE, a program killed by SIGPIPE) has
    /// not failed: `ls -R / | head -1` succeeds when `head` does. Each command runs with a copy of
    /// the session's state, so `cd` in a pipeline changes nothing, as in sh.
    func run(_ pipeline: Pipeline, allowIgnoreMarker: Bool) -> (ExitStatus, Bool) {
        let commands = pipeline.commands
        guard commands.count > 1 else {
            return run(commands[0], allowIgnoreMarker: allowIgnoreMarker, in: Stage(session: self))
        }
        var pipes: [(input: OpenFile, output: OpenFile)] = []
        do throws(FileError) {
            for _ in 1..<commands.count { pipes.append(try OpenFile.pipe()) }
        } catch {
            for pipe in pipes {
                pipe.input.close()
                pipe.output.close()
            }
            stderr.line("shelf: \(PipelineMessages.noPipe): \(error.reason)")
            return (.failure, false)
        }
        stdout.flush()
        // Messages of the commands on threads go straight to the session's descriptor, a line at a
        // time; without one (a memory stream), they are kept and added after the pipeline.
        let sharedErrors = stderr.descriptorForDirectWrite()
        let terminalModes = state.isInteractive ? TerminalModes.ofStandardInput() : nil
        let group = processGroup(for: commands)
        /// A copy of the session's state for one command, with the pipeline's process group.
        func stageState() -> ShellState {
            let copy = state.copyForPipelineStage()
            copy.pipelineGroup = group
            return copy
        }
        let results = StageResults(count: commands.count)
        var threads: [StageThread] = []
        var keptErrors: [OutputStream] = []
        for (index, command) in commands.enumerated().dropLast() {
            let errors = sharedErrors.map { OutputStream($0, flushingEveryLine: true) } ?? OutputStream()
            if sharedErrors == nil { keptErrors.append(errors) }
            let output = OutputStream(pipes[index].output)
            let input = index == 0 ? OpenFile.standardInput : pipes[index - 1].input
            let stage = Stage(
                state: stageState(), stdin: input, stdout: output, stderr: errors,
                isSessionOutput: false)
            let ignoreMarker = allowIgnoreMarker && index == 0
            let started = StageThread.start { [self] in
                ProcessLauncher.blockBrokenPipeSignalOnThisThread()
                results[index] = run(command, allowIgnoreMarker: ignoreMarker, in: stage)
                output.flush()
                pipes[index].output.close()
                if index > 0 { pipes[index - 1].input.close() }
            }
            switch started {
            case .success(let thread):
                threads.append(thread)
            case .failure(let error):
                errors.line("shelf: \(PipelineMessages.noThread): \(Diagnostics.reason(error))")
                results[index] = (.failure, false)
                pipes[index].output.close()
                if index > 0 { pipes[index - 1].input.close() }
            }
        }
        let last = Stage(
            state: stageState(), stdin: pipes[pipes.count - 1].input, stdout: stdout,
            stderr: stderr,
            isSessionOutput: true)
        results[commands.count - 1] = run(commands[commands.count - 1], allowIgnoreMarker: false, in: last)
        stdout.flush()
        pipes[pipes.count - 1].input.close()
        // After Ctrl-C, a stage may still wait on the terminal or a FIFO, which no pipe wakes.
        let interrupted = state.isCancelled()
        for thread in threads { interrupted ? thread.joinInterrupting() : thread.join() }
        for errors in keptErrors {
            errors.flush()
            stderr.write(bytes: errors.contents)
        }
        group?.finish()
        terminalModes?.restore()
        if last.state.exitRequest == .brokenPipe { state.exitRequest = .brokenPipe }
        var status = ExitStatus.success
        for index in 0..<commands.count {
            let stageStatus = results[index].0
            let stoppedByReader = stageStatus == .brokenPipe && index < commands.count - 1
            if !stageStatus.succeeded && !stoppedByReader { status = stageStatus }
        }
        if group != nil, status == .interrupted || status == .quit {
            // The terminal echoed ^C or ^\ where the pipeline stopped; the prompt starts a new line.
            stderr.line()
        }
        return (status, results[0].1)
    }
}

extension Shell {
    /// The process group for a pipeline whose commands all run programs, in an interactive
    /// session whose terminal the shell may give away: its programs then run as one foreground
    /// job. Nil when a command is a built-in (a thread of the shell, which shares the terminal
    /// with the shell: `cat | sort` reads what is typed) or its name does not expand.
    fileprivate func processGroup(for commands: [SimpleCommand]) -> PipelineGroup? {
        guard state.isInteractive, let terminal = ForegroundTerminal.ofStandardInput else { return nil }
        for (index, command) in commands.enumerated() {
            // The name, and what follows `command`.
            let words = command.words.prefix(2).compactMap { try? Expander.expand($0, state: state) }
            guard Shell.program(of: command, words: words, first: index == 0) != nil else { return nil }
        }
        return PipelineGroup(terminal: terminal)
    }
}

/// What each command of a pipeline ended with, written by its own thread (each to its own slot)
/// and read once all have been joined.
private final class StageResults: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<(ExitStatus, Bool)>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: (.success, false))
    }

    deinit { slots.deallocate() }

    subscript(index: Int) -> (ExitStatus, Bool) {
        get { slots[index] }
        set { slots[index] = newValue }
    }
}

extension Shell {
    fileprivate enum PipelineMessages {
        static let noPipe = "cannot make a pipe"
        static let noThread = "cannot start a thread"
    }
}
