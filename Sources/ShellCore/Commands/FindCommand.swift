import PathModel

/// `find [PATH...] [EXPRESSION]`: walk directory trees and print the entries an expression selects.
///
/// Entries come in GNU find's order: each directory before its entries, entries in the order the
/// kernel lists them, never sorted. Symlinks are never followed (GNU's `-P`).
public struct FindCommand: ShellCommand {
    public static let name = "find"
    public static let summary =
        "Search the directory trees at each PATH (. by default) and print the paths the EXPRESSION selects."
    public static let synopsis =
        "[PATH...] [--json] [-maxdepth N] [-mindepth N] [-name GLOB] [-iname GLOB] [-type f|d|l|p|s|b|c] "
        + "[-newer FILE] [-size [+-]N[cwbkMG]] [-empty] [! EXPR] [EXPR -o EXPR] [( EXPR )] [-print] [-print0]"
    /// The expression has its own grammar (single-dash words), parsed by `FindExpression`.

    /// The starting points.
    public var operands: [Argument]
    /// What selects and prints entries; `-print` is added when it has no action.
    public var expression: FindExpression
    /// Entries deeper than this are neither examined nor entered (`-maxdepth`).
    public var maxDepth: Int?
    /// Entries shallower than this are entered but not examined (`-mindepth`).
    public var minDepth: Int
    /// Write a JSON array of file records (`--json`).
    public var json: Bool

    public init(_ arguments: ParsedArguments<Never>) throws(UsageError) {
        var words = arguments.operands[...]
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

/// One `find` run: the reference times, the exit status and the records written.
private struct FindWalk {
    let command: FindCommand
    let context: CommandContext
    var references: [[UInt8]: Timestamp] = [:]
    var status = ExitStatus.success
    var records: JSONArrayWriter?
    let names = OwnerNames()

    init(command: FindCommand, context: CommandContext) {
        self.command = command
        self.context = context
        if command.json { records = JSONArrayWriter(output: context.stdout) }
    }

    mutating func run() -> ExitStatus {
        for file in command.expression.newerReferences {
            do {
                references[file.bytes] = try context.resolve(file).info().modificationTime
            } catch {
                report(file.bytes, error)
                context.stdout.flush()
                return .failure
            }
        }
        let starts = command.operands.isEmpty ? [Argument(".")] : command.operands
        for start in starts {
            if context.isCancelled { break }
            walk(from: start)
            if context.stdout.isBroken { break }
        }
        records?.finish()
        context.stdout.flush()
        if let error = context.stdout.error, error.errno != .brokenPipe {
            context.error("write error: \(error.reason)")
            return .failure
        }
        return context.isCancelled ? .interrupted : status
    }

    /// Walks the tree at one starting point, in the volume's order, each directory before its
    /// entries, examining each entry as it comes.
    private mutating func walk(from start: Argument) {
        let file = context.resolve(start)
        let info: FileInfo
        do {
            // `link/` names the directory a symlink leads to, as in GNU find.
            info = try start.info(at: file, followSymlinks: false)
        } catch {
            report(start.bytes, error)
            return
        }
        var walk = TreeWalk(file, spelled: start.bytes, info: info, options: TreeWalk.Options(maxDepth: command.maxDepth))
        var count = 0
        while let event = walk.next() {
            count += 1
            if count & 0x3FF == 0, context.isCancelled || context.stdout.isBroken { return }
            switch event {
            case .entry:
                examine(&walk, entered: false)
            case .enter:
                examine(&walk, entered: true)
            case .leave, .directory:
                break
            case .unreadable(let error):
                examine(&walk, entered: false)
                report(walk.path, error)
            case .cycle(let ancestor):
                // A directory that is its own ancestor (a bind mount inside itself) is reported in
                // its place, as GNU find reports it.
                context.stdout.flush()
                context.error(Diagnostics.fileSystemLoop(walk.path, ancestor: ancestor))
                status = .failure
            case .failure(let error):
                report(walk.path, error)
            }
        }
    }

    /// Evaluates the expression on the walk's current entry when it is deep enough; `entered`
    /// says its entries have been read.
    private mutating func examine(_ walk: inout TreeWalk, entered: Bool) {
        guard walk.depth >= command.minDepth else { return }
        _ = evaluate(command.expression, &walk, entered: entered)
    }

    private mutating func evaluate(_ expression: FindExpression, _ walk: inout TreeWalk, entered: Bool) -> Bool {
        switch expression {
        case .and(let left, let right):
            return evaluate(left, &walk, entered: entered) && evaluate(right, &walk, entered: entered)
        case .or(let left, let right):
            return evaluate(left, &walk, entered: entered) || evaluate(right, &walk, entered: entered)
        case .not(let inner):
            return !evaluate(inner, &walk, entered: entered)
        case .constant(let value):
            return value
        case .name(let glob):
            return glob.matchesIncludingLeadingDot(name: walk.name)
        case .caseInsensitiveName(let glob):
            return glob.matchesIncludingLeadingDot(name: FindExpression.lowercased(Array(walk.name)))
        case .type(let kinds):
            return walk.kind.map(kinds.contains) ?? false
        case .newer(let reference):
            guard let time = references[reference.bytes], let info = details(&walk) else { return false }
            return info.modificationTime > time
        case .size(let comparison, let unit, let count):
            guard let info = details(&walk) else { return false }
            let units = (info.size + unit - 1) / unit
            switch comparison {
            case .less: return units < count
            case .equal: return units == count
            case .greater: return units > count
            }
        case .empty:
            switch walk.kind {
            case .regular:
                return details(&walk)?.size == 0
            case .directory:
                if entered { return walk.children.count == 0 }
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
        case .print:
            context.stdout.write(bytes: walk.path)
            context.stdout.write(byte: 0x0A)
            return true
        case .printNull:
            context.stdout.write(bytes: walk.path)
            context.stdout.write(byte: 0x00)
            return true
        case .record:
            guard let info = details(&walk) else { return true }
            let target = info.kind == .symlink ? linkTarget(of: &walk) : nil
            records?.append(
                JSONText.fields(
                    of: JSONText.record(
                        path: walk.path, name: Array(walk.name), info: info, linkTarget: target, names: names)))
            return true
        }
    }

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
