import PathModel

/// Runs shelf's language: statements from a line, a `-c` string, a script or standard input.
public final class Shell {
    /// The session's state.
    public let state: ShellState
    /// Where commands write their output.
    public let stdout: OutputStream
    /// Where commands and the shell write messages.
    public let stderr: OutputStream

    /// A shell over `state` writing to `stdout` and `stderr`.
    public init(state: ShellState, stdout: OutputStream, stderr: OutputStream) {
        self.state = state
        self.stdout = stdout
        self.stderr = stderr
    }

    /// How a run of source ended.
    public enum Outcome: Sendable, Hashable {
        /// Every statement ran (or the shell kept going past failures).
        case finished(ExitStatus)
        /// A failing command stopped the script at this 1-based line; `leftUnrun` tells whether
        /// statements of the source after it did not run.
        case stopped(ExitStatus, line: Int, leftUnrun: Bool)
        /// `exit` was run.
        case exited(ExitStatus)
        /// The source has a syntax error; nothing of it ran.
        case syntaxError(SyntaxError)

        /// The status the shell should report for this outcome.
        public var status: ExitStatus {
            switch self {
            case .finished(let status), .stopped(let status, _, _), .exited(let status): return status
            case .syntaxError: return .usage
            }
        }
    }

    /// Parses and runs `source`, which holds whole statements (a line, or many), with the
    /// session's aliases.
    /// - Parameters:
    ///   - origin: names the source in messages (`-c`, `stdin`, a script's path).
    ///   - firstLine: the line number of the source's first line within its origin.
    public func run(_ source: [UInt8], origin: String, firstLine: Int = 1) -> Outcome {
        run(ParsedSource(source, firstLine: firstLine, aliases: state.aliases), origin: origin)
    }

    /// Runs statements that a `StatementReader` (or `ParsedSource`) has parsed.
    ///
    /// A syntax error is reported with the offending line and a caret, and nothing runs.
    /// With `state.stopOnError`, the first failing statement stops the run (a statement whose
    /// first word starts with `-` has its failure ignored).
    /// - Parameter origin: names the source in messages (`-c`, `stdin`, a script's path).
    public func run(_ parsed: ParsedSource, origin: String) -> Outcome {
        let statements: [Statement]
        switch parsed.statements {
        case .success(let parsedStatements):
            statements = parsedStatements
        case .failure(let error):
            let origin = state.isInteractive ? nil : origin
            let firstLine = parsed.firstLine
            for line in Diagnostics.syntaxReport(error, source: parsed.source, origin: origin, firstLine: firstLine) {
                stderr.write(bytes: line)
                stderr.line()
            }
            state.lastStatus = .usage
            return .syntaxError(error)
        }
        var status = state.lastStatus
        for (index, statement) in statements.enumerated() {
            let (result, ignored, lastCommandFailed) = run(statement)
            status = result
            state.lastStatus = result
            if let exit = state.exitRequest { return .exited(exit) }
            func stopped() -> Outcome {
                let location = SourceMap(parsed.source).location(of: statement.first.offset)
                let leftUnrun = index + 1 < statements.count
                return .stopped(result, line: parsed.firstLine + location.line - 1, leftUnrun: leftUnrun)
            }
            if result == .interrupted {
                // Ctrl-C abandons the rest of the source: a script stops, a typed line ends.
                guard state.isInteractive else { return stopped() }
                stdout.flush()
                return .finished(result)
            }
            if !result.succeeded && !ignored && lastCommandFailed && state.stopOnError { return stopped() }
            if ignored {
                state.lastStatus = .success
                status = .success
            }
        }
        stdout.flush()
        return .finished(status)
    }

    /// Runs a statement: `a && b || c`. Returns its status, whether its failure is to be
    /// ignored (leading `-`), and whether the failure came from its last command.
    ///
    /// Every word of the statement is expanded before its first command runs: a variable that is
    /// not set fails the whole statement (status 1) and none of it runs.
    private func run(_ statement: Statement) -> (ExitStatus, Bool, Bool) {
        var check = Stage(session: self)
        for (index, command) in statement.pipelines.flatMap(\.commands).enumerated() {
            for assignment in command.assignments {
                guard let value = expand([assignment.value], in: check) else { return (.failure, false, true) }
                // The words after an assignment in the statement may use what it sets (A=1 B=$A,
                // X=1 && echo $X); it is checked on a copy of the state.
                if check.state === state {
                    check = Stage(
                        state: state.copyForPipelineStage(), stdin: check.stdin, stdout: stdout, stderr: stderr,
                        isSessionOutput: true)
                }
                check.state.environment[assignment.name] = value[0].bytes
            }
            guard let words = expand(command.words + command.redirections.compactMap(\.target), in: check) else {
                return (.failure, false, true)
            }
            // A confined session refuses a statement that would run a program before any of it runs.
            let commandWords = Array(words.prefix(command.words.count))
            if state.programRefusal != nil,
                let program = Shell.program(of: command, words: commandWords, first: index == 0),
                let refused = ProgramRunner.refuse(program, in: state, messages: stderr)
            {
                return (refused, false, true)
            }
        }
        var (status, ignored) = run(statement.first, allowIgnoreMarker: true)
        state.lastStatus = status
        var lastFailed = true
        for (connector, pipeline) in statement.rest {
            if state.exitRequest != nil || status == .interrupted { break }
            let runs = connector == .and ? status.succeeded : !status.succeeded
            guard runs else {
                lastFailed = false
                continue
            }
            lastFailed = true
            status = run(pipeline, allowIgnoreMarker: false).0
            state.lastStatus = status
        }
        return (status, ignored, lastFailed)
    }

    /// Where a command reads, writes and keeps its state: the session's own, or a pipeline
    /// stage's.
    struct Stage {
        /// The state it runs with: the session's, or a copy for a pipeline stage (so that `cd`
        /// in a pipeline changes nothing, as in sh).
        let state: ShellState
        /// Standard input.
        let stdin: OpenFile
        /// Standard output (before any redirection of the command's).
        let stdout: OutputStream
        /// Where messages go.
        let stderr: OutputStream
        /// Whether `stdout` is the session's own, whose reader going away ends the session.
        let isSessionOutput: Bool

        /// The session's own state and streams.
        init(session shell: Shell) {
            self.init(
                state: shell.state, stdin: .standardInput, stdout: shell.stdout, stderr: shell.stderr,
                isSessionOutput: true)
        }

        /// A stage with these parts.
        init(state: ShellState, stdin: OpenFile, stdout: OutputStream, stderr: OutputStream, isSessionOutput: Bool) {
            self.state = state
            self.stdin = stdin
            self.stdout = stdout
            self.stderr = stderr
            self.isSessionOutput = isSessionOutput
        }
    }

    /// Expands, parses and runs one command with its redirections, in the character set its
    /// locale variables name (which its output and messages quote and draw with).
    ///
    /// `NAME=value` words before the name are set (and exported) for this command only, once its
    /// words are expanded (`X=1 echo $X` shows the X from before, as in sh); alone, they set the
    /// variables of the stage's state. They are expanded and set in turn, so that a value sees
    /// the ones before it (`A=1 B=$A`).
    func run(_ command: SimpleCommand, allowIgnoreMarker: Bool, in stage: Stage) -> (ExitStatus, Bool) {
        var arguments: [Argument] = []
        if command.shellLine == nil {
            guard let words = expandWords(command.words, allowIgnoreMarker: allowIgnoreMarker, in: stage) else {
                return (.failure, false)
            }
            arguments = words
        }
        var saved: [ShellState.SavedVariable] = []
        defer { stage.state.restore(saved) }
        for assignment in command.assignments {
            guard let value = expand([assignment.value], in: stage) else { return (.failure, false) }
            if arguments.isEmpty {
                stage.state.environment[assignment.name] = value[0].bytes
            } else {
                saved += stage.state.setForOneCommand([(name: assignment.name, value: value[0].bytes)])
            }
        }
        if arguments.isEmpty && command.shellLine == nil { return (.success, false) }
        return CharacterEncoding.$current.withValue(stage.state.characterEncoding) {
            runInLocale(command, arguments: arguments, allowIgnoreMarker: allowIgnoreMarker, in: stage)
        }
    }

    private func runInLocale(
        _ command: SimpleCommand, arguments: [Argument], allowIgnoreMarker: Bool, in stage: Stage
    ) -> (ExitStatus, Bool) {
        let (state, stdout, stderr) = (stage.state, stage.stdout, stage.stderr)
        if let line = command.shellLine {
            let context = CommandContext(state: state, stdout: stdout, stderr: stderr, commandName: "!", stdin: stage.stdin)
            let status = ProgramRunner.run(Shell.shellLineProgram + [line], shown: "!", in: context)
            return (status, false)
        }
        var arguments = arguments
        let ignoreFailure = allowIgnoreMarker && Shell.takeIgnoreMarker(&arguments)
        let name = arguments[0].text
        let operands = Array(arguments.dropFirst())
        let wantsHelp = operands.prefix { $0.bytes != Array("--".utf8) }.contains { $0.text == "--help" && $0.pattern == nil }
        let type = Command.type(named: name)
        let showsHelp = wantsHelp && type?.takesHelpOption == true
        // A usage error is reported once the redirections are in place (`2>` takes it), as the
        // command's own message.
        let parsed: Result<Command?, UsageError> =
            showsHelp ? .success(nil) : Result { () throws(UsageError) in try Command.parse(name: name, arguments: operands) }
        if let type, state.isReadOnly, case .success = parsed {
            if type.changesDisk {
                stderr.line("shelf: \(name): \(Messages.readOnly)")
                return (.failure, ignoreFailure)
            }
        }
        if state.isReadOnly, command.redirections.contains(where: \.kind.writes) {
            stderr.line("shelf: \(Messages.readOnlyRedirection)")
            return (.failure, ignoreFailure)
        }
        // A name that no built-in has is a program's: its words are globbed as a built-in's operands.
        var body: (any ShellCommand)?
        if case .success(let command) = parsed, !showsHelp {
            body = command?.body ?? CommandCommand(operands: arguments)
            do throws(Expander.NoMatch) {
                var expanded: [Argument] = []
                for argument in body!.operands { expanded += try Expander.expandGlob(argument, state: state) }
                body!.operands = expanded
            } catch {
                stderr.line("shelf: no matches found: \(error.pattern)")
                return (.failure, ignoreFailure)
            }
        }
        guard let files = expandTargets(of: command, in: stage) else { return (.failure, ignoreFailure) }
        let streams: CommandStreams
        do {
            streams = try CommandStreams.open(
                command.redirections, files: files, state: state, stdin: stage.stdin, stdout: stdout, stderr: stderr)
        } catch {
            stderr.line("shelf: " + Diagnostics.renderBare(error.error, as: error.spelled))
            return (.failure, ignoreFailure)
        }
        var status: ExitStatus
        switch parsed {
        case .success where showsHelp:
            streams.stdout.write(HelpText.render(type!))
            status = .success
        case .failure(let error):
            streams.stderr.line("\(name): \(Diagnostics.render(error))")
            if let hint = type?.usageHint(for: operands, in: state) { streams.stderr.line(hint) }
            streams.stderr.line("Try 'help \(name)' for more information.")
            status = .usage
        case .success:
            let context = CommandContext(
                state: state, stdout: streams.stdout, stderr: streams.stderr, commandName: name, stdin: streams.stdin)
            status = body!.run(in: context)
        }
        // Ctrl-C during the command ends the statement, whatever the command made of it.
        if state.isCancelled() && !streams.stdout.isBroken { status = .interrupted }
        streams.stdout.flush()
        streams.stderr.flush()
        if let error = streams.finish(abandoned: status == .interrupted) {
            // Stopped half way (Ctrl-C, SIGTERM, SIGHUP), `>` left the old contents in place;
            // a file that could not be put in place is the command's failure. A file the storage
            // refused when its bytes went up (object storage) is told as a refused opening is.
            let spelled = state.spelling(of: error.path)
            stderr.line(
                "shelf: "
                    + (error.operation == .createFile
                        ? Diagnostics.renderBare(error, as: spelled)
                        : Diagnostics.render(error.reworded(as: error.operation, File(bytes: spelled)), phrase: "error writing")))
            status = .failure
        }
        if streams.stdout === stdout, let error = stdout.error {
            if error.errno == .brokenPipe {
                // The reader of standard output went away: the command (and when it was the
                // session's output, the session) ends at once and quietly, with the status of a
                // process killed by SIGPIPE, as a pipeline's writer ends.
                status = .brokenPipe
                if stage.isSessionOutput { state.exitRequest = .brokenPipe }
            } else if status.succeeded {
                // Output that could not be written is a failure of the command, as in coreutils.
                stderr.line("shelf: write error: \(error.reason)")
                status = .failure
            }
        }
        return (status, ignoreFailure)
    }

    /// The files a command's redirections name, expanded (nil for `2>&1`); nil when a variable
    /// in one is not set (reported).
    private func expandTargets(of command: SimpleCommand, in stage: Stage) -> [Argument?]? {
        var files: [Argument?] = []
        for redirection in command.redirections {
            guard let target = redirection.target else {
                files.append(nil)
                continue
            }
            guard let braced = braceExpanded([target], in: stage) else { return nil }
            guard braced.count == 1 else {
                stage.stderr.line("shelf: \(BraceExpansion.spelled(target)): \(Messages.ambiguousRedirect)")
                return nil
            }
            guard let file = expand(braced, in: stage)?.first else { return nil }
            files.append(file)
        }
        return files
    }

    /// Expands a command's words for the stage's state: the name, then the operands, where a
    /// command that takes assignments (`export X=~/bin`) has its `NAME=value` words expanded as
    /// assignments and none globbed. Nil when a variable is not set (reported).
    private func expandWords(_ words: [Word], allowIgnoreMarker: Bool, in stage: Stage) -> [Argument]? {
        guard let words = braceExpanded(words, in: stage) else { return nil }
        guard let first = words.first else { return [] }
        guard var head = expand([first], in: stage) else { return nil }
        let name = head
        if allowIgnoreMarker { _ = Shell.takeIgnoreMarker(&head) }
        guard Command.type(named: head[0].text)?.takesAssignments == true else { return expand(words, in: stage) }
        return reportingUnset(in: stage) { () throws(Expander.UnsetVariable) in
            try name
                + words.dropFirst().map { word throws(Expander.UnsetVariable) in
                    guard let assignment = word.assignment else {
                        return Argument(bytes: try Expander.expand(word, state: stage.state).bytes)
                    }
                    let value = try Expander.expand(assignment.value, state: stage.state)
                    return Argument(bytes: Array(assignment.name.utf8) + [0x3D] + value.bytes)
                }
        }
    }

    /// `words` after brace expansion, or nil when one makes too many words (reported).
    private func braceExpanded(_ words: [Word], in stage: Stage) -> [Word]? {
        do throws(BraceExpansion.TooManyWords) {
            var expanded: [Word] = []
            for word in words { expanded += try BraceExpansion.expand(word) }
            return expanded
        } catch {
            stage.stderr.line("shelf: \(BraceExpansion.spelled(error.word)): \(Messages.tooManyWords)")
            return nil
        }
    }

    /// Expands `words` for the stage's state, or reports the variable that is not set
    /// (`shelf: BUILD: unset variable`) and returns nil.
    private func expand(_ words: [Word], in stage: Stage) -> [Argument]? {
        reportingUnset(in: stage) { () throws(Expander.UnsetVariable) in
            try words.map { word throws(Expander.UnsetVariable) in try Expander.expand(word, state: stage.state) }
        }
    }

    /// What `expansion` gives, or nil when it meets a variable that is not set, reported on the
    /// stage's standard error (`shelf: BUILD: unset variable`).
    private func reportingUnset(
        in stage: Stage, _ expansion: () throws(Expander.UnsetVariable) -> [Argument]
    ) -> [Argument]? {
        do throws(Expander.UnsetVariable) {
            return try expansion()
        } catch {
            stage.stderr.line("shelf: \(error.name): \(Messages.unsetVariable)")
            return nil
        }
    }

    /// Removes a leading `-` from the command name (`-rmdir old`: ignore its failure) and says
    /// whether there was one.
    private static func takeIgnoreMarker(_ arguments: inout [Argument]) -> Bool {
        guard arguments[0].bytes.count > 1, arguments[0].bytes[0] == 0x2D else { return false }
        arguments[0].bytes.removeFirst()
        return true
    }

    /// The words of `!rest` before `rest`: the system's shell, given the line to run.
    private static let shellLineProgram: [[UInt8]] = [Array("/bin/sh".utf8), Array("-c".utf8)]

    /// The program a command would run, named as messages name it (`!` for `!rest`, others
    /// shell-quoted), or nil
    /// when it runs a built-in; `words` are its words expanded, `first` whether it starts its
    /// statement (where a leading `-` is no part of the name).
    static func program(of command: SimpleCommand, words: [Argument], first: Bool) -> String? {
        if command.shellLine != nil { return "!" }
        var words = words
        if first { _ = takeIgnoreMarker(&words) }
        guard let name = words.first else { return nil }
        if name.text == CommandCommand.name { return words.count > 1 ? Quoting.bare(words[1].bytes) : nil }
        return Command.type(named: name.text) == nil ? Quoting.bare(name.bytes) : nil
    }

    /// The closest command name to a mistyped one, within two edits.
    static func suggestion(for name: String) -> String? {
        let scored = Command.all.map { ($0.name, editDistance(Array(name.utf8), Array($0.name.utf8))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 < name.utf8.count else { return nil }
        return best.0
    }

    /// Edit distance where swapping two neighbouring letters counts as one edit (`pdw` → `pwd`).
    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = Swift.min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = Swift.min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}

extension Shell {
    fileprivate enum Messages {
        static let readOnly = "refused: it changes the disk, and this shell is read-only (--read-only)"
        static let unsetVariable = "unset variable"
        static let ambiguousRedirect = "ambiguous redirect"
        static let tooManyWords = "brace expansion makes more than \(BraceExpansion.limit) words"
        static let readOnlyRedirection =
            "refused: >, >>, 2>, 2>> and &> write files, and this shell is read-only (--read-only)"
    }
}
