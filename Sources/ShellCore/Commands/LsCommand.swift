import PathModel

/// `ls [-aAbcdFghHilLmnNoqQGrRsStTuUvxX1C] [-w COLS] [-I PATTERN] [--hide=PATTERN] [--sort=WORD]
/// [--time=WORD] [--time-style=STYLE] [--full-time] [--group-directories-first] [--color[=WHEN]]
/// [FILE...]`: list directory contents.
public struct LsCommand: ShellCommand {
    public static let name = "ls"
    public static let summary =
        "List information about the FILEs (the current directory by default), sorted by name."
    public static let synopsis =
        "[-aAbcdFghHilLmnNoqQGrRsStuUvxX1C] [-w COLS] [-T COLS] [--format=WORD] [--zero] [-I PATTERN] [--hide=PATTERN] [--sort=WORD] [--time=WORD] [--time-style=STYLE] [--full-time] [--quoting-style=WORD] [--group-directories-first] [--color[=WHEN]] [--json] [FILE]..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case all, almostAll, color, columns, directory, classify, humanReadable, long, reverse, recursive,
            sortBySize, sortByTime, width, onePerLine, json, sortByExtension, unsorted, sortWord, ignore,
            hide, groupDirectoriesFirst, longWithoutOwner, longWithoutGroup, noGroup, numericIDs, inode, size,
            changeTime, accessTime, timeWord, timeStyle, fullTime, kibibytes, si, blockSize, slash, fileType,
            indicatorStyle, sortByVersion, escape, literal, quoteName, quotingStyle, hideControlChars,
            showControlChars, across, commas, formatWord, tabSize, zero, dereference, dereferenceOperands,
            dereferenceOperandDirectories
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("a", "all", key: .all, help: "do not ignore entries starting with ."),
        OptionSpec("A", "almost-all", key: .almostAll, help: "do not list implied . and .."),
        OptionSpec("b", "escape", key: .escape, help: "print C-style escapes for nongraphic characters"),
        OptionSpec(
            nil, "color", value: .optional, valueName: "WHEN",
            key: .color, help: "color the names: 'always' (when WHEN is omitted), 'auto' or 'never'"),
        OptionSpec(
            "c", key: .changeTime,
            help: "with -lt: sort by, and show, ctime; with -l: show ctime and sort by name; otherwise: sort by ctime, newest first"),
        OptionSpec("C", key: .columns, help: "list entries by columns"),
        OptionSpec(
            "d", "directory", key: .directory, help: "list directories themselves, not their contents"),
        OptionSpec(
            "F", "classify", value: .optional, valueName: "WHEN",
            key: .classify, help: "append an indicator (one of */=@|) to entries; WHEN as for --color"),
        OptionSpec(nil, "file-type", key: .fileType, help: "likewise, except do not append '*'"),
        OptionSpec(
            nil, "full-time", key: .fullTime, help: "like -l --time-style=full-iso"),
        OptionSpec("g", key: .longWithoutOwner, help: "like -l, but do not list the owner"),
        OptionSpec("G", "no-group", key: .noGroup, help: "in a long listing, do not print group names"),
        OptionSpec(
            "H", "dereference-command-line", key: .dereferenceOperands,
            help: "follow symbolic links listed on the command line"),
        OptionSpec(
            nil, "dereference-command-line-symlink-to-dir", key: .dereferenceOperandDirectories,
            help: "follow each command line symbolic link that points to a directory"),
        OptionSpec(
            nil, "group-directories-first", key: .groupDirectoriesFirst,
            help: "group directories before files, each group in the order asked for"),
        OptionSpec(
            nil, "block-size", value: .required, valueName: "SIZE", key: .blockSize,
            help: "with -l, -s and totals, write sizes in units of SIZE (K, M, KB, KiB, 1000…; a unit alone is written after each size)"),
        OptionSpec("h", "human-readable", key: .humanReadable, help: "with -l, print sizes like 1K 234M 2G"),
        OptionSpec(
            nil, "hide", value: .required, valueName: "PATTERN", key: .hide,
            help: "do not list entries matching PATTERN (overridden by -a or -A)"),
        OptionSpec(
            "k", "kibibytes", key: .kibibytes,
            help: "with -s and totals, 1024-byte blocks whatever LS_BLOCK_SIZE, BLOCK_SIZE or BLOCKSIZE say"),
        OptionSpec("i", "inode", key: .inode, help: "print the index number of each file"),
        OptionSpec(
            nil, "indicator-style", value: .required, valueName: "WORD", key: .indicatorStyle,
            help: "append indicators in style WORD to entry names: none, slash (-p), file-type (--file-type), classify (-F)"),
        OptionSpec(
            "I", "ignore", value: .required, valueName: "PATTERN", key: .ignore,
            help: "do not list entries matching PATTERN"),
        OptionSpec(
            nil, "format", value: .required, valueName: "WORD", key: .formatWord,
            help:
                "across (-x), commas (-m), horizontal (-x), long (-l), single-column (-1), verbose (-l), vertical (-C)"),
        OptionSpec("l", key: .long, help: "use a long listing format"),
        OptionSpec(
            "L", "dereference", key: .dereference,
            help: "show information for the file a symbolic link references, not for the link itself"),
        OptionSpec("m", key: .commas, help: "fill width with a comma separated list of entries"),
        OptionSpec("N", "literal", key: .literal, help: "print entry names without quoting"),
        OptionSpec(
            "n", "numeric-uid-gid", key: .numericIDs, help: "like -l, but list numeric user and group IDs"),
        OptionSpec("o", key: .longWithoutGroup, help: "like -l, but do not list group information"),
        OptionSpec("p", key: .slash, help: "append / indicator to directories"),
        OptionSpec("q", "hide-control-chars", key: .hideControlChars, help: "print ? instead of nongraphic characters"),
        OptionSpec(
            nil, "show-control-chars", key: .showControlChars,
            help: "show nongraphic characters as they are (the default, unless output is a terminal)"),
        OptionSpec("Q", "quote-name", key: .quoteName, help: "enclose entry names in double quotes"),
        OptionSpec(
            nil, "quoting-style", value: .required, valueName: "WORD", key: .quotingStyle,
            help:
                "use quoting style WORD for entry names: literal, locale, shell, shell-always, shell-escape, shell-escape-always, c, escape (overrides QUOTING_STYLE)"
        ),
        OptionSpec("r", "reverse", key: .reverse, help: "reverse order while sorting"),
        OptionSpec("R", "recursive", key: .recursive, help: "list subdirectories recursively"),
        OptionSpec("s", "size", key: .size, help: "print the allocated size of each file, in blocks"),
        OptionSpec("S", key: .sortBySize, help: "sort by file size, largest first"),
        OptionSpec(nil, "si", key: .si, help: "like -h, but use powers of 1000 not 1024"),
        OptionSpec(
            nil, "sort", value: .required, valueName: "WORD", key: .sortWord,
            help: "sort by WORD instead of name: none (-U), size (-S), time (-t), extension (-X), version (-v)"),
        OptionSpec(
            "T", "tabsize", value: .required, valueName: "COLS", key: .tabSize,
            help: "assume tab stops at each COLS instead of 8; 0 for spaces only"),
        OptionSpec("t", key: .sortByTime, help: "sort by time, newest first; see --time"),
        OptionSpec(
            nil, "time", value: .required, valueName: "WORD", key: .timeWord,
            help:
                "show and sort by WORD instead of the modification time: atime, access, use (-u); ctime, status (-c); birth, creation"
        ),
        OptionSpec(
            nil, "time-style", value: .required, valueName: "STYLE", key: .timeStyle,
            help: "time/date format with -l: full-iso, long-iso, iso, locale, or +FORMAT; see TIME_STYLE"),
        OptionSpec(
            "u", key: .accessTime,
            help: "with -lt: sort by, and show, access time; with -l: show access time and sort by name; otherwise: sort by access time, newest first"),
        OptionSpec("U", key: .unsorted, help: "do not sort; list entries in directory order"),
        OptionSpec("v", key: .sortByVersion, help: "natural sort of (version) numbers within text"),
        OptionSpec("x", key: .across, help: "list entries by lines instead of by columns"),
        OptionSpec("X", key: .sortByExtension, help: "sort alphabetically by entry extension"),
        OptionSpec(
            "w", "width", value: .required, valueName: "COLS",
            key: .width, help: "set output width to COLS; 0 means no limit"),
        OptionSpec("1", key: .onePerLine, help: "list one file per line"),
        OptionSpec(
            nil, "zero", key: .zero,
            help: "end each output line with NUL, not newline (names as they are, one per line, no colours)"),
        OptionSpec(
            nil, "json", key: .json, help: "write a JSON array of file records instead (see docs/json.md)"),
    ]

    /// The layout of a listing.
    public enum Format: Sendable, Hashable {
        /// `-l`: one file per line with its metadata.
        case long
        /// `-1`: one name per line (the default when output is not a terminal).
        case onePerLine
        /// `-C`: names in columns, filled top to bottom (the default on a terminal).
        case columns
        /// `-x`: names in columns, filled left to right.
        case across
        /// `-m`: names separated by commas, as many on a line as fit.
        case commas
    }

    /// Which names starting with a dot are listed.
    public enum Hidden: Sendable, Hashable {
        /// None of them (the default).
        case skipped
        /// `-A`: all of them, but not `.` and `..`.
        case almostAll
        /// `-a`: all of them, `.` and `..` included.
        case all
    }

    /// The order of a listing.
    public enum Sort: Sendable, Hashable {
        /// By name, byte by byte.
        case name
        /// `-t`: by the time shown (`timeField`), newest first; equal times by name.
        case time
        /// `-S`: by size, largest first; equal sizes by name.
        case size
        /// `-X`: by what follows the last `.` (nothing when there is none), then by name.
        case `extension`
        /// `-U`: as the volume lists them, operands as given.
        case none
        /// `-v`: by names as versions (`a2` before `a10`), in GNU's version order.
        case version
        /// `--sort=width`: by the columns names take as written, narrowest first; equal widths by
        /// name.
        case width
    }

    /// Which of a file's times a listing shows and `-t` sorts by.
    public enum TimeField: Sendable, Hashable {
        /// The last change of content (the default).
        case modification
        /// `-u`, `--time=atime`: the last access.
        case access
        /// `-c`, `--time=ctime`: the last change of content or metadata.
        case change
        /// `--time=birth`: the creation, where the volume records it.
        case birth
    }

    /// Which names get an indicator after them.
    public enum IndicatorStyle: Sendable, Hashable {
        /// None (the default).
        case none
        /// `-p`: `/` after directories.
        case slash
        /// `--file-type`: `/` after directories, `@` symlinks, `|` fifos, `=` sockets.
        case fileType
        /// `-F`: those, and `*` after executables.
        case classify
    }

    /// Which symbolic links a listing follows.
    public enum Dereference: Sendable, Hashable {
        /// `-L`: every one, operands and entries, each described by what it leads to.
        case always
        /// `-H`: those named as operands.
        case operands
        /// `--dereference-command-line-symlink-to-dir`: those named as operands that lead to a
        /// directory.
        case operandDirectories
    }

    /// When a decoration applies.
    public enum When: Sendable, Hashable {
        case always, never
        /// Only when standard output is a terminal (`auto`).
        case terminal
    }

    /// The layout asked for; nil picks columns on a terminal and one per line otherwise.
    public var format: Format?
    /// Which hidden names to list.
    public var hidden: Hidden
    /// The order of each listing.
    public var sort: Sort
    /// Reverse the order.
    public var reverse: Bool
    /// The time shown and sorted by.
    public var timeField: TimeField
    /// The `--time-style` given (`full-iso` with `--full-time`); nil when none was, and
    /// `TIME_STYLE` then applies.
    public var timeStyle: [UInt8]?
    /// Show the owner in a long listing (not with `-g`).
    public var showsOwner: Bool
    /// Show the group in a long listing (not with `-o` or `-G`).
    public var showsGroup: Bool
    /// Show user and group IDs as numbers (`-n`).
    public var numericIDs: Bool
    /// Show each file's inode number (`-i`).
    public var showsInodes: Bool
    /// Show the space each file takes, in blocks (`-s`).
    public var showsBlocks: Bool
    /// List directories before everything else, each group in `sort` order.
    public var directoriesFirst: Bool
    /// Names never listed (`-I`), as shell patterns where `*` does not match a leading dot.
    public var ignored: [Glob]
    /// Names not listed unless `-a` or `-A` (`--hide`).
    public var hiddenPatterns: [Glob]
    /// The unit of sizes and block counts given by `-h`, `--si` or `--block-size`; nil when
    /// none was, and the `BLOCK_SIZE` variables then apply.
    var sizeUnit: SizeUnit?
    /// `-k`: block counts in 1024-byte blocks whatever the variables say.
    public var kibibytes: Bool
    /// List subdirectories too.
    public var recursive: Bool
    /// List directories named as operands themselves, not their contents.
    public var directoriesThemselves: Bool
    /// When `-F` applies: given after the last of `-p`, `--file-type` and `--indicator-style`,
    /// it wins over them when it applies.
    public var classify: When
    /// The indicators of the last of `-p`, `--file-type` and `--indicator-style`, which apply
    /// when `classify` does not.
    public var indicatorStyle: IndicatorStyle
    /// How names are quoted (`--quoting-style`, `-b`, `-N`, `-Q`, the last given); nil when
    /// none was, and `QUOTING_STYLE`, else the output, decides.
    public var quotingStyle: QuotingStyle?
    /// Whether characters that cannot be printed are shown as `?` (`-q`, `--show-control-chars`,
    /// the last given); nil when neither was, and they are on a terminal.
    public var hidesControlCharacters: Bool?
    /// Which symbolic links are followed (`-L`, `-H`,
    /// `--dereference-command-line-symlink-to-dir`, the last given); nil when none was said, and
    /// an operand that leads to a directory is followed unless `-d`, `-F` or `-l` is given.
    public var dereference: Dereference?
    /// When to colour names.
    public var color: When
    /// The line width given with `-w`.
    public var width: Int?
    /// The columns between tab stops in column layouts (`-T`); nil for 8 (0: spaces only).
    public var tabSize: Int?
    /// `--zero`: each line of entries ends with NUL, not newline, and names are not coloured.
    public var zeroTerminated: Bool
    /// Write a JSON array of file records instead of a listing.
    public var json: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        // As in GNU ls, -1 after a long listing leaves it long.
        format = nil
        for (key, value) in arguments.options {
            switch key {
            case .long, .longWithoutOwner, .longWithoutGroup, .numericIDs, .fullTime: format = .long
            case .onePerLine where format != .long, .zero where format != .long: format = .onePerLine
            case .columns: format = .columns
            case .across: format = .across
            case .commas: format = .commas
            case .formatWord: format = try Self.formatWords.value(of: value ?? [])
            default: continue
            }
        }
        switch arguments.last(of: [.all, .almostAll]) {
        case .all: hidden = .all
        case .almostAll: hidden = .almostAll
        default: hidden = .skipped
        }
        switch arguments.last(of: [.changeTime, .accessTime, .timeWord]) {
        case .changeTime: timeField = .change
        case .accessTime: timeField = .access
        case .timeWord: timeField = try Self.timeWords.value(of: arguments.bytes(.timeWord) ?? [])
        default: timeField = .modification
        }
        switch arguments.last(of: [.sortByTime, .sortBySize, .sortByExtension, .unsorted, .sortByVersion, .sortWord]) {
        case .sortByTime: sort = .time
        case .sortByVersion: sort = .version
        case .sortBySize: sort = .size
        case .sortByExtension: sort = .extension
        case .unsorted: sort = .none
        case .sortWord: sort = try Self.sortWords.value(of: arguments.bytes(.sortWord) ?? [])
        // As GNU ls: another time than the modification time, without -l, sorts by it.
        default: sort = timeField != .modification && format != .long ? .time : .name
        }
        switch arguments.last(of: [.timeStyle, .fullTime]) {
        case .timeStyle: timeStyle = arguments.bytes(.timeStyle)
        case .fullTime: timeStyle = Array("full-iso".utf8)
        default: timeStyle = nil
        }
        directoriesFirst = arguments.has(.groupDirectoriesFirst)
        showsOwner = !arguments.has(.longWithoutOwner)
        showsGroup = !arguments.has(.longWithoutGroup) && !arguments.has(.noGroup)
        numericIDs = arguments.has(.numericIDs)
        showsInodes = arguments.has(.inode)
        showsBlocks = arguments.has(.size)
        ignored = arguments.allBytes(.ignore).map { Glob(bytes: $0) }
        hiddenPatterns = arguments.allBytes(.hide).map { Glob(bytes: $0) }
        reverse = arguments.has(.reverse)
        switch arguments.last(of: [.humanReadable, .si, .blockSize]) {
        case .humanReadable: sizeUnit = .humanReadable
        case .si: sizeUnit = .si
        case .blockSize: sizeUnit = try SizeUnit(blockSizeArgument: arguments.bytes(.blockSize) ?? [])
        default: sizeUnit = nil
        }
        kibibytes = arguments.has(.kibibytes)
        recursive = arguments.has(.recursive)
        directoriesThemselves = arguments.has(.directory)
        json = arguments.has(.json)
        // As GNU ls: each of these sets the style, but -F only when its WHEN applies.
        let styleKeys: Set<Option> = [.slash, .fileType, .indicatorStyle]
        let lastStyle = arguments.options.lastIndex { styleKeys.contains($0.key) }
        switch lastStyle.map({ arguments.options[$0] }) {
        case (.slash, _)?: indicatorStyle = .slash
        case (.fileType, _)?: indicatorStyle = .fileType
        case (_, let word)?: indicatorStyle = try Self.indicatorWords.value(of: word ?? [])
        case nil: indicatorStyle = .none
        }
        classify = .never
        for (key, value) in arguments.options[(lastStyle.map { $0 + 1 } ?? 0)...] where key == .classify {
            switch try Self.when(value, option: "--classify") {
            case .always: classify = .always
            case .terminal where classify == .never: classify = .terminal
            default: break
            }
        }
        color = arguments.has(.color) ? try Self.when(arguments.bytes(.color), option: "--color") : .never
        // As GNU ls: --zero asks for names as they are, unless a later option says otherwise.
        switch arguments.last(of: [.escape, .literal, .quoteName, .quotingStyle, .zero]) {
        case .escape: quotingStyle = .escape
        case .literal, .zero: quotingStyle = .literal
        case .quoteName: quotingStyle = .c
        case .quotingStyle: quotingStyle = try Self.quotingWords.value(of: arguments.bytes(.quotingStyle) ?? [])
        default: quotingStyle = nil
        }
        switch arguments.last(of: [.hideControlChars, .showControlChars, .zero]) {
        case .hideControlChars: hidesControlCharacters = true
        case .showControlChars, .zero: hidesControlCharacters = false
        default: hidesControlCharacters = nil
        }
        if let text = arguments.value(.width) {
            guard let value = Int(text), value >= 0 else { throw .invalid(Messages.invalidWidth(text)) }
            width = value
        }
        if let text = arguments.value(.tabSize) {
            guard let value = Int(text), value >= 0 else { throw .invalid(Messages.invalidTabSize(text)) }
            tabSize = value
        }
        zeroTerminated = arguments.has(.zero)
        switch arguments.last(of: [.dereference, .dereferenceOperands, .dereferenceOperandDirectories]) {
        case .dereference: dereference = .always
        case .dereferenceOperands: dereference = .operands
        case .dereferenceOperandDirectories: dereference = .operandDirectories
        default: dereference = nil
        }
        operands = arguments.operands
    }

    /// Reads a WHEN argument as GNU's argmatch does: exact words or unambiguous abbreviations;
    /// none is `always`.
    static func when(_ value: [UInt8]?, option: String) throws(UsageError) -> When {
        guard let value else { return .always }
        let words: [(word: String, value: When)] = [
            ("always", .always), ("yes", .always), ("force", .always), ("never", .never), ("no", .never),
            ("none", .never), ("auto", .terminal), ("tty", .terminal), ("if-tty", .terminal),
        ]
        return try ArgumentChoice(option: option, words).value(of: value)
    }

    /// The units of sizes (`-l`) and of block counts (`-s`, `total`): those of `-h`, `--si` or
    /// `--block-size`; else, as GNU ls takes them, from `LS_BLOCK_SIZE`, `BLOCK_SIZE` or
    /// `BLOCKSIZE` (sizes from the first two only, and a value that is no SIZE means 1024-byte
    /// units), 1024-byte blocks by default (512 with `POSIXLY_CORRECT`), and with `-k` 1024-byte
    /// blocks whatever the variables say.
    func sizeUnits(_ environment: Environment) -> (file: SizeUnit, blocks: SizeUnit) {
        if let sizeUnit { return (sizeUnit, sizeUnit) }
        let blocks = SizeUnit.blocks(environment, variable: "LS_BLOCK_SIZE")
        let namesSizes = environment["LS_BLOCK_SIZE"] != nil || environment["BLOCK_SIZE"] != nil
        let file = namesSizes ? blocks : SizeUnit(blockSize: 1)
        return (file, kibibytes ? SizeUnit(blockSize: 1024) : blocks)
    }

    /// The words of `--time`.
    static let timeWords = ArgumentChoice<TimeField>(
        option: "--time",
        [
            ("atime", .access), ("access", .access), ("use", .access), ("ctime", .change), ("status", .change),
            ("birth", .birth), ("creation", .birth),
        ])

    /// The words of `--indicator-style`.
    static let indicatorWords = ArgumentChoice<IndicatorStyle>(
        option: "--indicator-style",
        [("none", .none), ("slash", .slash), ("file-type", .fileType), ("classify", .classify)])

    /// The styles `--quoting-style=WORD` and `QUOTING_STYLE` name, in GNU's order.
    static let quotingWords = ArgumentChoice<QuotingStyle>(
        option: "--quoting-style",
        [
            ("literal", .literal), ("shell", .shell), ("shell-always", .shellAlways), ("shell-escape", .shellEscape),
            ("shell-escape-always", .shellEscapeAlways), ("c", .c), ("c-maybe", .cMaybe), ("escape", .escape),
            ("locale", .locale), ("clocale", .clocale),
        ])

    /// The orders `--sort=WORD` names.
    static let sortWords = ArgumentChoice<Sort>(
        option: "--sort",
        [
            ("none", .none), ("time", .time), ("size", .size), ("extension", .extension), ("version", .version),
            ("width", .width),
        ])

    /// The layouts `--format=WORD` names.
    static let formatWords = ArgumentChoice<Format>(
        option: "--format",
        [
            ("verbose", .long), ("long", .long), ("commas", .commas), ("horizontal", .across), ("across", .across),
            ("vertical", .columns), ("single-column", .onePerLine),
        ])

    public func run(in context: CommandContext) -> ExitStatus {
        // As GNU ls, the style (and TIME_STYLE) is read only for a long listing.
        var dateStyle = ListingTimeStyle.standard
        if format == .long {
            do throws(UsageError) {
                let environment = context.state.environment
                dateStyle = try ListingTimeStyle(
                    named: timeStyle ?? environment["TIME_STYLE"] ?? Array("locale".utf8),
                    timeLocaleIsC: ListingTimeStyle.timeLocaleIsC(environment))
            } catch {
                return context.usageError(Diagnostics.render(error))
            }
        }
        var run = ListingRun(command: self, context: context, dateStyle: dateStyle)
        return run.start()
    }
}

/// One run of `ls`: the operands, the listing written, and the worst failure so far.
private struct ListingRun {
    let command: LsCommand
    let context: CommandContext
    var writer: ListingWriter
    let format: LsCommand.Format
    /// Whether `-F` applies (or `--indicator-style=classify` was given).
    let classify: Bool
    /// The indicators names get.
    let indicators: LsCommand.IndicatorStyle
    let colored: Bool
    /// The colours, for deciding what to examine.
    let writerColors: ListingColors
    /// GNU ls's exit status: 2 for trouble with an operand, 1 for trouble below one.
    var status: Int32 = 0
    /// Whether no directory header has been written yet.
    var firstHeader = true
    /// With `--json`: where records go instead of the listing.
    var records: JSONArrayWriter?
    /// Owner and group names for records.
    let names = OwnerNames()
    init(command: LsCommand, context: CommandContext, dateStyle: ListingTimeStyle) {
        self.command = command
        self.context = context
        let terminal = context.stdout.isTerminal
        let environment = context.state.environment
        format = command.format ?? (terminal ? .columns : .onePerLine)
        let classifies = command.classify == .always || (command.classify == .terminal && terminal)
        indicators = classifies ? .classify : command.indicatorStyle
        classify = indicators == .classify
        // As GNU ls: LS_COLORS, or else a terminal type known to take colours, is needed even
        // for --color=always; NO_COLOR turns the automatic colours off.
        let wantsColor =
            !command.zeroTerminated && command.color == .always
            || (!command.zeroTerminated && command.color == .terminal && terminal
                && !ListingColors.isDisabled(environment))
        colored =
            wantsColor
            && (ListingColors.isConfigured(environment) || ListingColors.terminalTakesColor(environment))
        // LS_COLORS is parsed only for a listing that uses it.
        writerColors = colored ? ListingColors(environment: environment) : .builtIn
        var lineLength = 80
        if let columns = environment.text("COLUMNS").flatMap({ Int($0) }), columns > 0 {
            lineLength = columns
        }
        if terminal, let width = context.state.terminalWidth, width > 0 { lineLength = width }
        if let width = command.width { lineLength = width }
        let units = command.sizeUnits(environment)
        var quotingStyle = command.quotingStyle
        if quotingStyle == nil, let value = environment["QUOTING_STYLE"] {
            quotingStyle = try? LsCommand.quotingWords.value(of: value)
            if quotingStyle == nil { context.error(LsCommand.Messages.invalidQuotingStyle(value)) }
        }
        let quoting = NameQuoting(
            style: quotingStyle ?? (terminal ? .shellEscape : .literal),
            hidesControlCharacters: command.hidesControlCharacters ?? terminal, indicators: indicators)
        let style = ListingStyle(
            format: format, showsOwner: command.showsOwner,
            showsGroup: command.showsGroup, numericIDs: command.numericIDs, showsInodes: command.showsInodes,
            showsBlocks: command.showsBlocks, indicators: indicators,
            colored: colored,
            colors: writerColors,
            quoting: quoting, lineEnd: command.zeroTerminated ? 0 : 0x0A,
            tabSize: command.tabSize ?? 8, lineLength: lineLength, fileUnit: units.file, blockUnit: units.blocks, timeField: command.timeField, dateStyle: dateStyle,
            zone: Clock.Zone(environment: environment), now: Clock.now())
        writer = ListingWriter(style: style, output: context.stdout)
        if command.json { records = JSONArrayWriter(output: context.stdout) }
    }

    mutating func start() -> ExitStatus {
        var operandFiles: [ListedFile] = []
        var operandPaths: [File] = []
        for operand in command.operands.isEmpty ? [Argument(bytes: [0x2E])] : command.operands {
            if context.isCancelled { return .interrupted }
            let path = context.resolve(operand)
            if let file = examineOperand(operand, at: path) {
                operandFiles.append(file)
                operandPaths.append(path)
            }
        }
        let order = sortedOrder(operandFiles)
        var files: [ListedFile] = []
        var directories: [(path: File, file: ListedFile)] = []
        for index in order {
            let file = operandFiles[index]
            if file.kind == .directory && !command.directoriesThemselves {
                directories.append((operandPaths[index], file))
            } else {
                files.append(file)
            }
        }
        var namesDirectories = true
        if records != nil {
            for file in files { record(file, path: Array(file.name)) }
        } else if !files.isEmpty {
            // As GNU ls, the columns of the operands that are not listed as directories (-l's
            // fields, -i and -s) are as wide as those of every operand, directories included.
            writer.list(files + directories.map(\.file), order: Array(files.indices))
            if !directories.isEmpty { writer.blankLine() }
        } else if command.operands.count <= 1 && directories.count == 1 {
            namesDirectories = false
        }
        for (path, file) in directories {
            if context.isCancelled {
                writer.flush()
                return .interrupted
            }
            list(path, file, withHeader: command.recursive || namesDirectories)
            if context.stdout.isBroken { break }
        }
        if context.isCancelled {
            writer.flush()
            return .interrupted
        }
        writer.flush()
        records?.finish()
        context.stdout.flush()
        if let error = context.stdout.error {
            if error.errno != .brokenPipe { context.error(LsCommand.Messages.writeError(error.reason)) }
            return .failure
        }
        return ExitStatus(status)
    }

    /// Examines an operand as GNU ls does: a symlink is followed with `-L` and `-H`, and one to a
    /// directory unless `-d`, `-F` or `-l` asks about the link itself. Reports a failure and
    /// returns nil.
    private mutating func examineOperand(_ operand: Argument, at path: File) -> ListedFile? {
        let rule =
            command.dereference
            ?? (command.directoriesThemselves || classify || format == .long ? nil : .operandDirectories)
        do throws(FileError) {
            var followed: FileInfo?
            if rule == .always || rule == .operands {
                followed = try context.info(of: operand, followSymlinks: true)
            } else if rule == .operandDirectories {
                do {
                    followed = try context.info(of: operand, followSymlinks: true)
                } catch
                    where error.errno == .noSuchFileOrDirectory || error.errno == .tooManySymbolicLinkLevels
                {
                    // Perhaps a dangling link: describe the link itself below.
                }
            }
            let info: FileInfo
            if let followed, followed.kind == .directory || rule != .operandDirectories {
                info = followed
            } else {
                info = try context.info(of: operand, followSymlinks: false)
            }
            var file = ListedFile(name: operand.bytes[...], info: info)
            if info.kind == .symlink && readsLinkTargets {
                do {
                    file.linkTarget = try path.linkTarget().bytes
                } catch {
                    fail(LsCommand.Messages.cannotReadLink, operand.bytes, error, serious: false)
                }
            }
            if info.kind == .symlink && followsTargets {
                file.targetMode = followedMode { () throws(FileError) in try path.info(followSymlinks: true) }
                file.targetMissing = file.targetMode == nil
            }
            return file
        } catch {
            fail(LsCommand.Messages.cannotAccess, operand.bytes, error, serious: true)
            return nil
        }
    }

    /// Whether symlinks' targets are read: the long format and records show them.
    private var readsLinkTargets: Bool { format == .long || command.json }

    /// Whether symlinks' targets are examined: for `-lF` and `-l --file-type` indicators (not
    /// `-lp`'s, as in GNU ls), for
    /// `--group-directories-first` (a link to a directory is grouped with them, as in GNU ls), and
    /// for colours that mark dangling links (`or`, `mi`).
    private var followsTargets: Bool {
        (format == .long && (indicators == .fileType || indicators == .classify)) || groupsDirectories || (colored && writerColors.marksOrphans)
    }

    /// Whether directories come first: `--group-directories-first`, which `-U` undoes.
    private var groupsDirectories: Bool { command.directoriesFirst && command.sort != .none }

    /// The mode of what a symlink leads to, or nil when it leads nowhere (no indicator, no colour).
    private func followedMode(_ examine: () throws(FileError) -> FileInfo) -> UInt32? {
        do {
            return try examine().mode
        } catch {
            // A dangling or unreadable target is shown without decoration, as GNU ls shows it.
            return nil
        }
    }

    /// Lists the operand directory `file` at `path`, and with `-R` every directory below it, each
    /// after the one above it, in listing order.
    private mutating func list(_ path: File, _ file: ListedFile, withHeader: Bool) {
        let bare = listsBareNames
        var walk = TreeWalk(
            path, spelled: Array(file.name), info: file.info,
            options: TreeWalk.Options(
                sorted: bare && command.sort == .name, maxDepth: command.recursive ? nil : 1,
                following: command.dereference == .always ? .always : .start))
        while let event = walk.next() {
            if context.isCancelled { return }
            switch event {
            case .enter where bare:
                header(walk.path, withHeader)
                writer.listNames(
                    walk.children, skippingHidden: command.hidden == .skipped,
                    reversed: command.reverse && command.sort != .none)
                walk.visit([])
            case .enter:
                listEntered(&walk, withHeader: withHeader || walk.depth > 0)
            case .unreadable(let error) where error.operation == .read:
                header(walk.path, withHeader || walk.depth > 0)
                fail(LsCommand.Messages.readingDirectory, walk.path, error, serious: walk.depth == 0)
            case .unreadable(let error):
                fail(LsCommand.Messages.cannotOpenDirectory, walk.path, error, serious: walk.depth == 0)
            case .cycle:
                // A bind mount of a directory inside itself: listed once, as GNU ls lists it.
                writer.flush()
                context.error("\(Quoting.bare(walk.path)): \(LsCommand.Messages.alreadyListed)")
                status = 2
            case .failure(let error):
                fail(LsCommand.Messages.cannotAccess, walk.path, error, serious: false)
            case .entry, .leave, .directory:
                break
            }
            if context.stdout.isBroken { return }
        }
    }

    /// Writes the header of a directory's listing (`path:`), after a blank line unless it is the first.
    private mutating func header(_ path: [UInt8], _ wanted: Bool) {
        guard wanted && records == nil else { return }
        if !firstHeader { writer.blankLine() }
        firstHeader = false
        writer.header(path)
    }

    /// Lists the directory the walk just entered, and with `-R` tells the walk to go into its
    /// subdirectories next, in listing order.
    private mutating func listEntered(_ walk: inout TreeWalk, withHeader: Bool) {
        header(walk.path, withHeader)
        let listing = walk.children
        var files: [ListedFile] = []
        // Each file's index in the listing; nil for `.` and `..`.
        var indices: [Int?] = []
        if command.hidden == .all {
            files.append(ListedFile(name: [0x2E], kind: .directory))
            files.append(ListedFile(name: [0x2E, 0x2E], kind: .directory))
            indices = [nil, nil]
        }
        let skipHidden = command.hidden == .skipped
        let patterns = command.ignored + (skipHidden ? command.hiddenPatterns : [])
        files.reserveCapacity(listing.count)
        for index in 0..<listing.count {
            if skipHidden && listing.isHidden(index) { continue }
            let name = listing.name(index)
            if !patterns.isEmpty && patterns.contains(where: { $0.matches(name: name) }) { continue }
            files.append(ListedFile(name: name, kind: listing.kind(index)))
            indices.append(index)
        }
        var totalBlocks: UInt64 = 0
        for position in files.indices where needsInfo(files[position].kind) {
            if position & 0xFFF == 0 && context.isCancelled { return walk.visit([]) }
            let name = files[position].name
            do {
                guard let index = indices[position] else {
                    // `.` and `..`, examined through the directory the walk holds open.
                    let info = try walk.openDirectory().info(at: Array(name))
                    files[position].info = info
                    totalBlocks += info.blocks
                    continue
                }
                // Kept in `files`, not in the walk as well: a directory of 100,000 entries
                // would hold each twice.
                let info = try walk.childInfo(index, remembering: false)
                files[position].info = info
                if info.kind == .symlink && readsLinkTargets {
                    files[position].linkTarget = try walk.childLinkTarget(index)
                }
                files[position].kind = info.kind
                totalBlocks += info.blocks
                if info.kind == .symlink && followsTargets {
                    files[position].targetMode = followedMode { () throws(FileError) in
                        try walk.childInfo(index, following: true)
                    }
                    files[position].targetMissing = files[position].targetMode == nil
                }
            } catch {
                fail(LsCommand.Messages.cannotAccess, entryPath(walk.path, Array(name)), error, serious: false)
            }
        }
        let order = sortedOrder(files)
        walk.visit(
            command.recursive ? order.compactMap { files[$0].kind == .directory ? indices[$0] : nil } : [])
        if records != nil {
            for index in order { record(files[index], path: entryPath(walk.path, Array(files[index].name))) }
        } else {
            writer.list(files, order: order, totalBlocks: totalBlocks)
        }
    }

    /// The path of entry `name` of the directory at `directory` as ls names it: entries of `.`
    /// by their names alone.
    private func entryPath(_ directory: [UInt8], _ name: [UInt8]) -> [UInt8] {
        directory == [0x2E] ? name : joinedPath(directory, name)
    }

    /// Whether a directory's listing is its entries' names alone, one per line, in byte order
    /// or the volume's: then nothing is examined, and the names go out from the listing as it
    /// was read (sorted where it lies), with no copy of each.
    private var listsBareNames: Bool {
        writer.writesBareNames && records == nil && !command.recursive && command.hidden != .all
            && command.ignored.isEmpty && (command.hidden != .skipped || command.hiddenPatterns.isEmpty)
            && (command.sort == .name || command.sort == .none) && !groupsDirectories
    }

    /// Whether an entry must be examined: for the long format and time or size order always;
    /// for indicators, colours and recursion only when its entry type does not tell enough.
    private func needsInfo(_ kind: FileKind?) -> Bool {
        if format == .long || command.json || command.sort == .time || command.sort == .size { return true }
        if command.showsInodes || command.showsBlocks { return true }
        if groupsDirectories && (kind == nil || kind == .symlink) { return true }
        // With -L a symlink is described by what it leads to (and one that leads nowhere is
        // reported) only when its type matters, as GNU ls examines it.
        if command.dereference == .always && kind == .symlink
            && (indicators != .none || colored || command.recursive || groupsDirectories)
        {
            return true
        }
        if kind == .symlink && colored && writerColors.marksOrphans { return true }
        guard let kind else { return indicators != .none || colored || command.recursive }
        if classify && kind == .regular { return true }
        return colored && (kind == .regular || kind == .directory)
    }

    /// The indices of `files` in listing order.
    private func sortedOrder(_ files: [ListedFile]) -> [Int] {
        var order: [Int]
        switch command.sort {
        case .name:
            order = Self.nameOrder(files)
        case .time:
            order = Array(files.indices)
            let field = command.timeField
            order.sort { left, right in
                let a = files[left].info.flatMap { $0.time(field) } ?? Timestamp(seconds: .min)
                let b = files[right].info.flatMap { $0.time(field) } ?? Timestamp(seconds: .min)
                if a != b { return b < a }
                return bytesPrecede(files[left].name, files[right].name)
            }
        case .size:
            order = Array(files.indices)
            order.sort { left, right in
                let a = files[left].info?.size ?? 0
                let b = files[right].info?.size ?? 0
                if a != b { return b < a }
                return bytesPrecede(files[left].name, files[right].name)
            }
        case .extension:
            let extensions = files.map { file in
                file.name.lastIndex(of: 0x2E).map { Array(file.name[$0...]) } ?? []
            }
            order = Self.nameOrder(files)
            // Stable, so that equal extensions stay in name order.
            order = order.enumerated().sorted { left, right in
                let (a, b) = (extensions[left.element], extensions[right.element])
                return a != b ? bytesPrecede(a, b) : left.offset < right.offset
            }.map(\.element)
        case .version:
            order = files.indices.sorted { VersionOrder.precedes(files[$0].name, files[$1].name) }
        case .width:
            let widths = files.map { DisplayWidth.of(writer.shownName($0.name)) }
            order = files.indices.sorted { left, right in
                widths[left] != widths[right]
                    ? widths[left] < widths[right] : bytesPrecede(files[left].name, files[right].name)
            }
        case .none:
            order = Array(files.indices)
        }
        if command.reverse && command.sort != .none { order.reverse() }
        if groupsDirectories {
            // A symlink to a directory counts as one, as GNU ls counts it.
            let isDirectory = files.map { file in
                file.kind == .directory
                    || (file.kind == .symlink && file.targetMode.map { $0 & 0o170000 == 0o040000 } == true)
            }
            order = order.filter { isDirectory[$0] } + order.filter { !isDirectory[$0] }
        }
        return order
    }

    /// Indices in byte order of the names, comparing an 8-byte prefix first so that most
    /// comparisons touch no name at all.
    private static func nameOrder(_ files: [ListedFile]) -> [Int] {
        var keys: [(prefix: UInt64, index: Int)] = []
        keys.reserveCapacity(files.count)
        for (index, file) in files.enumerated() {
            var prefix: UInt64 = 0
            var count = 0
            for byte in file.name.prefix(8) {
                prefix = prefix << 8 | UInt64(byte)
                count += 1
            }
            prefix <<= UInt64(8 * (8 - count))
            keys.append((prefix, index))
        }
        keys.sort { left, right in
            if left.prefix != right.prefix { return left.prefix < right.prefix }
            return bytesPrecede(files[left.index].name, files[right.index].name)
        }
        return keys.map(\.index)
    }

    /// Writes a file's record; a file that could not be examined was reported already.
    private mutating func record(_ file: ListedFile, path: [UInt8]) {
        guard let info = file.info else { return }
        let name = BasenameCommand.strip(Array(file.name), suffix: nil)
        records?.append(
            JSONText.fields(
                of: JSONText.record(path: path, name: name, info: info, linkTarget: file.linkTarget, names: names)))
    }

    /// Reports a failure on a file named as the user sees it (`ls: cannot access 'x/': …`);
    /// `serious` ones (about operands) make the status 2, others 1.
    private mutating func fail(_ phrase: String, _ shown: [UInt8], _ error: FileError, serious: Bool) {
        // Ctrl-C broke it off (a request to a silent server): ls ends with 130, without a word.
        if context.isInterruption(error) { return }
        writer.flush()
        context.error("\(phrase) \(Quoting.always(shown)): \(error.reason)")
        status = max(status, serious ? 2 : 1)
    }
}

extension LsCommand {
    fileprivate enum Messages {
        static let cannotAccess = "cannot access"
        static let cannotReadLink = "cannot read symbolic link"
        static let cannotOpenDirectory = "cannot open directory"
        static let readingDirectory = "reading directory"
        static let alreadyListed = "not listing already-listed directory"
        static func invalidWidth(_ text: String) -> String { "invalid line width: \(Quoting.always(text))" }
        static func invalidTabSize(_ text: String) -> String { "invalid tab size: \(Quoting.always(text))" }
        static func writeError(_ reason: String) -> String { "write error: \(reason)" }
        static func invalidQuotingStyle(_ value: [UInt8]) -> String {
            "ignoring invalid value of environment variable QUOTING_STYLE: \(Quoting.locale(value))"
        }
    }
}
