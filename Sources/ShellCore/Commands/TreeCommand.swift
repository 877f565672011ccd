import PathModel

/// `tree [-adfhlsxpugDQNFirtcUvJXCn] [-L LEVEL] [-I PATTERN] [-P PATTERN] [--sort WORD] [--timefmt FORMAT]
/// [-H BASEHREF [-T TITLE] [--nolinks]] [--charset CS] [--filelimit N] [-o FILE] [--du] [--prune] [--matchdirs] [--dirsfirst] [--noreport]
/// [DIRECTORY...]`: list
/// directories as an indented tree, as tree(1) does: with box-drawing lines and UTF-8 names in
/// a UTF-8 locale, with ASCII lines and escaped names in any other.
///
/// The walk (`TreeWalk`) streams: each line is written as soon as its entry is known, and memory
/// holds only the listings of the directories on the current path, so a tree deeper than
/// `PATH_MAX` is listed whole. `--du` and `--prune` need what is below a directory before its
/// line: a first walk measures each directory (its size, whether anything is left in it), and
/// the second draws.
public struct TreeCommand: ShellCommand {
    public static let name = "tree"
    public static let summary = "List the contents of each DIRECTORY (default: the current one) as a tree."
    public static let synopsis =
        "[-adfhlsxpugDQNFirtcUvJXCn] [-L LEVEL] [-I PATTERN] [-P PATTERN] [--sort WORD] [--timefmt FORMAT] [-H BASEHREF [-T TITLE] [--nolinks]] [--charset CS] [--filelimit N] [-o FILE] [--du] [--prune] [--matchdirs] [--dirsfirst] [--noreport] [--fromfile] [DIRECTORY | FILE]..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case all, directories, fullPath, human, color, noColor, json, ignore, level, pattern, size, directoriesFirst,
            noReport, fromFile, followLinks, oneFileSystem, permissions, owner, group, date, timeFormat, quote,
            rawNames, classify, noIndent, charset, outputFile, fileLimit, sort, reverse, modificationSort,
            statusChangeSort, unsorted, versionSort, directorySizes, prune, matchDirectories, xml, html, title, noLinks
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("a", key: .all, help: "list all files, hidden ones too"),
        OptionSpec("d", key: .directories, help: "list directories only"),
        OptionSpec("l", key: .followLinks, help: "follow symlinks to directories, each directory once"),
        OptionSpec("f", key: .fullPath, help: "print the full path prefix for each file"),
        OptionSpec("x", key: .oneFileSystem, help: "do not descend into directories on other file systems"),
        OptionSpec("h", key: .human, help: "print sizes in a human readable way (1.2K); implies -s"),
        OptionSpec(
            "C", key: .color, help: "colour names by type from LS_COLORS, even when not on a terminal"),
        OptionSpec("n", key: .noColor, help: "never colour names (-C wins)"),
        OptionSpec(
            "J", "json", key: .json,
            help: "print the tree as JSON in tree(1)'s shape, each entry a file record (docs/json.md)"),
        OptionSpec("X", key: .xml, help: "print the tree as XML, as tree(1) writes it (the last of -J, -X and -H wins)"),
        OptionSpec(
            "H", value: .required, valueName: "BASEHREF", key: .html,
            help: "print the tree as an HTML page whose links start with BASEHREF"),
        OptionSpec(
            "T", value: .required, valueName: "TITLE", key: .title,
            help: "the HTML page's title and heading (Directory Tree by default)"),
        OptionSpec(nil, "nolinks", key: .noLinks, help: "write the HTML page's names without links"),
        OptionSpec(
            "I", value: .required, valueName: "PATTERN", key: .ignore,
            help: "do not list names that match PATTERN"),
        OptionSpec(
            "L", value: .required, valueName: "LEVEL", key: .level,
            help: "descend only LEVEL directories deep"),
        OptionSpec(
            "P", value: .required, valueName: "PATTERN", key: .pattern,
            help: "list only files that match PATTERN (directories are still listed)"),
        OptionSpec(
            nil, "matchdirs", key: .matchDirectories,
            help: "list everything in a directory whose path below the operand matches a -P PATTERN"),
        OptionSpec("s", key: .size, help: "print the size in bytes of each file"),
        OptionSpec(
            nil, "du", key: .directorySizes,
            help: "show each directory's size as its own and that of everything listed below it; implies -s"),
        OptionSpec(nil, "prune", key: .prune, help: "leave out directories with nothing listed below them (not with -d)"),
        OptionSpec("p", key: .permissions, help: "print the type and permissions of each file"),
        OptionSpec("u", key: .owner, help: "print the owner of each file (its number without a name)"),
        OptionSpec("g", key: .group, help: "print the group of each file (its number without a name)"),
        OptionSpec("D", key: .date, help: "print the time of last modification (with -c: of status change)"),
        OptionSpec(
            nil, "timefmt", value: .required, valueName: "FORMAT", key: .timeFormat,
            help: "print times with the strftime FORMAT; implies -D"),
        OptionSpec("Q", key: .quote, help: "put names in double quotes"),
        OptionSpec("N", key: .rawNames, help: "print names as they are, without escapes"),
        OptionSpec("F", key: .classify, help: "append / = * | to directories, sockets, executables and FIFOs"),
        OptionSpec("i", key: .noIndent, help: "print no indentation lines"),
        OptionSpec(
            nil, "charset", value: .required, valueName: "CS", key: .charset,
            help: "draw the lines in character set CS (UTF-8, IBM437, ISO-8859-1…; ASCII for others)"),
        OptionSpec(
            nil, "filelimit", value: .required, valueName: "N", key: .fileLimit,
            help: "do not descend into directories with more than N entries"),
        OptionSpec(
            "o", value: .required, valueName: "FILE", key: .outputFile, help: "write the tree to FILE"),
        OptionSpec(
            nil, "sort", value: .required, valueName: "WORD", key: .sort,
            help: "sort by WORD: name, version, size (largest first), mtime or ctime (oldest first)"),
        OptionSpec("r", key: .reverse, help: "reverse the order of the sort"),
        OptionSpec("t", key: .modificationSort, help: "sort by last modification time, oldest first"),
        OptionSpec("c", key: .statusChangeSort, help: "sort by last status change time, oldest first; -D shows it"),
        OptionSpec("U", key: .unsorted, help: "list entries in directory order"),
        OptionSpec("v", key: .versionSort, help: "sort by version: numbers within names in numeric order"),
        OptionSpec(nil, "dirsfirst", key: .directoriesFirst, help: "list directories before files (not with -U)"),
        OptionSpec(
            nil, "noreport", key: .noReport, help: "omit the count of directories and files at the end"),
        OptionSpec(
            nil, "fromfile", key: .fromFile,
            help: "read each FILE (- or . for standard input) as a list of paths and draw the tree they make"),
    ]

    /// Which size column leads each line.
    public enum SizeColumn: Sendable { case none, bytes, human }

    /// The order of each directory's entries.
    public enum Order: Sendable, Equatable {
        /// By name, in byte order.
        case name
        /// Largest first, then by name.
        case size
        /// Oldest modification first, then by name.
        case modification
        /// Oldest status change first, then by name.
        case statusChange
        /// By version, as glibc's strverscmp orders names: runs of digits as numbers.
        case version
        /// As the directory lists them.
        case none
    }

    /// List names that start with a dot.
    public var all: Bool
    /// List directories (and symlinks to them) only.
    public var directoriesOnly: Bool
    /// Print each entry as the operand joined with its path below it.
    public var fullPath: Bool
    /// The deepest level listed (1: the operand's own entries); nil for no limit. A value below 1
    /// is rejected when the command runs, as tree(1) rejects it (status 1).
    public var maxLevel: Int?
    /// `-P`: when not empty, files (not directories) are listed only if one of these matches.
    public var includePatterns: [Pattern]
    /// `-I`: entries, directories too, that one of these matches are not listed.
    public var ignorePatterns: [Pattern]
    /// `--matchdirs`: a directory whose path below the operand matches a `-P` pattern has all
    /// its own entries listed, and with `--prune` one whose name matches stays.
    public var matchDirectories: Bool
    /// List directories (and symlinks to them) before the other entries.
    public var directoriesFirst: Bool
    /// End with the count of directories and files.
    public var report: Bool
    /// The size column.
    public var sizes: SizeColumn
    /// Write JSON in tree(1)'s shape instead of drawing.
    public var json: Bool
    /// Write XML in tree(1)'s shape instead of drawing (not with `--fromfile`).
    public var xml: Bool
    /// With `-H`, the start of every link of the HTML page written instead of drawing (one
    /// trailing `/` removed), also the text of each operand's line; nil for no HTML (and with
    /// `--fromfile`).
    public var htmlBase: [UInt8]?
    /// The HTML page's title and heading (`-T`).
    public var title: [UInt8]
    /// Whether the HTML page's names are links (not with `--nolinks`).
    public var htmlLinks: Bool
    /// Colour names: always (`-C`), never (`-n`), or nil to decide by the output and environment.
    public var color: Bool?
    /// The operands are files listing paths (`--fromfile`), not directories.
    public var fromFile: Bool
    /// `--du`: a directory's size is its own plus those of everything listed below it.
    public var directorySizes: Bool
    /// `--prune`: directories with nothing listed below them are left out.
    public var prune: Bool
    /// `-l`: descend into symlinks to directories, except to a directory already listed.
    public var followLinks: Bool
    /// `-x`: list directories on other file systems without descending into them.
    public var oneFileSystem: Bool
    /// The bracketed fields before each name: permissions, owner and group.
    public var permissions: Bool, owner: Bool, group: Bool
    /// The date field's strftime format: nil for none, empty for tree's default (`%b %e %R`
    /// within six months, `%b %e  %Y` otherwise).
    public var dateFormat: [UInt8]?
    /// Whether dates are of the last status change (`-c`), not of the last modification.
    public var statusChangeDates: Bool
    /// `-Q`: names in double quotes.
    public var quoted: Bool
    /// `-N`: names written as their bytes are, without escapes.
    public var rawNames: Bool
    /// `-F`: a type indicator after each name.
    public var classify: Bool
    /// `-i`: no indentation lines.
    public var indented: Bool
    /// `--charset`: the character set the lines are drawn in; nil for TREE_CHARSET or the locale's.
    public var charset: [UInt8]?
    /// `-o`: the file to write to instead of standard output.
    public var outputFile: Argument?
    /// `--filelimit`: directories with more entries than this are not descended into; nil for no limit.
    public var fileLimit: Int?
    /// The order of entries; nil when `--sort` named none (`sortWord` says what it named).
    public var order: Order?
    /// Whether a bracketed field leads each line (`-p -u -g -s -h -D`).
    var hasFields: Bool { permissions || owner || group || sizes != .none || dateFormat != nil }
    /// The word `--sort` was given, when it is the option that sets the order.
    public var sortWord: [UInt8]?
    /// `-r`: the order reversed.
    public var reversed: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        all = arguments.has(.all)
        directoriesOnly = arguments.has(.directories)
        fullPath = arguments.has(.fullPath)
        maxLevel = arguments.value(.level).map(Self.level)
        includePatterns = Self.patterns(.pattern, in: arguments)
        ignorePatterns = Self.patterns(.ignore, in: arguments)
        matchDirectories = arguments.has(.matchDirectories) && !includePatterns.isEmpty
        report = !arguments.has(.noReport)
        directorySizes = arguments.has(.directorySizes)
        sizes = arguments.has(.human) ? .human : arguments.has(.size) || directorySizes ? .bytes : .none
        prune = arguments.has(.prune) && !arguments.has(.directories)
        // As tree(1): the last of -J, -X and -H decides.
        let format = arguments.last(of: [.json, .xml, .html])
        json = format == .json
        xml = format == .xml && !arguments.has(.fromFile)
        if format == .html && !arguments.has(.fromFile), var base = arguments.bytes(.html) {
            if base.count > 1 && base.last == 0x2F { base.removeLast() }
            htmlBase = base
        }
        title = arguments.bytes(.title) ?? Array("Directory Tree".utf8)
        htmlLinks = !arguments.has(.noLinks)
        color = arguments.has(.color) ? true : arguments.has(.noColor) ? false : nil
        fromFile = arguments.has(.fromFile)
        followLinks = arguments.has(.followLinks)
        oneFileSystem = arguments.has(.oneFileSystem)
        permissions = arguments.has(.permissions)
        owner = arguments.has(.owner)
        group = arguments.has(.group)
        dateFormat = arguments.bytes(.timeFormat) ?? (arguments.has(.date) ? [] : nil)
        statusChangeDates = arguments.has(.statusChangeSort)
        quoted = arguments.has(.quote)
        rawNames = arguments.has(.rawNames)
        classify = arguments.has(.classify)
        indented = !arguments.has(.noIndent)
        charset = arguments.bytes(.charset)
        outputFile = arguments.bytes(.outputFile).map { Argument(bytes: $0) }
        fileLimit = arguments.value(.fileLimit).map(Self.level).flatMap { $0 > 0 ? $0 : nil }
        reversed = arguments.has(.reverse)
        switch arguments.last(of: [.sort, .modificationSort, .statusChangeSort, .unsorted, .versionSort]) {
        case .sort?:
            let word = arguments.bytes(.sort) ?? []
            sortWord = word
            order = Self.sortWords.first { $0.word.utf8.elementsEqual(word.map(Self.lowercased)) }?.order
        case .modificationSort?: order = .modification
        case .statusChangeSort?: order = .statusChange
        case .unsorted?: order = Order.none
        case .versionSort?: order = .version
        default: order = .name
        }
        // As tree(1): --dirsfirst sorts, so it does nothing in directory order.
        directoriesFirst = arguments.has(.directoriesFirst) && order != Order.none
        operands = arguments.operands
    }

    /// The words `--sort` takes, in any case, as tree(1) lists them.
    static let sortWords: [(word: String, order: Order)] = [
        ("name", .name), ("version", .version), ("size", .size), ("mtime", .modification), ("ctime", .statusChange),
    ]

    public func run(in context: CommandContext) -> ExitStatus {
        if let maxLevel, maxLevel < 1 {
            context.error(Messages.invalidLevel)
            return .failure
        }
        if order == nil {
            let word = String(decoding: sortWord ?? [], as: UTF8.self)
            context.error(Messages.invalidSort(word, valid: Self.sortWords.map(\.word).joined(separator: ",")))
            return .failure
        }
        let environment = context.state.environment
        var output = context.stdout
        var opened: OpenFile?
        if let outputFile {
            // As tree(1): the file is made before the walk, so it may be listed.
            do {
                let file = try context.resolve(outputFile).open(.truncate)
                opened = file
                output = OutputStream(file)
            } catch {
                context.error(Messages.invalidFilename(outputFile.bytes))
                return .failure
            }
        }
        defer { opened?.close() }
        // As tree(1): on with -C; by default only on a terminal, when LS_COLORS is set and NO_COLOR is not.
        let colored =
            !json && !xml && htmlBase == nil
            && (color
                ?? (output.isTerminal && ListingColors.isConfigured(environment)
                    && !ListingColors.isDisabled(environment)))
        let encoding = CharacterEncoding.current
        var walk = Walk(
            command: self, output: output, encoding: encoding,
            drawing: Drawing(charset: charset ?? environment["TREE_CHARSET"], locale: encoding, html: htmlBase != nil),
            colors: colored ? ListingColors(environment: environment, base: .none) : nil,
            zone: Clock.Zone(environment: environment), now: Clock.now(),
            isCancelled: { context.isCancelled }, readFailed: { context.report($0) })
        if json { output.write("[") }
        if xml { walk.writeXMLStart(charset: charset ?? environment["TREE_CHARSET"]) }
        if htmlBase != nil {
            let named = charset ?? environment["TREE_CHARSET"] ?? (encoding == .utf8 ? Array("UTF-8".utf8) : nil)
            output.write(bytes: TreeHTML.intro(charset: named, title: title))
        }
        for operand in operands.isEmpty ? [Argument(".")] : operands {
            if fromFile {
                walk.list(operand, from: Result { () throws(FileError) in try Self.listing(operand, in: context) })
                if output.isBroken { break }
                continue
            }
            // An empty operand names nothing (lstat("") fails), not the current directory.
            walk.list(operand, at: operand.bytes.isEmpty ? File(bytes: []) : context.resolve(operand))
            if walk.cancelled {
                output.flush()
                return .interrupted
            }
            if output.isBroken { break }
        }
        if json {
            walk.writeJSONEnd()
        } else if xml {
            walk.writeXMLEnd()
        } else if htmlBase != nil {
            if report { output.write(bytes: TreeHTML.report(walk.reportText)) }
            output.write(bytes: TreeHTML.outro)
        } else if report {
            output.write("\n" + walk.reportText + "\n")
        }
        output.flush()
        if let error = output.error {
            // A closed pipe ends tree quietly, as tree(1) killed by SIGPIPE.
            if error.errno != .brokenPipe { context.error("\(Messages.writeError): \(error.reason)") }
            return .failure
        }
        return walk.failed ? Self.unopenedDirectory : walk.readFailedOnce || walk.cycled ? .failure : .success
    }

    /// An ASCII letter in lower case, as `strcasecmp` compares it.
    private static func lowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
    /// The paths listed in `operand` (`-` or `.`: standard input).
    private static func listing(_ operand: Argument, in context: CommandContext) throws(FileError) -> [UInt8] {
        if operand.bytes == [0x2D] || operand.bytes == [0x2E] { return try context.stdin.readAll() }
        return try context.resolve(operand).readBytes()
    }

    /// Every value given to the option `key`, in order, as patterns.
    private static func patterns(_ key: Option, in arguments: ParsedArguments<Option>) -> [Pattern] {
        arguments.allBytes(key).map(Pattern.init(bytes:))
    }

    /// tree(1) exits 2 when an operand is missing or a directory below one could not be opened.
    static let unopenedDirectory = ExitStatus(2)

    /// The level `-L` asks for, read as tree(1) reads it: `strtoul(text, NULL, 0)` cut to an
    /// `int`. So `010` is 8, `0x10` is 16, `2x` is 2, and `x`, `0` and `-1` are below 1.
    static func level(_ text: String) -> Int {
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, first == 0x20 || (0x09...0x0D).contains(first) { bytes.removeFirst() }
        var negative = false
        if let sign = bytes.first, sign == 0x2B || sign == 0x2D {
            negative = sign == 0x2D
            bytes.removeFirst()
        }
        var radix: UInt64 = 10
        if bytes.count > 2, bytes.first == 0x30, bytes.dropFirst().first.map({ $0 | 0x20 }) == 0x78,
            digitValue(bytes[bytes.startIndex + 2]).map({ $0 < 16 }) == true
        {
            radix = 16
            bytes.removeFirst(2)
        } else if bytes.first == 0x30 {
            radix = 8
        }
        var value: UInt64 = 0
        var overflow = false
        for byte in bytes {
            guard let digit = digitValue(byte), digit < radix else { break }
            let (product, carried) = value.multipliedReportingOverflow(by: radix)
            let (sum, added) = product.addingReportingOverflow(digit)
            overflow = overflow || carried || added
            value = sum
        }
        if overflow {
            value = .max
        } else if negative {
            value = 0 &- value
        }
        return Int(Int32(truncatingIfNeeded: value))
    }

    private static func digitValue(_ byte: UInt8) -> UInt64? {
        switch byte {
        case 0x30...0x39: return UInt64(byte - 0x30)
        case 0x41...0x5A: return UInt64(byte - 0x41 + 10)
        case 0x61...0x7A: return UInt64(byte - 0x61 + 10)
        default: return nil
        }
    }
}

/// One listed entry of a directory.
private struct Node {
    /// The entry's index in its directory's listing.
    var index: Int
    /// Whether it is a directory or a symlink to one; such entries count as directories.
    var isDirectory: Bool
    /// The size `lstat` gives (only read when a size column is shown).
    var size: UInt64
    /// What was examined of the entry, when it was; a class, since nodes are copied as the walk
    /// goes and most entries have nothing examined.
    var details: NodeDetails?
    /// With `-x`, whether it is a directory on another file system, not to descend into.
    var staysClosed = false

    /// What a symlink points to, as written in it; nil for anything else.
    var linkTarget: [UInt8]? { details?.linkTarget }
    /// What `lstat` gives, kept for JSON records and colours.
    var info: FileInfo? { details?.info }
    /// What a symlink leads to, for its target's colour.
    var targetInfo: FileInfo? { details?.targetInfo }
    /// The directory it is or leads to, when examined.
    var identity: FileIdentity? { (targetInfo ?? info)?.identity }
}

/// What examining an entry gave.
private final class NodeDetails {
    let linkTarget: [UInt8]?
    let info: FileInfo
    let targetInfo: FileInfo?

    init(linkTarget: [UInt8]?, info: FileInfo, targetInfo: FileInfo?) {
        self.linkTarget = linkTarget
        self.info = info
        self.targetInfo = targetInfo
    }
}

/// What is listed below a directory, as `--du` and `--prune` need it before its line.
private struct Measure {
    /// Its own size and those of everything listed below it.
    var size: UInt64
    /// Whether it stays in a pruned listing: something is listed in it.
    var kept = false

    /// Counts an entry listed in it; with `pruning`, only one that stays.
    mutating func add(_ entry: Measure, pruning: Bool) {
        if pruning && !entry.kept { return }
        size += entry.size
        kept = true
    }
}

/// A directory being listed: its entries and how far through them the walk is.
private struct Frame {
    /// The entries to list, filtered and in order.
    var nodes: [Node]
    /// The next entry to list.
    var index = 0
    /// The bytes this level added to the indentation of its entries.
    var indent = 0
    /// With `-H`: the path tree(1) gives the directory in its entries' links, which for a
    /// followed symlink is the link's directory joined with its target.
    var htmlDirectory: [UInt8] = []
}

/// The state of one `tree` run: the counts, the indentation and the stack of open directories.
private struct Walk {
    let command: TreeCommand
    let output: OutputStream
    /// The locale's character set, which names are written in.
    let encoding: CharacterEncoding
    /// The lines drawn in that character set.
    let drawing: Drawing
    /// The colours names are written in; nil for none.
    let colors: ListingColors?
    /// The time zone and the present, for dates.
    let zone: Clock.Zone
    let now: Timestamp
    /// Whether entries are examined as they are listed (for sizes, fields, sorting, colours…).
    let examines: Bool
    let isCancelled: () -> Bool
    /// Reports a directory that was opened but could not be read (an I/O error), with its path
    /// spelled as the user wrote it; tree(1) says nothing of it.
    let readFailed: (FileError) -> Void
    private(set) var directories = 0
    private(set) var files = 0
    /// With `--du`: the sum of the sizes shown below the operands, which tree(1) reports.
    private var sizesShown: UInt64 = 0
    /// With `--du` or `--prune`: what the first walk found of each directory below the operand
    /// being listed, by path.
    private var measures: [[UInt8]: Measure] = [:]
    /// Whether an operand was missing or a directory could not be opened.
    private(set) var failed = false
    /// Whether a directory failed while it was being read.
    private(set) var readFailedOnce = false
    /// Whether a directory turned out to be its own ancestor.
    private(set) var cycled = false
    /// The operand's path and its spelling, for messages.
    private var spelling = Spelling()
    /// Whether Ctrl-C stopped the walk.
    private(set) var cancelled = false
    /// The line being built, reused for every entry.
    private var line: [UInt8] = []
    /// The indentation of the entries of the deepest open directory.
    private var prefix: [UInt8] = []
    private var stack: [Frame] = []
    /// For each directory the walk is in, whether it has a frame (entries to show).
    private var entered: [Bool] = []
    /// Entries since Ctrl-C was last checked for.
    private var sincePoll = 0
    /// Owner and group names for JSON records.
    private let names = OwnerNames()
    /// Whether a JSON value has been written at the top level (operands and the report).
    private var wroteTopLevel = false
    /// With `-l`: the directories listed so far (the operands as `lstat` gives them), which a
    /// symlink does not lead into again.
    private var listed: Set<FileIdentity> = []
    /// With `-x`: the device of the operand being listed.
    private var device: UInt64 = 0
    /// With `-X`: the operand being listed, whose element ends after its entries.
    private var rootInfo: FileInfo?
    /// With `-H`: the operand being listed, as its entries' paths start.
    private var operandShown: [UInt8] = []

    init(
        command: TreeCommand, output: OutputStream, encoding: CharacterEncoding, drawing: Drawing,
        colors: ListingColors?, zone: Clock.Zone, now: Timestamp,
        isCancelled: @escaping () -> Bool, readFailed: @escaping (FileError) -> Void
    ) {
        self.command = command
        self.output = output
        self.encoding = encoding
        self.drawing = drawing
        self.colors = colors
        self.zone = zone
        self.now = now
        examines =
            command.sizes != .none || command.json || command.xml || colors != nil || command.hasFields || command.classify
            || command.htmlBase != nil && command.color == true || command.followLinks || command.oneFileSystem || command.order.map(Self.ordersByMetadata) ?? false
        self.isCancelled = isCancelled
        self.readFailed = readFailed
        line.reserveCapacity(1024)
    }

    /// Lists one operand, `root` being where it is on disk.
    mutating func list(_ operand: Argument, at root: File) {
        var shown = operand.bytes
        if command.fullPath {
            while shown.count > 1 && shown.last == 0x2F { shown.removeLast() }
        }
        line.removeAll(keepingCapacity: true)
        let info: FileInfo
        do {
            // `f/` names a directory: a file there is as good as nothing, as for tree(1).
            info = try operand.info(at: root, followSymlinks: false)
        } catch {
            // Nothing there: tree names it, counts nothing and fails.
            failed = true
            noteServiceFailure(error, named: shown)
            if command.json { return writeJSONOperand(shown, info: nil, error: error, opensContents: false) }
            if command.xml {
                // tree(1) writes neither the indentation nor the start of the element here.
                line.append(contentsOf: Array(" name=\"".utf8) + Self.xmlEscaped(shown) + Array("\">".utf8))
                return writeXMLEnd(of: nil, level: 0, note: TreeCommand.Messages.openError)
            }
            if let base = command.htmlBase {
                // tree(1) writes neither the indentation nor a link here.
                line.append(contentsOf: Array("<a>".utf8))
                line.append(contentsOf: Self.xmlEscaped(base))
                line.append(contentsOf: Array("</a>".utf8))
            } else {
                appendQuoted(shown)
            }
            line.append(contentsOf: Drawing.openError)
            endLine()
            return
        }
        spelling = Spelling()
        spelling.add(root, as: shown)
        device = info.device
        var rootSize = info.size
        if command.directorySizes || command.prune {
            if command.followLinks { listed = [info.identity] }
            var measuring = makeWalk(root, shown)
            if measuring.next() == .enter, let measure = measure(&measuring) {
                if command.directorySizes { rootSize = measure.size }
            }
        }
        if command.followLinks { listed = [info.identity] }
        if let base = command.htmlBase {
            // The operand's line shows the base of the links, and links to it.
            if command.indented { line.append(0x09) }
            appendFields(info, size: rootSize)
            appendAnchor(base, classOf: info, href: base + [0x2F])
            operandShown = shown
        } else {
            appendFields(info, size: rootSize)
            appendName(shown, matching: shown, info: info)
            // The operand's own kind, a symlink's too: tree(1) examines it without following.
            appendIndicator(info)
        }
        var walk = makeWalk(root, shown)
        let first = walk.next()
        guard first == .enter else {
            var error = FileError(.list, root, .notDirectory)
            if case .unreadable(let failure) = first { error = failure }
            noteReadFailure(error)
            noteServiceFailure(error)
            // It exists but cannot be listed (a file, an unreadable directory): tree counts a file.
            files += 1
            if command.json {
                return writeJSONOperand(shown, info: info, error: info.kind == .directory ? error : nil, opensContents: false)
            }
            if command.xml {
                startXMLElement(shown, info: info, linkTarget: nil, size: rootSize, level: 0)
                return writeXMLEnd(of: info, level: 0, note: TreeCommand.Messages.openError)
            }
            line.append(contentsOf: Drawing.openError)
            endLine()
            return
        }
        var nodes = self.nodes(&walk)
        var overLimit: String?
        if let limit = command.fileLimit, nodes.count > limit {
            // Too many entries: said, and counted as a directory listed.
            line.append(contentsOf: Drawing.overLimit(nodes.count))
            overLimit = TreeCommand.Messages.overLimit(nodes.count)
            nodes = []
            directories += 1
        }
        rootInfo = info
        if command.json {
            writeJSONOperand(shown, info: info, error: nil, opensContents: !nodes.isEmpty, size: rootSize)
        } else if command.xml {
            startXMLElement(shown, info: info, linkTarget: nil, size: rootSize, level: 0)
            if nodes.isEmpty { return writeXMLEnd(of: info, level: 0, note: overLimit) }
            line.append(0x0A)
            output.write(bytes: line)
        } else {
            endLine()
        }
        // tree counts the operand only when it lists something below it.
        guard !nodes.isEmpty else { return }
        directories += 1
        prefix.removeAll(keepingCapacity: true)
        stack = [Frame(nodes: nodes, htmlDirectory: shown)]
        entered = [true]
        walk.visit(nodes.map(\.index))
        run(&walk)
        stack.removeAll()
        measures.removeAll()
    }

    /// A walk of the operand at `root`, written `shown`; symlinks below it are followed only with -l.
    private func makeWalk(_ root: File, _ shown: [UInt8]) -> TreeWalk {
        TreeWalk(
            root, spelled: shown,
            options: TreeWalk.Options(
                sorted: command.order != TreeCommand.Order.none, maxDepth: command.maxLevel,
                following: command.followLinks ? .always : .start, includeHidden: command.all,
                examinesEveryEntry: examines))
    }

    /// Goes through the directory `walk` just entered as drawing it would, without drawing, and
    /// remembers in `measures` what each directory below holds; returns the directory's own
    /// measure (nil when Ctrl-C stopped the walk).
    private mutating func measure(_ walk: inout TreeWalk) -> Measure? {
        /// A directory being measured: its entries, the next one, and the sum so far.
        struct Open {
            var nodes: [Node]
            var index = 0
            var measure: Measure
        }
        let root = nodes(&walk, pruning: false)
        walk.visit(root.map(\.index))
        var open = [Open(nodes: root, measure: Measure(size: (try? walk.info().size) ?? 0))]
        while let event = walk.next() {
            sincePoll += 1
            if sincePoll >= 512 {
                sincePoll = 0
                if isCancelled() { return nil }
            }
            let top = open.count - 1
            switch event {
            case .leave:
                let finished = open.removeLast()
                guard let parent = open.indices.last else { return finished.measure }
                measures[walk.path] = finished.measure
                open[parent].measure.add(finished.measure, pruning: command.prune)
                continue
            case .failure:
                open[top].index += 1
                continue
            case .directory:
                continue
            default:
                break
            }
            let node = open[top].nodes[open[top].index]
            open[top].index += 1
            let listedAlready = isListed(node)
            let measure = Measure(size: node.size, kept: !node.isDirectory || keepsByName(node, walk.name))
            if event == .enter {
                var children: [Node] = []
                if !node.staysClosed && !listedAlready {
                    if command.followLinks, let identity = node.identity { listed.insert(identity) }
                    children = nodes(&walk, pruning: false)
                    if let limit = command.fileLimit, children.count > limit { children = [] }
                }
                walk.visit(children.map(\.index))
                open.append(Open(nodes: children, measure: measure))
                continue
            }
            if node.isDirectory { measures[walk.path] = measure }
            open[top].measure.add(measure, pruning: command.prune)
        }
        return open.first?.measure
    }

    /// Draws the tree a list of paths makes, under the operand's name; a listing that could not
    /// be read is drawn as tree(1) draws a directory it cannot open. With `-J` each name is an
    /// object with `type`, `name` and `path` only: a list says nothing more about its files.
    mutating func list(_ operand: Argument, from listing: Result<[UInt8], FileError>) {
        let text: [UInt8]
        switch listing {
        case .success(let bytes):
            text = bytes
        case .failure(let error):
            failed = true
            if command.json { return writeJSONOperand(operand.bytes, info: nil, error: error, opensContents: false) }
            line.removeAll(keepingCapacity: true)
            TreeText.appendName(operand.bytes, in: encoding, to: &line)
            line.append(contentsOf: Drawing.openError)
            endLine()
            return
        }
        var tree = ListedTree()
        tree.add(lines: text)
        directories += 1
        let rootChildren = listedChildren(tree.root)
        if command.json {
            // tree(1) calls the list a file, and gives it contents even when it names nothing.
            output.write(wroteTopLevel ? ",\n" : "\n")
            wroteTopLevel = true
            writeListedJSON(type: "file", name: operand.bytes, path: operand.bytes, opensContents: true)
            if rootChildren.isEmpty { output.write("]}") }
        } else {
            line.removeAll(keepingCapacity: true)
            TreeText.appendName(operand.bytes, in: encoding, to: &line)
            endLine()
        }
        guard !rootChildren.isEmpty else { return }
        var stack: [(entries: [(name: [UInt8], entry: ListedTree.Entry)], index: Int, prefixCount: Int, path: [UInt8])] = [
            (rootChildren, 0, 0, operand.bytes)
        ]
        prefix.removeAll(keepingCapacity: true)
        while let top = stack.indices.last {
            if stack[top].index == stack[top].entries.count {
                stack.removeLast()
                if command.json { output.write("]}") }
                if let parent = stack.indices.last { prefix.removeSubrange(stack[parent].prefixCount...) }
                continue
            }
            let (name, entry) = stack[top].entries[stack[top].index]
            stack[top].index += 1
            let isLast = stack[top].index == stack[top].entries.count
            let path = joinedPath(stack[top].path, name)
            // As tree(1): a name with others below it is entered (its JSON has contents) unless
            // -L stops it, even when the options then leave out everything below.
            let descends = !entry.children.isEmpty && command.maxLevel.map({ stack.count < $0 }) ?? true
            let children = descends ? listedChildren(entry) : []
            if entry.isDirectory {
                directories += 1
            } else {
                files += 1
            }
            if command.json {
                output.write(stack[top].index == 1 ? "\n" : ",\n")
                writeListedJSON(
                    type: entry.isDirectory ? "directory" : "file", name: name, path: path, opensContents: descends)
            } else {
                line.removeAll(keepingCapacity: true)
                line.append(contentsOf: prefix)
                line.append(contentsOf: isLast ? drawing.lastBranch : drawing.branch)
                TreeText.appendName(command.fullPath ? path : name, in: encoding, to: &line)
                endLine()
            }
            if descends {
                stack[top].prefixCount = prefix.count
                prefix.append(contentsOf: isLast ? drawing.blank : drawing.vertical)
                stack.append((children, 0, prefix.count, path))
            }
            if output.isBroken { return }
        }
    }

    /// `{"type":…,"name":…,"path":…}` for a name of a listed tree, with `"contents":[` left open
    /// when entries follow.
    private func writeListedJSON(type: String, name: [UInt8], path: [UInt8], opensContents: Bool) {
        let fields: [(key: String, value: String)] = [("type", JSONText.string(type))]
        writeJSON(fields + JSONText.nameFields(name: name, path: path), opensContents: opensContents)
    }

    /// The children tree lists: patterns, `-d` and `--dirsfirst` applied (hidden names are all
    /// listed, as tree(1) lists them from a file).
    private func listedChildren(_ entry: ListedTree.Entry) -> [(name: [UInt8], entry: ListedTree.Entry)] {
        var children = entry.sortedChildren.filter { child in
            let isDirectory = child.entry.isDirectory
            if command.directoriesOnly && !isDirectory { return false }
            if !command.includePatterns.isEmpty && !isDirectory
                && !command.includePatterns.contains(where: { $0.matches(name: child.name, isDirectory: false) })
            {
                return false
            }
            return !command.ignorePatterns.contains { $0.matches(name: child.name, isDirectory: isDirectory) }
        }
        if command.directoriesFirst {
            children = children.filter(\.entry.isDirectory) + children.filter { !$0.entry.isDirectory }
        }
        return children
    }

    /// `N directories, M files` (with `-d` only the directories); with `--du`, after the sum
    /// of the sizes shown (each directory's including what is below it, as tree(1) adds them).
    var reportText: String {
        let directoryWord = directories == 1 ? "directory" : "directories"
        var used = ""
        if command.directorySizes {
            used = command.sizes == .human
                ? " \(TreeText.humanSize(sizesShown)) used in " : " \(TreeText.padded(String(sizesShown), 11)) bytes used in "
        }
        if command.directoriesOnly { return "\(used)\(directories) \(directoryWord)" }
        return "\(used)\(directories) \(directoryWord), \(files) file\(files == 1 ? "" : "s")"
    }

    /// Lists the entries the walk gives, depth first, until it is done; a directory entered
    /// is drawn once its entries are known.
    private mutating func run(_ walk: inout TreeWalk) {
        while let event = walk.next() {
            sincePoll += 1
            if sincePoll >= 512 {
                sincePoll = 0
                if isCancelled() {
                    cancelled = true
                    return
                }
            }
            switch event {
            case .leave:
                // Only the directories with entries to show have a frame.
                guard entered.removeLast() else { continue }
                prefix.removeLast(stack[stack.count - 1].indent)
                if command.xml {
                    // The directory's own element: the operand's, or the entry last drawn above.
                    let level = stack.count - 1
                    let parent = level > 0 ? stack[level - 1] : nil
                    let info = parent.map { $0.nodes[$0.index - 1].info } ?? rootInfo
                    line.removeAll(keepingCapacity: true)
                    if command.indented { line.append(contentsOf: Self.xmlIndent(level)) }
                    closeXMLElement(info)
                    output.write(bytes: line)
                }
                stack.removeLast()
                if command.json { output.write("]}") }
            case .failure:
                // Gone since its directory was read: left out, as tree(1) leaves it out.
                stack[stack.count - 1].index += 1
            default:
                draw(event, &walk)
                if cancelled || output.isBroken { return }
            }
        }
    }

    /// Draws the walk's current entry, the next node of the directory on top of the stack.
    private mutating func draw(_ event: TreeWalk.Event, _ walk: inout TreeWalk) {
        let top = stack.count - 1
        let node = stack[top].nodes[stack[top].index]
        stack[top].index += 1
        let isLast = stack[top].index == stack[top].nodes.count

        line.removeAll(keepingCapacity: true)
        if command.indented {
            if command.htmlBase != nil { line.append(0x09) }
            line.append(contentsOf: prefix)
            line.append(contentsOf: isLast ? drawing.lastBranch : drawing.branch)
        }
        var shownSize: UInt64?
        if let info = node.info {
            let size = node.isDirectory && command.directorySizes ? measures[walk.path]?.size ?? info.size : info.size
            sizesShown += size
            shownSize = size
            appendFields(info, size: size)
        }
        let name = walk.name
        let dangling = node.linkTarget != nil && node.targetInfo == nil
        if let base = command.htmlBase {
            appendHTMLEntry(node, base: base, walk: walk)
        } else if command.fullPath {
            appendName(walk.path, matching: name, info: node.info, dangling: dangling)
        } else {
            appendName(name, matching: name, info: node.info, dangling: dangling)
        }
        // An HTML page shows neither link targets nor indicators, as tree(1)'s.
        if command.htmlBase == nil, let target = node.linkTarget {
            line.append(contentsOf: Drawing.arrow)
            if dangling, let colors, let missing = colors.missing(orphanFallback: false) {
                line.append(contentsOf: colors.start(missing))
                appendQuoted(target)
                line.append(contentsOf: colors.end)
            } else {
                appendName(target, matching: target, info: node.targetInfo)
            }
            if let targetInfo = node.targetInfo { appendIndicator(targetInfo) }
        } else if command.htmlBase == nil, let info = node.info {
            appendIndicator(info)
        }

        var children: [Node] = []
        var openError: FileError?
        // What tree(1) says of the entry in an XML `error` element.
        var note: String?
        if node.isDirectory {
            directories += 1
        } else {
            files += 1
        }
        switch event {
        case .enter where node.staysClosed || isListed(node), .cycle where isListed(node):
            // Listed already (-l) or on another file system (-x): not descended into.
            if isListed(node) {
                line.append(contentsOf: Drawing.recursive)
                note = TreeCommand.Messages.recursive
            }
            if event == .enter {
                walk.visit([])
                entered.append(false)
            }
        case .enter:
            if isCancelled() {
                cancelled = true
                return
            }
            if command.followLinks, let identity = node.identity { listed.insert(identity) }
            children = nodes(&walk)
            if let limit = command.fileLimit, children.count > limit {
                line.append(contentsOf: Drawing.overLimit(children.count))
                note = TreeCommand.Messages.overLimit(children.count)
                children = []
            }
            walk.visit(children.map(\.index))
            entered.append(!children.isEmpty)
        case .cycle:
            // A bind mount of a directory inside itself: drawn once, not again.
            line.append(contentsOf: Drawing.recursive)
            note = TreeCommand.Messages.recursive
            cycled = true
        case .unreadable(let error) where error.operation == .read:
            // Opened, then failed while being read: said on standard error.
            openError = error
            noteReadFailure(error)
        case .unreadable(let error):
            line.append(contentsOf: Drawing.openError)
            note = TreeCommand.Messages.openError
            failed = true
            openError = error
            noteServiceFailure(error)
        default:
            break
        }
        if command.json {
            writeJSONEntry(node, name: Array(name), path: walk.path, first: stack[top].index == 1, error: openError,
                opensContents: !children.isEmpty, size: shownSize)
        } else if command.xml {
            line.removeAll(keepingCapacity: true)
            startXMLElement(
                command.fullPath ? walk.path : Array(name), info: node.info, linkTarget: node.linkTarget,
                size: shownSize ?? 0, level: stack.count)
            if children.isEmpty {
                writeXMLEnd(of: node.info, level: nil, note: note)
            } else {
                line.append(0x0A)
                output.write(bytes: line)
            }
        } else {
            endLine()
        }
        if !children.isEmpty {
            let indent = isLast ? drawing.blank : drawing.vertical
            prefix.append(contentsOf: indent)
            stack.append(Frame(nodes: children, indent: indent.count, htmlDirectory: htmlDirectory(of: node, name: name)))
        }
    }

    /// With `-l`, whether `node` is a symlink to a directory listed already, which tree(1) says
    /// and does not descend into again.
    private func isListed(_ node: Node) -> Bool {
        command.followLinks && node.linkTarget != nil && node.identity.map(listed.contains) == true
    }

    /// Reports `error` when it is a failure to read a directory that did open.
    private mutating func noteReadFailure(_ error: FileError) {
        guard error.operation == .read else { return }
        readFailedOnce = true
        readFailed(spelling.respell(error))
    }

    /// Says on standard error what a storage service answered for a directory that could not be
    /// opened (`tree: cannot open directory 's3://nob': No such bucket`): tree(1)'s mark alone
    /// does not tell a missing bucket or a refused signature from a missing directory.
    /// `named` is the operand as shown, when the failure is the operand's own.
    private func noteServiceFailure(_ error: FileError, named shown: [UInt8]? = nil) {
        guard error.serviceFailure != nil else { return }
        readFailed(error.reworded(as: .list, File(bytes: shown ?? spelling.bytes(error.path))))
    }

    /// The entries of the directory the walk just entered that tree lists, in its order;
    /// `pruning` leaves out the directories the first walk found nothing kept in.
    private func nodes(_ walk: inout TreeWalk, pruning: Bool = true) -> [Node] {
        let listing = walk.children
        var nodes: [Node] = []
        var name = walk.path
        if name.last != 0x2F { name.append(0x2F) }
        let directoryLength = name.count
        let listsEverything = isMatchedDirectory(walk)
        for index in 0..<listing.count {
            if !command.all && listing.isHidden(index) { continue }
            guard let node = classify(index, listing, &walk, listsEverything: listsEverything) else { continue }
            if pruning && command.prune && node.isDirectory {
                name.removeSubrange(directoryLength...)
                listing.appendName(index, to: &name)
                // Left out when the first walk found nothing kept in it.
                if measures[name]?.kept != true { continue }
            }
            nodes.append(node)
        }
        if command.order == .version {
            // tree(1)'s version order is glibc's strverscmp; names are unique, so there are no ties.
            nodes.sort { StringVersionOrder.precedes(listing.name($0.index), listing.name($1.index)) }
        } else if let order = command.order, order != .name && order != .none {
            // The listing is in name order already, and names are unique: a stable sort by the
            // key alone leaves equal keys in name order.
            let keys = nodes.map { Self.sortKey($0, order) }
            nodes = nodes.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }.map { nodes[$0] }
        }
        if command.reversed && command.order != TreeCommand.Order.none { nodes.reverse() }
        if command.directoriesFirst {
            nodes = nodes.filter(\.isDirectory) + nodes.filter { !$0.isDirectory }
        }
        return nodes
    }

    /// Whether ordering by `order` needs what examining each entry gives.
    private static func ordersByMetadata(_ order: TreeCommand.Order) -> Bool {
        order == .size || order == .modification || order == .statusChange
    }

    /// What `order` sorts a node by, smallest first (sizes are negated: largest first).
    private static func sortKey(_ node: Node, _ order: TreeCommand.Order) -> Timestamp {
        guard let info = node.info else { return Timestamp(seconds: 0) }
        switch order {
        case .size: return Timestamp(seconds: -Int64(clamping: info.size))
        case .modification: return Timestamp(seconds: info.modificationTime.seconds)
        case .statusChange: return Timestamp(seconds: info.changeTime.seconds)
        case .name, .version, .none: return Timestamp(seconds: 0)
        }
    }

    /// With `--matchdirs`, whether the directory the walk just entered (below the operand) is
    /// named by a `-P` pattern, matched as tree(1) matches it: its path below the operand
    /// (`src/lib`), so that `-P lib` lists everything in `lib` but not in `src/lib`.
    private func isMatchedDirectory(_ walk: TreeWalk) -> Bool {
        guard command.matchDirectories, walk.depth > 0 else { return false }
        let path = walk.path
        var start = path.endIndex
        var slashes = 0
        while start > path.startIndex {
            if path[start - 1] == 0x2F {
                slashes += 1
                if slashes == walk.depth { break }
            }
            start -= 1
        }
        let below = Array(path[start...])
        return command.includePatterns.contains { $0.matches(name: below, isDirectory: true) }
    }

    /// With `--matchdirs --prune`, whether a directory stays though nothing is listed in it: its
    /// own name matches a `-P` pattern.
    private func keepsByName(_ node: Node, _ name: some Collection<UInt8>) -> Bool {
        command.matchDirectories && node.isDirectory
            && command.includePatterns.contains { $0.matches(name: Array(name), isDirectory: true) }
    }

    /// Entry `index` as a node, or nil when the options leave it out. Looks at the disk only for
    /// symlinks, kinds the listing did not give, and sizes. `listsEverything` sets `-P` aside
    /// (`--matchdirs` in a matching directory).
    private func classify(
        _ index: Int, _ listing: DirectoryListing, _ walk: inout TreeWalk, listsEverything: Bool = false
    ) -> Node? {
        var kind = listing.kind(index)
        if command.directoriesOnly, let kind, kind != .directory && kind != .symlink { return nil }
        // tree(1) leaves out the pages -H -R would write.
        if command.htmlBase != nil && listing.name(index).elementsEqual(Self.htmlPageName) { return nil }
        var node = Node(index: index, isDirectory: kind == .directory, size: 0)
        if kind == nil || kind == .symlink || examines {
            do {
                let info = try walk.childInfo(index, following: false)
                kind = info.kind
                node.size = info.size
                node.isDirectory = info.kind == .directory
                var target: [UInt8]?
                var targetInfo: FileInfo?
                if info.kind == .symlink {
                    target = try walk.childLinkTarget(index)
                    // A dangling or looping link leads nowhere: listed as a file.
                    targetInfo = try? walk.childInfo(index, following: true, remembering: false)
                    node.isDirectory = targetInfo?.kind == .directory
                }
                node.details = NodeDetails(linkTarget: target, info: info, targetInfo: targetInfo)
                if node.isDirectory, let identity = node.identity {
                    node.staysClosed = command.oneFileSystem && identity.device != device
                }
            } catch {
                // Gone since the directory was read (or unreadable): tree leaves such an entry out.
                return nil
            }
        }
        if !command.includePatterns.isEmpty || !command.ignorePatterns.isEmpty {
            let name = Array(listing.name(index))
            let isDirectory = node.isDirectory
            // As tree(1): -P filters neither directories nor, with -l, symlinks to them.
            if !command.includePatterns.isEmpty && !listsEverything && kind != .directory
                && !(command.followLinks && isDirectory)
                && !command.includePatterns.contains(where: { $0.matches(name: name, isDirectory: isDirectory) })
            {
                return nil
            }
            if command.ignorePatterns.contains(where: { $0.matches(name: name, isDirectory: isDirectory) }) {
                return nil
            }
        }
        if command.directoriesOnly && !node.isDirectory { return nil }
        return node
    }

    /// Appends a name as tree(1) writes it, in its colour when colours are on; `name` decides
    /// the extension colour (the last component, also under `-f`).
    private mutating func appendName<Shown: Collection<UInt8>, Name: Collection<UInt8>>(
        _ shown: Shown, matching name: Name, info: FileInfo?, dangling: Bool = false
    ) {
        guard let colors, let info,
            let sequence = colors.sequence(
                name: Array(name), kind: info.kind, mode: info.mode, linkCount: info.linkCount, targetMissing: dangling)
        else {
            return appendQuoted(shown)
        }
        line.append(contentsOf: colors.start(sequence))
        appendQuoted(shown)
        line.append(contentsOf: colors.end)
    }

    /// Appends a name escaped as tree(1) escapes it (as it is with `-N`), in double quotes with `-Q`.
    private mutating func appendQuoted<Name: Collection<UInt8>>(_ name: Name) {
        if command.quoted { line.append(0x22) }
        if command.rawNames {
            line.append(contentsOf: name)
        } else {
            TreeText.appendName(name, in: encoding, to: &line, escapingSpaces: !command.quoted)
        }
        if command.quoted { line.append(0x22) }
    }

    /// Appends `-F`'s indicator for what `info` describes: `/` for a directory (not with `-d`),
    /// `=` for a socket, `|` for a FIFO, `@` for a symlink, `*` for an executable file.
    private mutating func appendIndicator(_ info: FileInfo) {
        guard command.classify else { return }
        switch info.kind {
        case .directory where !command.directoriesOnly: line.append(0x2F)
        case .socket: line.append(0x3D)
        case .fifo: line.append(0x7C)
        case .symlink: line.append(0x40)
        case .regular where info.mode & 0o111 != 0: line.append(0x2A)
        default: break
        }
    }

    /// Appends the bracketed fields tree(1) puts before a name, in its order and widths:
    /// `[drwxr-xr-x root     root            4096 Nov 26 17:34]  `, each field when asked for.
    private mutating func appendFields(_ info: FileInfo, size: UInt64) {
        guard command.hasFields else { return }
        var fields: [UInt8] = []
        if command.permissions {
            fields.append(0x20)
            fields += FileFormat.modeBytes(info.mode)
        }
        if command.owner { fields += Array((" " + Self.leftAligned(names.owner(of: info) ?? String(info.userID))).utf8) }
        if command.group { fields += Array((" " + Self.leftAligned(names.group(of: info) ?? String(info.groupID))).utf8) }
        switch command.sizes {
        case .none: break
        case .bytes: fields += Array((" " + TreeText.padded(String(size), 11)).utf8)
        case .human: fields += Array((" " + TreeText.humanSize(size)).utf8)
        }
        if let format = command.dateFormat {
            fields.append(0x20)
            fields += date(command.statusChangeDates ? info.changeTime : info.modificationTime, format)
        }
        fields[0] = 0x5B
        fields.append(0x5D)
        guard command.htmlBase != nil else {
            line.append(contentsOf: fields)
            line.append(contentsOf: Array("  ".utf8))
            return
        }
        // In HTML every space is a no-break space, and four follow the bracket.
        for byte in fields {
            if byte == 0x20 { line.append(contentsOf: TreeHTML.space) } else { line.append(byte) }
        }
        for _ in 0..<4 { line.append(contentsOf: TreeHTML.space) }
    }

    /// A time as tree(1) writes it: in `format`, or when that is empty as `%b %e %R` within six
    /// months before now and `%b %e  %Y` otherwise (the future too).
    private func date(_ time: Timestamp, _ format: [UInt8]) -> [UInt8] {
        var format = format
        if format.isEmpty {
            let recent = time.seconds <= now.seconds && time.seconds + Self.sixMonths >= now.seconds
            format = Array((recent ? "%b %e %R" : "%b %e  %Y").utf8)
        }
        return TimeFormat.format(format, Timestamp(seconds: time.seconds), zone: zone)
    }

    /// The name of the pages `tree -H -R` writes, which `-H` never lists.
    private static let htmlPageName = Array("00Tree.html".utf8)

    /// The age from which tree(1) shows a year instead of a time: six months of 31 days.
    private static let sixMonths: Int64 = 6 * 31 * 24 * 60 * 60

    /// `text` padded to eight columns and cut at 32, as tree(1) writes owners (`%-8.32s`).
    private static func leftAligned(_ text: String) -> String {
        let cut = String(text.prefix(32))
        return cut.count >= 8 ? cut : cut + String(repeating: " ", count: 8 - cut.count)
    }

    /// Writes an operand's object; its `contents` stay open when entries follow.
    /// With `-X`: the XML declaration (with `encoding` when a character set was named, or the
    /// locale's is UTF-8, as tree(1) writes it) and the opening `<tree>`.
    mutating func writeXMLStart(charset: [UInt8]?) {
        let name = charset ?? (encoding == .utf8 ? Array("UTF-8".utf8) : nil)
        let newline = command.indented ? "\n" : ""
        var start = Array("<?xml version=\"1.0\"".utf8)
        if let name { start += Array(" encoding=\"".utf8) + name + [0x22] }
        output.write(bytes: start + Array("?>\(newline)<tree>\(newline)".utf8))
    }

    /// With `-X`: the report (unless `--noreport`) and the closing `</tree>`.
    mutating func writeXMLEnd() {
        let (newline, inner, outer) = command.indented ? ("\n", "    ", "  ") : ("", "", "")
        var text = ""
        if command.report {
            text += "\(outer)<report>\(newline)"
            if command.directorySizes { text += "\(inner)<size>\(sizesShown)</size>\(newline)" }
            text += "\(inner)<directories>\(directories)</directories>\(newline)"
            if !command.directoriesOnly { text += "\(inner)<files>\(files)</files>\(newline)" }
            text += "\(outer)</report>\(newline)"
        }
        output.write(text + "</tree>\n")
    }

    /// Starts, in `line`, the element of an entry at `level` (0 for the operand): its kind as
    /// the tag, `name`, a symlink's `target`, and the fields the options ask for, as tree(1)
    /// writes them.
    private mutating func startXMLElement(
        _ name: [UInt8], info: FileInfo?, linkTarget: [UInt8]?, size: UInt64, level: Int
    ) {
        line.removeAll(keepingCapacity: true)
        if command.indented { line.append(contentsOf: Self.xmlIndent(level)) }
        line.append(contentsOf: Array("<\(Self.xmlTag(info)) name=\"".utf8) + Self.xmlEscaped(name) + [0x22])
        if let linkTarget { line.append(contentsOf: Array(" target=\"".utf8) + Self.xmlEscaped(linkTarget) + [0x22]) }
        if let info {
            var fields = ""
            if command.permissions {
                let mode = String(info.mode & 0o7777, radix: 8)
                fields += " mode=\"\(String(repeating: "0", count: max(0, 4 - mode.count)) + mode)\""
                fields += " prot=\"\(String(decoding: FileFormat.modeBytes(info.mode), as: UTF8.self))\""
            }
            if command.owner { fields += " user=\"\(names.owner(of: info) ?? String(info.userID))\"" }
            if command.group { fields += " group=\"\(names.group(of: info) ?? String(info.groupID))\"" }
            if command.sizes != .none { fields += " size=\"\(size)\"" }
            line.append(contentsOf: Array(fields.utf8))
            if let format = command.dateFormat {
                let time = date(command.statusChangeDates ? info.changeTime : info.modificationTime, format)
                line.append(contentsOf: Array(" time=\"".utf8) + Self.xmlEscaped(time) + [0x22])
            }
        }
        line.append(0x3E)
    }

    /// Ends the element started in `line` and writes it: after an `error` element with `note`;
    /// at once when `level` is nil (an entry with nothing below it), else on a line of its own
    /// at `level`, as tree(1) ends an operand.
    private mutating func writeXMLEnd(of info: FileInfo?, level: Int?, note: String?) {
        if let note { line.append(contentsOf: Array("<error>\(note)</error>".utf8)) }
        if let level {
            line.append(0x0A)
            if command.indented { line.append(contentsOf: Self.xmlIndent(level)) }
        }
        closeXMLElement(info)
        output.write(bytes: line)
    }

    /// Appends the end tag of the element for `info` (`unknown` for nothing), and a newline
    /// unless `-i`.
    private mutating func closeXMLElement(_ info: FileInfo?) {
        line.append(contentsOf: Array("</\(info == nil ? "unknown" : Self.xmlTag(info))>".utf8))
        if command.indented { line.append(0x0A) }
    }

    /// tree(1)'s element name for what `lstat` gave: `file`, `directory`, `link`, `fifo`…
    private static func xmlTag(_ info: FileInfo?) -> String {
        info.map { FileRecord.typeName($0.kind) } ?? "file"
    }

    /// The indentation of an element at `level`: two spaces, and two more a level.
    private static func xmlIndent(_ level: Int) -> [UInt8] { Array(repeating: 0x20, count: 2 + 2 * level) }

    /// `bytes` with `<`, `>`, `&` and `"` written as entities, every other byte as it is (as
    /// tree(1) writes names in XML and HTML).
    static func xmlEscaped(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count)
        for byte in bytes {
            switch byte {
            case 0x3C: escaped += Array("&lt;".utf8)
            case 0x3E: escaped += Array("&gt;".utf8)
            case 0x26: escaped += Array("&amp;".utf8)
            case 0x22: escaped += Array("&quot;".utf8)
            default: escaped.append(byte)
            }
        }
        return escaped
    }

    /// `size` is the operand's size as shown (with `--du`, what is below it included).
    private mutating func writeJSONOperand(
        _ shown: [UInt8], info: FileInfo?, error: FileError?, opensContents: Bool, size: UInt64? = nil
    ) {
        output.write(wroteTopLevel ? ",\n" : "\n")
        wroteTopLevel = true
        let type = info.map { $0.kind == .directory ? "directory" : FileRecord.typeName($0.kind) } ?? "error"
        writeJSONObject(
            type: type, name: shown, path: shown, info: info, linkTarget: nil, error: error, opensContents: opensContents,
            size: size)
    }

    /// Writes one entry's object inside its directory's `contents`.
    /// `size` is its size as shown (with `--du`, a directory's includes what is below it).
    private mutating func writeJSONEntry(
        _ node: Node, name: [UInt8], path: [UInt8], first: Bool, error: FileError?, opensContents: Bool,
        size: UInt64?
    ) {
        output.write(first ? "\n" : ",\n")
        let type = node.info.map { FileRecord.typeName($0.kind) } ?? (node.isDirectory ? "directory" : "file")
        writeJSONObject(
            type: type, name: name, path: path, info: node.info, linkTarget: node.linkTarget, error: error,
            opensContents: opensContents, size: size)
    }

    /// `{"type":…,"name":…` then the record's other fields, an `error` when opening failed, and
    /// `"contents":[` left open when entries follow (closed with `]}` when the directory ends).
    private mutating func writeJSONObject(
        type: String, name: [UInt8], path: [UInt8], info: FileInfo?, linkTarget: [UInt8]?, error: FileError?,
        opensContents: Bool, size: UInt64? = nil
    ) {
        var fields: [(key: String, value: String)] = [("type", JSONText.string(type))]
        if let info {
            let record = JSONText.record(path: path, name: name, info: info, linkTarget: linkTarget, names: names)
            for field in JSONText.fields(of: record) where field.key != "type" {
                // With --du, a directory's size is the sum tree(1) shows.
                fields.append(field.key == "size" && command.directorySizes ? ("size", String(size ?? info.size)) : field)
            }
        } else {
            fields.append(("name", JSONText.string(String(decoding: name, as: UTF8.self))))
        }
        if let error { fields.append(("error", JSONText.string(error.reason))) }
        writeJSON(fields, opensContents: opensContents)
    }

    /// Writes an object of `fields`, leaving `"contents":[` open when entries follow.
    private func writeJSON(_ fields: [(key: String, value: String)], opensContents: Bool) {
        var text = JSONText.object(fields)
        if opensContents {
            text.removeLast()
            text += ",\"contents\":["
        }
        output.write(text)
    }

    /// Closes the top-level array with tree(1)'s report object.
    mutating func writeJSONEnd() {
        var fields: [(key: String, value: String)] = [("type", JSONText.string("report"))]
        // With --du, the sum of the sizes shown, as the drawn report's `bytes used`.
        if command.directorySizes { fields.append(("size", String(sizesShown))) }
        fields.append(("directories", String(directories)))
        if !command.directoriesOnly { fields.append(("files", String(files))) }
        output.write((wroteTopLevel ? ",\n" : "\n") + JSONText.object(fields) + "\n]\n")
    }

    /// Ends the line and writes it out.
    private mutating func endLine() {
        if command.htmlBase != nil {
            line.append(contentsOf: TreeHTML.lineEnd)
        } else {
            line.append(0x0A)
        }
        output.write(bytes: line)
    }

    /// With `-H`: the current entry's name as a link, as tree(1) makes it: the base, the path
    /// of the directory holding it after the operand, `/`, the name as shown (its path with
    /// `-f`), and `/` after a directory; no link target and no indicator.
    private mutating func appendHTMLEntry(_ node: Node, base: [UInt8], walk: TreeWalk) {
        let name = walk.name
        let path = walk.path
        let directory = stack[stack.count - 1].htmlDirectory
        var href = base
        // A followed symlink's absolute target may be shorter than the operand: then it is whole.
        TreeHTML.appendURL(directory.dropFirst(directory.count >= operandShown.count ? operandShown.count : 0), to: &href)
        href.append(0x2F)
        TreeHTML.appendURL(command.fullPath ? path[...] : name, to: &href)
        if node.isDirectory { href.append(0x2F) }
        appendAnchor(
            command.fullPath ? path[...] : name, classOf: node.linkTarget != nil ? node.targetInfo : node.info,
            href: href)
    }

    /// With `-H`: the path tree(1) gives the directory `node` (named `name`, in the directory on
    /// top of the stack) in its entries' links: the directory's path and the name, or for a
    /// symlink followed its target, joined to the directory's path unless it is absolute.
    private func htmlDirectory(of node: Node, name: some Collection<UInt8>) -> [UInt8] {
        guard command.htmlBase != nil else { return [] }
        let parent = stack[stack.count - 1].htmlDirectory
        if let target = node.linkTarget { return target.first == 0x2F ? target : parent + [0x2F] + target }
        return parent.last == 0x2F ? parent + name : parent + [0x2F] + name
    }

    /// With `-H`: `<a class="…" href="…">text</a>`, the class with `-C`, the link unless `--nolinks`.
    private mutating func appendAnchor(_ text: some Collection<UInt8>, classOf info: FileInfo?, href: [UInt8]) {
        line.append(contentsOf: Array("<a".utf8))
        if command.color == true {
            line.append(contentsOf: Array(" class=\"\(TreeHTML.className(info))\"".utf8))
        }
        if command.htmlLinks {
            line.append(contentsOf: Array(" href=\"".utf8) + href + [0x22])
        }
        line.append(0x3E)
        line.append(contentsOf: Self.xmlEscaped(text))
        line.append(contentsOf: Array("</a>".utf8))
    }
}

/// The pieces tree(1) draws lines with, in the character set `--charset` or `TREE_CHARSET` names,
/// else in the locale's: box-drawing characters in UTF-8, its vertical bar followed by two
/// no-break spaces (U+00A0) and a space so that terminals do not trim it; `|-- `, `` `-- `` and
/// `|   ` in ASCII and any character set tree(1) does not know.
private struct Drawing {
    let branch: [UInt8]
    let lastBranch: [UInt8]
    let vertical: [UInt8]
    let blank: [UInt8]

    /// The pieces for `charset` (its name in any case), or for the locale's character set when
    /// it is nil; in an HTML page (`html`) the blank indentation is of no-break spaces.
    init(charset: [UInt8]?, locale: CharacterEncoding, html: Bool = false) {
        blank = html ? TreeHTML.blank : Array("    ".utf8)
        let lowered = charset.map { String(decoding: $0, as: UTF8.self).lowercased() }
        let set =
            lowered.flatMap { name in Self.sets.first { $0.names.contains { $0.lowercased() == name } } }
            ?? (charset == nil && locale == .utf8 ? Self.utf8 : Self.ascii)
        vertical = set.vertical + [0x20]
        branch = set.branch + [0x20]
        lastBranch = set.lastBranch + [0x20]
    }

    /// A character set's names and its three pieces.
    struct LineSet {
        let names: [String]
        let vertical: [UInt8]
        let branch: [UInt8]
        let lastBranch: [UInt8]

        init(_ names: [String], _ vertical: [UInt8], _ branch: [UInt8], _ lastBranch: [UInt8]) {
            self.names = names
            self.vertical = vertical
            self.branch = branch
            self.lastBranch = lastBranch
        }
    }

    static let ascii = LineSet([], Array("|  ".utf8), Array("|--".utf8), Array("`--".utf8))
    static let utf8 = LineSet(
        ["UTF-8", "utf8"], [0xE2, 0x94, 0x82, 0xC2, 0xA0, 0xC2, 0xA0], [0xE2, 0x94, 0x9C, 0xE2, 0x94, 0x80, 0xE2, 0x94, 0x80],
        [0xE2, 0x94, 0x94, 0xE2, 0x94, 0x80, 0xE2, 0x94, 0x80])

    /// The character sets tree(1) knows by name, with the lines it draws in each (ISO-8859's
    /// last branch is the HTML entity tree writes there; the East Asian sets draw with their own
    /// two-byte box characters, ISO-2022-JP's each in its escape sequences). Other names, and
    /// VISCII and the Windows sets tree lists, draw in ASCII.
    static let sets: [LineSet] = [
        LineSet(
            [
                "ISO-8859-1", "ISO-8859-1:1987", "ISO_8859-1", "latin1", "l1", "IBM819", "CP819", "csISOLatin1",
                "ISO-8859-3", "ISO_8859-3:1988", "ISO_8859-3", "latin3", "ls", "csISOLatin3", "ISO-8859-7",
                "ISO_8859-7:1987", "ISO_8859-7", "ELOT_928", "ECMA-118", "greek", "greek8", "csISOLatinGreek",
                "ISO-8859-8", "ISO_8859-8:1988", "iso-ir-138", "ISO_8859-8", "hebrew", "csISOLatinHebrew",
                "ISO-8859-9", "ISO_8859-9:1989", "iso-ir-148", "ISO_8859-9", "latin5", "l5", "csISOLatin5",
            ], Array("|  ".utf8), Array("|--".utf8), Array("&middot;--".utf8)),
        LineSet(
            [
                "IBM437", "cp437", "437", "csPC8CodePage437", "IBM852", "cp852", "852", "csPCp852", "IBM863", "cp863",
                "863", "csIBM863", "IBM855", "cp855", "855", "csIBM855", "IBM865", "cp865", "865", "csIBM865", "IBM866",
                "cp866", "866", "csIBM866", "IBM850", "cp850", "850", "csPC850Multilingual", "IBM00858", "CCSID00858",
                "CP00858", "PC-Multilingual-850+euro", "IBM869", "cp869", "869", "cp-gr", "csIBM869",
            ], [0xB3, 0x20, 0x20], [0xC3, 0xC4, 0xC4], [0xC0, 0xC4, 0xC4]),
        utf8,
        LineSet(["KOI8-R", "csKOI8R", "KOI8-U"], [0x81, 0x20, 0x20], [0x86, 0x80, 0x80], [0x84, 0x80, 0x80]),
        LineSet(["Shift_JIS", "MS_Kanji", "csShiftJIS"], [0x84, 0xA0, 0x20], [0x84, 0xA5], [0x84, 0xA4]),
        LineSet(
            ["EUC-JP", "Extended_UNIX_Code_Packed_Format_for_Japanese", "csEUCPkdFmtJapanese"], [0xA8, 0xA2, 0x20],
            [0xA8, 0xA7], [0xA8, 0xA6]),
        LineSet(["EUC-KR", "csEUCKR"], [0xA6, 0xA2, 0x20], [0xA6, 0xA7], [0xA6, 0xA6]),
        LineSet(
            ["ISO-2022-JP", "csISO2022JP", "ISO-2022-JP-2", "csISO2022JP2"],
            Self.jisX0208([0x28, 0x22]) + [0x20], Self.jisX0208([0x28, 0x27]), Self.jisX0208([0x28, 0x26])),
        LineSet(["GB2312", "csGB2312"], [0xA9, 0xA6, 0x20], [0xA9, 0xC0], [0xA9, 0xB8]),
        LineSet(["Big5", "csBig5"], [0xA2, 0x78, 0x20], [0xA2, 0x75], [0xA2, 0x7C]),
    ]

    /// A JIS X 0208 character in ISO-2022-JP: switched to with `ESC $ B`, back to ASCII with `ESC ( B`.
    private static func jisX0208(_ character: [UInt8]) -> [UInt8] {
        [0x1B, 0x24, 0x42] + character + [0x1B, 0x28, 0x42]
    }

    static let arrow = Array(" -> ".utf8)
    static let openError = Array("  [\(TreeCommand.Messages.openError)]".utf8)
    static let recursive = Array("  [\(TreeCommand.Messages.recursive)]".utf8)

    /// `  [N entries exceeds filelimit, not opening dir]`.
    static func overLimit(_ count: Int) -> [UInt8] { Array("  [\(TreeCommand.Messages.overLimit(count))]".utf8) }
}

/// Names and sizes written as tree(1) writes them.
enum TreeText {
    /// Appends `name` as tree(1) prints names in a locale of `encoding`, whether or not the output
    /// is a terminal. In a UTF-8 locale, valid UTF-8 keeps its printable characters and writes the
    /// others as `\ooo` (the code point in octal, `\011` for a tab). A name that is not valid
    /// UTF-8, and in any other locale every name, is written byte by byte, with `\t`-style escapes
    /// for BEL…CR, `\\` and `\ ` for backslash and space, `\ooo` for every other byte outside
    /// printable ASCII.
    static func appendName<Name: Collection<UInt8>>(
        _ name: Name, in encoding: CharacterEncoding, to line: inout [UInt8], escapingSpaces: Bool = true
    ) {
        if encoding == .utf8 && !name.contains(where: { $0 < 0x20 || $0 >= 0x7F }) {
            line.append(contentsOf: name)
            return
        }
        if encoding == .utf8, let text = String(validating: name, as: UTF8.self) {
            for scalar in text.unicodeScalars {
                if isPrintable(scalar) {
                    UTF8.encode(scalar) { line.append($0) }
                } else {
                    appendOctal(scalar.value, to: &line)
                }
            }
            return
        }
        for byte in name {
            switch byte {
            case 0x07...0x0D:
                line.append(0x5C)
                line.append(Array("abtnvfr".utf8)[Int(byte - 0x07)])
            case 0x20 where !escapingSpaces:
                line.append(byte)
            case 0x20, 0x5C:
                line.append(0x5C)
                line.append(byte)
            case 0x21...0x7E:
                line.append(byte)
            default:
                appendOctal(UInt32(byte), to: &line)
            }
        }
    }

    /// Whether glibc's `iswprint` holds in a UTF-8 locale: assigned, and not a control character
    /// or a line or paragraph separator.
    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate: return false
        default: return true
        }
    }

    /// `\` and the value in octal, at least three digits (`printf("\\%03o")`).
    private static func appendOctal(_ value: UInt32, to line: inout [UInt8]) {
        line.append(0x5C)
        line.append(contentsOf: padded(String(value, radix: 8), 3, with: "0").utf8)
    }

    /// `text` right-aligned in `width` columns.
    static func padded(_ text: String, _ width: Int, with pad: Character = " ") -> String {
        text.count >= width ? text : String(repeating: pad, count: width - text.count) + text
    }

    /// A size as `tree -h` prints it: bytes below 1024 (`%4d`), else one decimal below ten units
    /// (`%3.1f`) and none from ten on (`%3.0f`), in K, M, G… of 1024, rounded half to even as
    /// printf rounds.
    static func humanSize(_ size: UInt64) -> String {
        var size = size
        var unit = size < 1024 ? 0 : 1
        while size >= 1024 * 1024 {
            unit += 1
            size /= 1024
        }
        if unit == 0 { return padded(String(size), 4) }
        let letter = Array("BKMGTPEZY")[unit]
        if size / 1024 >= 10 {
            return padded(String(roundedQuotient(size, 1024)), 3) + String(letter)
        }
        let tenths = roundedQuotient(size * 10, 1024)
        return padded("\(tenths / 10).\(tenths % 10)", 3) + String(letter)
    }

    /// `dividend / divisor` rounded to the nearest integer, a tie going to the even one.
    private static func roundedQuotient(_ dividend: UInt64, _ divisor: UInt64) -> UInt64 {
        let quotient = dividend / divisor
        let twiceRemainder = 2 * (dividend % divisor)
        if twiceRemainder > divisor || (twiceRemainder == divisor && quotient % 2 == 1) {
            return quotient + 1
        }
        return quotient
    }
}

extension TreeCommand {
    fileprivate enum Messages {
        static let invalidLevel = "Invalid level, must be greater than 0."
        static let writeError = "write error"
        static let openError = "error opening dir"
        static let recursive = "recursive, not followed"
        static func overLimit(_ count: Int) -> String { "\(count) entries exceeds filelimit, not opening dir" }
        static func invalidSort(_ word: String, valid: String) -> String {
            "Sort type '\(word)' not valid, should be one of: \(valid)"
        }
        static func invalidFilename(_ name: [UInt8]) -> String { "invalid filename '\(String(decoding: name, as: UTF8.self))'" }
    }
}
