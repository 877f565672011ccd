import PathModel

/// `df [-ahHikPT] [--output[=FIELD,...]] [FILE]...`: how big each mounted file system is and how
/// much of it is used, or the file system of each FILE, in GNU df's columns and rounding.
public struct DfCommand: ShellCommand {
    public static let name = "df"
    public static let summary =
        "Show the space used and available on the file system of each FILE, or on every mounted file system."
    public static let synopsis = "[-ahHikPT] [--output[=FIELD,...]] [FILE]..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case all, human, inodes, kibibytes, output, portability, printType, si
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("a", "all", key: .all, help: "include pseudo, duplicate and empty file systems"),
        OptionSpec("h", "human-readable", key: .human, help: "print sizes in powers of 1024 (e.g., 1023M)"),
        OptionSpec("H", "si", key: .si, help: "print sizes in powers of 1000 (e.g., 1.1G)"),
        OptionSpec("i", "inodes", key: .inodes, help: "list inode information instead of block usage"),
        OptionSpec("k", nil, key: .kibibytes, help: "sizes in 1024-byte blocks (the default)"),
        OptionSpec(
            nil, "output", value: .optional, valueName: "FIELD_LIST", key: .output,
            help: "print the fields FIELD_LIST names (all without one)"),
        OptionSpec("P", "portability", key: .portability, help: "use the POSIX output format"),
        OptionSpec("T", "print-type", key: .printType, help: "print file system type"),
    ]

    /// A column of the table; the raw values are `--output`'s names.
    public enum Field: String, CaseIterable, Sendable {
        case source, fstype, itotal, iused, iavail, ipcent, size, used, avail, pcent, file, target
    }

    /// How sizes are written.
    public enum Scale: Sendable, Hashable {
        /// In 1024-byte blocks, rounded up (the default, `-k`).
        case kibibytes
        /// With a unit, in powers of 1024 (`-h`) or of 1000 (`-H`).
        case human(base: UInt64)
    }

    /// The columns, in order.
    public var fields: [Field]
    /// How sizes are written; the last of `-h`, `-H` and `-k` wins.
    public var scale: Scale
    /// The header words GNU df uses for this combination of options.
    var headers: [Field: String]
    /// Include pseudo, duplicate and empty file systems (`-a`).
    public var all: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        switch arguments.last(of: [.human, .si, .kibibytes]) {
        case .human: scale = .human(base: 1024)
        case .si: scale = .human(base: 1000)
        default: scale = .kibibytes
        }
        let printType = arguments.has(.printType)
        let inodes = arguments.has(.inodes)
        let posix = arguments.has(.portability)
        all = arguments.has(.all)
        operands = arguments.operands
        var headers: [Field: String] = [
            .source: "Filesystem", .fstype: "Type", .itotal: "Inodes", .iused: "IUsed", .iavail: "IFree",
            .ipcent: "IUse%", .size: "Size", .used: "Used", .avail: "Avail", .pcent: "Use%", .file: "File",
            .target: "Mounted on",
        ]
        let isHuman = scale != .kibibytes
        if arguments.has(.output) {
            for (given, option) in [(inodes, "-i"), (posix, "-P"), (printType, "-T")] where given {
                throw .invalid("\(Messages.options) \(option) \(Messages.andOutput)")
            }
            fields = try Self.fields(arguments.allBytes(.output))
            if !isHuman { headers[.size] = Messages.kibibyteBlocks }
        } else {
            let kind: [Field] =
                inodes ? [.itotal, .iused, .iavail, .ipcent] : [.size, .used, .avail, .pcent]
            fields = [.source] + (printType ? [.fstype] : []) + kind + [.target]
            if !inodes && !isHuman {
                headers[.size] = posix ? Messages.posixBlocks : Messages.kibibyteBlocks
                headers[.avail] = Messages.available
                if posix { headers[.pcent] = Messages.capacity }
            }
        }
        self.headers = headers
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
        var rows: [[String]] = [fields.map { headers[$0] ?? $0.rawValue }]
        if operands.isEmpty {
            for mount in Self.shown(mounts, all: all) {
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
                rows.append(row(mount, usage, file: nil))
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
                    rows.append(row(mount, usage, file: operand))
                } catch {
                    context.error(Diagnostics.renderBare(error, as: operand.bytes))
                    status = .failure
                }
            }
        }
        if rows.count > 1 { write(rows, to: context.stdout) }
        if status == .success && rows.count == 1 && operands.isEmpty {
            context.error(Messages.noFileSystems)
            return .failure
        }
        return status
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

    /// One line of the table.
    private func row(_ mount: MountedFileSystem?, _ usage: FileSystemUsage, file: Argument?) -> [String] {
        let usedBlocks = usage.totalBlocks >= usage.freeBlocks ? usage.totalBlocks - usage.freeBlocks : 0
        let usedInodes = usage.totalInodes >= usage.freeInodes ? usage.totalInodes - usage.freeInodes : 0
        return fields.map { field in
            switch field {
            case .source: mount.map { String(decoding: $0.source, as: UTF8.self) } ?? "-"
            case .fstype: mount?.type ?? "-"
            case .itotal: count(usage.totalInodes)
            case .iused: count(usedInodes)
            case .iavail: count(usage.freeInodes)
            case .ipcent: Self.percent(usedInodes, of: usedInodes + usage.freeInodes)
            case .size: size(usage.totalBlocks, blockSize: usage.blockSize)
            case .used: size(usedBlocks, blockSize: usage.blockSize)
            case .avail: size(usage.availableBlocks, blockSize: usage.blockSize)
            case .pcent: Self.percent(usedBlocks, of: usedBlocks + usage.availableBlocks)
            case .file: file.map { String(decoding: $0.bytes, as: UTF8.self) } ?? "-"
            case .target: mount.map { String(decoding: $0.mountPoint.bytes, as: UTF8.self) } ?? "-"
            }
        }
    }

    /// A number of inodes: as it is, or with a unit under `-h`/`-H`.
    private func count(_ value: UInt64) -> String {
        if case .human(let base) = scale { return Self.human(value, base: base) }
        return String(value)
    }

    /// A number of blocks as sizes are written: 1024-byte blocks rounded up, or bytes with a unit.
    private func size(_ blocks: UInt64, blockSize: UInt64) -> String {
        let (bytes, overflow) = blocks.multipliedReportingOverflow(by: blockSize)
        let total = overflow ? UInt64.max : bytes
        if case .human(let base) = scale { return Self.human(total, base: base) }
        return String(total / 1024 + (total % 1024 == 0 ? 0 : 1))
    }

    /// `used` as a percentage of `total`, rounded up; `-` when `total` is 0.
    static func percent(_ used: UInt64, of total: UInt64) -> String {
        guard total > 0 else { return "-" }
        let hundred = used.multipliedFullWidth(by: 100)
        let (quotient, remainder) = total.dividingFullWidth(hundred)
        return "\(quotient + (remainder == 0 ? 0 : 1))%"
    }

    /// `bytes` with a unit in powers of `base`, rounded up as GNU does: one decimal below 10
    /// (`1.5M`), whole numbers from 10 (`296K`), plain below one unit (`512`).
    static func human(_ bytes: UInt64, base: UInt64) -> String {
        let letters: [String] =
            base == 1000 ? ["k", "M", "G", "T", "P", "E"] : ["K", "M", "G", "T", "P", "E"]
        guard bytes >= base else { return String(bytes) }
        var exponent = 0
        var unit: UInt64 = 1
        while bytes / unit >= base && exponent < letters.count {
            unit *= base
            exponent += 1
        }
        let whole = bytes / unit
        if whole < 10 {
            // Tenths, rounded up: the product fits, as bytes / unit < 10.
            let tenths = bytes.multipliedFullWidth(by: 10)
            let (quotient, remainder) = unit.dividingFullWidth(tenths)
            let rounded = quotient + (remainder == 0 ? 0 : 1)
            if rounded >= 100 { return "10" + letters[exponent - 1] }
            return "\(rounded / 10).\(rounded % 10)" + letters[exponent - 1]
        }
        let rounded = whole + (bytes % unit == 0 ? 0 : 1)
        if rounded == base && exponent < letters.count { return "1.0" + letters[exponent] }
        return "\(rounded)" + letters[exponent - 1]
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
        static let kibibyteBlocks = "1K-blocks"
        static let posixBlocks = "1024-blocks"
        static let available = "Available"
        static let capacity = "Capacity"
        static let cannotReadTable = "cannot read table of mounted file systems"
        static let noFileSystems = "no file systems processed"
    }
}
