import PathModel

/// A `stat -f` format filled in for the file system holding one file, with printf-style flags,
/// width and precision on each directive as GNU stat applies them.
struct FileSystemStatRendering {
    /// The operand as written (`%n`).
    let name: [UInt8]
    /// What `statfs(2)` reported.
    let usage: FileSystemUsage

    /// GNU stat's layout for a file system when no format is given.
    static let defaultFormat =
        "  File: \"%n\"\n    ID: %-8i Namelen: %-7l Type: %T\nBlock size: %-10s Fundamental block size: %S\n"
        + "Blocks: Total: %-10b Free: %-10f Available: %a\nInodes: Total: %-10c Free: %d\n"

    /// GNU stat's one-line layout for a file system (`-t`).
    static let terseFormat = "%n %i %l %t %s %S %b %f %a %c %d\n"

    /// The format with every directive replaced; `escapes` and `warn` as for `StatRendering`.
    func render(_ format: [UInt8], escapes: Bool = false, warn: (String) -> Void = { _ in }) -> Result<
        [UInt8], StatRendering.InvalidDirective
    > {
        StatRendering.fill(format, escapes: escapes, deviceHalves: false, warn: warn) { letter, _, spec, _ in
            directive(letter, spec)
        }
    }

    /// The text for one directive letter; `?` for a letter that names nothing.
    private func directive(_ letter: UInt8, _ spec: StatRendering.Spec) -> [UInt8] {
        switch letter {
        case UInt8(ascii: "n"): return StatRendering.string(name, spec)
        case UInt8(ascii: "i"): return StatRendering.unsigned(usage.identifier, spec, base: 16)
        case UInt8(ascii: "l"): return StatRendering.unsigned(usage.nameMax, spec)
        case UInt8(ascii: "t"): return StatRendering.unsigned(usage.type, spec, base: 16)
        case UInt8(ascii: "T"): return StatRendering.string(Array(Self.typeName(usage.type).utf8), spec)
        case UInt8(ascii: "s"): return StatRendering.unsigned(usage.ioBlockSize, spec)
        case UInt8(ascii: "S"): return StatRendering.unsigned(usage.blockSize, spec)
        // GNU stat writes these four as signed numbers (`%+b` gives `+0`), the rest as unsigned.
        case UInt8(ascii: "b"): return StatRendering.signed(Int64(clamping: usage.totalBlocks), spec)
        case UInt8(ascii: "f"): return StatRendering.signed(Int64(clamping: usage.freeBlocks), spec)
        case UInt8(ascii: "a"): return StatRendering.signed(Int64(clamping: usage.availableBlocks), spec)
        case UInt8(ascii: "c"): return StatRendering.unsigned(usage.totalInodes, spec)
        case UInt8(ascii: "d"): return StatRendering.signed(Int64(clamping: usage.freeInodes), spec)
        default: return [0x3F]
        }
    }

    /// The name GNU stat gives a file system's magic number (`%T`), or `UNKNOWN (0x…)`.
    static func typeName(_ type: UInt64) -> String {
        typeNames[type] ?? "UNKNOWN (0x\(String(type, radix: 16)))"
    }

    /// The kinds of file system Linux reports, by the magic numbers of `<linux/magic.h>`.
    private static let typeNames: [UInt64: String] = [
        0xEF53: "ext2/ext3", 0x9FA0: "proc", 0x6265_6572: "sysfs", 0x0102_1994: "tmpfs", 0x1CD1: "devpts",
        0x0027_E0EB: "cgroupfs", 0x6367_7270: "cgroup2fs", 0x794C_7630: "overlayfs", 0x9123_683E: "btrfs",
        0x5846_5342: "xfs", 0x6969: "nfs", 0x4D44: "msdos", 0x2011_BAB0: "exfat", 0x5346_544E: "ntfs",
        0x6573_5546: "fuseblk", 0x6573_5543: "fusectl", 0x8584_58F6: "ramfs", 0x7371_7368: "squashfs",
        0x9660: "isofs", 0xCAFE_4A11: "bpf_fs", 0x6462_6720: "debugfs", 0x7472_6163: "tracefs",
        0x7363_6673: "securityfs", 0x4249_4E4D: "binfmt_misc", 0x1980_0202: "mqueue", 0x9584_58F6: "hugetlbfs",
        0x6E73_6673: "nsfs", 0xF2F5_2010: "f2fs", 0x2FC1_2FC1: "zfs", 0x0102_1997: "v9fs", 0xFF53_4D42: "cifs",
        0xFE53_4D42: "smb2", 0x5049_5045: "pipefs", 0x534F_434B: "sockfs", 0xDE5E_81E4: "efivarfs",
        0x6165_676C: "pstorefs", 0x1501_3346: "udf",
    ]
}
