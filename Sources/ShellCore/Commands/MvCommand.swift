import PathModel

/// `mv [-finvuT] [--dry-run] [-b | --backup[=CONTROL]] [-S SUFFIX] [-t DIR] SOURCE... DEST`: move or rename
/// files and directories.
public struct MvCommand: ShellCommand {
    public static let name = "mv"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Rename SOURCE to DEST, or move several SOURCEs into the directory DEST."
    public static let synopsis =
        "[-finvuT] [--dry-run] [-b | --backup[=CONTROL]] [-S SUFFIX] SOURCE... DEST | -t DIRECTORY SOURCE..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case backup, backupSimple, dryRun, force, interactive, noClobber, noTargetDirectory, suffix, targetDirectory
        case update, verbose
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            nil, "backup", value: .optional, valueName: "CONTROL", key: .backup,
            help: "make a backup of each existing destination file"),
        OptionSpec("b", nil, key: .backupSimple, help: "like --backup but does not accept an argument"),
        OptionSpec(
            nil, "dry-run", key: .dryRun, help: "print what would be renamed, as -v does, and move nothing"),
        OptionSpec("f", "force", key: .force, help: "do not prompt before overwriting"),
        OptionSpec("i", "interactive", key: .interactive, help: "prompt before overwrite"),
        OptionSpec("n", "no-clobber", key: .noClobber, help: "do not overwrite an existing file"),
        OptionSpec(
            "S", "suffix", value: .required, valueName: "SUFFIX", key: .suffix,
            help: "override the usual backup suffix"),
        OptionSpec(
            "t", "target-directory", value: .required, valueName: "DIRECTORY", key: .targetDirectory,
            help: "move all SOURCE arguments into DIRECTORY"),
        OptionSpec("T", "no-target-directory", key: .noTargetDirectory, help: "treat DEST as a normal file"),
        OptionSpec(
            "u", "update", key: .update,
            help:
                "move only when the SOURCE file is newer than the destination file or when the destination is missing"
        ),
        OptionSpec("v", "verbose", key: .verbose, help: "explain what is being done"),
    ]

    /// Move onto an existing destination: replace it, ask, or keep it; the last of -f, -i, -n wins.
    public var clobber: CpCommand.Clobber
    /// Keep each destination replaced under a backup name (`-b`, `--backup`, `-S`).
    var backup: Backup?
    /// Where the sources go: DEST, into DIRECTORY (`-t`), or onto DEST itself (`-T`).
    var target: TransferOperands.Target
    /// Leave a destination that is not older than its source (`-u`).
    public var update: Bool
    /// Print `renamed 'a' -> 'b'` for each move.
    public var verbose: Bool
    /// Say what would be moved, and move nothing (`--dry-run`).
    public var dryRun: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        switch arguments.last(of: [.force, .interactive, .noClobber]) {
        case .interactive: clobber = .ask
        case .noClobber: clobber = .keep
        default: clobber = .replace
        }
        backup = try Backup.parse(
            requested: !Set(arguments.options.map(\.key)).isDisjoint(with: [.backup, .backupSimple, .suffix]),
            control: arguments.bytes(.backup), suffix: arguments.bytes(.suffix))
        if backup != nil && clobber == .keep { throw .invalid(Messages.backupAndNoClobber) }
        target = try .chosen(
            directory: arguments.bytes(.targetDirectory), itself: arguments.has(.noTargetDirectory),
            conflict: Messages.targetAndNoTarget)
        update = arguments.has(.update)
        verbose = arguments.has(.verbose)
        dryRun = arguments.has(.dryRun)
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        let backup: Backup?
        do {
            backup = try self.backup?.resolved(in: context.state.environment)
        } catch {
            guard case .invalid(let message) = error else { return .usage }
            return context.usageError(message)
        }
        // In a dry run, the sources earlier operands would have moved away.
        var moved: Set<File> = []
        return TransferOperands.run(operands, target: target, in: context) { item, session in
            move(item, backup: backup, moved: &moved, session: session, context: context)
        }
    }

    /// Moves one source; returns false when something failed (already reported).
    private func move(
        _ item: TransferOperands.Item, backup: Backup?, moved: inout Set<File>, session: TransferSession,
        context: CommandContext
    ) -> Bool {
        let source = Quoting.always(item.operand.bytes)
        let destination = Quoting.always(item.spelledDestination)
        if dryRun, moved.contains(where: { $0 == item.source || item.source.bytes.starts(with: $0.bytes + [0x2F]) }) {
            context.error("\(Messages.cannotStat) \(source): \(Diagnostics.reason(.noSuchFileOrDirectory))")
            return false
        }
        let info: FileInfo
        do {
            info = try item.operand.info(at: item.source, followSymlinks: false)
            if item.operand.hasTrailingSlash, item.source.isSymlink {
                // `link/` names the directory behind the link, which rename(2) does not move.
                let reason = Diagnostics.reason(.notDirectory)
                context.error("\(Messages.cannotMove) \(source) \(Messages.to) \(destination): \(reason)")
                return false
            }
        } catch {
            context.error("\(Messages.cannotStat) \(source): \(error.reason)")
            return false
        }
        if let unreachable = session.plan.unreachableTarget {
            // Asked once already: the move would only wait to be told again.
            context.error("\(Messages.cannotStat) \(destination): \(unreachable.reason)")
            return false
        }
        if session.plan.slashedNewDestination && info.kind != .directory {
            // `mv a x/`: the slash asks for a directory, and only a directory is moved to one.
            let reason = session.plan.slashedDestinationReason
            let phrase =
                item.destination.exists
                ? Messages.cannotStat : "\(Messages.cannotMove) \(source) \(Messages.to)"
            context.error("\(phrase) \(destination): \(reason)")
            return false
        }
        var existing: FileInfo?
        do {
            existing = try item.destination.info()
        } catch  where error.errno == .noSuchFileOrDirectory {
            existing = nil
        } catch {
            context.error("\(Messages.cannotStat) \(destination): \(error.reason)")
            return false
        }
        if update, let existing, existing.modificationTime >= info.modificationTime { return true }
        let spelling = item.spelling
        if let conflict = TransferConflict.between(item.source, info, item.destination, existing: existing) {
            context.error(Diagnostics.render(conflict, moving: true, quoted: spelling.quoted))
            return false
        }
        if existing != nil {
            switch clobber {
            case .keep: return true
            case .ask:
                let question = "\(Messages.overwrite) \(destination)? "
                if !session.confirmation.ask(question, declining: "\(Messages.notOverwriting) \(destination)")
                {
                    return true
                }
            case .replace: break
            }
        }
        if info.kind == .directory {
            do {
                if let conflict = try TransferConflict.intoItself(item.source, item.destination) {
                    context.error(Diagnostics.render(conflict, moving: true, quoted: spelling.quoted))
                    return false
                }
            } catch {
                context.error("\(Messages.cannotStat) \(destination): \(error.reason)")
                return false
            }
        }
        if info.kind != .directory && session.wouldReplaceJustMade(item, context: context) { return false }
        if dryRun {
            return sayMove(item, info: info, existing: existing, backup: backup, moved: &moved, session: session, context: context)
        }
        var backupNote = ""
        if let backup, existing != nil, item.source != item.destination {
            do {
                let kept = try backup.path(for: item.destination)
                try item.destination.moveByRenaming(to: kept, replacing: true)
                let suffix = kept.nameBytes.dropFirst(item.destination.nameBytes.count)
                backupNote = " (\(Messages.backup): \(Quoting.always(item.spelledDestination + suffix)))"
                existing = nil
            } catch {
                context.error("\(Messages.cannotBackUp) \(destination): \(error.reason)")
                return false
            }
        }
        do {
            try item.source.moveByRenaming(to: item.destination, replacing: clobber != .keep)
        } catch  where error.errno == .improperLink {
            guard moveAcrossFileSystems(item, info: info, existing: existing, context: context) else {
                return false
            }
            session.made.insert(item.destination)
            return true
        } catch  where error.errno == .fileExists && clobber == .keep {
            return true  // Made by someone else since it was looked for: -n keeps it.
        } catch {
            // rename(2) may say EEXIST for a directory that is not empty; GNU words both alike.
            let reason = error.errno == .fileExists ? Diagnostics.reason(.directoryNotEmpty) : error.reason
            context.error("\(Messages.cannotMove) \(source) \(Messages.to) \(destination): \(reason)")
            return false
        }
        if existing == nil { session.made.insert(item.destination) }
        if verbose { context.stdout.line("\(Messages.renamed) \(source) -> \(destination)\(backupNote)") }
        return true
    }

    /// What a dry run says of a move that got past every check made before the rename: the
    /// `-v` line (with the backup the destination would get), or what rename(2) would refuse, a
    /// directory over one that holds something.
    private func sayMove(
        _ item: TransferOperands.Item, info: FileInfo, existing: FileInfo?, backup: Backup?,
        moved: inout Set<File>, session: TransferSession, context: CommandContext
    ) -> Bool {
        let spelling = item.spelling
        if info.kind == .directory, existing?.kind == .directory, !item.destination.isEmptyDirectory {
            let reason = Diagnostics.reason(.directoryNotEmpty)
            context.error(
                "\(Messages.cannotMove) \(spelling.quoted(item.source)) \(Messages.to) \(spelling.quoted(item.destination)): \(reason)"
            )
            return false
        }
        var backupNote = ""
        if let backup, existing != nil, item.source != item.destination {
            do {
                let kept = try backup.path(for: item.destination)
                let suffix = kept.nameBytes.dropFirst(item.destination.nameBytes.count)
                backupNote = " (\(Messages.backup): \(Quoting.always(item.spelledDestination + suffix)))"
            } catch {
                context.error("\(Messages.cannotBackUp) \(Quoting.always(item.spelledDestination)): \(error.reason)")
                return false
            }
        }
        context.stdout.line(
            "\(Messages.renamed) \(Quoting.always(item.operand.bytes)) -> \(Quoting.always(item.spelledDestination))\(backupNote)")
        moved.insert(item.source)
        if existing == nil { session.made.insert(item.destination) }
        return true
    }

    /// Moves to another file system: copies the tree (synced), and only when all of it was copied
    /// removes the source. When the copy fails or is interrupted, the source stays and a
    /// destination that did not exist before is removed again.
    private func moveAcrossFileSystems(
        _ item: TransferOperands.Item, info: FileInfo, existing: FileInfo?, context: CommandContext
    ) -> Bool {
        let spelling = item.spelling
        if let existing, existing.kind == .directory, !item.destination.isEmptyDirectory {
            let reason = Diagnostics.reason(.directoryNotEmpty)
            context.error(
                "\(Messages.cannotMove) \(spelling.quoted(item.source)) \(Messages.to) \(spelling.quoted(item.destination)): \(reason)"
            )
            return false
        }
        let progress = ProgressLine(context, totalBytes: info.kind == .regular ? info.size : nil)
        defer { progress?.erase() }
        let report = { (error: TransferError) in
            progress?.erase()
            if !context.isStopping(error) { context.error(CopyWording.describe(error, spelling: spelling)) }
        }
        var copier = Copier(
            options: CopyOptions(
                recursive: true, overwrite: .replace, preserve: .standard, sync: true, destinations: .replace))
        copier.isCancelled = { context.isCancelled }
        copier.transferred = { progress?.add(bytes: $0) }
        copier.failed = report
        copier.copied = { from, to in
            progress?.add(files: 1)
            guard verbose else { return }
            progress?.erase()
            if from == item.source ? info.kind == .directory : to.isDirectory && !to.isSymlink {
                context.stdout.line("\(Messages.createdDirectory) \(spelling.quoted(to))")
            } else {
                context.stdout.line("\(Messages.copied) \(spelling.quoted(from)) -> \(spelling.quoted(to))")
            }
        }
        if !copier.copy(item.source, to: item.destination) || context.isCancelled {
            if existing == nil {
                item.destination.removeTree(inBatches: true, failed: {
                    if $0.errno != .noSuchFileOrDirectory { report(.file($0)) }
                })
            }
            return false
        }
        return item.source.removeTree(
            inBatches: true,
            removed: { file, kind in
                guard verbose else { return }
                let what = kind == .directory ? Messages.removedDirectory : Messages.removed
                context.stdout.line("\(what) \(spelling.quoted(file))")
            },
            failed: { context.error(Diagnostics.render(spelling.respell($0), phrase: Messages.cannotRemove)) }
        )
    }

    private enum Messages {
        static let cannotStat = "cannot stat"
        static let cannotMove = "cannot move"
        static let to = "to"
        static let overwrite = "overwrite"
        static let notOverwriting = "not overwriting"
        static let renamed = "renamed"
        static let copied = "copied"
        static let createdDirectory = "created directory"
        static let removed = "removed"
        static let removedDirectory = "removed directory"
        static let cannotRemove = "cannot remove"
        static let backup = "backup"
        static let cannotBackUp = "cannot backup"
        static let backupAndNoClobber = "options --backup and --no-clobber are mutually exclusive"
        static let targetAndNoTarget = "cannot combine --target-directory (-t) and --no-target-directory (-T)"
    }
}
