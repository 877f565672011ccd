import PathModel

/// `du [-abchklmsxDHLPS0] [-B SIZE] [-d N] [-t SIZE] [--apparent-size] [--inodes] [--time[=WORD]]
/// [--exclude=PATTERN] [-X FILE] [PATH... | --files0-from=F]`: summarize disk usage of each PATH, recursively.
///
/// Numbers are GNU du's: space allocated (`st_blocks`) in 1024-byte units rounded up (or other
/// units: `-b`, `-m`, `-B`, the `DU_BLOCK_SIZE` variables), bytes (`--apparent-size`) or file
/// counts (`--inodes`); a file with several hard links counts once (unless `-l`). Directories
/// come after their entries, entries in the order the kernel lists them; symlinks are followed
/// only with `-L`, operands that are symlinks with `-D`.
public struct DuCommand: ShellCommand {
    public static let name = "du"
    public static let summary = "Summarize the disk usage of each PATH (. by default), recursively for directories."
    public static let synopsis =
        "[-abchklmsxDHLPS0] [-B SIZE] [--si] [-d N] [-t SIZE] [--apparent-size] [--inodes] [--time[=WORD]] [--time-style=STYLE] [--exclude=PATTERN] [-X FILE] [--json] [PATH... | --files0-from=F]"
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case all, apparentSize, blockSize, bytes, countLinks, dereference, dereferenceArguments, exclude
        case excludeFrom, files0From, humanReadable, inodes, json, kibibytes, maxDepth, mebibytes, noDereference, null
        case oneFileSystem, separateDirectories, si, summarize, threshold, time, timeStyle, total
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("a", "all", key: .all, help: "write counts for all files, not just directories"),
        OptionSpec(
            nil, "apparent-size", key: .apparentSize,
            help: "print apparent sizes (bytes in the file) rather than disk usage"),
        OptionSpec(
            "B", "block-size", value: .required, valueName: "SIZE", key: .blockSize,
            help: "scale sizes by SIZE before printing them (K, M, KB, KiB, 1000…; a unit alone is written after each size)"),
        OptionSpec("b", "bytes", key: .bytes, help: "equivalent to '--apparent-size --block-size=1'"),
        OptionSpec("c", "total", key: .total, help: "produce a grand total"),
        OptionSpec(
            "d", "max-depth", value: .required, valueName: "N", key: .maxDepth,
            help: "print the total for a directory only if it is N or fewer levels below the PATH"),
        OptionSpec(
            "D", "dereference-args", key: .dereferenceArguments,
            help: "dereference only symlinks that are listed on the command line"),
        OptionSpec("H", nil, key: .dereferenceArguments, help: "equivalent to --dereference-args (-D)"),
        OptionSpec(
            nil, "exclude", value: .required, valueName: "PATTERN", key: .exclude,
            help: "exclude files that match PATTERN"),
        OptionSpec(
            nil, "files0-from", value: .required, valueName: "F", key: .files0From,
            help: "summarize the PATHs named in F, each ended by a NUL; F - is standard input"),
        OptionSpec(
            "h", "human-readable", key: .humanReadable,
            help: "print sizes in human readable format (e.g., 1K 234M 2G)"),
        OptionSpec(
            nil, "inodes", key: .inodes, help: "list inode usage information instead of block usage"),
        OptionSpec(
            nil, "json", key: .json,
            help: "write a JSON array of file records with disk_usage (see docs/json.md)"),
        OptionSpec("k", nil, key: .kibibytes, help: "like --block-size=1K"),
        OptionSpec("l", "count-links", key: .countLinks, help: "count sizes many times if hard linked"),
        OptionSpec("L", "dereference", key: .dereference, help: "dereference all symbolic links"),
        OptionSpec("m", nil, key: .mebibytes, help: "like --block-size=1M"),
        OptionSpec("P", "no-dereference", key: .noDereference, help: "don't follow any symbolic links (the default)"),
        OptionSpec(
            "S", "separate-dirs", key: .separateDirectories, help: "for directories do not include size of subdirectories"),
        OptionSpec(nil, "si", key: .si, help: "like -h, but use powers of 1000 not 1024"),
        OptionSpec("s", "summarize", key: .summarize, help: "display only a total for each argument"),
        OptionSpec(
            "t", "threshold", value: .required, valueName: "SIZE", key: .threshold,
            help: "exclude entries smaller than SIZE if positive, or entries greater than SIZE if negative"),
        OptionSpec(
            nil, "time", value: .optional, valueName: "WORD", key: .time,
            help: "show the time of the last modification of any file in the directory, or of its WORD: atime, access, use, ctime, status"),
        OptionSpec(
            nil, "time-style", value: .required, valueName: "STYLE", key: .timeStyle,
            help: "show times using STYLE: full-iso, long-iso, iso, +FORMAT (long-iso by default; see TIME_STYLE)"),
        OptionSpec("x", "one-file-system", key: .oneFileSystem, help: "skip directories on different file systems"),
        OptionSpec(
            "X", "exclude-from", value: .required, valueName: "FILE", key: .excludeFrom,
            help: "exclude files that match any pattern in FILE"),
        OptionSpec("0", "null", key: .null, help: "end each output line with NUL, not newline"),
    ]

    /// Print files too, not only directories.
    public var all: Bool
    /// Count bytes in files rather than blocks allocated.
    public var apparentSize: Bool
    /// End with a `total` line.
    public var grandTotal: Bool
    /// Print directories down to this depth only (`-s` is depth 0).
    public var maxDepth: Int?
    /// The unit of the numbers printed (`-h`, `--si`, `-k`, `-m`, `-b`, `-B`, the last given);
    /// nil when none was, and `DU_BLOCK_SIZE`, `BLOCK_SIZE` or `BLOCKSIZE` then decide.
    var sizeUnit: SizeUnit?
    /// Count files (inodes) instead of space (`--inodes`).
    public var inodes: Bool
    /// Which symlinks are followed: none (`-P`, the default), operands (`-D`, `-H`) or all
    /// (`-L`), the last given; following, a file reached twice counts once.
    public var following: TreeWalk.Following
    /// Count a file with several hard links (and a directory reached again) each time (`-l`).
    public var countsLinks: Bool
    /// A directory's size leaves out its subdirectories' (`-S`).
    public var separatesDirectories: Bool
    /// The time shown after each size (`--time`), the newest in the directory's tree; nil for none.
    public var timeField: LsCommand.TimeField?
    /// The `--time-style` given; nil when none was, and `TIME_STYLE`, else `long-iso`, applies.
    public var timeStyle: [UInt8]?
    /// Leave directories on another file system than their operand unentered (`-x`).
    public var oneFileSystem: Bool
    /// Print only entries at least this big, or with a negative value at most its size (`-t`).
    public var threshold: Int64?
    /// End each line with NUL rather than a newline (`-0`).
    public var nullTerminated: Bool
    /// Patterns of paths left out, counted nowhere (`--exclude`); `-X` files add theirs when run.
    public var excluded: [[UInt8]]
    /// Files of patterns, one a line (`-X`), read when the command runs.
    public var excludeFiles: [[UInt8]]
    /// Write file records with their usage as a JSON array instead of lines.
    public var json: Bool
    /// The file that names the PATHs, NUL-separated (`--files0-from`); `-` is standard input.
    public var namesFile: Argument?
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        all = arguments.has(.all)
        apparentSize = false
        sizeUnit = nil
        following = .never
        excluded = []
        excludeFiles = []
        // GNU reads these in order: a later unit undoes an earlier one.
        for (key, value) in arguments.options {
            switch key {
            case .apparentSize: apparentSize = true
            case .bytes: (apparentSize, sizeUnit) = (true, SizeUnit(blockSize: 1))
            case .humanReadable: sizeUnit = .humanReadable
            case .si: sizeUnit = .si
            case .kibibytes: sizeUnit = SizeUnit(blockSize: 1024)
            case .mebibytes: sizeUnit = SizeUnit(blockSize: 1024 * 1024)
            case .blockSize: sizeUnit = try SizeUnit(blockSizeArgument: value ?? [])
            case .dereference: following = .always
            case .dereferenceArguments: following = .start
            case .noDereference: following = .never
            case .exclude: excluded.append(value ?? [])
            case .excludeFrom: excludeFiles.append(value ?? [])
            default: break
            }
        }
        grandTotal = arguments.has(.total)
        countsLinks = arguments.has(.countLinks)
        separatesDirectories = arguments.has(.separateDirectories)
        if arguments.has(.time) {
            let word = arguments.bytes(.time)
            timeField = try word.map { word throws(UsageError) in try Self.timeWords.value(of: word) } ?? .modification
        }
        timeStyle = arguments.bytes(.timeStyle)
        inodes = arguments.has(.inodes)
        oneFileSystem = arguments.has(.oneFileSystem)
        nullTerminated = arguments.has(.null)
        json = arguments.has(.json)
        if let option = arguments.options.last(where: { $0.key == .threshold }) {
            threshold = try Self.parseThreshold(option.value ?? [])
        }
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
        namesFile = arguments.bytes(.files0From).map { Argument(bytes: $0) }
        operands = arguments.operands
        if namesFile != nil, let extra = operands.first { throw NameList.operandWithList(extra) }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        var patterns = excluded
        for name in excludeFiles {
            do {
                let text = try context.resolve(Argument(bytes: name)).readBytes()
                patterns += text.split(separator: 0x0A).map(Array.init)
            } catch {
                context.error("\(Quoting.ifNeeded(name)): \(error.reason)")
                return .failure
            }
        }
        var timeFormat: [UInt8]?
        if timeField != nil {
            do throws(UsageError) {
                timeFormat = try Self.timeFormat(given: timeStyle, variable: context.state.environment["TIME_STYLE"])
            } catch {
                return context.usageError(Diagnostics.render(error))
            }
        }
        if inodes && apparentSize { context.error(Messages.ineffectiveWithInodes) }
        var unit = sizeUnit ?? SizeUnit.blocks(context.state.environment, variable: "DU_BLOCK_SIZE")
        // As GNU du: file counts keep the unit's scaling, not its size.
        if inodes { unit = SizeUnit(blockSize: 1, autoscale: unit.autoscale, base: unit.base, letter: unit.autoscale) }
        var list: NameList?
        if let namesFile {
            guard let names = NameList.read(namesFile, in: context) else { return .failure }
            list = names
        }
        var walk = DuWalk(
            command: self, context: context, excluded: patterns.map { WholeTextGlob(bytes: $0) }, unit: unit,
            timeFormat: timeFormat, zone: Clock.Zone(environment: context.state.environment))
        return walk.run(list)
    }

    /// The `date`-style format of `--time`'s column, as GNU du reads the style `given` with
    /// `--time-style`, else the `TIME_STYLE` `variable`: `full-iso`, `long-iso`, `iso` or
    /// `+FORMAT`. A variable saying `locale`, or none, means `long-iso`; in the variable a
    /// `posix-` prefix is dropped and a format ends at its first newline.
    /// - Throws: `UsageError.invalid` in GNU's words for another style.
    static func timeFormat(given: [UInt8]?, variable: [UInt8]?) throws(UsageError) -> [UInt8] {
        var style: [UInt8]
        if let given {
            style = given
        } else {
            guard let variable, variable != Array("locale".utf8) else { return ListingTimeStyle.longISO }
            style = variable
            if style.first == 0x2B { style = Array(style.prefix { $0 != 0x0A }) }
            let posix = Array("posix-".utf8)
            while style.starts(with: posix) { style.removeFirst(posix.count) }
        }
        if style.first == 0x2B { return Array(style.dropFirst()) }
        return try timeStyles.value(of: style)
    }

    /// The words of `--time`.
    static let timeWords = ArgumentChoice<LsCommand.TimeField>(
        option: "--time",
        [("atime", .access), ("access", .access), ("use", .access), ("ctime", .change), ("status", .change)])

    /// The named styles of `--time-style`.
    static let timeStyles = ArgumentChoice<[UInt8]>(
        option: "time style",
        [
            ("full-iso", ListingTimeStyle.fullISO), ("long-iso", ListingTimeStyle.longISO),
            ("iso", Array("%Y-%m-%d".utf8)),
        ])

    /// SIZE of `-t`: a signed number with GNU's units (`K`, `M`, `G`… of 1024, `KB`… of 1000,
    /// `KiB`… of 1024); `-0` is refused, as GNU refuses it.
    /// - Throws: `UsageError` with GNU's words.
    static func parseThreshold(_ text: [UInt8]) throws(UsageError) -> Int64 {
        let spelled = String(decoding: text, as: UTF8.self)
        var rest = text[...]
        let negative = rest.first == 0x2D
        if negative || rest.first == 0x2B { rest = rest.dropFirst() }
        let digits = rest.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !digits.isEmpty, let magnitude = Int64(String(decoding: digits, as: UTF8.self)) else {
            throw .invalid(Messages.invalidThreshold(spelled))
        }
        let unit = rest.dropFirst(digits.count)
        let letters: [UInt8: Int] = [
            UInt8(ascii: "k"): 1, UInt8(ascii: "K"): 1, UInt8(ascii: "m"): 2, UInt8(ascii: "M"): 2,
            UInt8(ascii: "g"): 3, UInt8(ascii: "G"): 3, UInt8(ascii: "t"): 4, UInt8(ascii: "T"): 4,
            UInt8(ascii: "P"): 5, UInt8(ascii: "E"): 6, UInt8(ascii: "Z"): 7, UInt8(ascii: "Y"): 8,
        ]
        var multiplier: Int64 = 1
        if let letter = unit.first {
            guard let power = letters[letter] else { throw .invalid(Messages.invalidSuffix(spelled)) }
            let base: Int64
            switch Array(unit.dropFirst()) {
            case []: base = 1024
            case [UInt8(ascii: "B")]: base = 1000
            case Array("iB".utf8): base = 1024
            default: throw .invalid(Messages.invalidSuffix(spelled))
            }
            for _ in 0..<power {
                let (product, overflow) = multiplier.multipliedReportingOverflow(by: base)
                guard !overflow else { throw .invalid(Messages.invalidThreshold(spelled)) }
                multiplier = product
            }
        }
        let (value, overflow) = magnitude.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { throw .invalid(Messages.invalidThreshold(spelled)) }
        if negative && value == 0 { throw .invalid(Messages.invalidThreshold(spelled)) }
        return negative ? -value : value
    }

    /// Whether a line for `size` is printed under `-t`.
    func passesThreshold(_ size: UInt64) -> Bool {
        guard let threshold else { return true }
        return threshold >= 0 ? size >= UInt64(threshold) : size <= threshold.magnitude
    }

    fileprivate enum Messages {
        static func invalidDepth(_ text: String) -> String { "invalid maximum depth \(Quoting.always(text))" }
        static func summarizeWithDepth(_ depth: Int) -> String {
            "warning: summarizing conflicts with --max-depth=\(depth)"
        }
        static let summarizeWithAll = "cannot both summarize and show all entries"
        static let ineffectiveWithInodes = "warning: options --apparent-size and -b are ineffective with --inodes"
        static func invalidThreshold(_ text: String) -> String { "invalid --threshold argument \(Quoting.always(text))" }
        static func invalidSuffix(_ text: String) -> String {
            "invalid suffix in --threshold argument \(Quoting.always(text))"
        }
        static let cannotAccess = "cannot access"
        static let cannotReadDirectory = "cannot read directory"
        static let total = "total"
    }
}

/// What a file, or a directory with what it holds, counts: its usage, and with `--time` the
/// newest of its times.
private struct Usage {
    var size: UInt64
    var time: Timestamp?

    /// Counts `other` in: its usage added, its time kept when newer.
    mutating func add(_ other: Usage) {
        size += other.size
        if let time = other.time, self.time.map({ time > $0 }) ?? true { self.time = time }
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
    /// `--exclude` and `-X` patterns.
    let excluded: [WholeTextGlob]
    /// The unit sizes are written in.
    let unit: SizeUnit
    /// With `--time`, the format of the time after each size.
    let timeFormat: [UInt8]?
    let zone: Clock.Zone
    /// Everything counted so far, for `-c`: with `-S` more than the operands' own lines say.
    var grandTotal = Usage(size: 0)

    init(
        command: DuCommand, context: CommandContext, excluded: [WholeTextGlob], unit: SizeUnit, timeFormat: [UInt8]?,
        zone: Clock.Zone
    ) {
        self.command = command
        self.context = context
        self.excluded = excluded
        self.unit = unit
        self.timeFormat = timeFormat
        self.zone = zone
        if command.json { records = JSONArrayWriter(output: context.stdout) }
    }

    /// Whether `path` is left out: a pattern matches it whole, or its end after any `/`, as
    /// GNU du matches `--exclude` (`*` matching `/` too).
    func isExcluded(_ path: [UInt8]) -> Bool {
        guard !excluded.isEmpty else { return false }
        for pattern in excluded {
            if pattern.matches(path) { return true }
            for index in path.indices where path[index] == 0x2F && index + 1 < path.count && path[index + 1] != 0x2F {
                if pattern.matches(path[(index + 1)...]) { return true }
            }
        }
        return false
    }

    /// Counts each operand, or each name of `list` (no `.` when it is empty), then the total.
    mutating func run(_ list: NameList?) -> ExitStatus {
        let operands = list?.names ?? (command.operands.isEmpty ? [Argument(".")] : command.operands)
        for (index, operand) in operands.enumerated() {
            if context.isCancelled { return .interrupted }
            if let list, !list.accepts(index, in: context) {
                status = .failure
                continue
            }
            summarize(operand)
            if context.stdout.isBroken { break }
        }
        if records != nil {
            if command.grandTotal { records?.append([(DuCommand.Messages.total, String(grandTotal.size))]) }
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

    /// Counts one operand, printing as it goes: each directory after its entries, in the
    /// volume's order.
    private mutating func summarize(_ operand: Argument) {
        let file = context.resolve(operand)
        let info: FileInfo
        do {
            // `link/` names the directory a symlink leads to, as in GNU du.
            info = try operand.info(at: file, followSymlinks: command.following != .never)
        } catch {
            report(DuCommand.Messages.cannotAccess, operand.bytes, error)
            return
        }
        if isExcluded(operand.bytes) { return }
        var walk = TreeWalk(
            file, spelled: operand.bytes, info: info,
            options: TreeWalk.Options(following: command.following, examinesEveryEntry: true))
        // What the directories entered count; nil for one that was counted already.
        var totals: [Usage?] = []
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
                if walk.depth == 0 { return }
                if !command.separatesDirectories { add(total, to: &totals) }
                continue
            case .directory:
                continue
            case .enter, .entry, .unreadable:
                if walk.depth > 0 && isExcluded(walk.path) {
                    if case .enter = event {
                        walk.visit([])
                        totals.append(nil)
                    }
                    continue
                }
                do { entryInfo = try walk.info() } catch { continue }
            }
            if entryInfo.kind == .symlink && command.following == .always && walk.depth > 0 {
                // A symlink -L could not follow (it leads nowhere, or round a loop) is reported
                // and not counted, as GNU du does.
                do { _ = try walk.file.info(followSymlinks: true) } catch {
                    report(DuCommand.Messages.cannotAccess, walk.path, error)
                    continue
                }
            }
            if entryInfo.kind != .directory {
                guard let usage = count(entryInfo) else { continue }
                add(usage, to: &totals)
                if walk.depth == 0 || command.all && walk.depth <= command.maxDepth ?? .max {
                    emit(usage, &walk)
                }
                if walk.depth == 0 { return }
                continue
            }
            // A directory has several links: reached again (an operand below another, a bind
            // mount elsewhere in the tree), it counts once, unless links count each time.
            guard command.countsLinks || seen.insert(entryInfo.identity).inserted else {
                if case .enter = event {
                    walk.visit([])
                    totals.append(nil)
                }
                continue
            }
            if command.oneFileSystem && entryInfo.identity.device != info.identity.device {
                // Another file system: its mount point is left out with all below it, as GNU du does.
                if case .enter = event {
                    walk.visit([])
                    totals.append(nil)
                }
                continue
            }
            if case .unreadable(let error) = event {
                report(DuCommand.Messages.cannotReadDirectory, walk.path, error)
                let own = counted(entryInfo)
                if walk.depth <= command.maxDepth ?? .max { emit(own, &walk) }
                if walk.depth == 0 { return }
                if !command.separatesDirectories { add(own, to: &totals) }
                continue
            }
            totals.append(counted(entryInfo))
            if case .enter = event, !command.all, excluded.isEmpty { countFiles(&walk, into: &totals) }
        }
    }

    /// Counts the files of the directory just entered into its total, and has the walk go on to
    /// the rest only: without `-a` a file has no line of its own, so it needs no event. A file
    /// with several links is left to the walk, since the first place it is met in the walk's
    /// order is the one it counts in.
    private mutating func countFiles(_ walk: inout TreeWalk, into totals: inout [Usage?]) {
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
            if info.kind == .directory || isCountedOnce(info) {
                rest.append(index)
            } else {
                add(counted(info), to: &totals)
            }
        }
        walk.visit(rest)
    }

    /// Counts `usage` in the directory entered last, unless it was counted already.
    private func add(_ usage: Usage, to totals: inout [Usage?]) {
        guard let last = totals.indices.last, totals[last] != nil else { return }
        totals[last]?.add(usage)
    }

    /// Whether a file that is not a directory may be met again and must count once: one with
    /// several links, or any when every symlink is followed; never with `-l`.
    private func isCountedOnce(_ info: FileInfo) -> Bool {
        !command.countsLinks && (info.linkCount > 1 || command.following == .always)
    }

    /// What a file counts, or nil when it was counted already.
    private mutating func count(_ info: FileInfo) -> Usage? {
        if isCountedOnce(info) {
            guard seen.insert(info.identity).inserted else { return nil }
        }
        return counted(info)
    }

    /// What a file counts by itself, counted into the grand total.
    private mutating func counted(_ info: FileInfo) -> Usage {
        let own = Usage(size: usage(info), time: command.timeField.flatMap { info.time($0) })
        grandTotal.add(own)
        return own
    }

    /// Bytes allocated, bytes in the file with `--apparent-size`, or 1 with `--inodes`.
    private func usage(_ info: FileInfo) -> UInt64 {
        command.inodes ? 1 : command.apparentSize ? info.size : info.blocks * 512
    }

    /// One line of du's output for the walk's current entry, or with `--json` one record.
    private mutating func emit(_ usage: Usage, _ walk: inout TreeWalk) {
        guard command.passesThreshold(usage.size) else { return }
        guard records != nil, let info = try? walk.info() else { return printLine(usage, walk.path) }
        var record = JSONText.record(path: walk.path, name: Array(walk.name), info: info, names: names)
        record.diskUsage = usage.size
        records?.append(JSONText.fields(of: record))
    }

    /// `SIZE<tab>NAME`, with `--time` `SIZE<tab>TIME<tab>NAME`.
    private func printLine(_ usage: Usage, _ name: [UInt8]) {
        context.stdout.write(unit.format(usage.size))
        context.stdout.write(byte: 0x09)
        if let timeFormat, let time = usage.time {
            context.stdout.write(bytes: TimeFormat.format(timeFormat, time, zone: zone))
            context.stdout.write(byte: 0x09)
        }
        context.stdout.write(bytes: name)
        context.stdout.write(byte: command.nullTerminated ? 0 : 0x0A)
    }

    /// `du: PHRASE 'path': Reason`, and the status becomes 1.
    private mutating func report(_ phrase: String, _ path: [UInt8], _ error: FileError) {
        context.stdout.flush()
        context.error("\(phrase) \(Quoting.always(path)): \(error.reason)")
        status = .failure
    }
}
