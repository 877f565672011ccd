import PathModel

/// The options `chown` and `chgrp` share (and `--from`, which only chown has).
public enum OwnershipOption: Hashable, Sendable {
    case changes, silent, verbose, noDereference, recursive, reference, preserveRoot, noPreserveRoot, from
    case dryRun

    /// The options of both commands, in the order help lists them.
    static let shared: [OptionSpec<OwnershipOption>] = [
        OptionSpec("c", "changes", key: .changes, help: "like verbose but report only when a change is made"),
        OptionSpec(nil, "dry-run", key: .dryRun, help: "say what would change, as -c does, and change nothing"),
        OptionSpec("f", "silent", key: .silent, help: "suppress most error messages"),
        OptionSpec(nil, "quiet", key: .silent, help: "the same as -f"),
        OptionSpec("v", "verbose", key: .verbose, help: "output a diagnostic for every file processed"),
        OptionSpec(
            "h", "no-dereference", key: .noDereference,
            help: "change a symlink itself rather than the file it leads to"),
        OptionSpec(nil, "no-preserve-root", key: .noPreserveRoot, help: "do not treat '/' specially"),
        OptionSpec(
            nil, "preserve-root", key: .preserveRoot, help: "fail to operate recursively on '/' (the default)"
        ),
        OptionSpec(
            nil, "reference", value: .required, valueName: "RFILE", key: .reference,
            help: "use RFILE's owner and group instead of giving them"),
        OptionSpec(
            "R", "recursive", key: .recursive,
            help: "change files and directories recursively, symlinks themselves"),
    ]
}

/// How much a command that changes files tells about each one.
enum ChangeVerbosity: Sendable {
    /// Nothing (the default).
    case quiet
    /// Each file that changed (`-c`).
    case changes
    /// Every file (`-v`).
    case all

    /// The verbosity the last of `-c` and `-v` asks for; a dry run (`dryRun`) tells at least
    /// each change.
    init<Key>(_ arguments: ParsedArguments<Key>, changes: Key, verbose: Key, dryRun: Key) {
        switch arguments.last(of: [changes, verbose]) {
        case changes: self = .changes
        case verbose: self = .all
        default: self = arguments.has(dryRun) ? .changes : .quiet
        }
    }
}

/// What `chown` or `chgrp` was asked to do, parsed without touching the disk or the user
/// database; `OwnershipRun` looks the names up and does it.
struct OwnershipRequest: Sendable {
    /// Which command: chown takes `OWNER[:[GROUP]]`, chgrp `GROUP`.
    enum Kind: Sendable {
        case owner, group
    }

    /// Where the new owner and group come from.
    enum Source: Sendable {
        /// `OWNER[:[GROUP]]` or `GROUP`, as written.
        case spec([UInt8])
        /// RFILE's owner and group (`--reference`).
        case reference(Argument)
    }

    var kind: Kind
    var source: Source
    /// Change only files with this owner and group (`--from=OWNER:GROUP`), as written.
    var from: [UInt8]?
    var recursive: Bool
    /// Change a symlink itself (`-h`, and always below a directory with `-R`).
    var noDereference: Bool
    var preservesRoot: Bool
    var silent: Bool
    var verbosity: ChangeVerbosity
    /// Say what would change, and change nothing (`--dry-run`).
    var dryRun: Bool

    /// The request and the FILEs.
    /// - Throws: `UsageError` with GNU's words for a missing operand.
    static func parse(_ arguments: ParsedArguments<OwnershipOption>, kind: Kind) throws(UsageError) -> (
        OwnershipRequest, [Argument]
    ) {
        var operands = arguments.operands
        let source: Source
        if let reference = arguments.bytes(.reference) {
            source = .reference(Argument(bytes: reference))
        } else {
            guard !operands.isEmpty else { throw .invalid(Messages.missingOperand) }
            source = .spec(operands.removeFirst().bytes)
        }
        guard !operands.isEmpty else {
            if case .spec(let spec) = source {
                throw .invalid("\(Messages.missingOperandAfter) \(Quoting.always(spec))")
            }
            throw .invalid(Messages.missingOperand)
        }
        let request = OwnershipRequest(
            kind: kind, source: source, from: arguments.bytes(.from), recursive: arguments.has(.recursive),
            noDereference: arguments.has(.noDereference),
            preservesRoot: arguments.last(of: [.preserveRoot, .noPreserveRoot]) != .noPreserveRoot,
            silent: arguments.has(.silent),
            verbosity: ChangeVerbosity(arguments, changes: .changes, verbose: .verbose, dryRun: .dryRun),
            dryRun: arguments.has(.dryRun))
        return (request, operands)
    }

    private enum Messages {
        static let missingOperand = "missing operand"
        static let missingOperandAfter = "missing operand after"
    }
}

/// A new owner and group, with the names `-v` shows for them.
struct Ownership: Sendable {
    /// The new owner and group; nil leaves it as it is.
    var user: UInt32?
    var group: UInt32?
    /// The names to show, as given; nil shows the number (an id given as a number).
    var userName: String?
    var groupName: String?

    /// Why a spec was refused, as data.
    enum SpecError: Error {
        case invalidUser, invalidGroup, invalidSpec
    }

    /// `OWNER[:[GROUP]]` as chown reads it: a name or a number on each side; `OWNER:` is the
    /// owner's login group; an empty side leaves that one.
    /// - Throws: `SpecError` for a name no database has, or `NUMBER:`.
    static func owner(_ spec: [UInt8]) throws(SpecError) -> Ownership {
        let colon = spec.firstIndex(of: 0x3A)
        let userPart = String(decoding: spec[..<(colon ?? spec.endIndex)], as: UTF8.self)
        let groupPart = colon.map { String(decoding: spec[($0 + 1)...], as: UTF8.self) }
        var result = Ownership()
        var loginGroup: UInt32?
        if !userPart.isEmpty {
            if let found = Accounts.user(named: userPart) {
                result.user = found.id
                result.userName = userPart
                loginGroup = found.loginGroup
            } else if let number = id(userPart) {
                result.user = number
            } else {
                throw .invalidUser
            }
        }
        if let groupPart, !groupPart.isEmpty {
            try result.setGroup(groupPart)
        } else if groupPart != nil, !userPart.isEmpty {
            guard let loginGroup else { throw .invalidSpec }
            result.group = loginGroup
            result.groupName = Accounts.groupName(loginGroup)
        }
        // GNU names a change of group alone by chown as a change of ownership to `:GROUP`.
        if result.userName == nil, result.groupName != nil { result.userName = "" }
        return result
    }

    /// `GROUP` as chgrp reads it: a name or a number; empty leaves the group.
    /// - Throws: `SpecError.invalidGroup` for a name the group database lacks.
    static func group(_ spec: [UInt8]) throws(SpecError) -> Ownership {
        var result = Ownership()
        let text = String(decoding: spec, as: UTF8.self)
        if !text.isEmpty { try result.setGroup(text) }
        return result
    }

    /// Sets the group from a name, else a number.
    private mutating func setGroup(_ text: String) throws(SpecError) {
        if let found = Accounts.group(named: text) {
            group = found
            groupName = text
        } else if let number = Self.id(text) {
            group = number
        } else {
            throw .invalidGroup
        }
    }

    /// A user or group id written as a decimal number (at most 2^32 - 2: all ones means none).
    private static func id(_ text: String) -> UInt32? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = UInt32(text),
            value != UInt32.max
        else { return nil }
        return value
    }
}

/// One run of `chown` or `chgrp` over its FILEs: the change, and the status so far.
struct OwnershipRun {
    let request: OwnershipRequest
    let context: CommandContext
    let change: Ownership
    /// Only files with this owner and group are changed (`--from`).
    let required: Ownership
    private let names = OwnerNames()
    private var status = ExitStatus.success

    /// Runs `request` over `operands`.
    static func run(_ request: OwnershipRequest, on operands: [Argument], in context: CommandContext)
        -> ExitStatus
    {
        guard let change = newOwnership(request, in: context) else { return .failure }
        var required = Ownership()
        if let from = request.from {
            do { required = try Ownership.owner(from) } catch {
                context.error(refusal(error, from))
                return .failure
            }
        }
        var run = OwnershipRun(request: request, context: context, change: change, required: required)
        for operand in operands {
            if context.isCancelled { return .interrupted }
            run.change(operand)
        }
        return context.isCancelled ? .interrupted : run.status
    }

    /// The ownership the request gives, from its spec or its reference file; nil, after saying
    /// why on standard error, when a name is unknown or the reference cannot be read.
    private static func newOwnership(_ request: OwnershipRequest, in context: CommandContext) -> Ownership? {
        switch request.source {
        case .spec(let spec):
            do {
                return request.kind == .owner ? try Ownership.owner(spec) : try Ownership.group(spec)
            } catch {
                context.error(refusal(error, spec))
                return nil
            }
        case .reference(let reference):
            let info: FileInfo
            do { info = try context.resolve(reference).info(followSymlinks: true) } catch {
                context.error(
                    "\(Messages.cannotGetAttributes) \(Quoting.always(reference.bytes)): \(error.reason)")
                return nil
            }
            let names = OwnerNames()
            var result = Ownership(
                group: info.groupID, groupName: names.group(of: info) ?? String(info.groupID))
            if request.kind == .owner {
                result.user = info.userID
                result.userName = names.owner(of: info) ?? String(info.userID)
            }
            return result
        }
    }

    /// GNU's words for a spec no database knows: `invalid user: 'x'`.
    private static func refusal(_ error: Ownership.SpecError, _ spec: [UInt8]) -> String {
        switch error {
        case .invalidUser: return "\(Messages.invalidUser) \(Quoting.always(spec))"
        case .invalidGroup: return "\(Messages.invalidGroup) \(Quoting.always(spec))"
        case .invalidSpec: return "\(Messages.invalidSpec) \(Quoting.always(spec))"
        }
    }

    /// Changes the FILE `operand` and, with `-R`, the tree below it. The operand is followed
    /// when it is a symlink, unless `-h` or `-R` was given.
    mutating func change(_ operand: Argument) {
        let file = context.resolve(operand)
        let spelled = operand.walkSpelling
        let following = !request.recursive && !request.noDereference
        let info: FileInfo
        do {
            info = try operand.info(at: file, followSymlinks: false)
        } catch {
            fail(spelled, "\(Messages.cannotAccess) \(Quoting.always(spelled)): \(error.reason)")
            return
        }
        var target = info
        if following && info.kind == .symlink {
            do { target = try file.info(followSymlinks: true) } catch {
                fail(spelled, "\(Messages.cannotDereference) \(Quoting.always(spelled)): \(error.reason)")
                return
            }
        }
        if request.recursive && request.preservesRoot
            && RecursiveOperand.refusesRoot(target, of: file, spelled: spelled, in: context)
        {
            status = .failure
            return
        }
        apply(to: file, spelled: spelled, info: target, following: following)
        guard request.recursive && target.kind == .directory else { return }
        RecursiveOperand.walk(
            below: file, spelled: spelled, in: context,
            visit: { entry, path in
                do throws(FileError) {
                    apply(
                        to: entry.file, spelled: path, info: try entry.file.info(followSymlinks: false),
                        following: false)
                } catch {
                    fail(path, "\(Messages.cannotAccess) \(Quoting.always(path)): \(error.reason)")
                }
            },
            failed: { error in
                if !request.silent { context.report(error, RecursiveOperand.phrase(for: error)) }
                status = .failure
            })
    }

    /// Reports a file that could not be reached: `message` unless `-f`, and with `-v` the
    /// failure line.
    private mutating func fail(_ spelled: [UInt8], _ message: String) {
        if !request.silent { context.error(message) }
        if request.verbosity == .all { describe(spelled, .failed, old: nil) }
        status = .failure
    }

    /// Gives `file` (which `info` describes) the new owner and group, when it has the required
    /// ones, and says so as asked.
    private mutating func apply(to file: File, spelled: [UInt8], info: FileInfo, following: Bool) {
        let selected =
            (required.user.map { $0 == info.userID } ?? true)
            && (required.group.map { $0 == info.groupID } ?? true)
        var succeeded = true
        if selected && !request.dryRun {
            do {
                try file.volume.setAttributes(
                    of: file, .owner(user: change.user, group: change.group), following: following)
            } catch {
                succeeded = false
                if !request.silent {
                    let phrase = change.user != nil ? Messages.changingOwnership : Messages.changingGroup
                    context.error("\(phrase) \(Quoting.always(spelled)): \(error.reason)")
                }
                status = .failure
            }
        }
        guard request.verbosity != .quiet else { return }
        let changed =
            selected && succeeded
            && !((change.user.map { $0 == info.userID } ?? true)
                && (change.group.map { $0 == info.groupID } ?? true))
        if changed || request.verbosity == .all {
            describe(spelled, !succeeded ? .failed : changed ? .changed : .retained, old: info)
        }
    }

    /// What became of one file, for `-v` and `-c`.
    private enum Outcome {
        case changed, retained, failed
    }

    /// The `-v`/`-c` line for one file; `old` is what it was, when known.
    private func describe(_ spelled: [UInt8], _ outcome: Outcome, old: FileInfo?) {
        let name = Quoting.always(spelled)
        let newUser = change.userName ?? change.user.map { String($0) }
        let newGroup = change.groupName ?? change.group.map { String($0) }
        let new = Self.spec(newUser, newGroup)
        let previous = old.flatMap { info in
            Self.spec(
                newUser == nil ? nil : names.owner(of: info) ?? String(info.userID),
                newGroup == nil ? nil : names.group(of: info) ?? String(info.groupID))
        }
        let what =
            newUser != nil ? Messages.ownership : newGroup != nil ? Messages.group : Messages.ownership
        let line: String
        switch outcome {
        case .changed:
            line =
                "\(Messages.changed) \(what) \(Messages.of) \(name) \(Messages.from) \(previous ?? "") "
                + "\(Messages.to) \(new ?? "")"
        case .failed:
            var text = "\(Messages.failedToChange) \(what) \(Messages.of) \(name)"
            if let new {
                if let previous { text += " \(Messages.from) \(previous)" }
                text += " \(Messages.to) \(new)"
            }
            line = text
        case .retained:
            line =
                "\(what) \(Messages.of) \(name) \(Messages.retained)"
                + (previous.map { " \(Messages.as) \($0)" } ?? "")
        }
        context.stdout.line(line)
    }

    /// `user:group`, `user` or `group`, as GNU shows an ownership; nil for neither.
    private static func spec(_ user: String?, _ group: String?) -> String? {
        switch (user, group) {
        case (let user?, let group?): return "\(user):\(group)"
        case (let user?, nil): return user
        case (nil, let group?): return group
        case (nil, nil): return nil
        }
    }

    private enum Messages {
        static let invalidUser = "invalid user:"
        static let invalidGroup = "invalid group:"
        static let invalidSpec = "invalid spec:"
        static let cannotGetAttributes = "failed to get attributes of"
        static let cannotAccess = "cannot access"
        static let cannotDereference = "cannot dereference"
        static let changingOwnership = "changing ownership of"
        static let changingGroup = "changing group of"
        static let ownership = "ownership"
        static let group = "group"
        static let of = "of"
        static let from = "from"
        static let to = "to"
        static let `as` = "as"
        static let changed = "changed"
        static let retained = "retained"
        static let failedToChange = "failed to change"
    }
}
