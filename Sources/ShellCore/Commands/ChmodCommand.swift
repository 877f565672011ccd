import PathModel

/// `chmod [-R] [-c | -v] [-f] [--reference=RFILE] MODE[,MODE]... FILE...`: change the permission
/// bits of each FILE, as GNU chmod does; `-R` never follows a symlink it finds, and refuses `/`
/// unless told `--no-preserve-root`.
public struct ChmodCommand: ShellCommand {
    public static let name = "chmod"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Change the permission bits of each FILE to MODE (octal or symbolic)."
    public static let synopsis = "[-R] [-c | -v] [-f] [--dry-run] [--reference=RFILE] MODE[,MODE]... FILE..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case changes, silent, verbose, recursive, reference, preserveRoot, noPreserveRoot, dryRun
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("c", "changes", key: .changes, help: "like verbose but report only when a change is made"),
        OptionSpec(nil, "dry-run", key: .dryRun, help: "say what would change, as -c does, and change nothing"),
        OptionSpec("f", "silent", key: .silent, help: "suppress most error messages"),
        OptionSpec(nil, "quiet", key: .silent, help: "the same as -f"),
        OptionSpec("v", "verbose", key: .verbose, help: "output a diagnostic for every file processed"),
        OptionSpec(nil, "no-preserve-root", key: .noPreserveRoot, help: "do not treat '/' specially"),
        OptionSpec(
            nil, "preserve-root", key: .preserveRoot, help: "fail to operate recursively on '/' (the default)"
        ),
        OptionSpec(
            nil, "reference", value: .required, valueName: "RFILE", key: .reference,
            help: "use RFILE's mode instead of MODE"),
        OptionSpec("R", "recursive", key: .recursive, help: "change files and directories recursively"),
    ]

    /// Where the new mode comes from.
    public enum ModeSource: Sendable {
        /// MODE as written.
        case expression(ModeExpression)
        /// The file whose mode every FILE gets (`--reference=RFILE`).
        case reference(Argument)
    }

    /// The new mode: MODE, or RFILE's.
    public var source: ModeSource
    /// Change the trees below directories too (`-R`).
    public var recursive: Bool
    /// Refuse to change `/` recursively.
    public var preservesRoot: Bool
    /// Leave out the messages about files that cannot be reached or changed (`-f`).
    public var silent: Bool
    /// How much it tells about each file (`-c`, `-v`).
    var verbosity: ChangeVerbosity
    /// Say what would change, and change nothing (`--dry-run`).
    public var dryRun: Bool
    /// Whether MODE was written like an option (`-w`): GNU then warns when the umask made the
    /// result differ from what the mode says.
    public var warnsOfUmask: Bool
    /// The FILEs.
    public var operands: [Argument]

    /// The letters after `-` that make an argument a mode rather than options (`-w`, `-rx`, `-0`).
    private static let modeLetters = Set("rwxXstugoa,+=01234567".utf8)

    /// Reads the options, then takes MODE from the operands; an argument such as `-w` or `-x,g+r`
    /// is a mode, as in GNU chmod.
    /// - Throws: `UsageError` with GNU's wording.
    public static func parse(_ arguments: [Argument]) throws(UsageError) -> ChmodCommand {
        var modes: [[UInt8]] = []
        var others: [Argument] = []
        var optionsEnded = false
        for argument in arguments {
            let bytes = argument.bytes
            if !optionsEnded, !argument.fromGlob, argument.pattern == nil, bytes.count > 1, bytes[0] == 0x2D,
                modeLetters.contains(bytes[1])
            {
                modes.append(bytes)
                continue
            }
            if bytes == [0x2D, 0x2D] { optionsEnded = true }
            others.append(argument)
        }
        let parsed = try OptionParser.parse(others, specs: options, acceptsHelp: true)
        return try ChmodCommand(
            parsed, optionLikeMode: modes.isEmpty ? nil : Array(modes.joined(separator: [0x2C])))
    }

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        try self.init(arguments, optionLikeMode: nil)
    }

    private init(_ arguments: ParsedArguments<Option>, optionLikeMode: [UInt8]?) throws(UsageError) {
        recursive = arguments.has(.recursive)
        preservesRoot = arguments.last(of: [.preserveRoot, .noPreserveRoot]) != .noPreserveRoot
        silent = arguments.has(.silent)
        verbosity = ChangeVerbosity(arguments, changes: .changes, verbose: .verbose, dryRun: .dryRun)
        dryRun = arguments.has(.dryRun)
        warnsOfUmask = optionLikeMode != nil
        operands = arguments.operands
        if let referenced = arguments.bytes(.reference) {
            if optionLikeMode != nil { throw .invalid(Messages.modeAndReference) }
            guard !operands.isEmpty else { throw .invalid(Messages.missingOperand) }
            source = .reference(Argument(bytes: referenced))
            return
        }
        var modeText = optionLikeMode ?? []
        if optionLikeMode == nil {
            guard !operands.isEmpty else { throw .invalid(Messages.missingOperand) }
            modeText = operands.removeFirst().bytes
            guard !operands.isEmpty else {
                throw .invalid("\(Messages.missingOperandAfter) \(Quoting.always(modeText))")
            }
        }
        guard !operands.isEmpty else { throw .invalid(Messages.missingOperand) }
        guard let parsed = ModeExpression(modeText) else {
            throw .invalid("\(Messages.invalidMode) \(Quoting.always(modeText))")
        }
        source = .expression(parsed)
    }

    public func run(in context: CommandContext) -> ExitStatus {
        let expression: ModeExpression
        switch source {
        case .expression(let written):
            expression = written
        case .reference(let reference):
            do {
                let info = try context.resolve(reference).info(followSymlinks: true)
                expression = ModeExpression(exactly: info.permissions)
            } catch {
                context.error(
                    "\(Messages.cannotGetAttributes) \(Quoting.always(reference.bytes)): \(error.reason)")
                return .failure
            }
        }
        var run = Run(command: self, context: context, expression: expression, umask: File.creationMask)
        for operand in operands {
            if context.isCancelled { return .interrupted }
            run.change(operand)
        }
        return context.isCancelled ? .interrupted : run.status
    }

    /// One run over the FILEs: the mode to apply, and the status so far.
    private struct Run {
        let command: ChmodCommand
        let context: CommandContext
        let expression: ModeExpression
        let umask: UInt32
        var status = ExitStatus.success

        /// Changes the FILE `operand` (following it when it is a symlink) and, with `-R`, the
        /// tree below it.
        mutating func change(_ operand: Argument) {
            let file = context.resolve(operand)
            let spelled = operand.walkSpelling
            let info: FileInfo
            do {
                info = try operand.info(at: file, followSymlinks: true)
            } catch {
                let dangling =
                    error.errno == .noSuchFileOrDirectory
                    && (try? file.info(followSymlinks: false))?.kind == .symlink
                if !command.silent {
                    context.error(
                        dangling
                            ? "\(Messages.danglingSymlink) \(Quoting.always(spelled))"
                            : "\(Messages.cannotAccess) \(Quoting.always(spelled)): \(error.reason)")
                }
                if command.verbosity == .all {
                    context.stdout.line("\(Quoting.always(spelled)) \(Messages.couldNotBeAccessed)")
                }
                status = .failure
                return
            }
            if command.recursive && command.preservesRoot
                && RecursiveOperand.refusesRoot(info, of: file, spelled: spelled, in: context)
            {
                status = .failure
                return
            }
            apply(to: file, spelled: spelled, info: info)
            if command.recursive && info.kind == .directory { changeTree(below: file, spelled: spelled) }
        }

        /// Changes everything below the directory `root` (spelled `spelled`), parents before
        /// their children; a symlink found there is left as it is, and so is what it leads to.
        private mutating func changeTree(below root: File, spelled: [UInt8]) {
            RecursiveOperand.walk(
                below: root, spelled: spelled, in: context,
                visit: { entry, path in
                    if entry.kind == .symlink {
                        if command.verbosity == .all {
                            context.stdout.line(
                                "\(Messages.neitherSymlink) \(Quoting.always(path)) \(Messages.norReferent)")
                        }
                        return
                    }
                    do throws(FileError) {
                        apply(to: entry.file, spelled: path, info: try entry.file.info(followSymlinks: false))
                    } catch {
                        if !command.silent {
                            context.error("\(Messages.cannotAccess) \(Quoting.always(path)): \(error.reason)")
                        }
                        status = .failure
                    }
                },
                failed: { error in
                    if !command.silent { context.report(error, RecursiveOperand.phrase(for: error)) }
                    status = .failure
                })
        }

        /// Sets the mode of `file`, which `info` describes (not a symlink), and says so as asked.
        private mutating func apply(to file: File, spelled: [UInt8], info: FileInfo) {
            let isDirectory = info.kind == .directory
            let newMode = expression.applied(to: info.mode, isDirectory: isDirectory, umask: umask)
            var succeeded = true
            do {
                if !command.dryRun { try file.setPermissions(newMode) }
            } catch {
                succeeded = false
                if !command.silent {
                    context.error(
                        "\(Messages.changingPermissions) \(Quoting.always(spelled)): \(error.reason)")
                }
                status = .failure
            }
            if command.verbosity != .quiet {
                let changed =
                    succeeded && modeChanged(file, spelled: spelled, from: info.permissions, to: newMode)
                if changed || command.verbosity == .all {
                    describe(
                        spelled, from: info.permissions, to: newMode, succeeded: succeeded, changed: changed)
                }
            }
            if succeeded && command.warnsOfUmask {
                let expected = expression.applied(to: info.mode, isDirectory: isDirectory, umask: 0)
                if newMode & ~expected != 0 {
                    context.error(
                        "\(Quoting.ifNeeded(spelled)): \(Messages.newPermissionsAre) \(Self.letters(newMode)), "
                            + "\(Messages.not) \(Self.letters(expected))")
                    status = .failure
                }
            }
        }

        /// Whether the mode bits of `file` differ from `oldMode` now; a mode with set-id or sticky
        /// bits is read back, as the kernel may have dropped them.
        private func modeChanged(_ file: File, spelled: [UInt8], from oldMode: UInt32, to newMode: UInt32)
            -> Bool
        {
            var actual = newMode
            if newMode & 0o7000 != 0 && !command.dryRun {
                do {
                    actual = try file.info(followSymlinks: true).permissions
                } catch {
                    if !command.silent {
                        context.error(
                            "\(Messages.gettingNewAttributes) \(Quoting.always(spelled)): \(error.reason)")
                    }
                    return false
                }
            }
            return oldMode != actual
        }

        /// The `-v`/`-c` line for one file.
        private func describe(
            _ spelled: [UInt8], from oldMode: UInt32, to newMode: UInt32, succeeded: Bool, changed: Bool
        ) {
            let name = Quoting.always(spelled)
            let old = "\(Self.octal(oldMode)) (\(Self.letters(oldMode)))"
            let new = "\(Self.octal(newMode)) (\(Self.letters(newMode)))"
            if !succeeded {
                context.stdout.line(
                    "\(Messages.failedToChange) \(name) \(Messages.from) \(old) \(Messages.to) \(new)")
            } else if changed {
                context.stdout.line(
                    "\(Messages.modeOf) \(name) \(Messages.changedFrom) \(old) \(Messages.to) \(new)")
            } else {
                context.stdout.line("\(Messages.modeOf) \(name) \(Messages.retainedAs) \(new)")
            }
        }

        /// Four octal digits, as `%04o`.
        private static func octal(_ mode: UInt32) -> String {
            let digits = String(mode & 0o7777, radix: 8)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }

        /// The nine letters of `ls -l` after the type (`rwxr-sr-x`).
        private static func letters(_ mode: UInt32) -> String {
            String(FileFormat.modeString(mode).dropFirst())
        }
    }

    private enum Messages {
        static let missingOperand = "missing operand"
        static let missingOperandAfter = "missing operand after"
        static let invalidMode = "invalid mode:"
        static let modeAndReference = "cannot combine mode and --reference options"
        static let cannotGetAttributes = "failed to get attributes of"
        static let cannotAccess = "cannot access"
        static let danglingSymlink = "cannot operate on dangling symlink"
        static let couldNotBeAccessed = "could not be accessed"
        static let changingPermissions = "changing permissions of"
        static let gettingNewAttributes = "getting new attributes of"
        static let neitherSymlink = "neither symbolic link"
        static let norReferent = "nor referent has been changed"
        static let modeOf = "mode of"
        static let changedFrom = "changed from"
        static let retainedAs = "retained as"
        static let failedToChange = "failed to change mode of"
        static let from = "from"
        static let to = "to"
        static let newPermissionsAre = "new permissions are"
        static let not = "not"
    }
}
