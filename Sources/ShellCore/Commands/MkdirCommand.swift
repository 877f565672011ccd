import PathModel

/// `mkdir [-p] [-v] [-m MODE] DIR...`: create directories.
public struct MkdirCommand: ShellCommand {
    public static let name = "mkdir"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Create the DIRECTORY(ies), if they do not already exist."
    public static let synopsis = "[-p] [-v] [-m MODE] DIRECTORY..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case mode, parents, verbose
    }
    public static let options: [OptionSpec<Option>] = [
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
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        parents = arguments.has(.parents)
        verbose = arguments.has(.verbose)
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
        for operand in operands {
            if context.isCancelled { return .interrupted }
            let target = context.resolve(operand)
            do {
                let created = try target.makeDirectory(intermediates: parents)
                if let mode, !created.isEmpty || !parents {
                    try target.setPermissions(mode)
                }
                if verbose {
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
