import PathModel

/// `du [-achs] [-d N] [--apparent-size] [PATH...]`: summarize disk usage of each PATH, recursively.
///
/// Numbers are GNU du's: space allocated (`st_blocks`) in 1024-byte units rounded up, or bytes
/// (`--apparent-size`); a file with several hard links counts once. Directories come after their
/// entries, entries in the order the kernel lists them; symlinks are never followed.
public struct DuCommand: ShellCommand {
    public static let name = "du"
    public static let summary = "Summarize the disk usage of each PATH (. by default), recursively for directories."
    public static let synopsis = "[-a] [-c] [-h] [-s] [-d N] [--apparent-size] [--json] [PATH]..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case all, apparentSize, total, maxDepth, humanReadable, json, summarize
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("a", "all", key: .all, help: "write counts for all files, not just directories"),
        OptionSpec(
            nil, "apparent-size", key: .apparentSize,
            help: "print apparent sizes (bytes in the file) rather than disk usage"),
        OptionSpec("c", "total", key: .total, help: "produce a grand total"),
        OptionSpec(
            "d", "max-depth", value: .required, valueName: "N", key: .maxDepth,
            help: "print the total for a directory only if it is N or fewer levels below the PATH"),
        OptionSpec(
            "h", "human-readable", key: .humanReadable,
            help: "print sizes in human readable format (e.g., 1K 234M 2G)"),
        OptionSpec(
            nil, "json", key: .json,
            help: "write a JSON array of file records with disk_usage (see docs/json.md)"),
        OptionSpec("s", "summarize", key: .summarize, help: "display only a total for each argument"),
    ]

    /// Print files too, not only directories.
    public var all: Bool
    /// Count bytes in files rather than blocks allocated.
    public var apparentSize: Bool
    /// End with a `total` line.
    public var grandTotal: Bool
    /// Print directories down to this depth only (`-s` is depth 0).
    public var maxDepth: Int?
    /// Sizes like `1.5K`, `234M`.
    public var humanReadable: Bool
    /// Write file records with their usage as a JSON array instead of lines.
    public var json: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        all = arguments.has(.all)
        apparentSize = arguments.has(.apparentSize)
        grandTotal = arguments.has(.total)
        humanReadable = arguments.has(.humanReadable)
        json = arguments.has(.json)
        if let text = arguments.value(.maxDepth) {
            guard let depth = Int(text), depth >= 0, text.allSatisfy(\.isASCII) else {
                throw .invalid(Messages.invalidDepth(text))
            }
            maxDepth = depth
        }
        if arguments.has(.summarize) {
            if let maxDepth, maxDepth != 0 { throw .invalid(Messages.summarizeWithDepth(maxDepth)) }
            if all { throw .invalid(Messages.summarizeWithAll) }
            maxDepth = 0
        }
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        var walk = DuWalk(command: self, context: context)
        return walk.run()
    }

    fileprivate enum Messages {
        static func invalidDepth(_ text: String) -> String { "invalid maximum depth \(Quoting.always(text))" }
        static func summarizeWithDepth(_ depth: Int) -> String {
            "warning: summarizing conflicts with --max-depth=\(depth)"
        }
        static let summarizeWithAll = "cannot both summarize and show all entries"
        static let cannotAccess = "cannot access"
        static let cannotReadDirectory = "cannot read directory"
        static let total = "total"
    }
}

/// One `du` run: the inodes seen, the walk's stack and the exit status.
private struct DuWalk {
    let command: DuCommand
    let context: CommandContext
    var seen: Set<FileIdentity> = []
    var status = ExitStatus.success
    var records: JSONArrayWriter?
    let names = OwnerNames()

    init(command: DuCommand, context: CommandContext) {
        self.command = command
        self.context = context
        if command.json { records = JSONArrayWriter(output: context.stdout) }
    }

    mutating func run() -> ExitStatus {
        var grandTotal: UInt64 = 0
        for operand in command.operands.isEmpty ? [Argument(".")] : command.operands {
            if context.isCancelled { return .interrupted }
            grandTotal += summarize(operand)
            if context.stdout.isBroken { break }
        }
        if records != nil {
            if command.grandTotal { records?.append([(DuCommand.Messages.total, String(grandTotal))]) }
            records?.finish()
        } else if command.grandTotal {
            printLine(grandTotal, Array(DuCommand.Messages.total.utf8))
        }
        context.stdout.flush()
        if let error = context.stdout.error, error.errno != .brokenPipe {
            context.error("write error: \(error.reason)")
            return .failure
        }
        return context.isCancelled ? .interrupted : status
    }

    /// The usage of one operand, printing as it goes: each directory after its entries, in the
    /// volume's order.
    private mutating func summarize(_ operand: Argument) -> UInt64 {
        let file = context.resolve(operand)
        let info: FileInfo
        do {
            // `link/` names the directory a symlink leads to, as in GNU du.
            info = try operand.info(at: file, followSymlinks: false)
        } catch {
            report(DuCommand.Messages.cannotAccess, operand.bytes, error)
            return 0
        }
        var walk = TreeWalk(
            file, spelled: operand.bytes, info: info, options: TreeWalk.Options(examinesEveryEntry: true))
        // The totals of the directories entered; nil for one that was counted already.
        var totals: [UInt64?] = []
        var events = 0
        while let event = walk.next() {
            events += 1
            if events & 0x3FF == 0, context.isCancelled || context.stdout.isBroken { break }
            let entryInfo: FileInfo
            switch event {
            case .failure(let error):
                report(DuCommand.Messages.cannotAccess, walk.path, error)
                continue
            case .cycle(let ancestor):
                // A directory that is its own ancestor (a bind mount inside itself) is said, not
                // silently skipped as GNU du skips it.
                context.stdout.flush()
                context.error(Diagnostics.fileSystemLoop(walk.path, ancestor: ancestor))
                status = .failure
                continue
            case .leave:
                guard let total = totals.removeLast() else { continue }
                if walk.depth <= command.maxDepth ?? .max { emit(total, &walk) }
                if walk.depth == 0 { return total }
                add(total, to: &totals)
                continue
            case .directory:
                continue
            case .enter, .entry, .unreadable:
                do { entryInfo = try walk.info() } catch { continue }
            }
            if entryInfo.kind != .directory {
                guard let size = count(entryInfo) else { continue }
                add(size, to: &totals)
                if walk.depth == 0 || command.all && walk.depth <= command.maxDepth ?? .max {
                    emit(size, &walk)
                }
                if walk.depth == 0 { return size }
                continue
            }
            // A directory has several links: reached again (an operand below another, a bind
            // mount elsewhere in the tree), it counts once.
            guard seen.insert(entryInfo.identity).inserted else {
                if case .enter = event {
                    walk.visit([])
                    totals.append(nil)
                }
                continue
            }
            if case .unreadable(let error) = event {
                report(DuCommand.Messages.cannotReadDirectory, walk.path, error)
                let own = usage(entryInfo)
                if walk.depth <= command.maxDepth ?? .max { emit(own, &walk) }
                if walk.depth == 0 { return own }
                add(own, to: &totals)
                continue
            }
            totals.append(usage(entryInfo))
            if case .enter = event, !command.all { countFiles(&walk, into: &totals) }
        }
        // Stopped early (Ctrl-C, a closed output): what was counted so far.
        return totals.compactMap { $0 }.reduce(0, +)
    }

    /// Counts the files of the directory just entered into its total, and has the walk go on to
    /// the rest only: without `-a` a file has no line of its own, so it needs no event. A file
    /// with several links is left to the walk, since the first place it is met in the walk's
    /// order is the one it counts in.
    private mutating func countFiles(_ walk: inout TreeWalk, into totals: inout [UInt64?]) {
        let children = walk.children
        var rest: [Int] = []
        for index in 0..<children.count {
            if index & 0xFFF == 0xFFF, context.isCancelled { break }
            if children.kind(index) == .directory {
                rest.append(index)
                continue
            }
            let info: FileInfo
            do {
                info = try walk.childInfo(index)
            } catch {
                var path = walk.path
                if path.last != 0x2F { path.append(0x2F) }
                report(DuCommand.Messages.cannotAccess, path + children.name(index), error)
                continue
            }
            if info.kind == .directory || info.linkCount > 1 {
                rest.append(index)
            } else {
                add(usage(info), to: &totals)
            }
        }
        walk.visit(rest)
    }

    /// Adds `size` to the total of the directory entered last, unless it was counted already.
    private func add(_ size: UInt64, to totals: inout [UInt64?]) {
        guard let last = totals.indices.last, let total = totals[last] else { return }
        totals[last] = total + size
    }

    /// A file's usage, or nil when it is a further hard link to a file already counted.
    private mutating func count(_ info: FileInfo) -> UInt64? {
        if info.linkCount > 1 {
            guard seen.insert(info.identity).inserted else { return nil }
        }
        return usage(info)
    }

    /// Bytes allocated, or bytes in the file with `--apparent-size`.
    private func usage(_ info: FileInfo) -> UInt64 {
        command.apparentSize ? info.size : info.blocks * 512
    }

    /// One line of du's output for the walk's current entry, or with `--json` one record.
    private mutating func emit(_ bytes: UInt64, _ walk: inout TreeWalk) {
        guard records != nil, let info = try? walk.info() else { return printLine(bytes, walk.path) }
        var record = JSONText.record(path: walk.path, name: Array(walk.name), info: info, names: names)
        record.diskUsage = bytes
        records?.append(JSONText.fields(of: record))
    }

    private func printLine(_ bytes: UInt64, _ name: [UInt8]) {
        let size =
            command.humanReadable
            ? FileFormat.humanSize(bytes)
            : String((bytes + 1023) / 1024)
        context.stdout.write(size)
        context.stdout.write(byte: 0x09)
        context.stdout.write(bytes: name)
        context.stdout.write(byte: 0x0A)
    }

    /// `du: PHRASE 'path': Reason`, and the status becomes 1.
    private mutating func report(_ phrase: String, _ path: [UInt8], _ error: FileError) {
        context.stdout.flush()
        context.error("\(phrase) \(Quoting.always(path)): \(error.reason)")
        status = .failure
    }
}
