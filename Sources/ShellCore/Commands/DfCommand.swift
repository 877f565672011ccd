import PathModel

/// `df [-ahHiklPT] [-B SIZE] [-t TYPE] [-x TYPE] [--total] [--output[=FIELD,...]] [FILE]...`: how
/// big each mounted file system is and how much of it is used, or the file system of each FILE,
/// in GNU df's columns and rounding.
public struct DfCommand: ShellCommand {
    public static let name = "df"
    public static let summary =
        "Show the space used and available on the file system of each FILE, or on every mounted file system."
    public static let synopsis =
        "[-ahHiklPT] [-B SIZE] [-t TYPE]... [-x TYPE]... [--total] [--sync] [--output[=FIELD,...]] [FILE]..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case all, blockSize, excludeType, human, inodes, kibibytes, local, noSync, output, portability, printType
        case si, sync, total, type
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("a", "all", key: .all, help: "include pseudo, duplicate and empty file systems"),
        OptionSpec(
            "B", "block-size", value: .required, valueName: "SIZE", key: .blockSize,
            help: "scale sizes by SIZE before printing them (K, M, KB, KiB, 1000…; a unit alone is written after each size)"),
        OptionSpec("h", "human-readable", key: .human, help: "print sizes in powers of 1024 (e.g., 1023M)"),
        OptionSpec("H", "si", key: .si, help: "print sizes in powers of 1000 (e.g., 1.1G)"),
        OptionSpec("i", "inodes", key: .inodes, help: "list inode information instead of block usage"),
        OptionSpec("k", nil, key: .kibibytes, help: "sizes in 1024-byte blocks (the default)"),
        OptionSpec("l", "local", key: .local, help: "limit listing to local file systems"),
        OptionSpec(nil, "no-sync", key: .noSync, help: "do not invoke sync before getting usage info (the default)"),
        OptionSpec(
            nil, "output", value: .optional, valueName: "FIELD_LIST", key: .output,
            help: "print the fields FIELD_LIST names (all without one)"),
        OptionSpec("P", "portability", key: .portability, help: "use the POSIX output format"),
        OptionSpec(nil, "sync", key: .sync, help: "invoke sync before getting usage info"),
        OptionSpec(nil, "total", key: .total, help: "end with a row of totals"),
        OptionSpec(
            "t", "type", value: .required, valueName: "TYPE", key: .type,
            help: "limit listing to file systems of type TYPE"),
        OptionSpec("T", "print-type", key: .printType, help: "print file system type"),
        OptionSpec(
            "x", "exclude-type", value: .required, valueName: "TYPE", key: .excludeType,
            help: "limit listing to file systems not of type TYPE"),
    ]

    /// A column of the table; the raw values are `--output`'s names.
    public enum Field: String, CaseIterable, Sendable {
        case source, fstype, itotal, iused, iavail, ipcent, size, used, avail, pcent, file, target
    }

    /// The columns, in order.
    public var fields: [Field]
    /// The unit of sizes given (`-h`, `-H`, `-k`, `-B`, the last given); nil when none was, and
    /// `DF_BLOCK_SIZE`, `BLOCK_SIZE` or `BLOCKSIZE` decide (with `-P`, 1024-byte blocks).
    var sizeUnit: SizeUnit?
    /// The POSIX format (`-P`).
    public var portable: Bool
    /// Whether `--output` chose the columns.
    public var choosesFields: Bool
    /// Include pseudo, duplicate and empty file systems (`-a`).
    public var all: Bool
    /// Leave out remote file systems (`-l`).
    public var localOnly: Bool
    /// Show only file systems of these types (`-t`); empty for all.
    public var types: Set<String>
    /// Leave out file systems of these types (`-x`).
    public var excludedTypes: Set<String>
    /// End with a `total` row (`--total`).
    public var grandTotal: Bool
    /// Write out what is cached before asking for usage (`--sync`; `--no-sync`, the default,
    /// when given last).
    public var syncs: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        switch arguments.last(of: [.human, .si, .kibibytes, .blockSize]) {
        case .human: sizeUnit = .humanReadable
        case .si: sizeUnit = .si
        case .kibibytes: sizeUnit = SizeUnit(blockSize: 1024)
        case .blockSize: sizeUnit = try SizeUnit(blockSizeArgument: arguments.bytes(.blockSize) ?? [])
        default: sizeUnit = nil
        }
        let printType = arguments.has(.printType)
        let inodes = arguments.has(.inodes)
        portable = arguments.has(.portability)
        all = arguments.has(.all)
        localOnly = arguments.has(.local)
        let selected = arguments.allBytes(.type)
        let excluded = Set(arguments.allBytes(.excludeType).map { String(decoding: $0, as: UTF8.self) })
        if let both = selected.first(where: { excluded.contains(String(decoding: $0, as: UTF8.self)) }) {
            throw .invalid(Messages.selectedAndExcluded(both))
        }
        types = Set(selected.map { String(decoding: $0, as: UTF8.self) })
        excludedTypes = excluded
        grandTotal = arguments.has(.total)
        syncs = arguments.last(of: [.sync, .noSync]) == .sync
        operands = arguments.operands
        choosesFields = arguments.has(.output)
        if choosesFields {
            for (given, option) in [(inodes, "-i"), (portable, "-P"), (printType, "-T")] where given {
                throw .invalid("\(Messages.options) \(option) \(Messages.andOutput)")
            }
            fields = try Self.fields(arguments.allBytes(.output))
        } else {
            let kind: [Field] =
                inodes ? [.itotal, .iused, .iavail, .ipcent] : [.size, .used, .avail, .pcent]
            fields = [.source] + (printType ? [.fstype] : []) + kind + [.target]
        }
    }

    /// The header words GNU df uses for this combination of options, sizes written in `unit`.
    func headers(unit: SizeUnit) -> [Field: String] {
        var headers: [Field: String] = [
            .source: "Filesystem", .fstype: "Type", .itotal: "Inodes", .iused: "IUsed", .iavail: "IFree",
            .ipcent: "IUse%", .size: "Size", .used: "Used", .avail: "Avail", .pcent: "Use%", .file: "File",
            .target: "Mounted on",
        ]
        guard !unit.autoscale else { return headers }
        if choosesFields {
            headers[.size] = Self.blocksHeader(unit)
        } else if fields.contains(.size) {
            headers[.size] = portable ? "\(unit.blockSize)-\(Messages.blocks)" : Self.blocksHeader(unit)
            headers[.avail] = Messages.available
            if portable { headers[.pcent] = Messages.capacity }
        }
        return headers
    }

    /// `1K-blocks`, `1kB-blocks`, `512B-blocks`, `1KiB-blocks`, `1M-blocks`: the block size
    /// scaled, as GNU df heads the column, by the base (1024 or 1000) that divides it more
    /// often, with `B` unless that is 1024 and the unit does not ask for it, and no `.0`.
    static func blocksHeader(_ unit: SizeUnit) -> String {
        var (by1000, by1024) = (unit.blockSize, unit.blockSize)
        var (divides1000, divides1024) = (false, false)
        repeat {
            divides1000 = by1000 % 1000 == 0
            divides1024 = by1024 % 1024 == 0
            by1000 /= 1000
            by1024 /= 1024
        } while divides1000 && divides1024
        let base: UInt64 = divides1024 && !divides1000 ? 1024 : 1000
        let scaled = FileFormat.humanSize(
            unit.blockSize, base: base, letter: true, bytes: base == 1000 || unit.bytes)
        // GNU drops a point zero: `1.0K` is `1K`.
        var shown = scaled
        if let point = shown.firstIndex(of: "."), shown[shown.index(after: point)] == "0" {
            shown.removeSubrange(point...shown.index(after: point))
        }
        return shown + "-" + Messages.blocks
    }

    /// The fields `--output=LIST` names, each once, or every field for a bare `--output`.
    private static func fields(_ lists: [[UInt8]]) throws(UsageError) -> [Field] {
        guard !lists.isEmpty else { return Field.allCases }
        var fields: [Field] = []
        for list in lists {
            for name in list.split(separator: 0x2C, omittingEmptySubsequences: false) {
                let text = String(decoding: name, as: UTF8.self)
                guard let field = Field(rawValue: text) else {
                    throw .invalid(
                        "\(Messages.outputField) \(Quoting.always(Array(name))) \(Messages.unknown)")
                }
                guard !fields.contains(field) else {
                    throw .invalid(
                        "\(Messages.outputField) \(Quoting.always(Array(name))) \(Messages.usedTwice)")
                }
                fields.append(field)
            }
        }
        return fields
    }

    public func run(in context: CommandContext) -> ExitStatus {
        var status = ExitStatus.success
        let mounts: [MountedFileSystem]
        do {
            mounts = try MountedFileSystem.all()
        } catch {
            context.error("\(Messages.cannotReadTable): \(error.reason)")
            return .failure
        }
        let environment = context.state.environment
        let unit =
            sizeUnit
            ?? (portable
                ? SizeUnit(blockSize: environment["POSIXLY_CORRECT"] == nil ? 1024 : 512)
                : SizeUnit.blocks(environment, variable: "DF_BLOCK_SIZE"))
        let headers = headers(unit: unit)
        var table = Table(command: self, unit: unit)
        table.rows = [fields.map { headers[$0] ?? $0.rawValue }]
        if syncs { File.syncAll() }
        if operands.isEmpty {
            for mount in Self.shown(mounts, all: all) where isSelected(mount) {
                let usage: FileSystemUsage
                do {
                    usage = try mount.mountPoint.fileSystemUsage()
                } catch  where error.errno == .permissionDenied || error.errno == .noSuchFileOrDirectory {
                    continue  // Out of reach, as GNU df leaves it out of a full listing.
                } catch {
                    context.error(Diagnostics.renderBare(error, as: mount.mountPoint.bytes))
                    status = .failure
                    continue
                }
                if !all && usage.totalBlocks == 0 { continue }
                table.add(mount, usage, file: nil)
            }
        } else {
            // Every FILE is examined first, so that its messages come before the table, as in GNU df.
            var found: [(Argument, File, FileInfo)] = []
            for operand in operands {
                let file = context.resolve(operand)
                do {
                    found.append((operand, file, try operand.info(at: file, followSymlinks: true)))
                } catch {
                    context.error(Diagnostics.renderBare(error, as: operand.bytes))
                    status = .failure
                }
            }
            for (operand, file, info) in found {
                do {
                    let usage = try file.fileSystemUsage()
                    let mount = Self.mount(holding: file, device: info.identity.device, in: mounts)
                    guard mount.map(isSelected) ?? types.isEmpty else { continue }
                    table.add(mount, usage, file: operand)
                } catch {
                    context.error(Diagnostics.renderBare(error, as: operand.bytes))
                    status = .failure
                }
            }
        }
        if table.rows.count > 1 {
            if grandTotal { table.addTotal() }
            write(table.rows, to: context.stdout)
        }
        if status == .success && table.rows.count == 1 {
            context.error(Messages.noFileSystems)
            return .failure
        }
        return status
    }

    /// Whether `-l`, `-t` and `-x` let a file system be shown.
    func isSelected(_ mount: MountedFileSystem) -> Bool {
        if localOnly && Self.isRemote(mount) { return false }
        if !types.isEmpty && !types.contains(mount.type) { return false }
        return !excludedTypes.contains(mount.type)
    }

    /// Whether a file system is remote, as GNU tells it by its source: `host:path`, `//host/share`
    /// of an SMB or CIFS type, or `-hosts`.
    static func isRemote(_ mount: MountedFileSystem) -> Bool {
        let source = mount.source
        if source.contains(0x3A) || source == Array("-hosts".utf8) { return true }
        return source.starts(with: [0x2F, 0x2F]) && ["smbfs", "smb3", "cifs"].contains(mount.type)
    }

    /// The mounts a listing shows: without `all`, not the pseudo file systems nor `rootfs`, and
    /// one entry for each device (a real device's over a name, the one nearer the root, the one
    /// mounted over another at the same place), at the place of the device's first entry.
    static func shown(_ mounts: [MountedFileSystem], all: Bool) -> [MountedFileSystem] {
        guard !all else { return mounts }
        var kept: [MountedFileSystem] = []
        var slot: [UInt64: Int] = [:]
        for mount in mounts where !dummyTypes.contains(mount.type) && mount.type != "rootfs" {
            let device = (try? mount.mountPoint.info(followSymlinks: true).identity.device) ?? mount.device
            guard let index = slot[device] else {
                slot[device] = kept.count
                kept.append(mount)
                continue
            }
            let seen = kept[index]
            if (mount.source.contains(0x2F) && !seen.source.contains(0x2F))
                || seen.mountPoint.bytes.count > mount.mountPoint.bytes.count
                || (seen.source != mount.source && seen.mountPoint == mount.mountPoint)
            {
                kept[index] = mount
            }
        }
        return kept
    }

    /// The mount FILE is on: the one mounted at the longest leading part of its resolved path
    /// (the later of two at the same place) when that is its device, else the last one of its
    /// device; nil when none is (then the table names no file system).
    static func mount(holding file: File, device: UInt64, in mounts: [MountedFileSystem])
        -> MountedFileSystem?
    {
        if let resolved = try? file.resolvingSymlinks() {
            var best: MountedFileSystem?
            for mount in mounts where mount.type != "lofs" {
                guard
                    mount.mountPoint.isRoot
                        || resolved.componentBytes.starts(with: mount.mountPoint.componentBytes)
                else { continue }
                if let current = best {
                    guard current.mountPoint.componentBytes.count <= mount.mountPoint.componentBytes.count
                    else { continue }
                    if !dummyTypes.contains(current.type) && dummyTypes.contains(mount.type) { continue }
                }
                best = mount
            }
            if let best, (try? best.mountPoint.info(followSymlinks: true).identity.device) == device {
                return best
            }
        }
        return mounts.last { $0.device == device && $0.type != "lofs" }
    }

    /// The pseudo file systems a listing leaves out without `-a`, as GNU's list has them.
    static let dummyTypes: Set<String> = [
        "autofs", "proc", "subfs", "debugfs", "devpts", "fusectl", "fuse.portal", "mqueue", "rpc_pipefs",
        "sysfs",
        "devfs", "kernfs", "ignore", "none",
    ]

    /// The rows of the table, and with `--total` the sums of what they show.
    private struct Table {
        let command: DfCommand
        let unit: SizeUnit
        var rows: [[String]] = []
        /// Bytes in all, free and available, and inodes in all and free, of the rows so far.
        var sums = FileSystemUsage(blockSize: 1, totalBlocks: 0, freeBlocks: 0, availableBlocks: 0, totalInodes: 0, freeInodes: 0)

        /// Adds the row of a file system (and of `file`, the FILE it was asked for by).
        mutating func add(_ mount: MountedFileSystem?, _ usage: FileSystemUsage, file: Argument?) {
            let source = mount.map { String(decoding: $0.source, as: UTF8.self) } ?? "-"
            let target = mount.map { String(decoding: $0.mountPoint.bytes, as: UTF8.self) } ?? "-"
            let file = file.map { String(decoding: $0.bytes, as: UTF8.self) } ?? "-"
            rows.append(row(source: source, type: mount?.type ?? "-", usage, file: file, target: target))
            func bytes(_ blocks: UInt64) -> UInt64 {
                let (product, overflow) = blocks.multipliedReportingOverflow(by: usage.blockSize)
                return overflow ? .max : product
            }
            sums.totalBlocks &+= bytes(usage.totalBlocks)
            sums.freeBlocks &+= bytes(usage.freeBlocks)
            sums.availableBlocks &+= bytes(usage.availableBlocks)
            sums.totalInodes &+= usage.totalInodes
            sums.freeInodes &+= usage.freeInodes
        }

        /// Adds GNU df's `total` row: `total` as the source, or as the mount point when the
        /// source is not shown, `-` for the rest of the words.
        mutating func addTotal() {
            let total = DfCommand.Messages.total
            let target = command.fields.contains(.source) ? "-" : total
            rows.append(row(source: total, type: "-", sums, file: "-", target: target))
        }

        /// One line of the table.
        private func row(source: String, type: String, _ usage: FileSystemUsage, file: String, target: String)
            -> [String]
        {
            let usedBlocks = usage.totalBlocks >= usage.freeBlocks ? usage.totalBlocks - usage.freeBlocks : 0
            let usedInodes = usage.totalInodes >= usage.freeInodes ? usage.totalInodes - usage.freeInodes : 0
            return command.fields.map { field in
                switch field {
                case .source: source
                case .fstype: type
                case .itotal: count(usage.totalInodes)
                case .iused: count(usedInodes)
                case .iavail: count(usage.freeInodes)
                case .ipcent: DfCommand.percent(usedInodes, of: usedInodes + usage.freeInodes)
                case .size: unit.format(usage.totalBlocks, fromBlockSize: usage.blockSize)
                case .used: unit.format(usedBlocks, fromBlockSize: usage.blockSize)
                case .avail: unit.format(usage.availableBlocks, fromBlockSize: usage.blockSize)
                case .pcent: DfCommand.percent(usedBlocks, of: usedBlocks + usage.availableBlocks)
                case .file: file
                case .target: target
                }
            }
        }

        /// A number of inodes: as it is, or scaled with a letter under `-h`/`-H`.
        private func count(_ value: UInt64) -> String {
            guard unit.autoscale else { return String(value) }
            return SizeUnit(blockSize: 1, autoscale: true, base: unit.base, letter: true).format(value)
        }
    }

    /// `used` as a percentage of `total`, rounded up; `-` when `total` is 0.
    static func percent(_ used: UInt64, of total: UInt64) -> String {
        guard total > 0 else { return "-" }
        let hundred = used.multipliedFullWidth(by: 100)
        let (quotient, remainder) = total.dividingFullWidth(hundred)
        return "\(quotient + (remainder == 0 ? 0 : 1))%"
    }

    /// Writes the table: each column as wide as its widest cell (and GNU's least widths), text
    /// columns to the left and numbers to the right, one space between, the last not padded.
    private func write(_ rows: [[String]], to output: OutputStream) {
        let widths = fields.indices.map { column in
            rows.map { $0[column].count }.max().map { max($0, Self.leastWidth(fields[column])) } ?? 0
        }
        for row in rows {
            var line = ""
            for (column, cell) in row.enumerated() {
                if column > 0 { line += " " }
                let padding = String(repeating: " ", count: max(0, widths[column] - cell.count))
                if Self.isText(fields[column]) {
                    line += column == row.count - 1 ? cell : cell + padding
                } else {
                    line += padding + cell
                }
            }
            output.line(line)
        }
    }

    /// Whether a column holds text (left-aligned) rather than numbers.
    private static func isText(_ field: Field) -> Bool { [.source, .fstype, .file, .target].contains(field) }

    /// The least width GNU df gives a column.
    private static func leastWidth(_ field: Field) -> Int {
        switch field {
        case .source: 14
        case .fstype, .ipcent, .pcent: 4
        case .file, .target: 0
        default: 5
        }
    }

    private enum Messages {
        static let options = "options"
        static let andOutput = "and --output are mutually exclusive"
        static let outputField = "option --output: field"
        static let unknown = "unknown"
        static let usedTwice = "used more than once"
        static let blocks = "blocks"
        static let total = "total"
        static func selectedAndExcluded(_ type: [UInt8]) -> String {
            "file system type \(Quoting.always(type)) both selected and excluded"
        }
        static let available = "Available"
        static let capacity = "Capacity"
        static let cannotReadTable = "cannot read table of mounted file systems"
        static let noFileSystems = "no file systems processed"
    }
}
