import PathModel

/// `cp [-adfHilLnPprsTuvx] [--dry-run] [-b | --backup[=CONTROL]] [-S SUFFIX] [--preserve[=LIST]] … SOURCE...
/// DEST`: copy files and directory trees.
public struct CpCommand: ShellCommand {
    public static let name = "cp"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Copy SOURCE to DEST, or several SOURCEs into the directory DEST."
    public static let synopsis =
        "[-adfHilLnPprsTuvx] [--dry-run] [-b | --backup[=CONTROL]] [-S SUFFIX] [--preserve[=LIST]] SOURCE... DEST | -t DIRECTORY SOURCE..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case archive, backup, backupSimple, commandLineSymlinks, dereference, dryRun, force, interactive, link
        case noClobber, noDereference, noDereferencePreserveLinks, noPreserve, noTargetDirectory
        case oneFileSystem, parents, preserve, preserveList, recursive, reflink, removeDestination, sparse, suffix
        case symbolicLink, targetDirectory, update, updateWhen, verbose
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("a", "archive", key: .archive, help: "same as -dR --preserve=all"),
        OptionSpec(
            nil, "backup", value: .optional, valueName: "CONTROL", key: .backup,
            help: "make a backup of each existing destination file"),
        OptionSpec("b", nil, key: .backupSimple, help: "like --backup but does not accept an argument"),
        OptionSpec("d", nil, key: .noDereferencePreserveLinks, help: "same as --no-dereference --preserve=links"),
        OptionSpec(
            nil, "dry-run", key: .dryRun, help: "print what would be copied, as -v does, and copy nothing"),
        OptionSpec(
            "f", "force", key: .force,
            help: "if an existing destination file cannot be opened, remove it and try again"),
        OptionSpec("H", nil, key: .commandLineSymlinks, help: "follow command-line symbolic links in SOURCE"),
        OptionSpec(
            "i", "interactive", key: .interactive,
            help: "prompt before overwrite (overrides a previous -n option)"),
        OptionSpec("l", "link", key: .link, help: "hard link files instead of copying"),
        OptionSpec("L", "dereference", key: .dereference, help: "always follow symbolic links in SOURCE"),
        OptionSpec(
            "n", "no-clobber", key: .noClobber,
            help: "do not overwrite an existing file (overrides a previous -i option)"),
        OptionSpec("P", "no-dereference", key: .noDereference, help: "never follow symbolic links in SOURCE"),
        OptionSpec("p", nil, key: .preserve, help: "same as --preserve=mode,ownership,timestamps"),
        OptionSpec(
            nil, "preserve", value: .optional, valueName: "ATTR_LIST", key: .preserveList,
            help: "preserve the attributes listed (default: mode,ownership,timestamps); also links, all"),
        OptionSpec(
            nil, "no-preserve", value: .required, valueName: "ATTR_LIST", key: .noPreserve,
            help: "don't preserve the attributes listed"),
        OptionSpec(nil, "parents", key: .parents, help: "use full source file name under DIRECTORY"),
        OptionSpec("R", nil, key: .recursive, help: "copy directories recursively"),
        OptionSpec("r", "recursive", key: .recursive, help: "copy directories recursively"),
        OptionSpec(
            nil, "reflink", value: .optional, valueName: "WHEN", key: .reflink,
            help: "share the source's data blocks: always (the default WHEN), auto, or never"),
        OptionSpec(
            nil, "remove-destination", key: .removeDestination,
            help: "remove each existing destination file before copying onto it (contrast with --force)"),
        OptionSpec(
            nil, "sparse", value: .required, valueName: "WHEN", key: .sparse,
            help: "which runs of zeros are left as holes: never, auto (the source's holes), always"),
        OptionSpec("s", "symbolic-link", key: .symbolicLink, help: "make symbolic links instead of copying"),
        OptionSpec(
            "S", "suffix", value: .required, valueName: "SUFFIX", key: .suffix,
            help: "override the usual backup suffix"),
        OptionSpec(
            "t", "target-directory", value: .required, valueName: "DIRECTORY", key: .targetDirectory,
            help: "copy all SOURCE arguments into DIRECTORY"),
        OptionSpec("T", "no-target-directory", key: .noTargetDirectory, help: "treat DEST as a normal file"),
        OptionSpec(
            "u", nil, key: .update,
            help: "copy only when SOURCE is newer than the destination, or it is missing"),
        OptionSpec(
            nil, "update", value: .optional, valueName: "UPDATE", key: .updateWhen,
            help: "which existing destinations to replace: all, none, or older (the default)"),
        OptionSpec("v", "verbose", key: .verbose, help: "explain what is being done"),
        OptionSpec("x", "one-file-system", key: .oneFileSystem, help: "stay on this file system"),
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

    /// Which symlinks among the sources are followed, their targets copied.
    public enum Dereference: Sendable, Hashable {
        /// None: symlinks are copied as symlinks (`-P`, and the default with `-r`).
        case never
        /// Those given as operands, not those inside a copied directory (`-H`).
        case commandLine
        /// Every one (`-L`, and the default without `-r`).
        case always
    }

    /// Copy directories and everything in them.
    public var recursive: Bool
    /// Replace destinations the user may not write to.
    public var force: Bool
    /// The policy for existing destination files; the last of `-i`, `-n` and `--update=none` wins.
    public var clobber: Clobber
    /// The attributes copies keep (`-p`, `--preserve`, `--no-preserve`, `-a`, `-d`).
    public var preserve: CopyOptions.Preserved
    /// New files get the default mode rather than the source's (`--no-preserve=mode`).
    public var defaultModes: Bool
    /// Which source symlinks are followed; nil for GNU's default (never with `-r` unless `-l`,
    /// else always).
    public var dereference: Dereference?
    /// Make hard links (`-l`) or symlinks (`-s`) instead of copies.
    public var linksInstead: File.LinkKind?
    /// Copy only onto missing or older destinations.
    public var update: Bool
    /// Remove an existing destination rather than writing through it (`--remove-destination`).
    public var removeDestination: Bool
    /// Keep each destination replaced under a backup name (`-b`, `--backup`, `-S`).
    var backup: Backup?
    /// Where the sources go: DEST, into DIRECTORY (`-t`), or onto DEST itself (`-T`).
    var target: TransferOperands.Target
    /// Copy each source to DIRECTORY followed by the source's path as written (`--parents`).
    public var parents: Bool
    /// Leave out the contents of directories on other file systems (`-x`).
    public var oneFileSystem: Bool
    /// Whether copies share the source's data blocks (`--reflink[=WHEN]`).
    public var reflink: CopyOptions.Reflink
    /// Which runs of zeros new files leave as holes (`--sparse=WHEN`).
    public var sparse: CopyOptions.Sparse
    /// Print `'a' -> 'b'` for each file copied.
    public var verbose: Bool
    /// Say what would be copied, and copy nothing (`--dry-run`).
    public var dryRun: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        recursive = false
        force = arguments.has(.force)
        clobber = .replace
        preserve = []
        defaultModes = false
        update = false
        // GNU reads these in order: a later option undoes what an earlier one set.
        for (key, value) in arguments.options {
            switch key {
            case .archive:
                recursive = true
                dereference = .never
                preserve = .all
                defaultModes = false
            case .noDereferencePreserveLinks:
                dereference = .never
                preserve.insert(.links)
            case .noDereference: dereference = .never
            case .commandLineSymlinks: dereference = .commandLine
            case .dereference: dereference = .always
            case .recursive: recursive = true
            case .interactive: clobber = .ask
            case .noClobber: clobber = .keep
            case .update: update = true
            case .updateWhen:
                switch try Self.updateChoice.value(of: value ?? Array("older".utf8)) {
                case .all: update = false
                case .none: clobber = .keep
                case .older: update = true
                }
            case .preserve:
                preserve.formUnion(.standard)
                defaultModes = false
            case .preserveList:
                let listed = try value.map { (list) throws(UsageError) in try Self.attributes(list, kept: true) }
                preserve.formUnion(listed ?? .standard)
                if preserve.contains(.mode) { defaultModes = false }
            case .noPreserve:
                let listed = try Self.attributes(value ?? [], kept: false)
                preserve.subtract(listed)
                if listed.contains(.mode) { defaultModes = true }
            case .link: linksInstead = .hard
            case .symbolicLink: linksInstead = .symbolic
            default: break
            }
        }
        removeDestination = arguments.has(.removeDestination)
        backup = try Backup.parse(
            requested: !Set(arguments.options.map(\.key)).isDisjoint(with: [.backup, .backupSimple, .suffix]),
            control: arguments.bytes(.backup), suffix: arguments.bytes(.suffix))
        if backup != nil && clobber == .keep { throw .invalid(Messages.backupAndNoClobber) }
        target = try .chosen(
            directory: arguments.bytes(.targetDirectory), itself: arguments.has(.noTargetDirectory),
            conflict: Messages.targetAndNoTarget)
        parents = arguments.has(.parents)
        if parents && target == .lastOperandItself { throw .invalid(Messages.parentsNeedDirectory) }
        oneFileSystem = arguments.has(.oneFileSystem)
        reflink =
            try arguments.has(.reflink)
            ? Self.reflinkChoice.value(of: arguments.bytes(.reflink) ?? Array("always".utf8)) : .kernelChooses
        sparse = try arguments.bytes(.sparse).map { (word) throws(UsageError) in try Self.sparseChoice.value(of: word) } ?? .never
        verbose = arguments.has(.verbose)
        dryRun = arguments.has(.dryRun)
        operands = arguments.operands
    }

    /// What `--update=UPDATE` names.
    private enum Update: Sendable, Equatable {
        case all, none, older
    }

    private static let reflinkChoice = ArgumentChoice<CopyOptions.Reflink>(
        option: "--reflink", [("auto", .auto), ("always", .always), ("never", .never)])

    private static let sparseChoice = ArgumentChoice<CopyOptions.Sparse>(
        option: "--sparse", [("never", .never), ("auto", .auto), ("always", .always)])

    private static let updateChoice = ArgumentChoice<Update>(
        option: "--update", [("all", .all), ("none", .none), ("older", .older)])

    /// The attributes `--preserve=LIST` and `--no-preserve=LIST` may name; nil for those
    /// shelf does not copy.
    private static let attributeWords: [(word: String, value: CopyOptions.Preserved?)] = [
            ("mode", .mode), ("timestamps", .timestamps), ("ownership", .ownership), ("links", .links),
            ("context", nil), ("xattr", nil), ("all", .all),
        ]

    /// The attributes a comma-separated LIST names.
    /// - Parameter kept: whether they are to be kept (`--preserve`), which a copy cannot do for
    ///   those it never copies (security contexts, extended attributes); leaving them out is
    ///   what it does anyway.
    /// - Throws: `UsageError` for a word that names none, or one to keep that shelf cannot.
    private static func attributes(_ list: [UInt8], kept: Bool) throws(UsageError) -> CopyOptions.Preserved {
        let choice = ArgumentChoice(option: kept ? "--preserve" : "--no-preserve", attributeWords)
        var result: CopyOptions.Preserved = []
        for word in list.split(separator: 0x2C, omittingEmptySubsequences: false) {
            guard let attributes = try choice.value(of: Array(word)) else {
                if kept { throw .invalid("\(Messages.cannotPreserve) \(Quoting.always(Array(word))): \(Messages.notSupported)") }
                continue
            }
            result.formUnion(attributes)
        }
        return result
    }

    public func run(in context: CommandContext) -> ExitStatus {
        let backup: Backup?
        do {
            backup = try self.backup?.resolved(in: context.state.environment)
        } catch {
            guard case .invalid(let message) = error else { return .usage }
            return context.usageError(message)
        }
        var target = self.target
        var sources = operands
        if parents, target == .lastOperand, let last = operands.last, operands.count > 1 {
            // The path of each source is made again below DEST, which must be a directory.
            guard context.resolve(last).isDirectory else { return context.usageError(Messages.parentsNeedDirectory) }
            target = .directory(last)
            sources.removeLast()
        }
        var linkedCopies: [FileIdentity: File] = [:]
        return TransferOperands.run(sources, target: target, in: context) { item, session in
            var item = item
            if parents {
                guard let below = placeBelowParents(item, context: context) else { return false }
                item = below
            }
            return copy(item, backup: backup, linkedCopies: &linkedCopies, session: session, context: context)
        }
    }

    /// With `--parents`: `item` copied to its directory followed by the source's path as written
    /// (leading slashes left out), the directories on the way made as the source's are; nil,
    /// after a message, when one cannot be made.
    private func placeBelowParents(_ item: TransferOperands.Item, context: CommandContext)
        -> TransferOperands.Item?
    {
        let path = Array(item.operand.bytes.drop { $0 == 0x2F })
        let directory = item.destination.parent
        let spelledDirectory = Array(item.spelledDestination.dropLast(item.destination.nameBytes.count))
        var placed = item
        placed.destination = directory + File(bytes: path)
        placed.found = nil
        placed.spelledDestination = spelledDirectory + path
        let components = path.split(separator: 0x2F)
        var made = directory
        var source = Array(item.operand.bytes.prefix { $0 == 0x2F })
        for component in components.dropLast() {
            made = made + File(bytes: component)
            source += component
            defer { source.append(0x2F) }
            if made.exists { continue }
            do {
                let info = try context.resolve(Argument(bytes: source)).info(followSymlinks: true)
                if !dryRun { _ = try made.makeDirectory(mode: info.permissions) }
            } catch {
                context.error(Diagnostics.render(placed.spelling.respell(error), phrase: nil))
                return nil
            }
            if verbose || dryRun {
                // GNU writes these two unquoted unless they need quotes.
                let spelledMade = spelledDirectory + source.dropFirst(source.prefix { $0 == 0x2F }.count)
                context.stdout.line("\(Quoting.ifNeeded(source)) -> \(Quoting.ifNeeded(spelledMade))")
            }
        }
        return placed
    }

    /// Copies one source; returns false when something failed (already reported).
    private func copy(
        _ item: TransferOperands.Item, backup: Backup?, linkedCopies: inout [FileIdentity: File],
        session: TransferSession, context: CommandContext
    ) -> Bool {
        let source = Quoting.always(item.operand.bytes)
        let destination = Quoting.always(item.spelledDestination)
        let dereference = self.dereference ?? (recursive && linksInstead != .hard ? .never : .always)
        // A source written `link/` names the directory behind the link, whatever the options say.
        let follow = dereference != .never || item.operand.hasTrailingSlash
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
        if let unreachable = session.plan.unreachableTarget {
            // Asked once already: the copy would only wait to be told again.
            context.error("\(Messages.cannotStat) \(destination): \(unreachable.reason)")
            return false
        }
        if session.plan.slashedNewDestination && info.kind != .directory {
            // `cp a x/`: the slash asks for a directory, and x is none.
            let phrase = item.destination.exists ? Messages.cannotStat : Messages.cannotCreateRegular
            context.error("\(phrase) \(destination): \(session.plan.slashedDestinationReason)")
            return false
        }
        // As GNU cp: a source named again (by any spelling) is copied once, with a warning; with
        // backups it falls to the just-created check below.
        let named = TransferSession.CopiedSource(identity: info.identity, name: Array(item.operand.file.nameBytes))
        if backup == nil && !session.copiedSources.insert(named).inserted {
            let kind = info.kind == .directory ? Messages.sourceDirectory : Messages.sourceFile
            context.error("\(Messages.warning): \(kind) \(source) \(Messages.specifiedTwice)")
            return true
        }
        if info.kind != .directory && session.wouldReplaceJustMade(item, context: context) { return false }
        let isNew = session.plan.items.count > 1 && !item.destination.exists

        let spelling = item.spelling
        var everything = true
        // With -f, the errors of a file's first attempt are held back: it may be tried again.
        let mayRetry = force && info.kind != .directory && linksInstead == nil
        var heldBack: [TransferError] = []
        let overwrite: CopyOptions.Overwrite
        if clobber == .keep {
            overwrite = .skip
        } else if update {
            overwrite = .ifNewer
        } else if linksInstead != nil && !force && !removeDestination {
            overwrite = .fail
        } else {
            overwrite = .replace
        }
        var copier = Copier(
            options: CopyOptions(
                recursive: recursive, overwrite: overwrite, preserve: preserve, requiresPreservation: true,
                defaultModes: defaultModes,
                followSourceSymlink: follow, followEverySymlink: dereference == .always,
                linksInstead: linksInstead, oneFileSystem: oneFileSystem, reflink: reflink, sparse: sparse,
                specialFiles: recursive ? .recreate : .copyContents,
                destinations: removeDestination ? .replace : .writeThrough))
        copier.linkedCopies = linkedCopies
        copier.rehearsing = dryRun
        copier.copiesIntoItself = true
        defer { linkedCopies = copier.linkedCopies }
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
            guard force || removeDestination || linksInstead != nil
                || self.mayWrite(target, name: name, context: context, everything: &everything)
            else { return false }
            if removeDestination && (verbose || dryRun) && backup == nil { context.stdout.line("\(Messages.removed) \(name)") }
            return true
        }
        // The backup each destination was kept under, as spelled, for -v.
        var keptAs: [File: [UInt8]] = [:]
        if let backup {
            copier.backUp = { target in
                do throws(FileError) {
                    let kept = try backup.path(for: target)
                    if !dryRun { try target.moveByRenaming(to: kept, replacing: true) }
                    keptAs[target] = spelling.bytes(target) + kept.nameBytes.dropFirst(target.nameBytes.count)
                    return true
                } catch {
                    progress?.erase()
                    context.error("\(Messages.cannotBackUp) \(spelling.quoted(target)): \(error.reason)")
                    everything = false
                    return false
                }
            }
        }
        copier.symlinkTarget = { from, to in
            let path = spelling.bytes(from)
            // A relative path in a symlink is read from the link's directory: only in the
            // current directory does it lead where it was written from.
            if path.first == 0x2F || Self.isCurrentDirectory(to.parent, context: context) { return File(bytes: path) }
            progress?.erase()
            context.error("\(Quoting.ifNeeded(spelling.bytes(to))): \(Messages.relativeSymlinksHereOnly)")
            everything = false
            return nil
        }
        copier.copied = { from, to in
            progress?.add(files: 1)
            guard verbose || dryRun else { return }
            progress?.erase()
            let note = keptAs[to].map { " (\(Messages.backup): \(Quoting.always($0)))" } ?? ""
            context.stdout.line("\(spelling.quoted(from)) -> \(spelling.quoted(to))\(note)")
        }
        copier.failed = { error in
            progress?.erase()
            everything = false
            if context.isStopping(error) { return }
            if mayRetry {
                heldBack.append(error)
            } else {
                context.error(self.describe(error, spelling: spelling))
            }
        }
        copier.copy(item.source, describedAs: info, to: item.destination, found: item.found)
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
        for error in heldBack { context.error(describe(error, spelling: spelling)) }
        if isNew && everything { session.made.insert(item.destination) }
        return everything
    }

    /// The message for `error`: a link that could not be made (`-l`, `-s`, or a hard link kept
    /// by `-a`) in cp's words, anything else as every copy words it.
    private func describe(_ error: TransferError, spelling: Spelling) -> String {
        if case .file(let failure) = error, failure.operation == .setAttributes,
            !failure.path.volume.capabilities.contains(.permissions)
        {
            // A mode or times the destination cannot keep (object storage), told as GNU cp tells
            // of the first it could not set: the times, then the mode.
            let what = preserve.contains(.timestamps) ? Messages.preservingTimes : Messages.preservingPermissions
            return "\(what) \(spelling.quoted(failure.path)): \(failure.reason)"
        }
        guard case .file(let failure) = error, failure.operation == .makeLink, let target = failure.destination
        else { return CopyWording.describe(error, spelling: spelling) }
        let kind = linksInstead == .symbolic ? Messages.symbolicLink : Messages.hardLink
        return
            "\(Messages.cannotCreate) \(kind) \(spelling.quoted(failure.path)) \(Messages.to) \(spelling.quoted(target)): \(failure.reason)"
    }

    /// Whether `directory` is the shell's current directory, by identity.
    private static func isCurrentDirectory(_ directory: File, context: CommandContext) -> Bool {
        do {
            return try directory.info(followSymlinks: true).identity
                == context.state.cwd.info(followSymlinks: true).identity
        } catch {
            return false
        }
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
        static let warning = "warning"
        static let sourceFile = "source file"
        static let sourceDirectory = "source directory"
        static let specifiedTwice = "specified more than once"
        static let cannotStat = "cannot stat"
        static let removed = "removed"
        static let backup = "backup"
        static let cannotBackUp = "cannot backup"
        static let cannotCreate = "cannot create"
        static let hardLink = "hard link"
        static let symbolicLink = "symbolic link"
        static let to = "to"
        static let relativeSymlinksHereOnly = "can make relative symbolic links only in current directory"
        static let cannotPreserve = "cannot preserve"
        static let preservingTimes = "preserving times for"
        static let preservingPermissions = "preserving permissions for"
        static let notSupported = "not supported"
        static let backupAndNoClobber = "options --backup and --no-clobber are mutually exclusive"
        static let targetAndNoTarget = "cannot combine --target-directory (-t) and --no-target-directory (-T)"
        static let parentsNeedDirectory = "with --parents, the destination must be a directory"
        static let omitting = "-r not specified; omitting directory"
        static let cannotCreateRegular = "cannot create regular file"
        static let overwrite = "overwrite"
        static let notOverwriting = "not overwriting"
    }
}
