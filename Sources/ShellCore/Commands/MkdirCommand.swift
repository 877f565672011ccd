import PathModel

/// `mkdir [-p] [-v] [-m MODE] [--dry-run] DIR...`: create directories.
public struct MkdirCommand: ShellCommand {
    public static let name = "mkdir"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Create the DIRECTORY(ies), if they do not already exist."
    public static let synopsis = "[-p] [-v] [-m MODE] [--dry-run] DIRECTORY..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case dryRun, mode, parents, verbose
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            nil, "dry-run", key: .dryRun,
            help: "print the directories that would be created, as -v does, and create none"),
        OptionSpec(
            "m", "mode", value: .required, valueName: "MODE", key: .mode,
            help: "set file mode (octal, as in chmod), not a=rwx - umask"),
        OptionSpec(
            "p", "parents", key: .parents, help: "no error if existing, make parent directories as needed"),
        OptionSpec("v", "verbose", key: .verbose, help: "print a message for each created directory"),
    ]

    /// Create missing parents and accept existing directories.
    public var parents: Bool
    /// Report each directory made.
    public var verbose: Bool
    /// Exact permission bits for the named directories.
    public var mode: UInt32?
    /// Say which directories would be made, and make none (`--dry-run`).
    public var dryRun: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        parents = arguments.has(.parents)
        verbose = arguments.has(.verbose)
        dryRun = arguments.has(.dryRun)
        if let text = arguments.value(.mode) {
            guard let value = UInt32(text, radix: 8), value <= 0o7777 else { throw .invalid("invalid mode '\(text)'") }
            mode = value
        }
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        guard !operands.isEmpty else {
            context.error(Messages.missingOperand)
            context.stderr.line("Try 'help mkdir' for more information.")
            return .usage
        }
        var status = ExitStatus.success
        // In a dry run, the directories earlier operands would have made.
        var planned: Set<File> = []
        for operand in operands {
            if context.isCancelled { return .interrupted }
            let target = context.resolve(operand)
            do {
                let created: [File]
                if dryRun {
                    created = try plan(target, after: planned)
                    planned.formUnion(created)
                } else {
                    created = try target.makeDirectory(intermediates: parents)
                    if let mode, !created.isEmpty || !parents {
                        try target.setPermissions(mode)
                    }
                }
                if verbose || dryRun {
                    for directory in created {
                        let spelled = spelledPath(directory, operand: operand, target: target) ?? directory.bytes
                        context.stdout.line("\(Self.name): \(Messages.created) \(Quoting.always(spelled))")
                    }
                }
            } catch {
                // The directory that could not be made, a parent perhaps, as the operand spells it.
                // The operand itself as typed, a trailing slash included, as GNU names it.
                let failed =
                    error.path == target ? operand.bytes : spelledPath(error.path, operand: operand, target: target) ?? operand.bytes
                context.error("\(Messages.cannotCreate) \(Quoting.always(failed)): \(error.reason)")
                status = .failure
            }
        }
        return status
    }

    /// The directories making `target` would create, changing nothing, when those in `planned`
    /// are taken as made already.
    /// - Throws: `FileError` with operation `.makeDirectory`, as making it would.
    private func plan(_ target: File, after planned: Set<File>) throws(FileError) -> [File] {
        if parents {
            let missing = try target.missingDirectories().filter { !planned.contains($0) }
            // A symlink that leads nowhere is missing as a directory, and still takes the name.
            if let taken = missing.first(where: \.exists) { throw FileError(.makeDirectory, taken, .fileExists) }
            return missing
        }
        if planned.contains(target) || target.exists { throw FileError(.makeDirectory, target, .fileExists) }
        if planned.contains(target.parent) { return [target] }
        let parentKind: FileKind
        do {
            parentKind = try target.parent.info(followSymlinks: true).kind
        } catch {
            throw error.reworded(as: .makeDirectory, target)
        }
        guard parentKind == .directory else { throw FileError(.makeDirectory, target, .notDirectory) }
        return [target]
    }

    /// `directory`, one of those `target` was made through, written the way the user wrote the
    /// operand (relative stays relative): the operand less the names `directory` lacks. The
    /// directories made are leading parts of the target's path, so this holds through `..`; nil
    /// for a path that is not such a part.
    private func spelledPath(_ directory: File, operand: Argument, target: File) -> [UInt8]? {
        // The operand itself as typed, slashes and all, as GNU mkdir writes it.
        if directory == target { return operand.bytes }
        let spelled = operand.file.bytes
        let surplus = target.byteCount - directory.byteCount
        guard surplus >= 0, surplus < spelled.count, target.bytes.starts(with: directory.bytes) else {
            return nil
        }
        return Array(spelled.dropLast(surplus))
    }

    private enum Messages {
        static let missingOperand = "missing operand"
        static let created = "created directory"
        static let cannotCreate = "cannot create directory"
    }
}
