import PathModel

/// `ln [-s] [-f] [-n] [-v] TARGET [LINK]` or `ln ... TARGET... DIRECTORY`: make links.
///
/// With `-f` an existing LINK is replaced in one step (the new link is made under a temporary
/// name and renamed over it), so a failure never leaves the name missing.
public struct LnCommand: ShellCommand {
    public static let name = "ln"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary =
        "Make a link to TARGET named LINK, or links in DIRECTORY, or in the current directory; hard links by default."
    public static let synopsis = "[-s] [-f] [-n] [-v] TARGET [LINK] | TARGET... DIRECTORY"
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case force, noDereference, symbolic, verbose
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("f", "force", key: .force, help: "replace existing destination files (in one step)"),
        OptionSpec(
            "n", "no-dereference",
            key: .noDereference, help: "treat LINK as a normal file if it is a symbolic link to a directory"),
        OptionSpec("s", "symbolic", key: .symbolic, help: "make symbolic links instead of hard links"),
        OptionSpec("v", "verbose", key: .verbose, help: "print the name of each linked file"),
    ]

    /// Replace existing destinations.
    public var force: Bool
    /// A symlink to a directory as LINK is replaced, not entered.
    public var noDereference: Bool
    /// Symbolic rather than hard links.
    public var symbolic: Bool
    /// Report each link made.
    public var verbose: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        force = arguments.has(.force)
        noDereference = arguments.has(.noDereference)
        symbolic = arguments.has(.symbolic)
        verbose = arguments.has(.verbose)
        operands = arguments.operands
        guard !operands.isEmpty else { throw .invalid(Messages.missingOperand) }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        let pairs: [(target: Argument, link: [UInt8])]
        if operands.count == 1 {
            pairs = [(operands[0], joinedPath([0x2E], BasenameCommand.strip(operands[0].bytes, suffix: nil)))]
        } else {
            let last = operands[operands.count - 1]
            let sources = operands.dropLast()
            if isDirectory(last, in: context) {
                pairs = sources.map { ($0, joinedPath(last.bytes, BasenameCommand.strip($0.bytes, suffix: nil))) }
            } else if sources.count > 1 {
                do {
                    _ = try context.resolve(last).info(followSymlinks: true)
                    context.error("\(Messages.target) \(Quoting.always(last.bytes)) \(Messages.isNotADirectory)")
                } catch {
                    context.error("\(Messages.target) \(Quoting.always(last.bytes)): \(error.reason)")
                }
                return .failure
            } else {
                pairs = [(sources[sources.startIndex], last.bytes)]
            }
        }
        var status = ExitStatus.success
        for (target, link) in pairs {
            if context.isCancelled { return .interrupted }
            if !makeLink(to: target, named: link, in: context) { status = .failure }
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

    private func makeLink(to target: Argument, named link: [UInt8], in context: CommandContext) -> Bool {
        let linkFile = context.state.resolve(File(bytes: link))
        let targetFile = symbolic ? File(bytes: target.bytes) : context.resolve(target)
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
            let existing: FileInfo?
            do { existing = try linkFile.info() } catch { existing = nil }  // nothing there: no clash to check
            // Linking a name to itself would remove the only name: refused, as GNU ln does.
            if force, let existing, existing.identity == info.identity, linkFile.normalized == targetFile.normalized {
                context.error("\(Quoting.always(target.bytes)) \(Messages.and) \(Quoting.always(link)) \(Messages.sameFile)")
                return false
            }
        }
        do throws(FileError) {
            if link.count > 1, link.last == 0x2F {
                // `y/` names a directory, and this one is not: the kernel would refuse the name.
                throw FileError(.makeLink, linkFile, linkFile.exists ? .fileExists : .noSuchFileOrDirectory)
            }
            try linkFile.makeLink(symbolic ? .symbolic : .hard, to: targetFile, replacing: force)
        } catch {
            context.error("\(Self.failure(linking: link, to: target.bytes, symbolic: symbolic, error)): \(error.reason)")
            return false
        }
        if verbose {
            context.stdout.line("\(Quoting.always(link)) \(symbolic ? "->" : "=>") \(Quoting.always(target.bytes))")
        }
        return true
    }

    /// GNU ln's words for a link it could not make: a hard link names its source too, unless the
    /// trouble is the destination's alone (it exists, or the disk is full or read-only).
    private static func failure(linking link: [UInt8], to source: [UInt8], symbolic: Bool, _ error: FileError) -> String {
        let named = "\(Messages.failedToCreate) \(symbolic ? Messages.symbolicLink : Messages.hardLink) \(Quoting.always(link))"
        if symbolic {
            return error.errno == .fileNameTooLong || source.isEmpty ? "\(named) -> \(Quoting.always(source))" : named
        }
        if error.errno == .tooManyLinks { return "\(Messages.failedToCreate) \(Messages.hardLink) to \(Quoting.always(source))" }
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
    }
}
