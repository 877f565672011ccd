import PathModel

/// One file in a listing: its name as shown and what is known about it.
struct ListedFile {
    /// The name as listed: an entry's name, or an operand as it was written. An entry's name
    /// lies in its directory's listing, which every entry shares: a listing of 100,000 names
    /// makes no allocation per name.
    var name: ArraySlice<UInt8>
    /// The type, from the directory entry or from `info`; nil when unknown.
    var kind: FileKind?
    /// The file's metadata, when it was examined and that worked.
    var info: FileInfo? {
        get { examined?.info }
        set { examined = newValue.map { Examined($0, linkTarget: linkTarget) } }
    }
    /// What the file, a symlink, holds, when it was read (for the long format and records).
    var linkTarget: [UInt8]? {
        get { examined?.linkTarget }
        set { examined = info.map { Examined($0, linkTarget: newValue) } }
    }
    /// `info` and `linkTarget`, boxed: most listings never examine their entries, and a listing
    /// of many entries grows faster when each entry is small.
    private var examined: Examined?
    /// The mode of what a symlink points to, when it was followed and that worked (`ls -lF`).
    var targetMode: UInt32?
    /// Whether a symlink was followed and leads nowhere (for the `or` and `mi` colours).
    var targetMissing = false

    /// A file known by name and entry type only.
    init(name: ArraySlice<UInt8>, kind: FileKind?) {
        self.name = name
        self.kind = kind
    }

    /// A file that was examined.
    init(name: ArraySlice<UInt8>, info: FileInfo) {
        self.name = name
        self.kind = info.kind
        self.info = info
    }

    private final class Examined {
        let info: FileInfo
        let linkTarget: [UInt8]?
        init(_ info: FileInfo, linkTarget: [UInt8]?) {
            self.info = info
            self.linkTarget = linkTarget
        }
    }
}

/// How `ls` lays out and decorates its listings, settled once per run.
struct ListingStyle {
    /// The layout.
    var format: LsCommand.Format
    /// The owner column of a long listing (not with `-g`).
    var showsOwner = true
    /// The group column of a long listing (not with `-o`, `-G`).
    var showsGroup = true
    /// `-n`: user and group IDs as numbers.
    var numericIDs = false
    /// `-i`: each file's inode number before it.
    var showsInodes = false
    /// `-s`: the space each file takes, in 1 KiB blocks (scaled with `-h`), before it.
    var showsBlocks = false
    /// `-F`: a type indicator after each name.
    var indicators = LsCommand.IndicatorStyle.none
    /// Colour names by type.
    var colored = false
    /// The colours, when `colored`.
    var colors = ListingColors.builtIn
    /// How names, link targets and headers are written.
    var quoting = NameQuoting(style: .literal, hidesControlCharacters: false, indicators: .none)
    /// What ends each line of entries (and `total`): a newline, or NUL with `--zero`.
    var lineEnd: UInt8 = 0x0A
    /// The columns between tab stops that column layouts pad with (`-T`); 0 for spaces only.
    var tabSize = 8
    /// The line width for columns and for the wrap check after a coloured name; 0 for no limit.
    var lineLength = 80
    /// The unit of sizes in a long listing: bytes, or `-h`'s `1.0K`, `--block-size`'s.
    var fileUnit = SizeUnit(blockSize: 1)
    /// The unit of `-s` and `total`: 1 KiB blocks, or `-h`'s, `--block-size`'s.
    var blockUnit = SizeUnit(blockSize: 1024)
    /// The time shown in a long listing.
    var timeField: LsCommand.TimeField = .modification
    /// How dates are written.
    var dateStyle: ListingTimeStyle = .standard
    /// The zone dates are shown in.
    var zone: Clock.Zone = .local
    /// The time "recent" is measured from.
    var now: Timestamp
}

/// Writes listings in GNU ls's layouts into a buffer that goes to the output stream in
/// 64 KiB blocks. Owner and group names and dates are looked up once per run.
struct ListingWriter {
    private let style: ListingStyle
    private let output: OutputStream
    private var buffer: [UInt8] = []
    private var now: Timestamp
    private var usedColor = false
    /// The `-i` and `-s` prefixes of the listing being written.
    private var prefixes: Prefixes?
    private var users: [UInt32: Owner] = [:]
    private var groups: [UInt32: Owner] = [:]
    private var dates: [Int64: [UInt8]] = [:]
    /// The columns a date takes, which a `?` or `-` in its place is right-aligned to: those of
    /// the epoch in the style's format for old times, as GNU ls measures it.
    private let dateWidth: Int

    private static let blockSize = 1 << 16

    /// An owner or group as a long listing shows it: the name, else the number right-aligned.
    private struct Owner {
        var bytes: [UInt8]
        var width: Int
        var numeric: Bool
    }

    /// Names as shown in the quoting style; where it quotes only some, the others after a
    /// blank so that they line up with the quoted ones' text.
    private struct ShownNames {
        var names: [ArraySlice<UInt8>]
        var padded: [Bool]
    }

    /// A writer for `style` sending its output to `output`.
    init(style: ListingStyle, output: OutputStream) {
        self.style = style
        self.output = output
        now = style.now
        if case .formats(let oldFormat, _) = style.dateStyle {
            dateWidth = DisplayWidth.of(TimeFormat.format(oldFormat, Timestamp(seconds: 0), zone: style.zone))
        } else {
            dateWidth = 12
        }
        buffer.reserveCapacity(Self.blockSize + 4096)
    }

    /// Writes `files` in the style's layout, in the given `order` of their indices (all of them
    /// when nil); a long listing, or any with `-s`, starts with `total` when `totalBlocks` (in
    /// 512-byte units) is given.
    mutating func list(_ files: [ListedFile], order: [Int]? = nil, totalBlocks: UInt64? = nil) {
        let order = order ?? Array(files.indices)
        let shown = style.quoting.isLiteral ? nil : shownNames(files)
        if let totalBlocks, style.format == .long || style.showsBlocks {
            buffer.append(contentsOf: Array("total \(blockCount(totalBlocks))".utf8))
            buffer.append(style.lineEnd)
        }
        prefixes = self.prefixes(files)
        switch style.format {
        case .long:
            writeLong(files, order: order, shown: shown)
        case .onePerLine where shown == nil && !style.colored && style.indicators == .none && prefixes == nil:
            for index in order {
                buffer.append(contentsOf: files[index].name)
                buffer.append(style.lineEnd)
                if buffer.count >= Self.blockSize { flush() }
            }
        case .onePerLine:
            for index in order {
                let start = appendPrefix(index)
                writeNameAndIndicator(files, index, shown: shown, startColumn: start)
                buffer.append(style.lineEnd)
                flushIfFull()
            }
        case .columns, .across:
            writeColumns(files, order: order, shown: shown, across: style.format == .across)
        case .commas:
            writeCommas(files, order: order, shown: shown)
        }
        flushIfFull()
    }

    /// Whether names are written bare, one per line, with nothing before or after them.
    var writesBareNames: Bool {
        style.format == .onePerLine && style.quoting.isLiteral && !style.colored && style.indicators == .none && !style.showsInodes
            && !style.showsBlocks
    }

    /// Writes the names of `listing`'s entries one per line, in its order or the reverse,
    /// without those starting with a dot when `skippingHidden`; for a style that
    /// `writesBareNames`.
    mutating func listNames(_ listing: DirectoryListing, skippingHidden: Bool, reversed: Bool) {
        flush()
        listing.forEachBlockOfLines(
            reversed: reversed, skippingHidden: skippingHidden, terminator: style.lineEnd, blockSize: Self.blockSize
        ) { block in
            output.write(bytes: block)
            return !output.isBroken
        }
    }

    /// Writes `name:` above a directory's listing.
    mutating func header(_ name: [UInt8]) {
        buffer.append(contentsOf: style.quoting.isLiteral ? name : style.quoting.header(name))
        buffer.append(contentsOf: [0x3A, 0x0A])
    }

    /// Writes an empty line between listings.
    mutating func blankLine() { buffer.append(0x0A) }

    /// Hands everything buffered to the output stream.
    mutating func flush() {
        guard !buffer.isEmpty else { return }
        output.write(bytes: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func flushIfFull() {
        if buffer.count >= Self.blockSize { flush() }
    }

    // MARK: Names

    /// A name as the style writes it, without alignment blank or indicator.
    func shownName(_ name: ArraySlice<UInt8>) -> [UInt8] {
        style.quoting.isLiteral ? Array(name) : style.quoting.name(Array(name)).shown
    }

    private func shownNames(_ files: [ListedFile]) -> ShownNames {
        var names: [ArraySlice<UInt8>] = []
        names.reserveCapacity(files.count)
        var quoted: [Bool] = []
        quoted.reserveCapacity(files.count)
        for file in files {
            let name = style.quoting.name(Array(file.name))
            quoted.append(name.quoted)
            names.append(name.shown[...])
        }
        let aligns =
            style.quoting.alignsQuotes
            && (style.format == .long || ((style.format == .columns || style.format == .across) && style.lineLength > 0))
        let someQuoted = aligns && quoted.contains(true)
        return ShownNames(names: names, padded: quoted.map { someQuoted && !$0 })
    }

    /// The columns a file takes in a column layout: prefix, name, alignment blank and indicator.
    private func width(_ files: [ListedFile], _ index: Int, shown: ShownNames?) -> Int {
        var width: Int
        if let shown {
            width = DisplayWidth.of(shown.names[index]) + (shown.padded[index] ? 1 : 0)
        } else {
            width = DisplayWidth.of(files[index].name)
        }
        if indicatorByte(kind: files[index].kind, mode: files[index].info?.mode) != nil {
            width += 1
        }
        return width + (prefixes.map { style.format == .commas ? $0.cells[index].count : $0.width } ?? 0)
    }

    /// Writes a name with its alignment blank and colour; returns the bytes the name took, which
    /// GNU ls compares with the line width to decide whether to clear the rest of the line.
    @discardableResult
    private mutating func writeName(_ name: ArraySlice<UInt8>, padded: Bool, color: [UInt8]?, startColumn: Int) -> Int {
        if padded { buffer.append(0x20) }
        guard let color else {
            buffer.append(contentsOf: name)
            return name.count + (padded ? 1 : 0)
        }
        if !usedColor {
            usedColor = true
            buffer.append(contentsOf: style.colors.end)
        }
        buffer.append(contentsOf: style.colors.start(color))
        buffer.append(contentsOf: name)
        buffer.append(contentsOf: style.colors.end)
        let length = name.count + (padded ? 1 : 0)
        let lineLength = style.lineLength
        if lineLength > 0 && startColumn / lineLength != (startColumn + length - 1) / lineLength {
            buffer.append(contentsOf: ListingColors.clearToEndOfLine)
        }
        return length
    }

    private mutating func writeNameAndIndicator(
        _ files: [ListedFile], _ index: Int, shown: ShownNames?, startColumn: Int
    ) {
        let kind = files[index].kind
        let mode = files[index].info?.mode
        let color =
            style.colored
            ? style.colors.sequence(
                name: files[index].name, kind: kind, mode: mode, linkCount: files[index].info?.linkCount,
                targetMissing: files[index].targetMissing)
            : nil
        writeName(
            shown?.names[index] ?? files[index].name, padded: shown?.padded[index] ?? false, color: color,
            startColumn: startColumn)
        if let indicator = indicatorByte(kind: kind, mode: mode) {
            buffer.append(indicator)
        }
    }

    /// The indicator the style gives a file: `/` directory (every style), `@` symlink, `|` fifo,
    /// `=` socket (`--file-type` and `-F`), `*` executable (`-F`).
    private func indicatorByte(kind: FileKind?, mode: UInt32?) -> UInt8? {
        switch (kind, style.indicators) {
        case (_, .none): return nil
        case (.directory, _): return 0x2F
        case (_, .slash): return nil
        case (.regular, .classify): return mode.map { $0 & 0o111 != 0 } == true ? 0x2A : nil
        case (.symlink, _): return 0x40
        case (.fifo, _): return 0x7C
        case (.socket, _): return 0x3D
        default: return nil
        }
    }

    // MARK: Inode and block prefixes

    /// What `-i` and `-s` write before each name of one listing, right-aligned to the widest.
    private struct Prefixes {
        var cells: [[UInt8]]
        /// The columns each takes, its blank included.
        var width: Int
    }

    /// The prefixes of `files` (`?` for a file that could not be examined), or nil without `-i`
    /// and `-s`.
    private func prefixes(_ files: [ListedFile]) -> Prefixes? {
        guard style.showsInodes || style.showsBlocks else { return nil }
        let inodes = files.map { file in file.info.map { Array(String($0.inode).utf8) } ?? [0x3F] }
        let blocks = files.map { file in file.info.map { Array(blockCount($0.blocks).utf8) } ?? [0x3F] }
        // A comma-separated listing does not line them up.
        let aligned = style.format != .commas
        let inodeWidth = style.showsInodes && aligned ? inodes.map(\.count).max() ?? 0 : 0
        let blockWidth = style.showsBlocks && aligned ? blocks.map(\.count).max() ?? 0 : 0
        var cells: [[UInt8]] = []
        cells.reserveCapacity(files.count)
        for index in files.indices {
            var cell: [UInt8] = []
            if style.showsInodes {
                cell += repeatElement(0x20, count: max(0, inodeWidth - inodes[index].count)) + inodes[index] + [0x20]
            }
            if style.showsBlocks {
                cell += repeatElement(0x20, count: max(0, blockWidth - blocks[index].count)) + blocks[index] + [0x20]
            }
            cells.append(cell)
        }
        return Prefixes(
            cells: cells, width: (style.showsInodes ? inodeWidth + 1 : 0) + (style.showsBlocks ? blockWidth + 1 : 0))
    }

    /// Writes the prefix of the file at `index`; returns the columns it took.
    @discardableResult
    private mutating func appendPrefix(_ index: Int) -> Int {
        guard let prefixes else { return 0 }
        buffer.append(contentsOf: prefixes.cells[index])
        return prefixes.width
    }

    /// A count of 512-byte blocks as ls shows it: in the block unit, rounded up.
    private func blockCount(_ blocks: UInt64) -> String {
        style.blockUnit.format(blocks, fromBlockSize: 512)
    }

    // MARK: Columns

    /// Writes names in columns, filled top to bottom, or `across` left to right.
    private mutating func writeColumns(_ files: [ListedFile], order: [Int], shown: ShownNames?, across: Bool) {
        guard !order.isEmpty else { return }
        let widths = order.map { width(files, $0, shown: shown) }
        let layout = ColumnLayout(itemWidths: widths, lineLength: style.lineLength, across: across)
        // GNU ls aligns with spaces only when colouring or when lines have no limit.
        let tabSize = style.colored || style.lineLength == 0 ? 0 : style.tabSize
        for row in 0..<layout.rows {
            var column = 0
            var index = across ? row * layout.columns : row
            var position = 0
            while true {
                let prefix = appendPrefix(order[index])
                writeNameAndIndicator(files, order[index], shown: shown, startColumn: position + prefix)
                let next = across ? index + 1 : index + layout.rows
                if next >= order.count || (across && column + 1 == layout.columns) { break }
                let end = position + layout.widths[column]
                buffer.append(
                    contentsOf: ColumnLayout.padding(
                        from: position + widths[index], to: end, tabSize: tabSize))
                position = end
                column += 1
                index = next
            }
            buffer.append(style.lineEnd)
            flushIfFull()
        }
    }

    /// Writes names separated by `, `, as many on a line as fit in the line width (`-m`).
    private mutating func writeCommas(_ files: [ListedFile], order: [Int], shown: ShownNames?) {
        guard !order.isEmpty else { return }
        let lineLength = style.lineLength
        var position = 0
        for (number, index) in order.enumerated() {
            let length = lineLength > 0 ? width(files, index, shown: shown) : 0
            if number > 0 {
                if lineLength == 0 || position + length + 2 < lineLength {
                    buffer += [0x2C, 0x20]
                    position += 2
                } else {
                    buffer += [0x2C, style.lineEnd]
                    position = 0
                }
            }
            let prefix = appendPrefix(index)
            writeNameAndIndicator(files, index, shown: shown, startColumn: position + prefix)
            position += length
            flushIfFull()
        }
        buffer.append(style.lineEnd)
    }

    // MARK: Long format

    private struct LongWidths {
        var links = 0
        var owner = 0
        var group = 0
        var size = 0
        var major = 0
        var minor = 0
    }

    private mutating func writeLong(_ files: [ListedFile], order: [Int], shown: ShownNames?) {
        var widths = LongWidths()
        var sizes: [[UInt8]] = []
        let scaled = !style.fileUnit.isBytes
        if scaled { sizes.reserveCapacity(files.count) }
        for index in files.indices {
            guard let info = files[index].info else {
                widths.links = max(widths.links, 1)
                widths.owner = max(widths.owner, 1)
                widths.group = max(widths.group, 1)
                widths.size = max(widths.size, 1)
                if scaled { sizes.append([]) }
                continue
            }
            widths.links = max(
                widths.links, info.absent.contains(.linkCount) ? 1 : Self.digitCount(UInt64(info.linkCount)))
            widths.owner = max(widths.owner, user(info).width)
            widths.group = max(widths.group, group(info).width)
            if info.kind == .characterDevice || info.kind == .blockDevice {
                widths.major = max(widths.major, Self.digitCount(FileFormat.major(info.representedDevice)))
                widths.minor = max(widths.minor, Self.digitCount(FileFormat.minor(info.representedDevice)))
                if scaled { sizes.append([]) }
            } else if scaled {
                let size = Array(style.fileUnit.format(info.size).utf8)
                widths.size = max(widths.size, size.count)
                sizes.append(size)
            } else {
                widths.size = max(widths.size, Self.digitCount(info.size))
            }
        }
        if widths.major > 0 { widths.size = max(widths.size, widths.major + 2 + widths.minor) }
        for index in order {
            writeLongLine(
                files, index, shown: shown, widths: widths, human: scaled ? sizes[index] : nil)
            flushIfFull()
        }
    }

    private mutating func writeLongLine(
        _ files: [ListedFile], _ index: Int, shown: ShownNames?, widths: LongWidths, human: [UInt8]?
    ) {
        guard let info = files[index].info else {
            writeUnknownLongLine(files, index, shown: shown, widths: widths)
            return
        }
        appendPrefix(index)
        buffer.append(contentsOf: FileFormat.modeBytes(info.mode))
        buffer.append(0x20)
        if info.absent.contains(.linkCount) {
            appendBlanks(widths.links - 1)
            buffer.append(Self.absentMark)
        } else {
            appendNumber(UInt64(info.linkCount), width: widths.links)
        }
        buffer.append(0x20)
        if style.showsOwner { appendOwner(user(info), width: widths.owner) }
        if style.showsGroup { appendOwner(group(info), width: widths.group) }
        // GNU ls measures the name's column from here on (its buffer restarts after the group).
        let prefixStart = buffer.count
        if info.kind == .characterDevice || info.kind == .blockDevice {
            let spare = widths.size - (widths.major + 2 + widths.minor)
            appendNumber(FileFormat.major(info.representedDevice), width: widths.major + max(0, spare))
            buffer.append(contentsOf: [0x2C, 0x20])
            appendNumber(FileFormat.minor(info.representedDevice), width: widths.minor)
        } else if let human {
            appendBlanks(widths.size - human.count)
            buffer.append(contentsOf: human)
        } else {
            appendNumber(info.size, width: widths.size)
        }
        buffer.append(0x20)
        if info.absent.contains(.times) {
            // Right-aligned under the dates, as the `?` of an entry that could not be examined.
            appendBlanks(dateWidth - 1)
            buffer.append(Self.absentMark)
        } else if let time = info.time(style.timeField) {
            buffer.append(contentsOf: date(time))
        } else {
            // A birth time the volume does not record.
            appendBlanks(dateWidth - 1)
            buffer.append(0x3F)
        }
        buffer.append(0x20)
        let column = buffer.count - prefixStart
        let color =
            style.colored
            ? style.colors.sequence(
                name: files[index].name, kind: info.kind, mode: info.mode, linkCount: info.linkCount,
                targetMissing: files[index].targetMissing)
            : nil
        let nameLength = writeName(
            shown?.names[index] ?? files[index].name, padded: shown?.padded[index] ?? false, color: color,
            startColumn: column)
        if info.kind == .symlink, let targetBytes = files[index].linkTarget {
            buffer.append(contentsOf: [0x20, 0x2D, 0x3E, 0x20])
            let shownTarget = style.quoting.isLiteral ? targetBytes : style.quoting.target(targetBytes)
            let targetMode = files[index].targetMode
            let targetKind = targetMode.map { FileKind(mode: $0) }
            let targetColor =
                !style.colored ? nil
                : files[index].targetMissing ? style.colors.missing(orphanFallback: true)
                : targetMode != nil ? style.colors.sequence(name: targetBytes, kind: targetKind, mode: targetMode) : nil
            writeName(shownTarget[...], padded: false, color: targetColor, startColumn: column + nameLength + 4)
            // `-p` leaves the target alone, as GNU ls does.
            if targetMode != nil, style.indicators != .slash,
                let indicator = indicatorByte(kind: targetKind, mode: targetMode)
            {
                buffer.append(indicator)
            }
        } else if let indicator = indicatorByte(kind: info.kind, mode: info.mode) {
            buffer.append(indicator)
        }
        buffer.append(style.lineEnd)
    }

    /// The line for a file that could not be examined: its type letter and question marks.
    private mutating func writeUnknownLongLine(
        _ files: [ListedFile], _ index: Int, shown: ShownNames?, widths: LongWidths
    ) {
        let kind = files[index].kind
        appendPrefix(index)
        buffer.append(FileFormat.typeLetter(kind ?? .unknown))
        buffer.append(contentsOf: repeatElement(0x3F, count: 9))
        buffer.append(0x20)
        appendBlanks(widths.links - 1)
        buffer.append(contentsOf: [0x3F, 0x20])
        if style.showsOwner {
            buffer.append(0x3F)
            appendBlanks(widths.owner - 1 + 1)
        }
        if style.showsGroup {
            buffer.append(0x3F)
            appendBlanks(widths.group - 1 + 1)
        }
        let prefixStart = buffer.count
        appendBlanks(widths.size - 1)
        buffer.append(0x3F)
        buffer.append(0x20)
        appendBlanks(dateWidth - 1)
        buffer.append(contentsOf: [0x3F, 0x20])
        let color = style.colored ? style.colors.sequence(name: files[index].name, kind: kind, mode: nil) : nil
        writeName(
            shown?.names[index] ?? files[index].name, padded: shown?.padded[index] ?? false, color: color,
            startColumn: buffer.count - prefixStart)
        if let indicator = indicatorByte(kind: kind, mode: nil) { buffer.append(indicator) }
        buffer.append(style.lineEnd)
    }

    private mutating func user(_ info: FileInfo) -> Owner {
        if info.absent.contains(.owners) { return Self.absentOwner }
        if let known = users[info.userID] { return known }
        let owner = Self.owner(name: style.numericIDs ? nil : info.owner, id: info.userID)
        users[info.userID] = owner
        return owner
    }

    private mutating func group(_ info: FileInfo) -> Owner {
        if info.absent.contains(.owners) { return Self.absentOwner }
        if let known = groups[info.groupID] { return known }
        let group = Self.owner(name: style.numericIDs ? nil : info.group, id: info.groupID)
        groups[info.groupID] = group
        return group
    }

    /// What stands for an attribute the volume does not keep (object storage's owners).
    private static let absentMark: UInt8 = 0x2D
    private static let absentOwner = Owner(bytes: [absentMark], width: 1, numeric: false)

    private static func owner(name: String?, id: UInt32) -> Owner {
        if let name { return Owner(bytes: Array(name.utf8), width: DisplayWidth.of(name), numeric: false) }
        let digits = Array(String(id).utf8)
        return Owner(bytes: digits, width: digits.count, numeric: true)
    }

    /// An owner left-aligned (a number right-aligned) in `width` columns, then a blank.
    private mutating func appendOwner(_ owner: Owner, width: Int) {
        if owner.numeric { appendBlanks(width - owner.width) }
        buffer.append(contentsOf: owner.bytes)
        if !owner.numeric { appendBlanks(width - owner.width) }
        buffer.append(0x20)
    }

    /// The date column for a time; recent times show the clock, older ones the year (in the
    /// standard style).
    private mutating func date(_ time: Timestamp) -> [UInt8] {
        if now < time { now = Clock.now() }
        let sixMonthsAgo = Timestamp(
            seconds: now.seconds - FileFormat.sixMonths, nanoseconds: now.nanoseconds)
        let recent = sixMonthsAgo < time && time < now
        if case .formats(let oldFormat, let recentFormat) = style.dateStyle {
            return TimeFormat.format(recent ? recentFormat : oldFormat, time, zone: style.zone)
        }
        let minute = time.seconds >= 0 ? time.seconds / 60 : (time.seconds - 59) / 60
        let key = minute &* 2 &+ (recent ? 1 : 0)
        if let known = dates[key] { return known }
        let text = Array(FileFormat.listingDate(time, now: now, zone: style.zone).utf8)
        dates[key] = text
        return text
    }

    private mutating func appendBlanks(_ count: Int) {
        if count > 0 { buffer.append(contentsOf: repeatElement(0x20, count: count)) }
    }

    /// `value` in decimal, right-aligned in `width` columns.
    private mutating func appendNumber(_ value: UInt64, width: Int) {
        let count = Self.digitCount(value)
        appendBlanks(width - count)
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0x30, count: count))
        var rest = value
        var position = start + count - 1
        while rest > 0 {
            buffer[position] = 0x30 + UInt8(rest % 10)
            rest /= 10
            position -= 1
        }
    }

    private static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }
}

extension FileInfo {
    /// The time `field` names; nil for a birth time the volume does not record.
    func time(_ field: LsCommand.TimeField) -> Timestamp? {
        switch field {
        case .modification: return modificationTime
        case .access: return accessTime
        case .change: return changeTime
        case .birth: return creationTime
        }
    }
}
