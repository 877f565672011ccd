import PathModel

/// `cp [-rfinpuv] SOURCE... DEST`: copy files and directory trees.
public struct CpCommand: ShellCommand {
    public static let name = "cp"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Copy SOURCE to DEST, or several SOURCEs into the directory DEST."
    public static let synopsis = "[-rfinpuv] SOURCE... DEST"
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case force, interactive, noClobber, preserve, recursive, update, verbose
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            "f", "force", key: .force,
            help: "if an existing destination file cannot be opened, remove it and try again"),
        OptionSpec(
            "i", "interactive", key: .interactive,
            help: "prompt before overwrite (overrides a previous -n option)"),
        OptionSpec(
            "n", "no-clobber", key: .noClobber,
            help: "do not overwrite an existing file (overrides a previous -i option)"),
        OptionSpec("p", nil, key: .preserve, help: "preserve mode, ownership and timestamps"),
        OptionSpec("R", nil, key: .recursive, help: "copy directories recursively"),
        OptionSpec("r", "recursive", key: .recursive, help: "copy directories recursively"),
        OptionSpec(
            "u", "update", key: .update,
            help: "copy only when SOURCE is newer than the destination, or it is missing"),
        OptionSpec("v", "verbose", key: .verbose, help: "explain what is being done"),
    ]

    /// What happens to an existing destination file.
    public enum Clobber: Sendable, Hashable {
        /// Replace it (the default).
        case replace
        /// Ask first (`-i`).
        case ask
        /// Keep it (`-n`).
        case keep
    }

    /// Copy directories and everything in them; symlinks inside are copied as symlinks.
    public var recursive: Bool
    /// Replace destinations the user may not write to.
    public var force: Bool
    /// The policy for existing destination files; the last of `-i` and `-n` wins.
    public var clobber: Clobber
    /// Keep mode, ownership and times.
    public var preserve: Bool
    /// Copy only onto missing or older destinations.
    public var update: Bool
    /// Print `'a' -> 'b'` for each file copied.
    public var verbose: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        recursive = arguments.has(.recursive)
        force = arguments.has(.force)
        switch arguments.last(of: [.interactive, .noClobber]) {
        case .interactive: clobber = .ask
        case .noClobber: clobber = .keep
        default: clobber = .replace
        }
        preserve = arguments.has(.preserve)
        update = arguments.has(.update)
        verbose = arguments.has(.verbose)
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        TransferOperands.run(operands, in: context) { item, session in
            copy(item, session: session, context: context)
        }
    }

    /// Copies one source; returns false when something failed (already reported).
    private func copy(
        _ item: TransferOperands.Item, session: TransferSession, context: CommandContext
    ) -> Bool {
        let source = Quoting.always(item.operand.bytes)
        let destination = Quoting.always(item.spelledDestination)
        // Without -r a symlink operand is followed; with it, only when written `link/`.
        let follow = !recursive || item.operand.hasTrailingSlash
        let info: FileInfo
        do {
            info = try item.operand.info(at: item.source, followSymlinks: follow)
        } catch {
            context.error("\(Messages.cannotStat) \(source): \(error.reason)")
            return false
        }
        if info.kind == .directory && !recursive {
            context.error("\(Messages.omitting) \(source)")
            return false
        }
        if session.plan.slashedNewDestination && info.kind != .directory {
            // `cp a x/`: the slash asks for a directory, and x is none.
            let phrase = item.destination.exists ? Messages.cannotStat : Messages.cannotCreateRegular
            context.error("\(phrase) \(destination): \(Diagnostics.reason(.notDirectory))")
            return false
        }
        if info.kind != .directory && session.wouldReplaceJustMade(item, context: context) { return false }
        let isNew = session.plan.items.count > 1 && !item.destination.exists

        let spelling = item.spelling
        var everything = true
        // With -f, the errors of a file's first attempt are held back: it may be tried again.
        let mayRetry = force && info.kind != .directory
        var heldBack: [TransferError] = []
        var copier = Copier(
            options: CopyOptions(
                recursive: recursive, overwrite: clobber == .keep ? .skip : update ? .ifNewer : .replace,
                preserve: preserve, followSourceSymlink: follow,
                specialFiles: recursive ? .recreate : .copyContents))
        copier.isCancelled = { context.isCancelled }
        let progress = ProgressLine(context, totalBytes: info.kind == .regular ? info.size : nil)
        defer { progress?.erase() }
        copier.transferred = { progress?.add(bytes: $0) }
        copier.confirmReplace = { _, target in
            progress?.erase()
            let name = spelling.quoted(target)
            if clobber == .ask,
                !session.confirmation.ask(
                    "\(Messages.overwrite) \(name)? ", declining: "\(Messages.notOverwriting) \(name)")
            {
                return false
            }
            return force || self.mayWrite(target, name: name, context: context, everything: &everything)
        }
        copier.copied = { from, to in
            progress?.add(files: 1)
            guard verbose else { return }
            progress?.erase()
            context.stdout.line("\(spelling.quoted(from)) -> \(spelling.quoted(to))")
        }
        copier.failed = { error in
            progress?.erase()
            everything = false
            if error.errno == .canceled { return }
            if mayRetry {
                heldBack.append(error)
            } else {
                context.error(CopyWording.describe(error, spelling: spelling))
            }
        }
        copier.copy(item.source, to: item.destination)
        if mayRetry && !everything && !context.isCancelled
            && heldBack.contains(where: { [.permissionDenied, .notPermitted].contains($0.errno) })
            && item.destination.exists
        {
            // -f: a destination that could not be replaced is removed, and the copy tried again.
            heldBack = []
            everything = true
            do {
                try item.destination.removeFile()
                copier.copy(item.source, to: item.destination)
            } catch {
                heldBack.append(.file(error))
                everything = false
            }
        }
        for error in heldBack { context.error(CopyWording.describe(error, spelling: spelling)) }
        if isNew && everything { session.made.insert(item.destination) }
        return everything
    }

    /// Whether an existing destination may be overwritten without -f: the user must be allowed
    /// to write to it, as when cp opens it for writing. A symlink is replaced or written
    /// through by the copy, so only a regular file is checked.
    private func mayWrite(_ target: File, name: String, context: CommandContext, everything: inout Bool)
        -> Bool
    {
        do {
            guard try target.info().kind == .regular else { return true }
            try target.checkWritable()
            return true
        } catch {
            context.error("\(Messages.cannotCreateRegular) \(name): \(error.reason)")
            everything = false
            return false
        }
    }

    private enum Messages {
        static let cannotStat = "cannot stat"
        static let omitting = "-r not specified; omitting directory"
        static let cannotCreateRegular = "cannot create regular file"
        static let overwrite = "overwrite"
        static let notOverwriting = "not overwriting"
    }
}
