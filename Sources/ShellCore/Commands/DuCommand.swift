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

    /// A directory being summed, with where the walk is in it.
    struct Frame {
        let reach: DirectoryReach
        let path: [UInt8]
        let name: [UInt8]
        let info: FileInfo
        let depth: Int
        let entries: [DirectoryEntry]
        var next = 0
        var total: UInt64
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

    /// The usage of one operand, printing as it goes.
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
        guard info.kind == .directory else {
            guard let size = count(info) else { return 0 }
            emit(size, operand.bytes, operand.bytes, info)
            return size
        }
        // A directory has several links: reached again (an operand below another), it counts once.
        guard seen.insert(info.identity).inserted else { return 0 }
        let top: DirectoryHandle
        do {
            top = try DirectoryHandle(file)
        } catch {
            report(DuCommand.Messages.cannotReadDirectory, operand.bytes, error)
            emit(usage(info), operand.bytes, operand.bytes, info)
            return usage(info)
        }
        let topReach = DirectoryReach(opened: top, at: [], from: nil, depth: 0)
        guard
            var root = frame(top, topReach, path: operand.bytes, name: operand.bytes, info: info, depth: 0, own: usage(info))
        else {
            emit(usage(info), operand.bytes, operand.bytes, info)
            return usage(info)
        }
        var stack: [Frame] = []
        // The identities of `root` and the directories above it, to tell one that is its own ancestor.
        var ancestors: Set<FileIdentity> = [info.identity]
        while true {
            if root.next & 0x3FF == 0, context.isCancelled || context.stdout.isBroken { return root.total }
            guard root.next < root.entries.count else {
                let finished = root
                if finished.depth <= command.maxDepth ?? .max {
                    emit(finished.total, finished.path, finished.name, finished.info)
                }
                ancestors.remove(finished.info.identity)
                guard var parent = stack.popLast() else { return finished.total }
                parent.total += finished.total
                root = parent
                continue
            }
            let entry = root.entries[root.next]
            root.next += 1
            let path = joinedPath(root.path, entry.name)
            let entryInfo: FileInfo
            do {
                entryInfo = try root.reach.base.info(at: root.reach.path(to: entry.name))
            } catch {
                report(DuCommand.Messages.cannotAccess, path, error)
                continue
            }
            if entryInfo.kind == .directory {
                // A directory that is its own ancestor (a bind mount inside itself) is said, not
                // silently skipped as GNU du skips it.
                let identity = entryInfo.identity
                if ancestors.contains(identity),
                    let ancestor = root.info.identity == identity ? root : stack.last(where: { $0.info.identity == identity })
                {
                    context.stdout.flush()
                    context.error(Diagnostics.fileSystemLoop(path, ancestor: ancestor.path))
                    status = .failure
                    continue
                }
                guard seen.insert(entryInfo.identity).inserted else { continue }
                let own = usage(entryInfo)
                do {
                    let relative = root.reach.path(to: entry.name)
                    let handle = try DirectoryHandle(relative, in: root.reach.base)
                    let reach = DirectoryReach(opened: handle, at: relative, from: root.reach.base, depth: root.depth + 1)
                    if let child = frame(
                        handle, reach, path: path, name: entry.name, info: entryInfo, depth: root.depth + 1, own: own)
                    {
                        stack.append(root)
                        root = child
                        ancestors.insert(identity)
                        continue
                    }
                } catch {
                    report(DuCommand.Messages.cannotReadDirectory, path, error)
                }
                root.total += own
                if root.depth + 1 <= command.maxDepth ?? .max { emit(own, path, entry.name, entryInfo) }
                continue
            }
            guard let size = count(entryInfo) else { continue }
            root.total += size
            if command.all && root.depth + 1 <= command.maxDepth ?? .max { emit(size, path, entry.name, entryInfo) }
        }
    }

    /// A directory's frame with its entries read from `handle`; nil (after a message) when they
    /// cannot be.
    private mutating func frame(
        _ handle: DirectoryHandle, _ reach: DirectoryReach, path: [UInt8], name: [UInt8], info: FileInfo, depth: Int, own: UInt64
    ) -> Frame? {
        var entries: [DirectoryEntry] = []
        do {
            try handle.forEachEntry(at: []) { entries.append($0) }
        } catch {
            report(DuCommand.Messages.cannotReadDirectory, path, error)
            return nil
        }
        return Frame(reach: reach, path: path, name: name, info: info, depth: depth, entries: entries, total: own)
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

    /// One line of du's output, or with `--json` one record.
    private mutating func emit(_ bytes: UInt64, _ path: [UInt8], _ name: [UInt8], _ info: FileInfo) {
        guard records != nil else { return printLine(bytes, path) }
        var record = JSONText.record(path: path, name: BasenameCommand.strip(name, suffix: nil), info: info, names: names)
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
