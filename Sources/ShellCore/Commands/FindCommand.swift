import PathModel

/// `find [-H|-L|-P] [PATH...] [EXPRESSION]`: walk directory trees and do what an expression
/// says with the entries it selects (print them by default).
///
/// Entries come in GNU find's order: each directory before its entries (after them with
/// `-depth`), entries in the order the kernel lists them, never sorted. Symlinks are followed
/// as `-H` and `-L` say (by default, never: GNU's `-P`).
public struct FindCommand: ShellCommand {
    public static let name = "find"
    public static let summary =
        "Search the directory trees at each PATH (. by default) and print the paths the EXPRESSION selects."
    public static let synopsis =
        "[-H|-L|-P] [PATH...] [--json] [-maxdepth N] [-mindepth N] [-depth] [-xdev] [TESTS] [ACTIONS] "
        + "[! EXPR] [EXPR -o EXPR] [( EXPR )]"
    /// The expression has its own grammar (single-dash words), parsed by `FindExpression`.

    /// The starting points.
    public var operands: [Argument]
    /// What selects entries and acts on them; `-print` is added when it has no action.
    public var expression: FindExpression
    /// Entries deeper than this are neither examined nor entered (`-maxdepth`).
    public var maxDepth: Int?
    /// Entries shallower than this are entered but not examined (`-mindepth`).
    public var minDepth: Int
    /// Write a JSON array of file records (`--json`).
    public var json: Bool
    /// Which symlinks are followed (`-P`, `-H`, `-L`).
    public var following: TreeWalk.Following
    /// `-depth`: a directory is evaluated after its entries.
    public var depthFirst: Bool
    /// `-xdev`: directories on another file system are evaluated but not entered.
    public var sameFileSystem: Bool

    public init(_ arguments: ParsedArguments<Never>) throws(UsageError) {
        var words = arguments.operands[...]
        following = .never
        while let first = words.first, ["-H", "-L", "-P"].contains(first.text) {
            following = first.text == "-L" ? .always : first.text == "-H" ? .start : .never
            words.removeFirst()
        }
        operands = []
        while let first = words.first, !FindExpression.startsExpression(first.bytes) {
            operands.append(first)
            words.removeFirst()
        }
        var parser = FindExpression.Parser(words: Array(words))
        let parsed = try parser.parse()
        let action: FindExpression = parsed.json ? .record : .print
        expression = parsed.expression.hasAction ? parsed.expression : .and(parsed.expression, action)
        json = parsed.json
        maxDepth = parsed.maxDepth
        minDepth = parsed.minDepth
        depthFirst = parsed.depthFirst
        sameFileSystem = parsed.sameFileSystem
        if parsed.follows { following = .always }
    }

    /// Takes every argument as it is: paths first, then the expression.
    public static func parse(_ arguments: [Argument]) throws(UsageError) -> FindCommand {
        try FindCommand(ParsedArguments(operands: arguments))
    }

    public func run(in context: CommandContext) -> ExitStatus {
        var walk = FindWalk(command: self, context: context)
        return walk.run()
    }
}

/// One `find` run: the reference files, the output files, the programs waiting to run, the exit
/// status and the records written.
private struct FindWalk {
    let command: FindCommand
    let context: CommandContext
    /// `-newer` and `-samefile` files, examined before the walk.
    var references: [[UInt8]: FileInfo] = [:]
    /// `-fprint` files, opened (created, emptied) before the walk and written in place, as GNU
    /// find writes them: the walk may meet them.
    var outputs: [[UInt8]: (file: OpenFile, stream: OutputStream)] = [:]
    /// Paths waiting for each `-exec … +`, by its number, with the directory they run in.
    var batches: [Int: (directory: File?, paths: [[UInt8]])] = [:]
    var status = ExitStatus.success
    var records: JSONArrayWriter?
    let names = OwnerNames()
    let now = Clock.now()
    let zone: Clock.Zone
    /// The starting point walked now, as written.
    var start: [UInt8] = []
    /// Its device, for `-xdev`.
    var startDevice: UInt64 = 0
    /// Set by `-prune` on the entry being evaluated.
    var pruned = false
    /// Set by `-quit`.
    var quitting = false

    init(command: FindCommand, context: CommandContext) {
        self.command = command
        self.context = context
        zone = Clock.Zone(environment: context.state.environment)
        if command.json { records = JSONArrayWriter(output: context.stdout) }
    }

    mutating func run() -> ExitStatus {
        let executions = command.expression.executions
        if let first = executions.first,
            let refused = ProgramRunner.refuse(
                first.inEntryDirectory ? "find -execdir" : "find -exec", in: context.state, messages: context.stderr)
        {
            return refused
        }
        for file in command.expression.referenceFiles where references[file.bytes] == nil {
            do {
                references[file.bytes] = try context.resolve(file).info()
            } catch {
                report(file.bytes, error)
                context.stdout.flush()
                return .failure
            }
        }
        for file in command.expression.outputFiles {
            do {
                let opened = try context.resolve(file).open(.truncate)
                outputs[file.bytes] = (opened, OutputStream(opened))
            } catch {
                report(file.bytes, error)
                for output in outputs.values { output.file.close() }
                return .failure
            }
        }
        let starts = command.operands.isEmpty ? [Argument(".")] : command.operands
        for start in starts {
            if context.isCancelled || quitting { break }
            walk(from: start)
            if context.stdout.isBroken { break }
        }
        for execution in executions where execution.batched { runBatch(execution) }
        records?.finish()
        context.stdout.flush()
        for (name, output) in outputs {
            output.stream.flush()
            if let error = output.stream.error {
                output.file.close()
                report(name, error)
                continue
            }
            do { try output.file.finish() } catch { report(name, error) }
        }
        if let error = context.stdout.error, error.errno != .brokenPipe {
            context.error("write error: \(error.reason)")
            return .failure
        }
        return context.isCancelled ? .interrupted : status
    }

    /// Walks the tree at one starting point, in the volume's order, each directory before its
    /// entries (after them with `-depth`), examining each entry as it comes.
    private mutating func walk(from start: Argument) {
        let file = context.resolve(start)
        let info: FileInfo
        do {
            // `link/` names the directory a symlink leads to, as in GNU find; -H and -L follow.
            info = try start.info(at: file, followSymlinks: command.following != .never)
        } catch where command.following != .never && error.errno == .noSuchFileOrDirectory {
            // A dangling symlink is still a starting point.
            do { info = try start.info(at: file, followSymlinks: false) } catch {
                report(start.bytes, error)
                return
            }
        } catch {
            report(start.bytes, error)
            return
        }
        self.start = start.bytes
        startDevice = info.device
        var walk = TreeWalk(
            file, spelled: start.bytes, info: info,
            options: TreeWalk.Options(maxDepth: command.maxDepth, following: command.following))
        var count = 0
        while let event = walk.next() {
            count += 1
            if count & 0x3FF == 0, context.isCancelled || context.stdout.isBroken { return }
            switch event {
            case .entry:
                examine(&walk)
            case .enter:
                // A directory pruned, or on another file system (-xdev), is listed but not gone into.
                pruned = false
                if !command.depthFirst { examine(&walk) }
                let crosses = command.sameFileSystem && (try? walk.info().device) != startDevice
                if crosses || (pruned && !command.depthFirst) { walk.visit([]) }
            case .directory:
                break
            case .leave:
                if command.depthFirst { examine(&walk) }
            case .unreadable(let error):
                if !command.depthFirst { examine(&walk) }
                report(walk.path, error)
                if command.depthFirst { examine(&walk) }
            case .cycle(let ancestor):
                // A directory that is its own ancestor (a bind mount inside itself) is reported in
                // its place, as GNU find reports it.
                context.stdout.flush()
                context.error(Diagnostics.fileSystemLoop(walk.path, ancestor: ancestor))
                status = .failure
            case .failure(let error):
                report(walk.path, error)
            }
            if quitting { return }
        }
    }

    /// Evaluates the expression on the walk's current entry when it is deep enough.
    private mutating func examine(_ walk: inout TreeWalk) {
        guard walk.depth >= command.minDepth else { return }
        _ = evaluate(command.expression, &walk)
    }

    private mutating func evaluate(_ expression: FindExpression, _ walk: inout TreeWalk) -> Bool {
        switch expression {
        case .and(let left, let right):
            return evaluate(left, &walk) && evaluate(right, &walk)
        case .or(let left, let right):
            return evaluate(left, &walk) || evaluate(right, &walk)
        case .not(let inner):
            return !evaluate(inner, &walk)
        case .constant(let value):
            return value
        case .name(let glob):
            return glob.matchesIncludingLeadingDot(name: walk.name)
        case .caseInsensitiveName(let glob):
            return glob.matchesIncludingLeadingDot(name: FindExpression.lowercased(walk.name))
        case .path(let glob):
            return glob.matches(walk.path)
        case .caseInsensitivePath(let glob):
            return glob.matches(FindExpression.lowercased(walk.path))
        case .regex(let expression):
            return expression.matchesWhole(walk.path)
        case .type(let kinds):
            return walk.kind.map(kinds.contains) ?? false
        case .newer(let reference):
            guard let time = references[reference.bytes]?.modificationTime, let info = details(&walk) else {
                return false
            }
            return info.modificationTime > time
        case .sameFile(let reference):
            guard let identity = references[reference.bytes]?.identity, let info = details(&walk) else {
                return false
            }
            return info.identity == identity
        case .size(let comparison, let unit, let count):
            guard let info = details(&walk) else { return false }
            return Self.compare((info.size + unit - 1) / unit, comparison, count)
        case .age(let field, let comparison, let amount, let unit):
            guard let info = details(&walk) else { return false }
            let time =
                field == .access ? info.accessTime : field == .change ? info.changeTime : info.modificationTime
            return age(of: time, comparison, amount, unit)
        case .number(let field, let comparison, let value):
            guard let info = details(&walk) else { return false }
            let number: UInt64
            switch field {
            case .links: number = UInt64(info.linkCount)
            case .inode: number = info.inode
            case .userID: number = UInt64(info.userID)
            case .groupID: number = UInt64(info.groupID)
            }
            return Self.compare(number, comparison, value)
        case .noUser:
            guard let info = details(&walk) else { return false }
            return names.owner(of: info) == nil
        case .noGroup:
            guard let info = details(&walk) else { return false }
            return names.group(of: info) == nil
        case .permissions(let match, let bits):
            guard let info = details(&walk) else { return false }
            switch match {
            case .exactly: return info.permissions == bits
            case .allOf: return info.permissions & bits == bits
            case .anyOf: return bits == 0 || info.permissions & bits != 0
            }
        case .empty:
            switch walk.kind {
            case .regular:
                return details(&walk)?.size == 0
            case .directory:
                do {
                    var empty = true
                    try walk.openDirectory().forEachEntry(at: []) { _ in empty = false }
                    return empty
                } catch {
                    report(walk.path, error)
                    return false
                }
            default:
                return false
            }
        case .prune:
            pruned = true
            return true
        case .quit:
            quitting = true
            return true
        case .delete:
            return delete(&walk)
        case .print:
            context.stdout.write(bytes: walk.path)
            context.stdout.write(byte: 0x0A)
            return true
        case .printNull:
            context.stdout.write(bytes: walk.path)
            context.stdout.write(byte: 0x00)
            return true
        case .printFormat(let format):
            format.write(entry(&walk, for: format), to: context.stdout)
            return true
        case .list:
            list(&walk)
            return true
        case .printToFile(let file, let action):
            guard let output = outputs[file.bytes]?.stream else { return true }
            switch action {
            case .print, .printNull:
                output.write(bytes: walk.path)
                if case .print = action { output.write(byte: 0x0A) } else { output.write(byte: 0x00) }
            case .format(let format):
                format.write(entry(&walk, for: format), to: output)
            }
            return true
        case .record:
            guard let info = details(&walk) else { return true }
            let target = info.kind == .symlink ? linkTarget(of: &walk) : nil
            records?.append(
                JSONText.fields(
                    of: JSONText.record(
                        path: walk.path, name: Array(walk.name), info: info, linkTarget: target, names: names)))
            return true
        case .execute(let execution):
            return execute(execution, &walk)
        }
    }

    private static func compare(_ number: UInt64, _ comparison: FindExpression.Comparison, _ value: UInt64) -> Bool {
        switch comparison {
        case .less: return number < value
        case .equal: return number == value
        case .greater: return number > value
        }
    }

    /// Whether `time` was `amount` units ago, as GNU find counts: whole days (`-mtime 1` is one
    /// to two days ago, `+1` more than two, `-1` less than one) and minutes (`-mmin 1` is up to
    /// a minute ago, `+1` more than one, `-1` less than one).
    private func age(
        of time: Timestamp, _ comparison: FindExpression.Comparison, _ amount: Double, _ unit: Int64
    ) -> Bool {
        let seconds =
            Double(now.seconds - time.seconds) + (Double(now.nanoseconds) - Double(time.nanoseconds)) / 1e9
        let unitSeconds = Double(unit)
        let inDays = unit == 86_400
        switch comparison {
        case .greater: return seconds > (amount + (inDays ? 1 : 0)) * unitSeconds
        case .less: return seconds < amount * unitSeconds
        case .equal:
            let low = (amount - (inDays ? 0 : 1)) * unitSeconds
            return seconds >= low && seconds < low + unitSeconds
        }
    }

    /// `-delete`: removes the current entry (a directory once its entries are gone; the
    /// starting point `.` never).
    private mutating func delete(_ walk: inout TreeWalk) -> Bool {
        if walk.depth == 0 && walk.path == [0x2E] { return true }
        do {
            try walk.remove()
            return true
        } catch {
            context.stdout.flush()
            context.error("\(Messages.cannotDelete) \(Quoting.always(walk.path)): \(error.reason)")
            status = .failure
            return false
        }
    }

    /// What `-printf` shows of the current entry: only what the format asks for is read.
    private mutating func entry(_ walk: inout TreeWalk, for format: FindFormat) -> FindEntry {
        let info = format.needsInfo ? details(&walk) : nil
        let isLink = walk.kind == .symlink && !walk.isFollowedSymlink
        let target = format.needsLinkTarget && isLink ? try? walk.linkTarget() : nil
        var followed = FindFormat.typeLetter(walk.kind ?? .unknown)
        if format.needsFollowedType && walk.kind == .symlink {
            do {
                followed = FindFormat.typeLetter(try walk.file.info(followSymlinks: true).kind)
            } catch {
                followed = error.errno == .tooManySymbolicLinkLevels ? UInt8(ascii: "L") : UInt8(ascii: "N")
            }
        }
        return FindEntry(
            path: walk.path, start: start, depth: walk.depth, kind: walk.kind, info: info, linkTarget: target,
            followedTypeLetter: followed, names: names, zone: zone)
    }

    /// `-ls`: `inode blocks mode links owner group size date path [-> target]`, as GNU find writes it.
    private mutating func list(_ walk: inout TreeWalk) {
        guard let info = details(&walk) else { return }
        func right(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.utf8.count)) + text
        }
        func left(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(0, width - text.utf8.count))
        }
        let size =
            info.kind == .blockDevice || info.kind == .characterDevice
            ? "\(FileFormat.major(info.representedDevice)), \(FileFormat.minor(info.representedDevice))"
            : String(info.size)
        let line =
            "\(right(String(info.inode), 9)) \(right(String((info.blocks + 1) / 2), 6)) "
            + "\(FileFormat.modeString(info.mode)) \(right(String(info.linkCount), 3)) "
            + "\(left(names.owner(of: info) ?? String(info.userID), 8)) "
            + "\(left(names.group(of: info) ?? String(info.groupID), 8)) "
            + "\(right(size, 8)) \(FileFormat.listingDate(info.modificationTime, now: now, zone: zone)) "
        context.stdout.write(line + Quoting.escaped(walk.path))
        if info.kind == .symlink, let target = linkTarget(of: &walk) {
            context.stdout.write(" -> " + Quoting.escaped(target))
        }
        context.stdout.write(byte: 0x0A)
    }

    /// `-exec`/`-execdir`: runs the program now (`;`, true when it succeeds), or adds the path
    /// to its batch (`+`, always true), which runs when it is full, when `-execdir` moves to
    /// another directory, and at the end.
    private mutating func execute(_ execution: FindExecution, _ walk: inout TreeWalk) -> Bool {
        var path = walk.path
        var directory: File?
        if execution.inEntryDirectory {
            directory = walk.file.parent
            path = [0x2E, 0x2F] + walk.name
        }
        guard execution.batched else {
            return run(execution.words(for: path), in: directory) == .success
        }
        if let pending = batches[execution.number], pending.directory != directory { runBatch(execution) }
        batches[execution.number, default: (directory, [])].paths.append(path)
        if batches[execution.number]!.paths.count >= Self.batchSize { runBatch(execution) }
        return true
    }

    /// Runs an `-exec … +` with the paths gathered; a failure makes find's status 1.
    private mutating func runBatch(_ execution: FindExecution) {
        guard let batch = batches.removeValue(forKey: execution.number), !batch.paths.isEmpty else { return }
        if run(execution.words + batch.paths, in: batch.directory) != .success { status = .failure }
    }

    private func run(_ words: [[UInt8]], in directory: File?) -> ExitStatus {
        context.stdout.flush()
        return ProgramRunner.run(words, in: context, directory: directory)
    }

    /// How many paths one run of `-exec … +` gets at most.
    private static let batchSize = 1024

    /// The current entry's metadata, examined once; nil (after a message) when that fails.
    private mutating func details(_ walk: inout TreeWalk) -> FileInfo? {
        do {
            return try walk.info()
        } catch {
            report(walk.path, error)
            return nil
        }
    }

    /// A symlink's target for its record; nil (after a message) when it cannot be read.
    private mutating func linkTarget(of walk: inout TreeWalk) -> [UInt8]? {
        do {
            return try walk.linkTarget()
        } catch {
            report(walk.path, error)
            return nil
        }
    }

    /// `find: 'path': Reason`, and the status becomes 1.
    private mutating func report(_ path: [UInt8], _ error: FileError) {
        context.stdout.flush()
        context.error("\(Quoting.always(path)): \(error.reason)")
        status = .failure
    }
}

extension FindWalk {
    fileprivate enum Messages {
        static let cannotDelete = "cannot delete"
    }
}
