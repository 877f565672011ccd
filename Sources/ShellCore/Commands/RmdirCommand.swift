import PathModel

/// `rmdir [-p] [-v] [--ignore-fail-on-non-empty] [--dry-run] DIR...`: remove empty directories.
public struct RmdirCommand: ShellCommand {
    public static let name = "rmdir"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Remove the DIRECTORY(ies), if they are empty."
    /// Its operands are directories.
    public static let operandCompletion = OperandCompletion.directories
    public static let synopsis = "[-p] [-v] [--ignore-fail-on-non-empty] [--dry-run] DIRECTORY..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case dryRun, ignoreNonEmpty, parents, verbose
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            nil, "dry-run", key: .dryRun,
            help: "print the directories that would be removed, as -v does, and remove none"),
        OptionSpec(
            nil, "ignore-fail-on-non-empty", key: .ignoreNonEmpty,
            help: "say nothing of a directory not removed only because it holds something"),
        OptionSpec(
            "p", "parents", key: .parents,
            help: "remove DIRECTORY and its ancestors; 'rmdir -p a/b' is 'rmdir a/b a'"),
        OptionSpec("v", "verbose", key: .verbose, help: "print a message for each directory removed"),
    ]

    /// Leave a directory that holds something quietly in place (and its ancestors, with `-p`).
    public var ignoreNonEmpty: Bool
    /// Also remove each named ancestor.
    public var parents: Bool
    /// Report each directory removed.
    public var verbose: Bool
    /// Say which directories would be removed, and remove none (`--dry-run`).
    public var dryRun: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        ignoreNonEmpty = arguments.has(.ignoreNonEmpty)
        parents = arguments.has(.parents)
        verbose = arguments.has(.verbose)
        dryRun = arguments.has(.dryRun)
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        guard !operands.isEmpty else {
            context.error(Messages.missingOperand)
            context.stderr.line("Try 'help rmdir' for more information.")
            return .usage
        }
        var status = ExitStatus.success
        // In a dry run, the directories earlier ones would have removed.
        var removed: Set<File> = []
        for operand in operands {
            var spelled = operand.file
            while true {
                // The operand itself as typed, a trailing slash included, as GNU names it.
                let named = spelled == operand.file ? operand.bytes : spelled.bytes
                if verbose || dryRun {
                    context.stdout.line("\(Self.name): \(Messages.removing) \(Quoting.always(named))")
                }
                let directory = context.state.resolve(spelled)
                do {
                    if dryRun {
                        try Self.checkRemovable(directory, after: removed)
                        removed.insert(directory)
                    } else {
                        try directory.removeEmptyDirectory()
                    }
                } catch  where ignoreNonEmpty && Self.failedForHoldingSomething(error, directory) {
                    break
                } catch {
                    // GNU says which directory for a parent that -p could not remove.
                    let phrase = spelled == operand.file ? Messages.failed : Messages.failedParent
                    context.error("\(phrase) \(Quoting.always(named)): \(error.reason)")
                    status = .failure
                    break
                }
                guard parents else { break }
                let parent = spelled.parent
                if parent == spelled || parent.bytes == [0x2E] || parent.isRoot
                    || parent.nameBytes.elementsEqual([0x2E, 0x2E])
                {
                    break
                }
                spelled = parent
            }
        }
        return status
    }

    /// Throws what removing `directory` would, changing nothing, when those in `removed` are
    /// taken as gone: `ENOENT` for nothing there, `ENOTDIR` for what is no directory (a symlink
    /// to one included), `EINVAL` for `.`, `ENOTEMPTY` for a directory that holds something.
    private static func checkRemovable(_ directory: File, after removed: Set<File>) throws(FileError) {
        if removed.contains(directory) { throw FileError(.removeDirectory, directory, .noSuchFileOrDirectory) }
        let kind: FileKind
        do { kind = try directory.info(followSymlinks: false).kind } catch {
            throw error.reworded(as: .removeDirectory, directory)
        }
        guard kind == .directory else { throw FileError(.removeDirectory, directory, .notDirectory) }
        if directory.nameBytes.elementsEqual([0x2E]) { throw FileError(.removeDirectory, directory, .invalidArgument) }
        var holdsSomething = false
        try directory.volume.forEachEntry(of: directory, limit: nil) { entry in
            if !removed.contains(directory + File(bytes: entry.name)) { holdsSomething = true }
        }
        if holdsSomething { throw FileError(.removeDirectory, directory, .directoryNotEmpty) }
    }

    /// Whether `error` came only from `directory` holding something: `ENOTEMPTY` (or `EEXIST`,
    /// which POSIX allows for it), or a refusal (`EACCES`, `EPERM`, `EROFS`, `EBUSY`) of a
    /// directory that can be read and has an entry, as GNU rmdir decides.
    private static func failedForHoldingSomething(_ error: FileError, _ directory: File) -> Bool {
        switch error.errno {
        case .directoryNotEmpty, .fileExists: return true
        case .permissionDenied, .notPermitted, .readOnlyFileSystem, .resourceBusy:
            var holdsSomething = false
            do {
                try directory.volume.forEachEntry(of: directory, limit: 1) { _ in holdsSomething = true }
            } catch {
                return false  // What cannot be read is not known to hold anything.
            }
            return holdsSomething
        default: return false
        }
    }

    private enum Messages {
        static let missingOperand = "missing operand"
        static let removing = "removing directory,"
        static let failed = "failed to remove"
        static let failedParent = "failed to remove directory"
    }
}
