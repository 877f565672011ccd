import PathModel

/// `rm [-rfidv] FILE...`: remove files, and with `-r` directory trees, never following a symlink.
public struct RmCommand: ShellCommand {
    public static let name = "rm"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Remove (unlink) the FILE(s); with -r, directories and everything in them."
    public static let synopsis = "[-rfidv] FILE..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case dir, force, interactive, recursive, verbose
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("d", "dir", key: .dir, help: "remove empty directories"),
        OptionSpec("f", "force", key: .force, help: "ignore nonexistent files and arguments, never prompt"),
        OptionSpec("i", "interactive", key: .interactive, help: "prompt before every removal"),
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
    /// Print `removed 'x'` for each entry removed.
    public var verbose: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        recursive = arguments.has(.recursive)
        emptyDirectories = arguments.has(.dir)
        let last = arguments.last(of: [.force, .interactive])
        ignoreMissing = last == .force
        prompt = last == .interactive ? .always : last == .force ? .never : .writeProtected
        verbose = arguments.has(.verbose)
        operands = arguments.operands
    }

    /// GNU rm's hint when an argument that was read as options names an existing file:
    /// `Try 'rm ./-foo' to remove the file '-foo'.` (the first such argument).
    public static func usageHint(for arguments: [Argument], in state: ShellState) -> String? {
        for argument in arguments where argument.bytes.count > 1 && argument.bytes.first == 0x2D {
            guard (try? state.resolve(argument.file).info(followSymlinks: false)) != nil else { continue }
            let path = "./" + Quoting.ifNeeded(argument.bytes)
            return "\(Messages.tryDotSlash) '\(name) \(path)' \(Messages.toRemoveTheFile) \(Quoting.always(argument.bytes))."
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
        var status = ExitStatus.success
        for operand in operands {
            if context.isCancelled { return .interrupted }
            if !remove(operand, confirmation: confirmation, context: context) { status = .failure }
            if context.isCancelled { return .interrupted }
        }
        return status
    }

    /// Removes one operand; returns false when something failed (already reported).
    private func remove(_ operand: Argument, confirmation: Confirmation, context: CommandContext) -> Bool {
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
        if recursive && isRootDirectory(target, operand: operand) {
            context.error(
                "\(Messages.dangerous) \(quoted)" + (spelled == [0x2F] ? "" : " \(Messages.sameAsRoot)"))
            context.error(Messages.failsafe)
            return false
        }
        let info: FileInfo
        do throws(FileError) {
            if operand.bytes.isEmpty { throw FileError(.stat, target, .noSuchFileOrDirectory) }
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
            do {
                try target.removeEmptyDirectory()
            } catch {
                return fail(error)
            }
            if verbose { context.stdout.line("\(Messages.removedDirectory) \(quoted)") }
            return true
        }
        var spelling = Spelling()
        spelling.add(target, as: spelled)
        var everything = true
        let asks = mayAsk(context)
        let progress = ProgressLine(context)
        defer { progress?.erase() }
        // Under -f an entry that another process removed first is no failure, as in GNU rm.
        target.removeTree(
            ignoringVanished: ignoreMissing,
            confirm: { step in
                if context.isCancelled { return false }
                guard asks else { return true }
                progress?.erase()
                return confirm(
                    step, spelled: spelling.quoted(step.file), confirmation: confirmation, context: context)
            },
            removed: { file, kind in
                progress?.add(files: 1)
                guard verbose else { return }
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
