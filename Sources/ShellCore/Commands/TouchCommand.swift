import PathModel

/// `touch [-a] [-m] [-c] [-h] [--dry-run] [-d DATE | -t STAMP | -r FILE] FILE...`: set the access and
/// modification times of each FILE (to now, unless told), creating missing files, as GNU touch.
public struct TouchCommand: ShellCommand {
    public static let name = "touch"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary =
        "Update the access and modification times of each FILE to now (or a given time), creating it if missing."
    public static let synopsis = "[-a] [-m] [-c] [-h] [--dry-run] [-d DATE | -t STAMP | -r FILE] [--time=WORD] FILE..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case accessOnly, noCreate, date, dryRun, noDereference, modificationOnly, reference, stamp, time
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("a", nil, key: .accessOnly, help: "change only the access time"),
        OptionSpec("c", "no-create", key: .noCreate, help: "do not create any files"),
        OptionSpec(
            "d", "date", value: .required, valueName: "DATE", key: .date,
            help: "use DATE (@SECONDS, YYYY-MM-DD, YYYY-MM-DD HH:MM[:SS]) instead of now"),
        OptionSpec(
            nil, "dry-run", key: .dryRun,
            help: "print each file that would be created or get new times, and change nothing"),
        OptionSpec(
            "h", "no-dereference", key: .noDereference,
            help: "change a symlink itself rather than the file it leads to (creates nothing)"),
        OptionSpec("m", nil, key: .modificationOnly, help: "change only the modification time"),
        OptionSpec(
            "r", "reference", value: .required, valueName: "FILE", key: .reference,
            help: "use FILE's times instead of now"),
        OptionSpec(
            "t", nil, value: .required, valueName: "STAMP", key: .stamp,
            help: "use [[CC]YY]MMDDhhmm[.ss] instead of now"
        ),
        OptionSpec(
            nil, "time", value: .required, valueName: "WORD", key: .time,
            help: "change only this time: access (atime, use) or modify (mtime)"),
    ]

    /// Where the new times come from.
    public enum Source: Sendable {
        /// The current time.
        case now
        /// A date as written for `-d`, read when the command runs (in the shell's zone).
        case date([UInt8])
        /// A stamp as written for `-t`.
        case stamp([UInt8])
        /// The times of a file (`-r`); with a `-d` date too, the date wins.
        case reference(Argument, date: [UInt8]?)
    }

    /// Leave missing files missing.
    public var noCreate: Bool
    /// Set the times of a symlink itself (and create nothing).
    public var noDereference: Bool
    /// Whether the access time is set (not with `-m` alone).
    public var setsAccess: Bool
    /// Whether the modification time is set (not with `-a` alone).
    public var setsModification: Bool
    /// Where the times come from.
    public var source: Source
    /// Say which files would be created or get new times, and change nothing (`--dry-run`).
    public var dryRun: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        noCreate = arguments.has(.noCreate)
        noDereference = arguments.has(.noDereference)
        dryRun = arguments.has(.dryRun)
        var access = arguments.has(.accessOnly)
        var modification = arguments.has(.modificationOnly)
        if let word = arguments.value(.time) {
            switch word {
            case "access", "atime", "use": access = true
            case "modify", "mtime": modification = true
            default: throw .invalid("\(Messages.invalidArgument) \(Quoting.always(word)) \(Messages.forTime)")
            }
        }
        setsAccess = access || !modification
        setsModification = modification || !access
        let date = arguments.bytes(.date)
        if let stamp = arguments.bytes(.stamp) {
            guard date == nil && !arguments.has(.reference) else {
                throw .invalid(Messages.moreThanOneSource)
            }
            source = .stamp(stamp)
        } else if let reference = arguments.bytes(.reference) {
            source = .reference(Argument(bytes: reference), date: date)
        } else {
            source = date.map { .date($0) } ?? .now
        }
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        guard !operands.isEmpty else {
            context.error(Messages.missingOperand)
            context.stderr.line("Try 'help touch' for more information.")
            return .usage
        }
        guard let times = times(in: context) else { return .failure }
        let change = AttributeChange.times(
            access: setsAccess ? times.access : .keep,
            modification: setsModification ? times.modification : .keep)
        var status = ExitStatus.success
        // In a dry run, the files earlier operands would have created.
        var createdEarlier: Set<File> = []
        for operand in operands {
            let target = context.resolve(operand)
            // `x/` names a directory: touch makes none and sets no file's times through it.
            if operand.hasTrailingSlash {
                do { _ = try operand.info(at: target, followSymlinks: true) } catch {
                    context.error(
                        "\(Messages.settingTimes) \(Quoting.always(operand.bytes)): \(error.reason)")
                    status = .failure
                    continue
                }
            }
            if dryRun {
                if !rehearse(operand, target, createdEarlier: &createdEarlier, in: context) { status = .failure }
                continue
            }
            do {
                do {
                    try target.volume.setAttributes(of: target, change, following: !noDereference)
                } catch  where error.errno == .noSuchFileOrDirectory && !noDereference {
                    if noCreate { continue }
                    try target.createFile()
                    try target.volume.setAttributes(of: target, change, following: true)
                }
            } catch  where noDereference && error.operation == .setAttributes {
                if noCreate && error.errno == .noSuchFileOrDirectory { continue }
                context.error("\(Messages.settingTimes) \(Quoting.always(operand.bytes)): \(error.reason)")
                status = .failure
            } catch {
                context.report(error.reworded(as: error.operation, operand.file), Messages.cannotTouch)
                status = .failure
            }
        }
        return status
    }

    /// What touching `target` would do, said and not done: `created 'x'` for a file it would
    /// create, `changed times of 'x'` for one whose times it would set, or the run's message
    /// for what it could not reach. Returns false when the run would fail.
    private func rehearse(
        _ operand: Argument, _ target: File, createdEarlier: inout Set<File>, in context: CommandContext
    ) -> Bool {
        let quoted = Quoting.always(operand.bytes)
        do {
            if createdEarlier.contains(target.normalized) {
                context.stdout.line("\(Messages.changedTimes) \(quoted)")
                return true
            }
            _ = try target.info(followSymlinks: !noDereference)
            context.stdout.line("\(Messages.changedTimes) \(quoted)")
            return true
        } catch  where error.errno == .noSuchFileOrDirectory && !noDereference {
            if noCreate { return true }
            do throws(FileError) {
                let directory = try target.parent.info(followSymlinks: true)
                guard directory.kind == .directory else { throw FileError(.createFile, target, .notDirectory) }
            } catch {
                context.report(error.reworded(as: .createFile, operand.file), Messages.cannotTouch)
                return false
            }
            createdEarlier.insert(target.normalized)
            context.stdout.line("\(Messages.created) \(quoted)")
            return true
        } catch  where noDereference {
            if noCreate && error.errno == .noSuchFileOrDirectory { return true }
            context.error("\(Messages.settingTimes) \(quoted): \(error.reason)")
            return false
        } catch {
            context.report(error.reworded(as: error.operation, operand.file), Messages.cannotTouch)
            return false
        }
    }

    /// The access and modification times the source gives; nil, after saying why, when a date
    /// is not one or the reference cannot be read.
    private func times(in context: CommandContext) -> (access: TimeChange, modification: TimeChange)? {
        let zone = Clock.Zone(environment: context.state.environment)
        /// The moment a `-d` date names, or nil after saying it is none.
        func date(_ text: [UInt8]) -> TimeChange? {
            guard let time = DateExpression.parse(text, in: zone) else {
                context.error("\(Messages.invalidDate) \(Quoting.always(text))")
                return nil
            }
            return .to(time)
        }
        switch source {
        case .now:
            return (.now, .now)
        case .date(let text):
            return date(text).map { ($0, $0) }
        case .stamp(let text):
            guard let time = DateExpression.parseStamp(text, in: zone, now: Clock.now()) else {
                context.error("\(Messages.invalidDate) \(Quoting.always(text))")
                return nil
            }
            return (.to(time), .to(time))
        case .reference(let reference, let text):
            let info: FileInfo
            do { info = try context.resolve(reference).info(followSymlinks: !noDereference) } catch {
                context.error(
                    "\(Messages.cannotGetAttributes) \(Quoting.always(reference.bytes)): \(error.reason)")
                return nil
            }
            if let text { return date(text).map { ($0, $0) } }
            return (.to(info.accessTime), .to(info.modificationTime))
        }
    }

    private enum Messages {
        static let missingOperand = "missing file operand"
        static let cannotTouch = "cannot touch"
        static let created = "created"
        static let changedTimes = "changed times of"
        static let settingTimes = "setting times of"
        static let invalidDate = "invalid date format"
        static let cannotGetAttributes = "failed to get attributes of"
        static let moreThanOneSource = "cannot specify times from more than one source"
        static let invalidArgument = "invalid argument"
        static let forTime =
            "for '--time'\nValid arguments are:\n  - 'atime', 'access', 'use'\n  - 'mtime', 'modify'"
    }
}
