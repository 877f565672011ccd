import PathModel

/// `rm [-rfiIdv] [--interactive[=WHEN]] [--dry-run] [--one-file-system] [--preserve-root[=all] | --no-preserve-root] FILE...`:
/// remove files, and with `-r` directory trees, never following a symlink.
public struct RmCommand: ShellCommand {
    public static let name = "rm"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Remove (unlink) the FILE(s); with -r, directories and everything in them."
    public static let synopsis =
        "[-rfiIdv] [--interactive[=WHEN]] [--dry-run] [--one-file-system] [--preserve-root[=all] | --no-preserve-root] FILE..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case dir, dryRun, force, interactive, interactiveOnce, interactiveWhen, noPreserveRoot, oneFileSystem
        case preserveRoot, recursive, verbose
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("d", "dir", key: .dir, help: "remove empty directories"),
        OptionSpec(
            nil, "dry-run", key: .dryRun, help: "print what would be removed, as -v does, and remove nothing"),
        OptionSpec("f", "force", key: .force, help: "ignore nonexistent files and arguments, never prompt"),
        OptionSpec("i", nil, key: .interactive, help: "prompt before every removal"),
        OptionSpec(
            "I", nil, key: .interactiveOnce,
            help: "prompt once before removing more than three files, or when removing recursively"),
        OptionSpec(
            nil, "interactive", value: .optional, valueName: "WHEN", key: .interactiveWhen,
            help: "prompt according to WHEN: never, once (-I), or always (-i, the default WHEN)"),
        OptionSpec(
            nil, "one-file-system", key: .oneFileSystem,
            help: "when removing recursively, skip directories on another file system than their operand"),
        OptionSpec(
            nil, "no-preserve-root", key: .noPreserveRoot,
            help: "do not treat '/' specially (never abbreviated)"),
        OptionSpec(
            nil, "preserve-root", value: .optional, valueName: "all", key: .preserveRoot,
            help:
                "do not remove '/' (the default); with 'all', no operand on another file system than its parent"
        ),
        OptionSpec("R", nil, key: .recursive, help: "remove directories and their contents recursively"),
        OptionSpec(
            "r", "recursive", key: .recursive, help: "remove directories and their contents recursively"),
        OptionSpec("v", "verbose", key: .verbose, help: "explain what is being done"),
    ]

    /// When to ask before removing.
    public enum Prompt: Sendable, Hashable {
        /// Never (`-f`).
        case never
        /// For a write-protected file, when there is a terminal to ask (the default).
        case writeProtected
        /// Before every removal (`-i`).
        case always
    }

    /// Remove directories and everything in them.
    public var recursive: Bool
    /// Remove empty directories (`-d`).
    public var emptyDirectories: Bool
    /// Say nothing about operands that do not exist (`-f`, unless a later `-i` overrides it).
    public var ignoreMissing: Bool
    /// When to ask; the last of -f and -i wins.
    public var prompt: Prompt
    /// Ask once, before anything is removed, when removing recursively or more than three
    /// operands (`-I`).
    public var asksOnce: Bool
    /// Refuse to remove the root directory recursively (`--preserve-root`, the default), unless
    /// a later `--no-preserve-root` says otherwise.
    public var preservesRoot: Bool
    /// Refuse an operand on another file system than its parent (`--preserve-root=all`, which a
    /// later `--no-preserve-root` does not undo, as in GNU rm).
    public var preservesMountPoints: Bool
    /// Leave directories on another file system than their operand (`--one-file-system`).
    public var staysOnOneFileSystem: Bool
    /// Print `removed 'x'` for each entry removed.
    public var verbose: Bool
    /// Say what would be removed, and remove nothing (`--dry-run`).
    public var dryRun: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        recursive = arguments.has(.recursive)
        emptyDirectories = arguments.has(.dir)
        ignoreMissing = false
        prompt = .writeProtected
        asksOnce = false
        // GNU reads these in order; `--interactive=never` leaves -f's silence as it was.
        for (key, value) in arguments.options {
            switch key {
            case .force: (ignoreMissing, prompt, asksOnce) = (true, .never, false)
            case .interactive: (ignoreMissing, prompt, asksOnce) = (false, .always, false)
            case .interactiveOnce: (ignoreMissing, prompt, asksOnce) = (false, .writeProtected, true)
            case .interactiveWhen:
                switch try Self.whenChoice.value(of: value ?? Array("always".utf8)) {
                case .never: (prompt, asksOnce) = (.never, false)
                case .once: (ignoreMissing, prompt, asksOnce) = (false, .writeProtected, true)
                case .always: (ignoreMissing, prompt, asksOnce) = (false, .always, false)
                }
            default: break
            }
        }
        preservesRoot = arguments.last(of: [.noPreserveRoot, .preserveRoot]) != .noPreserveRoot
        preservesMountPoints = false
        for (key, value) in arguments.options where key == .preserveRoot {
            guard let value else { continue }
            guard value == Array("all".utf8) else {
                throw .invalid("\(Messages.unrecognizedPreserveRoot) \(Quoting.always(value))")
            }
            preservesMountPoints = true
        }
        staysOnOneFileSystem = arguments.has(.oneFileSystem)
        verbose = arguments.has(.verbose)
        dryRun = arguments.has(.dryRun)
        operands = arguments.operands
    }

    /// When `--interactive=WHEN` asks.
    private enum When: Sendable, Equatable {
        case never, once, always
    }

    /// The words of `--interactive=WHEN`, with GNU's synonyms.
    private static let whenChoice = ArgumentChoice<When>(
        option: "--interactive",
        [("never", .never), ("no", .never), ("none", .never), ("once", .once), ("always", .always), ("yes", .always)])

    /// Parses with the option table, refusing `--no-preserve-root` abbreviated, as GNU rm does:
    /// that option must be meant.
    /// - Throws: `UsageError` with GNU's wording.
    public static func parse(_ arguments: [Argument]) throws(UsageError) -> RmCommand {
        let full = Array("--no-preserve-root".utf8)
        for argument in arguments {
            if argument.bytes == [0x2D, 0x2D] { break }
            if argument.fromGlob || argument.pattern != nil { continue }
            if argument.bytes.count >= 3, argument.bytes.count < full.count, full.starts(with: argument.bytes)
            {
                throw .invalid(Messages.noAbbreviation)
            }
        }
        return try RmCommand(OptionParser.parse(arguments, specs: options, acceptsHelp: true))
    }

    /// GNU rm's hint when an argument that was read as options names an existing file:
    /// `Try 'rm ./-foo' to remove the file '-foo'.` (the first such argument).
    public static func usageHint(for arguments: [Argument], in state: ShellState) -> String? {
        for argument in arguments where argument.bytes.count > 1 && argument.bytes.first == 0x2D {
            guard (try? state.resolve(argument.file).info(followSymlinks: false)) != nil else { continue }
            let path = "./" + Quoting.ifNeeded(argument.bytes)
            return
                "\(Messages.tryDotSlash) '\(name) \(path)' \(Messages.toRemoveTheFile) \(Quoting.always(argument.bytes))."
        }
        return nil
    }

    public func run(in context: CommandContext) -> ExitStatus {
        guard !operands.isEmpty else {
            if ignoreMissing { return .success }
            context.error(Messages.missingOperand)
            context.stderr.line("Try 'help rm' for more information.")
            return .usage
        }
        let confirmation = Confirmation(context)
        if asksOnce && (recursive || operands.count > 3) {
            let count = operands.count
            let arguments = count == 1 ? Messages.argument : Messages.arguments
            let question =
                "\(Messages.remove) \(count) \(arguments)\(recursive ? " " + Messages.recursively : "")? "
            guard confirmation.ask(question, declining: "\(Messages.notRemoving) \(count) \(arguments)")
            else {
                return .success
            }
        }
        var status = ExitStatus.success
        // In a dry run, the paths (normalized) of what earlier operands would have removed.
        var removedEarlier: Set<[UInt8]> = []
        for operand in operands {
            if context.isCancelled { return .interrupted }
            if !remove(operand, removedEarlier: &removedEarlier, confirmation: confirmation, context: context) {
                status = .failure
            }
            if context.isCancelled { return .interrupted }
        }
        return status
    }

    /// Removes one operand; returns false when something failed (already reported).
    private func remove(
        _ operand: Argument, removedEarlier: inout Set<[UInt8]>, confirmation: Confirmation, context: CommandContext
    ) -> Bool {
        let spelled = operand.walkSpelling
        let quoted = Quoting.always(spelled)
        let target = context.resolve(operand)
        func fail(_ error: FileError) -> Bool {
            context.error("\(Messages.cannotRemove) \(quoted): \(error.reason)")
            return false
        }
        if recursive && !operand.bytes.isEmpty && isDotOrDotDot(operand.file.nameBytes) {
            context.error("\(Messages.refusingDot) \(quoted)")
            return false
        }
        if recursive && preservesRoot && isRootDirectory(target, operand: operand) {
            context.error(
                "\(Messages.dangerous) \(quoted)" + (spelled == [0x2F] ? "" : " \(Messages.sameAsRoot)"))
            context.error(Messages.failsafe)
            return false
        }
        let info: FileInfo
        do throws(FileError) {
            if operand.bytes.isEmpty || isRemovedEarlier(target, removedEarlier) {
                throw FileError(.stat, target, .noSuchFileOrDirectory)
            }
            info = try target.info()
        } catch {
            let missing = error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory
            return missing && ignoreMissing ? true : fail(error)
        }
        if operand.hasTrailingSlash && info.kind != .directory {
            // `x/` asks for a directory. A symlink to one is refused rather than followed: the
            // directory behind it is not rm's to empty.
            let behind: FileKind?
            do { behind = try target.info(followSymlinks: true).kind } catch { behind = nil }
            if behind == .directory {
                // Worded as GNU's rmdir(2) of `link/` words it, without its emptying the directory first.
                if !recursive && !emptyDirectories { return fail(FileError(.remove, target, .isDirectory)) }
                let full = !recursive && !target.isEmptyDirectory
                return fail(FileError(.remove, target, full ? .directoryNotEmpty : .notDirectory))
            }
            return ignoreMissing ? true : fail(FileError(.remove, target, .notDirectory))
        }
        if info.kind == .directory && !recursive {
            guard emptyDirectories else { return fail(FileError(.remove, target, .isDirectory)) }
            guard
                confirm(
                    .remove(target, .directory), spelled: quoted, confirmation: confirmation, context: context
                )
            else {
                return true
            }
            do throws(FileError) {
                if !dryRun {
                    try target.removeEmptyDirectory()
                } else if try target.entries().contains(where: {
                    !removedEarlier.contains((target + File(bytes: $0.name)).normalized.bytes)
                }) {
                    throw FileError(.removeDirectory, target, .directoryNotEmpty)
                }
            } catch {
                return fail(error)
            }
            if dryRun { removedEarlier.insert(target.normalized.bytes) }
            if verbose || dryRun { context.stdout.line("\(Messages.removedDirectory) \(quoted)") }
            return true
        }
        if recursive && preservesMountPoints && info.kind == .directory, isMountPoint(target) {
            context.error("\(Messages.skipping) \(quoted)\(Messages.onAnotherDevice)")
            context.error(Messages.preserveRootAll)
            return false
        }
        var spelling = Spelling()
        spelling.add(target, as: spelled)
        var everything = true
        let topDevice = staysOnOneFileSystem ? info.identity.device : nil
        let asks = mayAsk(context)
        let progress = ProgressLine(context)
        defer { progress?.erase() }
        // Under -f an entry that another process removed first is no failure, as in GNU rm.
        // Without questions, each directory's files go together (one request on object storage).
        target.removeTree(
            ignoringVanished: ignoreMissing, inBatches: !asks, rehearsing: dryRun,
            confirm: { step in
                if context.isCancelled { return false }
                if let topDevice, case .descend(let directory) = step,
                    let device = try? directory.info().identity.device, device != topDevice
                {
                    progress?.erase()
                    context.error(
                        "\(Messages.skipping) \(spelling.quoted(directory))\(Messages.onAnotherDevice)")
                    everything = false
                    return false
                }
                // A dry run has already counted what an earlier operand removed: no question.
                if dryRun && removedEarlier.contains(step.file.normalized.bytes) { return true }
                guard asks else { return true }
                progress?.erase()
                return confirm(
                    step, spelled: spelling.quoted(step.file), confirmation: confirmation, context: context)
            },
            removed: { file, kind in
                progress?.add(files: 1)
                // Said once, for the first operand that would remove it.
                if dryRun && !removedEarlier.insert(file.normalized.bytes).inserted { return }
                guard verbose || dryRun else { return }
                progress?.erase()
                context.stdout.line(
                    "\(kind == .directory ? Messages.removedDirectory : Messages.removed) \(spelling.quoted(file))"
                )
            },
            failed: { error in
                progress?.erase()
                everything = false
                context.error("\(Messages.cannotRemove) \(spelling.quoted(error.path)): \(error.reason)")
            })
        return everything
    }

    /// Whether a dry run has taken `file` away already, itself or a directory above it.
    private func isRemovedEarlier(_ file: File, _ removedEarlier: Set<[UInt8]>) -> Bool {
        guard !removedEarlier.isEmpty else { return false }
        var cursor = file.normalized
        while true {
            if removedEarlier.contains(cursor.bytes) { return true }
            if cursor.isRoot || cursor.depth == 0 { return false }
            cursor = cursor.parent
        }
    }

    /// Whether the user agrees to `step`: always without asking under -f; asked for every step
    /// under -i; by default asked only for a write-protected file, and only when standard input is
    /// a terminal (so a script fed on standard input checks no file's write access).
    private func confirm(
        _ step: RemovalStep, spelled quoting: @autoclosure () -> String, confirmation: Confirmation,
        context: CommandContext
    ) -> Bool {
        guard mayAsk(context) else { return true }
        switch step {
        case .descend(let directory):
            // An empty directory is not descended into: GNU asks only whether to remove it.
            guard prompt == .always, !directory.isEmptyDirectory else { return true }
            let spelled = quoting()
            let question =
                "\(Messages.descend) \(writeProtection(directory))\(Messages.directory) \(spelled)? "
            return confirmation.ask(question, declining: "\(Messages.notRemoving) \(spelled)")
        case .remove(let file, let kind):
            let protection = kind == .symlink ? "" : writeProtection(file)
            if prompt == .writeProtected && protection.isEmpty { return true }
            let spelled = quoting()
            let question = "\(Messages.remove) \(protection)\(describe(file, kind)) \(spelled)? "
            guard prompt == .always else {
                // As GNU rm without -i: asked only when someone can answer; otherwise removed.
                return context.ask(question) ?? true
            }
            return confirmation.ask(question, declining: "\(Messages.notRemoving) \(spelled)")
        }
    }

    /// Whether any step may be asked about; when not, every step goes ahead unexamined.
    private func mayAsk(_ context: CommandContext) -> Bool {
        let canAskAboutProtection = context.state.asker != nil && context.state.standardInputIsTerminal
        return prompt == .always || (prompt == .writeProtected && canAskAboutProtection)
    }

    /// `write-protected ` when the user may not write to `file`, else nothing.
    private func writeProtection(_ file: File) -> String {
        do {
            try file.checkWritable()
            return ""
        } catch {
            return error.errno == .permissionDenied ? Messages.writeProtected : ""
        }
    }

    /// GNU's name for the type of a file in questions: `regular empty file`, `symbolic link`…
    private func describe(_ file: File, _ kind: FileKind) -> String {
        switch kind {
        case .regular:
            do {
                return try file.info().size == 0 ? Messages.regularEmptyFile : Messages.regularFile
            } catch {
                return Messages.regularFile  // Gone meanwhile: the removal itself will say so.
            }
        case .directory: return Messages.directory
        case .symlink: return Messages.symlink
        case .fifo: return Messages.fifo
        case .socket: return Messages.socket
        case .characterDevice: return Messages.characterDevice
        case .blockDevice: return Messages.blockDevice
        case .unknown: return Messages.weirdFile
        }
    }

    /// Whether the directory `target` is on another file system than the directory above it
    /// (`target/..`), as `--preserve-root=all` asks.
    private func isMountPoint(_ target: File) -> Bool {
        do {
            let above = try (target + "..").info(followSymlinks: true).identity.device
            return try target.info(followSymlinks: true).identity.device != above
        } catch {
            return false  // Not examinable: the removal itself will say why.
        }
    }

    /// Whether `target` is the root directory, by (device, inode), whatever its spelling.
    private func isRootDirectory(_ target: File, operand: Argument) -> Bool {
        if target.normalized.isRoot { return true }
        do {
            let root = try File.root.on(target.volume).info(followSymlinks: true).identity
            return try target.info(followSymlinks: operand.hasTrailingSlash).identity == root
        } catch {
            return false  // Not there, or not examinable: then it is not the root, which is.
        }
    }

    private enum Messages {
        static let missingOperand = "missing operand"
        static let tryDotSlash = "Try"
        static let toRemoveTheFile = "to remove the file"
        static let cannotRemove = "cannot remove"
        static let refusingDot = "refusing to remove '.' or '..' directory: skipping"
        static let dangerous = "it is dangerous to operate recursively on"
        static let sameAsRoot = "(same as '/')"
        static let failsafe = "use --no-preserve-root to override this failsafe"
        static let removed = "removed"
        static let removedDirectory = "removed directory"
        static let descend = "descend into"
        static let remove = "remove"
        static let notRemoving = "not removing"
        static let writeProtected = "write-protected "
        static let regularEmptyFile = "regular empty file"
        static let regularFile = "regular file"
        static let directory = "directory"
        static let symlink = "symbolic link"
        static let fifo = "fifo"
        static let socket = "socket"
        static let characterDevice = "character special file"
        static let blockDevice = "block special file"
        static let weirdFile = "weird file"
        static let argument = "argument"
        static let arguments = "arguments"
        static let recursively = "recursively"
        static let skipping = "skipping"
        static let onAnotherDevice = ", since it's on a different device"
        static let preserveRootAll = "and --preserve-root=all is in effect"
        static let unrecognizedPreserveRoot = "unrecognized --preserve-root argument:"
        static let noAbbreviation = "you may not abbreviate the --no-preserve-root option"
    }
}

extension RemovalStep {
    /// The path the step is about.
    var file: File {
        switch self {
        case .descend(let file), .remove(let file, _): return file
        }
    }
}

/// Whether a name is `.` or `..`.
private func isDotOrDotDot(_ name: ArraySlice<UInt8>) -> Bool {
    name.elementsEqual([0x2E]) || name.elementsEqual([0x2E, 0x2E])
}
