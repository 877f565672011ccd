import PathModel

/// `ln [-s [-r]] [-f] [-n] [-v] [--dry-run] [-b | --backup[=CONTROL]] [-S SUFFIX] [-T] TARGET [LINK]`,
/// `ln ... TARGET... DIRECTORY` or `ln ... -t DIRECTORY TARGET...`: make links.
///
/// With `-f` an existing LINK is replaced in one step (the new link is made under a temporary
/// name and renamed over it), so a failure never leaves the name missing.
public struct LnCommand: ShellCommand {
    public static let name = "ln"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary =
        "Make a link to TARGET named LINK, or links in DIRECTORY, or in the current directory; hard links by default."
    public static let synopsis =
        "[-s [-r]] [-fnvT] [--dry-run] [-b | --backup[=CONTROL]] [-S SUFFIX] TARGET [LINK] | TARGET... DIRECTORY | -t DIRECTORY TARGET..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case backup, backupSimple, dryRun, force, noDereference, noTargetDirectory, relative, suffix, symbolic
        case targetDirectory, verbose
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            nil, "backup", value: .optional, valueName: "CONTROL", key: .backup,
            help: "make a backup of each existing destination file"),
        OptionSpec("b", nil, key: .backupSimple, help: "like --backup but does not accept an argument"),
        OptionSpec(
            nil, "dry-run", key: .dryRun, help: "print the links that would be made, as -v does, and make none"),
        OptionSpec("f", "force", key: .force, help: "replace existing destination files (in one step)"),
        OptionSpec(
            "n", "no-dereference",
            key: .noDereference, help: "treat LINK as a normal file if it is a symbolic link to a directory"),
        OptionSpec(
            "r", "relative", key: .relative,
            help: "with -s, make each link's target relative to the link's directory"),
        OptionSpec("s", "symbolic", key: .symbolic, help: "make symbolic links instead of hard links"),
        OptionSpec(
            "S", "suffix", value: .required, valueName: "SUFFIX", key: .suffix,
            help: "override the usual backup suffix"),
        OptionSpec(
            "t", "target-directory", value: .required, valueName: "DIRECTORY", key: .targetDirectory,
            help: "specify the DIRECTORY in which to create the links"),
        OptionSpec(
            "T", "no-target-directory", key: .noTargetDirectory, help: "treat LINK as a normal file always"),
        OptionSpec("v", "verbose", key: .verbose, help: "print the name of each linked file"),
    ]

    /// Replace existing destinations.
    public var force: Bool
    /// A symlink to a directory as LINK is replaced, not entered.
    public var noDereference: Bool
    /// Symbolic rather than hard links.
    public var symbolic: Bool
    /// Write each symlink's target relative to the link's directory (`-r`).
    public var relative: Bool
    /// Keep each existing LINK under a backup name (`-b`, `--backup`, `-S`).
    var backup: Backup?
    /// Where the links go: LINK, into DIRECTORY (`-t`), or LINK itself even if a directory (`-T`).
    var target: TransferOperands.Target
    /// Report each link made.
    public var verbose: Bool
    /// Say which links would be made, and make none (`--dry-run`).
    public var dryRun: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        force = arguments.has(.force)
        noDereference = arguments.has(.noDereference)
        symbolic = arguments.has(.symbolic)
        relative = arguments.has(.relative)
        if relative && !symbolic { throw .invalid(Messages.relativeWithoutSymbolic) }
        backup = try Backup.parse(
            requested: !Set(arguments.options.map(\.key)).isDisjoint(with: [.backup, .backupSimple, .suffix]),
            control: arguments.bytes(.backup), suffix: arguments.bytes(.suffix))
        target = try .chosen(
            directory: arguments.bytes(.targetDirectory), itself: arguments.has(.noTargetDirectory),
            conflict: Messages.targetAndNoTarget)
        verbose = arguments.has(.verbose)
        dryRun = arguments.has(.dryRun)
        operands = arguments.operands
        guard !operands.isEmpty else { throw .invalid(Messages.missingOperand) }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        let backup: Backup?
        do {
            backup = try self.backup?.resolved(in: context.state.environment)
        } catch {
            guard case .invalid(let message) = error else { return .usage }
            return context.usageError(message)
        }
        let pairs: [(target: Argument, link: [UInt8])]
        if case .directory(let directory) = target {
            do {
                guard try context.resolve(directory).info(followSymlinks: true).kind == .directory else {
                    context.error(
                        "\(Messages.target) \(Quoting.always(directory.bytes)) \(Messages.isNotADirectory)")
                    return .failure
                }
            } catch {
                context.error(
                    "\(Messages.failedToAccess) \(Quoting.always(directory.bytes)): \(error.reason)")
                return .failure
            }
            pairs = operands.map {
                ($0, joinedPath(directory.bytes, BasenameCommand.strip($0.bytes, suffix: nil)))
            }
        } else if target == .lastOperandItself {
            guard operands.count > 1 else {
                return context.usageError("\(Messages.missingDestination) \(Quoting.always(operands[0].bytes))")
            }
            guard operands.count == 2 else {
                return context.usageError("\(Messages.extraOperand) \(Quoting.always(operands[2].bytes))")
            }
            pairs = [(operands[0], operands[1].bytes)]
        } else if operands.count == 1 {
            pairs = [(operands[0], joinedPath([0x2E], BasenameCommand.strip(operands[0].bytes, suffix: nil)))]
        } else {
            let last = operands[operands.count - 1]
            let sources = operands.dropLast()
            if isDirectory(last, in: context) {
                pairs = sources.map {
                    ($0, joinedPath(last.bytes, BasenameCommand.strip($0.bytes, suffix: nil)))
                }
            } else if sources.count > 1 {
                do {
                    _ = try context.resolve(last).info(followSymlinks: true)
                    context.error(
                        "\(Messages.target) \(Quoting.always(last.bytes)) \(Messages.isNotADirectory)")
                } catch {
                    context.error("\(Messages.target) \(Quoting.always(last.bytes)): \(error.reason)")
                }
                return .failure
            } else {
                pairs = [(sources[sources.startIndex], last.bytes)]
            }
        }
        var status = ExitStatus.success
        // In a dry run, the links earlier operands would have made.
        var madeEarlier: Set<File> = []
        for (target, link) in pairs {
            if context.isCancelled { return .interrupted }
            if !makeLink(to: target, named: link, backup: backup, madeEarlier: &madeEarlier, in: context) {
                status = .failure
            }
        }
        return status
    }

    /// Whether LINK names a directory to put links in (a symlink to one counts, unless `-n`).
    private func isDirectory(_ operand: Argument, in context: CommandContext) -> Bool {
        let file = context.resolve(operand)
        do {
            if noDereference && operand.bytes.last != 0x2F, try file.info().kind == .symlink { return false }
            return try file.info(followSymlinks: true).kind == .directory
        } catch {
            return false
        }
    }

    private func makeLink(
        to target: Argument, named link: [UInt8], backup: Backup?, madeEarlier: inout Set<File>,
        in context: CommandContext
    ) -> Bool {
        let linkFile = context.state.resolve(File(bytes: link))
        var targetFile = symbolic ? File(bytes: target.bytes) : context.resolve(target)
        if relative {
            // Both ends resolved as `realpath -m` would, the target from the shell's directory.
            do throws(FileError) {
                let resolvedTarget = try context.resolve(target).resolvingSymlinks(allowingMissing: .any)
                let directory = try linkFile.parent.resolvingSymlinks(allowingMissing: .any)
                targetFile = resolvedTarget.relative(to: directory) ?? resolvedTarget
            } catch {
                context.error(
                    "\(Self.failure(linking: link, to: target.bytes, symbolic: true, error)): \(error.reason)"
                )
                return false
            }
        }
        if !symbolic {
            let info: FileInfo
            do {
                info = try targetFile.info()
            } catch {
                context.error("\(Messages.failedToAccess) \(Quoting.always(target.bytes)): \(error.reason)")
                return false
            }
            if info.kind == .directory {
                context.error("\(target.text): \(Messages.hardLinkToDirectory)")
                return false
            }
            var existing: FileInfo?
            do { existing = try linkFile.info() } catch { existing = nil }  // nothing there: no clash to check
            if madeEarlier.contains(linkFile.normalized) { existing = info }
            // Linking a name to itself would remove the only name: refused, as GNU ln does.
            if force, let existing, existing.identity == info.identity,
                linkFile.normalized == targetFile.normalized
            {
                context.error(
                    "\(Quoting.always(target.bytes)) \(Messages.and) \(Quoting.always(link)) \(Messages.sameFile)"
                )
                return false
            }
        }
        var backupNote = ""
        do throws(FileError) {
            if link.count > 1, link.last == 0x2F {
                // `y/` names a directory, and this one is not: the kernel would refuse the name.
                throw FileError(.makeLink, linkFile, linkFile.exists ? .fileExists : .noSuchFileOrDirectory)
            }
            let taken = madeEarlier.contains(linkFile.normalized) || (try? linkFile.info()) != nil
            if let backup, taken {
                let kept = try backup.path(for: linkFile)
                if !dryRun { try linkFile.moveByRenaming(to: kept, replacing: true) }
                backupNote = "\(Quoting.always(link + kept.nameBytes.dropFirst(linkFile.nameBytes.count))) ~ "
            }
            if dryRun {
                try rehearseLink(linkFile, to: targetFile, taken: taken, replacing: force || backup != nil)
                madeEarlier.insert(linkFile.normalized)
            } else {
                try linkFile.makeLink(symbolic ? .symbolic : .hard, to: targetFile, replacing: force)
            }
        } catch {
            context.error(
                "\(Self.failure(linking: link, to: target.bytes, symbolic: symbolic, error)): \(error.reason)"
            )
            return false
        }
        if verbose || dryRun {
            let shown = relative ? targetFile.bytes : target.bytes
            context.stdout.line(
                "\(backupNote)\(Quoting.always(link)) \(symbolic ? "->" : "=>") \(Quoting.always(shown))")
        }
        return true
    }

    /// What making the link `linkFile` to `target` would meet, changing nothing: `EEXIST` for a
    /// name `taken` (unless `replacing`), `EISDIR` for a directory to replace, `ENOENT` or
    /// `ENOTDIR` for a directory to put it in that is missing or is none, and for a hard link
    /// `EXDEV` when that directory is on another file system than the target.
    /// - Throws: `FileError` with operation `.makeLink`, as the link would.
    private func rehearseLink(_ linkFile: File, to target: File, taken: Bool, replacing: Bool) throws(FileError) {
        if replacing {
            if (try? linkFile.info())?.kind == .directory {
                throw FileError(.makeLink, linkFile, .isDirectory, destination: target)
            }
        } else if taken {
            throw FileError(.makeLink, linkFile, .fileExists, destination: target)
        }
        let directory: FileInfo
        do { directory = try linkFile.parent.info(followSymlinks: true) } catch {
            throw error.reworded(as: .makeLink, linkFile, destination: target)
        }
        guard directory.kind == .directory else {
            throw FileError(.makeLink, linkFile, .notDirectory, destination: target)
        }
        if !symbolic, try target.info().identity.device != directory.identity.device {
            throw FileError(.makeLink, linkFile, .improperLink, destination: target)
        }
    }

    /// GNU ln's words for a link it could not make: a hard link names its source too, unless the
    /// trouble is the destination's alone (it exists, or the disk is full or read-only).
    private static func failure(linking link: [UInt8], to source: [UInt8], symbolic: Bool, _ error: FileError)
        -> String
    {
        let named =
            "\(Messages.failedToCreate) \(symbolic ? Messages.symbolicLink : Messages.hardLink) \(Quoting.always(link))"
        if symbolic {
            return error.errno == .fileNameTooLong || source.isEmpty
                ? "\(named) -> \(Quoting.always(source))" : named
        }
        if error.errno == .tooManyLinks {
            return "\(Messages.failedToCreate) \(Messages.hardLink) to \(Quoting.always(source))"
        }
        switch error.errno {
        case .fileExists, .diskQuotaExceeded, .noSpace, .readOnlyFileSystem: return named
        default: return "\(named) => \(Quoting.always(source))"
        }
    }

    private enum Messages {
        static let missingOperand = "missing file operand"
        static let target = "target"
        static let isNotADirectory = "is not a directory"
        static let failedToAccess = "failed to access"
        static let hardLinkToDirectory = "hard link not allowed for directory"
        static let and = "and"
        static let sameFile = "are the same file"
        static let failedToCreate = "failed to create"
        static let symbolicLink = "symbolic link"
        static let hardLink = "hard link"
        static let missingDestination = "missing destination file operand after"
        static let extraOperand = "extra operand"
        static let relativeWithoutSymbolic = "cannot do --relative without --symbolic"
        static let targetAndNoTarget = "cannot combine --target-directory and --no-target-directory"
    }
}
