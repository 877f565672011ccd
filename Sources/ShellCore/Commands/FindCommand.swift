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

/// One `find` run: the reference times, the walk's stack and the exit status.
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

    /// An open directory being listed, with where the walk is in it.
    struct Frame {
        let reach: DirectoryReach
        /// The directory's (device, inode), to tell a directory that is its own ancestor.
        let identity: FileIdentity
        let path: [UInt8]
        let depth: Int
        let entries: [DirectoryEntry]
        var next = 0
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
        var visit = FindVisit(
            path: start.bytes, name: Self.startName(start.bytes), depth: 0, kind: info.kind, location: .start(file))
        visit.info = info
        examine(&visit)
        guard info.kind == .directory, command.maxDepth.map({ $0 > 0 }) ?? true else { return }
        var stack: [Frame] = []
        // The identities of the directories on the stack, to tell one that is its own ancestor.
        var ancestors = Set<FileIdentity>()
        enter(&stack, &ancestors, visit, Self.open(visit))
        // Each entry's path is spelled in one buffer, which a visit shares and gives back.
        var path: [UInt8] = []
        path.reserveCapacity(4096)
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].entries.count else {
                ancestors.remove(stack.removeLast().identity)
                continue
            }
            if stack[top].next & 0x3FF == 0, context.isCancelled || context.stdout.isBroken { return }
            let entry = stack[top].entries[stack[top].next]
            stack[top].next += 1
            let reach = stack[top].reach
            path.removeAll(keepingCapacity: true)
            path.append(contentsOf: stack[top].path)
            if path.last != 0x2F { path.append(0x2F) }
            path.append(contentsOf: entry.name)
            let depth = stack[top].depth + 1
            var visit = FindVisit(
                path: path, name: entry.name, depth: depth, kind: entry.kind,
                location: .entry(reach.base, reach.path(to: entry.name)))
            if visit.kind == nil {
                do {
                    visit.info = try visit.examine()
                    visit.kind = visit.info?.kind
                } catch {
                    report(path, error)
                    continue
                }
            }
            // A directory to descend into is opened first: one that is its own ancestor (a bind
            // mount inside itself) is reported in its place, as GNU find reports it.
            var opened: Result<OpenedDirectory, FileError>?
            if visit.kind == .directory, command.maxDepth.map({ depth < $0 }) ?? true {
                opened = Self.open(visit)
                if case .success(let directory) = opened, ancestors.contains(directory.identity),
                    let ancestor = stack.last(where: { $0.identity == directory.identity })
                {
                    context.stdout.flush()
                    context.error(Diagnostics.fileSystemLoop(path, ancestor: ancestor.path))
                    status = .failure
                    continue
                }
            }
            examine(&visit)
            if let opened { enter(&stack, &ancestors, visit, opened) }
        }
    }

    /// A directory opened to be entered, and its (device, inode).
    typealias OpenedDirectory = (handle: DirectoryHandle, identity: FileIdentity)

    /// Opens the directory `visit` is about and examines its descriptor.
    private static func open(_ visit: FindVisit) -> Result<OpenedDirectory, FileError> {
        Result { () throws(FileError) in
            let handle = try visit.open()
            return (handle, try handle.identity())
        }
    }

    /// Lists a directory just opened and pushes it; a failure is reported and the walk goes on.
    private mutating func enter(
        _ stack: inout [Frame], _ ancestors: inout Set<FileIdentity>, _ visit: FindVisit,
        _ opened: Result<OpenedDirectory, FileError>
    ) {
        do {
            let (handle, identity) = try opened.get()
            var entries: [DirectoryEntry] = []
            try handle.forEachEntry(at: []) { entries.append($0) }
            let reach: DirectoryReach
            switch visit.location {
            case .start: reach = DirectoryReach(opened: handle, at: [], from: nil, depth: 0)
            case .entry(let base, let path):
                reach = DirectoryReach(opened: handle, at: path, from: base, depth: visit.depth)
            }
            stack.append(Frame(reach: reach, identity: identity, path: visit.path, depth: visit.depth, entries: entries))
            ancestors.insert(identity)
        } catch {
            report(visit.path, error)
        }
    }

    /// Evaluates the expression on an entry deep enough to be examined.
    private mutating func examine(_ visit: inout FindVisit) {
        guard visit.depth >= command.minDepth else { return }
        _ = evaluate(command.expression, &visit)
    }

    private mutating func evaluate(_ expression: FindExpression, _ visit: inout FindVisit) -> Bool {
        switch expression {
        case .and(let left, let right):
            return evaluate(left, &visit) && evaluate(right, &visit)
        case .or(let left, let right):
            return evaluate(left, &visit) || evaluate(right, &visit)
        case .not(let inner):
            return !evaluate(inner, &visit)
        case .constant(let value):
            return value
        case .name(let glob):
            return glob.matchesIncludingLeadingDot(name: visit.name)
        case .caseInsensitiveName(let glob):
            return glob.matchesIncludingLeadingDot(name: FindExpression.lowercased(visit.name))
        case .type(let kinds):
            return visit.kind.map(kinds.contains) ?? false
        case .newer(let reference):
            guard let time = references[reference.bytes], let info = details(&visit) else { return false }
            return info.modificationTime > time
        case .size(let comparison, let unit, let count):
            guard let info = details(&visit) else { return false }
            let units = (info.size + unit - 1) / unit
            switch comparison {
            case .less: return units < count
            case .equal: return units == count
            case .greater: return units > count
            }
        case .empty:
            switch visit.kind {
            case .regular:
                return details(&visit)?.size == 0
            case .directory:
                do {
                    var empty = true
                    try visit.open().forEachEntry(at: []) { _ in empty = false }
                    return empty
                } catch {
                    report(visit.path, error)
                    return false
                }
            default:
                return false
            }
        case .print:
            context.stdout.write(bytes: visit.path)
            context.stdout.write(byte: 0x0A)
            return true
        case .printNull:
            context.stdout.write(bytes: visit.path)
            context.stdout.write(byte: 0x00)
            return true
        case .record:
            guard var info = details(&visit) else { return true }
            if info.kind == .symlink { info.linkTarget = linkTarget(of: visit) }
            records?.append(JSONText.fields(of: JSONText.record(path: visit.path, name: visit.name, info: info, names: names)))
            return true
        }
    }

    /// The entry's metadata, examined once; nil (after a message) when that fails.
    private mutating func details(_ visit: inout FindVisit) -> FileInfo? {
        if let info = visit.info { return info }
        do {
            let info = try visit.examine()
            visit.info = info
            return info
        } catch {
            report(visit.path, error)
            return nil
        }
    }

    /// A symlink's target for its record; nil (after a message) when it cannot be read.
    private mutating func linkTarget(of visit: FindVisit) -> File? {
        do {
            switch visit.location {
            case .start(let file): return try file.linkTarget()
            case .entry(let parent, let name): return File(bytes: try parent.linkTarget(at: name))
            }
        } catch {
            report(visit.path, error)
            return nil
        }
    }

    /// `find: 'path': Reason`, and the status becomes 1.
    private mutating func report(_ path: [UInt8], _ error: FileError) {
        context.stdout.flush()
        context.error("\(Quoting.always(path)): \(error.reason)")
        status = .failure
    }

    /// The name `-name` sees for a starting point: its last component, trailing slashes aside.
    private static func startName(_ path: [UInt8]) -> [UInt8] {
        var end = path.endIndex
        while end > 1, path[end - 1] == 0x2F { end -= 1 }
        let trimmed = path[..<end]
        guard let slash = trimmed.lastIndex(of: 0x2F), trimmed.count > 1 else { return Array(trimmed) }
        return Array(trimmed[(slash + 1)...])
    }
}

/// An entry as the expression sees it; its metadata and its listing are reached on demand.
private struct FindVisit {
    /// Where an entry is: a starting point by path, or a path below an open directory.
    enum Location {
        case start(File)
        case entry(DirectoryHandle, [UInt8])
    }

    /// The path as printed.
    let path: [UInt8]
    /// The last component, for `-name`.
    let name: [UInt8]
    let depth: Int
    var kind: FileKind?
    var info: FileInfo?
    let location: Location

    init(path: [UInt8], name: [UInt8], depth: Int, kind: FileKind?, location: Location) {
        self.path = path
        self.name = name
        self.depth = depth
        self.kind = kind
        self.location = location
    }

    /// What the kernel says of the entry itself (a symlink is not followed).
    func examine() throws(FileError) -> FileInfo {
        switch location {
        case .start(let file): return try file.info()
        case .entry(let parent, let name): return try parent.info(at: name)
        }
    }

    /// The entry opened as a directory.
    func open() throws(FileError) -> DirectoryHandle {
        switch location {
        case .start(let file): return try DirectoryHandle(file)
        case .entry(let parent, let name): return try DirectoryHandle(name, in: parent)
        }
    }
}
