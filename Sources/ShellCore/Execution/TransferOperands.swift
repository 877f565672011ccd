import PathModel
import SystemPackage

/// The operands of `cp` and `mv`, `SOURCE... DEST`, resolved to what goes where.
///
/// With one source and a DEST that is not an existing directory, the source goes to DEST
/// itself; otherwise every source goes into DEST under its own name, and DEST must be a directory.
struct TransferOperands {
    /// One source and where it goes.
    struct Item {
        /// The source operand as written.
        var operand: Argument
        /// The source's absolute path.
        var source: File
        /// The destination's absolute path.
        var destination: File
        /// The destination as the user would write it (`d/a` for `a` copied into `d/`).
        var spelledDestination: [UInt8]
        /// What was found at the destination when the operands were resolved, if it was looked
        /// at (DEST itself, not a name inside it).
        var found: Copier.Found? = nil

        /// A spelling of the source and destination paths, and of the paths below them.
        var spelling: Spelling {
            var spelling = Spelling()
            spelling.add(source, as: operand.bytes)
            spelling.add(destination, as: spelledDestination)
            return spelling
        }
    }

    /// The sources in order.
    var items: [Item]
    /// Whether DEST was written with a trailing slash, and is not a directory the sources go into.
    var slashedNewDestination: Bool
    /// What a storage service said when DEST was looked at (a missing bucket), which says more
    /// than that DEST is no directory.
    var targetServiceFailure: FileError.ServiceFailure?
    /// Why DEST could not be looked at, when the storage it is on could not be reached (refused,
    /// silent): a copy or move onto it fails with that, rather than waiting to be told again.
    var unreachableTarget: FileError?

    /// Why a source that is no directory cannot go to a DEST written with a trailing slash: it is
    /// no directory (`Not a directory`), or what the service said of DEST (`No such bucket`).
    var slashedDestinationReason: String {
        targetServiceFailure.map(Diagnostics.reason) ?? Diagnostics.reason(.notDirectory)
    }

    /// The outcome of resolving operands.
    enum Resolution {
        /// The operands make sense; here is what goes where.
        case ready(TransferOperands)
        /// They do not; the problem was reported and the command ends with this status.
        case stop(ExitStatus)
    }

    /// Where the sources go.
    enum Target: Sendable, Hashable {
        /// The last operand: into it when it is a directory (or there are several sources), else
        /// onto it.
        case lastOperand
        /// Into this directory, every operand being a source (`-t DIR`).
        case directory(Argument)
        /// Onto the last operand, directory or not; one source only (`-T`).
        case lastOperandItself

        /// The target `-t DIRECTORY` (`directory`) or `-T` (`itself`) asks for.
        /// - Throws: `UsageError` with the command's words (`conflict`) when both are given.
        static func chosen(directory: [UInt8]?, itself: Bool, conflict: String) throws(UsageError) -> Target {
            switch (directory, itself) {
            case (.some, true): throw .invalid(conflict)
            case (let directory?, false): return .directory(Argument(bytes: directory))
            case (nil, true): return .lastOperandItself
            case (nil, false): return .lastOperand
            }
        }
    }

    /// Splits `operands`; on a problem with them as a whole, reports it and says how to end.
    static func resolve(
        _ operands: [Argument], target choice: Target = .lastOperand, in context: CommandContext
    )
        -> Resolution
    {
        func usage(_ message: String) -> Resolution { .stop(context.usageError(message)) }
        let target: Argument
        let sources: ArraySlice<Argument>
        if case .directory(let directory) = choice {
            target = directory
            sources = operands[...]
            guard !sources.isEmpty else { return usage(Messages.missingFile) }
        } else {
            guard let last = operands.last else { return usage(Messages.missingFile) }
            target = last
            sources = operands.dropLast()
            guard !sources.isEmpty else {
                return usage("\(Messages.missingDestination) \(Quoting.always(target.bytes))")
            }
            if choice == .lastOperandItself && sources.count > 1 {
                return usage("\(Messages.extraOperand) \(Quoting.always(operands[operands.count - 1].bytes))")
            }
        }
        let targetFile = context.resolve(target)
        var targetError: FileError?
        var intoDirectory = false
        var found: Copier.Found?
        if target.bytes.isEmpty {
            targetError = FileError(.stat, targetFile, .noSuchFileOrDirectory)
        } else if choice != .lastOperandItself {
            do {
                let info = try targetFile.info(followSymlinks: true)
                found = .entry(info)
                intoDirectory = info.kind == .directory
                if !intoDirectory { targetError = FileError(.stat, targetFile, .notDirectory) }
            } catch {
                if error.errno == .noSuchFileOrDirectory { found = .nothing }
                targetError = error
            }
        }
        if case .directory = choice, let targetError {
            context.error("\(Messages.targetDirectory) \(Quoting.always(target.bytes)): \(targetError.reason)")
            return .stop(.failure)
        }
        if sources.count > 1, !intoDirectory, let targetError {
            context.error("\(Messages.target) \(Quoting.always(target.bytes)): \(targetError.reason)")
            return .stop(.failure)
        }
        let items = sources.map { source in
            guard intoDirectory else {
                return Item(
                    operand: source, source: context.resolve(source), destination: targetFile,
                    spelledDestination: target.bytes, found: found)
            }
            let name = source.file.nameBytes
            return Item(
                operand: source, source: context.resolve(source),
                destination: targetFile + File(bytes: name),
                spelledDestination: (target.file + File(bytes: name)).bytes)
        }
        return .ready(
            TransferOperands(
                items: items, slashedNewDestination: !intoDirectory && target.hasTrailingSlash,
                targetServiceFailure: targetError?.serviceFailure,
                unreachableTarget: targetError.flatMap { Self.unreachable.contains($0.errno) ? $0 : nil }))
    }

    /// Resolves `operands` and transfers each item in turn with `transfer`, which reports its
    /// own errors and returns false for a failure; stops at Ctrl-C with `.interrupted`.
    static func run(
        _ operands: [Argument], target: Target = .lastOperand, in context: CommandContext,
        _ transfer: (Item, TransferSession) -> Bool
    ) -> ExitStatus {
        let plan: TransferOperands
        switch resolve(operands, target: target, in: context) {
        case .ready(let resolved): plan = resolved
        case .stop(let status): return status
        }
        let session = TransferSession(plan: plan, confirmation: Confirmation(context))
        var status = ExitStatus.success
        for item in plan.items {
            if context.isCancelled { return .interrupted }
            if !transfer(item, session) { status = .failure }
            if context.isCancelled { return .interrupted }
        }
        return status
    }

    /// The errors of storage that could not be reached: another request would wait as long.
    private static let unreachable: Set<Errno> = [.connectionRefused, .timedOut, .connectionReset, .noRouteToHost]

    private enum Messages {
        static let missingFile = "missing file operand"
        static let missingDestination = "missing destination file operand after"
        static let target = "target"
        static let targetDirectory = "target directory"
        static let extraOperand = "extra operand"
    }
}

/// What the transfers of one `cp` or `mv` share.
final class TransferSession {
    /// The resolved operands.
    let plan: TransferOperands
    /// Asks the questions of `-i`.
    let confirmation: Confirmation
    /// Destinations made by this command so far: GNU will not overwrite a file it just made
    /// with another source of the same name.
    var made: Set<File> = []
    /// The sources copied so far (`cp`), each as what it is and its last name: a source named
    /// again, by any path, is copied once (a hard link under another name is not the same source).
    var copiedSources: Set<CopiedSource> = []

    /// A source as `copiedSources` knows it.
    struct CopiedSource: Hashable {
        let identity: FileIdentity
        let name: [UInt8]
    }

    init(plan: TransferOperands, confirmation: Confirmation) {
        self.plan = plan
        self.confirmation = confirmation
    }

    /// Whether `item`, not a directory, would replace a file this command made from another
    /// source (`cp a/x b/x dir`); says so when it would.
    func wouldReplaceJustMade(_ item: TransferOperands.Item, context: CommandContext) -> Bool {
        guard made.contains(item.destination) else { return false }
        let names = (Quoting.always(item.spelledDestination), Quoting.always(item.operand.bytes))
        context.error("\(Messages.justCreated) \(names.0) \(Messages.with) \(names.1)")
        return true
    }

    private enum Messages {
        static let justCreated = "will not overwrite just-created"
        static let with = "with"
    }
}

/// How `cp` and `mv` word the errors a `Copier` reports, as coreutils does.
enum CopyWording {
    /// The message for `error` (without the command name), its paths spelled by `spelling`.
    static func describe(_ error: TransferError, spelling: Spelling) -> String {
        switch error {
        case .conflict(let conflict): return Diagnostics.render(conflict, quoted: spelling.quoted)
        case .file(let error): return describe(error, spelling: spelling)
        }
    }

    /// The message for a failed operation of a copy, in cp's words where they are not the
    /// operation's own.
    private static func describe(_ error: FileError, spelling: Spelling) -> String {
        let path = spelling.quoted(error.path)
        let destination = error.destination.map { spelling.quoted($0) } ?? "''"
        switch error.operation {
        case .copy:
            let isLink: Bool
            do {
                isLink = try error.path.info().kind == .symlink
            } catch {
                isLink = false  // The source is gone meanwhile; the copy's own error is the one to tell.
            }
            return
                "\(isLink ? Messages.cannotCreateLink : Messages.cannotCreateSpecial) \(destination): \(error.reason)"
        case .open:
            return "\(Messages.cannotOpen) \(path) \(Messages.forReading): \(error.reason)"
        case .rename:
            // The temporary file could not be renamed into place: the destination was not made.
            return "\(Messages.cannotCreateRegular) \(destination): \(error.reason)"
        case .clone:
            return "\(Messages.failedToClone) \(destination) \(Messages.from) \(path): \(error.reason)"
        default:
            return Diagnostics.render(spelling.respell(error), phrase: nil)
        }
    }

    private enum Messages {
        static let cannotCreateLink = "cannot create symbolic link"
        static let cannotCreateSpecial = "cannot create special file"
        static let cannotOpen = "cannot open"
        static let forReading = "for reading"
        static let cannotCreateRegular = "cannot create regular file"
        static let failedToClone = "failed to clone"
        static let from = "from"
    }
}
