import PathModel

/// Why a session runs no program at all: a program is another process, which none of the
/// shell's confinements reach.
public enum ProgramRefusal: Sendable, Hashable {
    /// `--root DIR`: a program would see the whole file system.
    case root
    /// `--read-only`: a program could change anything.
    case readOnly
    /// `--no-programs`: asked for.
    case noPrograms
}

/// Runs a program for the shell: a command name that is no built-in, `command NAME`, and `!`.
enum ProgramRunner {
    /// Runs the program `arguments[0]` stands for with `arguments` as its words, in `directory`
    /// (the shell's by default), with its environment, writing to the context's streams; returns
    /// its status.
    ///
    /// Refused (status 1) in a confined session; `command not found` (127) when `PATH` has no
    /// such program; 126 when the file cannot be run.
    /// - Parameter shown: how messages name it, when not by its name, shell-quoted (`!` for a
    ///   line given to sh).
    static func run(
        _ arguments: [[UInt8]], shown: String? = nil, in context: CommandContext, directory: File? = nil
    ) -> ExitStatus {
        let state = context.state
        let directory = directory ?? state.cwd
        let name = arguments[0]
        let spelled = shown ?? Quoting.bare(name)
        if let refused = refuse(spelled, in: state, messages: context.stderr) { return refused }
        let file: File
        do {
            file = try ProgramLookup.locate(name, in: state)
        } catch {
            switch error {
            case .notFound:
                let hint = Shell.suggestion(for: String(decoding: name, as: UTF8.self)).map {
                    "; did you mean '\($0)'?"
                }
                context.stderr.line("shelf: \(spelled): \(Messages.notFound)\(hint ?? "")")
                return .notFound
            case .unusable(let problem):
                context.stderr.line("shelf: " + Diagnostics.renderBare(problem, as: name))
                return problem.errno == .noSuchFileOrDirectory ? .notFound : .cannotExecute
            }
        }
        guard directory.volume.capabilities.contains(.processDirectory) else {
            context.stderr.line("shelf: \(spelled): \(Messages.notLocal)")
            return .failure
        }
        // A stream with a descriptor is handed over as it is; any other (memory, a volume's
        // stream) is fed from a pipe while the program runs.
        var pumps: [(input: OpenFile, output: OutputStream)] = []
        var writeEnds: [OpenFile] = []
        defer { for end in writeEnds { end.close() } }
        func descriptor(for stream: OutputStream) throws(FileError) -> Int32 {
            if let descriptor = stream.descriptorForDirectWrite()?.descriptor { return descriptor }
            let pipe = try OpenFile.pipe()
            pumps.append((pipe.input, stream))
            writeEnds.append(pipe.output)
            return pipe.output.descriptor!
        }
        // An input without a descriptor (`< s3://bucket/key`) is fed through a pipe as well.
        var feeder: InputFeeder?
        /// Ends the feeding of a program that never started.
        func abandonFeeder() {
            feeder?.closeProgramEnd()
            _ = feeder?.finish()
        }
        let launch: ProgramLaunch
        do {
            let input: Int32
            if let descriptor = context.stdin.descriptor {
                input = descriptor
            } else {
                feeder = try InputFeeder.start(from: context.stdin)
                input = feeder!.programEnd.descriptor!
            }
            launch = ProgramLaunch(
                executable: file, arguments: arguments, environment: state.programEnvironment,
                directory: directory,
                standardStreams: [input, try descriptor(for: context.stdout), try descriptor(for: context.stderr)],
                placement: placement(in: state))
        } catch {
            for pump in pumps { pump.input.close() }
            abandonFeeder()
            context.stderr.line("shelf: \(spelled): \(error.reason)")
            return .failure
        }
        let child: ChildProcess
        do {
            child = try ProcessLauncher.start(launch)
        } catch {
            for pump in pumps { pump.input.close() }
            abandonFeeder()
            // Ctrl-C ended the pipeline before this program could start: it ends quietly with it.
            if error == .canceled, case .pipeline = launch.placement { return .interrupted }
            // The child enters its directory (the shell's, or find -execdir's) by its path: when
            // that is gone (or may no longer be entered), say so rather than seem to mean the program.
            do throws(FileError) {
                _ = try directory.info(followSymlinks: true)
                try directory.checkSearchable()
            } catch let problem {
                let phrase = directory == state.cwd ? Messages.noDirectory : Messages.noOtherDirectory
                context.stderr.line("shelf: \(spelled): " + Diagnostics.render(problem, phrase: phrase))
                return .cannotExecute
            }
            context.stderr.line("shelf: \(spelled): \(Diagnostics.reason(error))")
            return error == .noSuchFileOrDirectory ? .notFound : .cannotExecute
        }
        for end in writeEnds { end.close() }
        writeEnds = []
        feeder?.closeProgramEnd()
        ProcessLauncher.drain(pumps)
        var status = ProcessLauncher.wait(for: child)
        if let failure = feeder?.finish(), !context.isInterruption(failure) {
            // The program saw its input end early: its own status cannot be trusted to say so.
            context.stderr.line("shelf: \(spelled): " + Diagnostics.render(failure, phrase: nil))
            if status.succeeded { status = .failure }
        }
        if case .pipeline(let group) = launch.placement { group.ended(with: status) }
        if case .own = launch.placement, status == .interrupted || status == .quit {
            // The terminal echoed ^C or ^\ where the program stopped; the prompt starts a new line.
            context.stderr.line()
        }
        return status
    }

    /// Where a program runs: a pipeline's group when its stage has one, else on a terminal in an
    /// interactive session a group of its own (not as a stage of a pipeline with built-ins, which
    /// share the terminal with the shell), else the shell's group.
    private static func placement(in state: ShellState) -> ProgramLaunch.Placement {
        if let group = state.pipelineGroup { return .pipeline(group) }
        guard state.isInteractive, !state.isPipelineStage, let terminal = ForegroundTerminal.ofStandardInput else {
            return .shells
        }
        return .own(terminal)
    }

    /// In a session that runs no program, reports that `spelled` (a name as messages show it) is
    /// refused (`shelf: vi: refused: programs cannot be confined to --root`) and returns status
    /// 1; nil when programs run.
    static func refuse(_ spelled: String, in state: ShellState, messages: OutputStream) -> ExitStatus? {
        guard let refusal = state.programRefusal else { return nil }
        messages.line("shelf: \(spelled): \(Messages.refused(refusal))")
        return .failure
    }
}

extension ProgramRunner {
    fileprivate enum Messages {
        static let notFound = "command not found"
        static let notLocal = "refused: programs run only in a directory of the local file system"
        static let noDirectory = "cannot start in the shell's directory"
        static let noOtherDirectory = "cannot start in the directory"

        static func refused(_ refusal: ProgramRefusal) -> String {
            switch refusal {
            case .root: return "refused: programs cannot be confined to --root"
            case .readOnly: return "refused: programs cannot be confined to --read-only"
            case .noPrograms: return "refused: programs are turned off in this shell (--no-programs)"
            }
        }
    }
}
