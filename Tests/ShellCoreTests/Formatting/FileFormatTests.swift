import PathModel
import Testing

@testable import ShellCore

@Suite struct FileFormatTests {
    static let modeRows: [(String, UInt32, String)] = [
        ("regular file", 0o100644, "-rw-r--r--"),
        ("no permissions", 0o100000, "----------"),
        ("directory", 0o40755, "drwxr-xr-x"),
        ("sticky, others may search", 0o41777, "drwxrwxrwt"),
        ("sticky, others may not search", 0o41776, "drwxrwxrwT"),
        ("set-user-id, owner may run", 0o104755, "-rwsr-xr-x"),
        ("set-user-id, owner may not run", 0o104644, "-rwSr--r--"),
        ("set-group-id, group may run", 0o102755, "-rwxr-sr-x"),
        ("set-group-id, group may not run", 0o102745, "-rwxr-Sr-x"),
        ("symbolic link", 0o120777, "lrwxrwxrwx"),
        ("fifo", 0o10644, "prw-r--r--"),
        ("socket", 0o140755, "srwxr-xr-x"),
        ("character device", 0o20666, "crw-rw-rw-"),
        ("block device", 0o60660, "brw-rw----"),
        ("unknown type", 0o644, "?rw-r--r--"),
    ]

    @Test(arguments: modeRows)
    func modeStrings(_ name: String, _ mode: UInt32, _ expected: String) {
        #expect(FileFormat.modeString(mode) == expected, "\(name)")
    }

    /// Sizes as GNU `ls -lh` printed them for files of these sizes.
    static let humanRows: [(UInt64, String)] = [
        (0, "0"), (1, "1"), (512, "512"), (1023, "1023"), (1024, "1.0K"), (1025, "1.1K"), (1536, "1.5K"),
        (10239, "10K"), (10240, "10K"), (10241, "11K"), (99999, "98K"), (999_999, "977K"),
        (1_048_575, "1.0M"), (1_048_576, "1.0M"), (1_153_433, "1.1M"), (10_485_760, "10M"),
        (1_073_741_824, "1.0G"), (5_000_000_000, "4.7G"), (UInt64(1) << 60, "1.0E"),
    ]

    @Test(arguments: humanRows)
    func humanSizes(_ bytes: UInt64, _ expected: String) {
        #expect(FileFormat.humanSize(bytes) == expected)
    }

    static let blockRows: [(String, UInt64, Bool, String)] = [
        ("whole kibibytes", 8, false, "4"),
        ("half a kibibyte rounds up", 9, false, "5"),
        ("nothing", 0, false, "0"),
        ("human total", 2_126_264, true, "1.1G"),
        ("human small total", 16, true, "8.0K"),
    ]

    /// `total` lines: 512-byte blocks shown in kibibytes, or scaled with `-h`.
    @Test(arguments: blockRows)
    func blockTotals(_ name: String, _ blocks: UInt64, _ human: Bool, _ expected: String) {
        let text = FileFormat.humanSize(
            blocks, fromBlockSize: 512, toBlockSize: human ? 1 : 1024, autoscale: human)
        #expect(text == expected, "\(name)")
    }

    static let now = Timestamp(seconds: 1_795_323_600)  // 2026-11-22 05:00:00 UTC

    static let dateRows: [(String, Timestamp, String)] = [
        ("an hour ago", Timestamp(seconds: 1_795_320_000), "Nov 22 04:00"),
        ("five months ago", Timestamp(seconds: 1_795_323_600 - 150 * 86_400), "Jun 25 05:00"),
        ("seven months ago", Timestamp(seconds: 1_776_834_000), "Apr 22  2026"),
        ("a minute ahead", Timestamp(seconds: 1_795_323_660), "Nov 22  2026"),
        ("a single-digit day", Timestamp(seconds: 1_577_934_245), "Jan  2  2020"),
        (
            "just inside six months",
            Timestamp(seconds: 1_795_323_600 - FileFormat.sixMonths, nanoseconds: 1), "May 23 14:05"
        ),
        ("exactly six months", Timestamp(seconds: 1_795_323_600 - FileFormat.sixMonths), "May 23  2026"),
        ("before 1970", Timestamp(seconds: -86_400 * 365), "Jan  1  1969"),
    ]

    @Test(arguments: dateRows)
    func listingDates(_ name: String, _ time: Timestamp, _ expected: String) {
        #expect(FileFormat.listingDate(time, now: Self.now, zone: .utc) == expected, "\(name)")
    }

    @Test func preciseTimes() {
        #expect(
            FileFormat.preciseTime(Timestamp(seconds: 1_795_324_887, nanoseconds: 992_573_265), zone: .utc)
                == "2026-11-22 05:21:27.992573265 +0000")
        #expect(
            FileFormat.preciseTime(Timestamp(seconds: 0, nanoseconds: 5), zone: .utc)
                == "1970-01-01 00:00:00.000000005 +0000")
    }

    static let zoneRows: [(String?, Clock.Zone)] = [
        (nil, .local), ("UTC", .utc), (":UTC", .utc), ("UTC0", .utc), ("Etc/UTC", .utc), ("", .utc),
        ("America/New_York", .local),
    ]

    @Test(arguments: zoneRows)
    func zonesFromTheEnvironment(_ value: String?, _ expected: Clock.Zone) {
        let environment: Environment = value.map { ["TZ": $0] } ?? [:]
        #expect(Clock.Zone(environment: environment) == expected)
    }

    @Test func deviceNumbersSplitAsGlibcDoes() {
        #expect(FileFormat.major(0xFE00) == 254)
        #expect(FileFormat.minor(0xFE00) == 0)
        #expect(FileFormat.major(0x0103) == 1)
        #expect(FileFormat.minor(0x0103) == 3)
        #expect(FileFormat.major(0x1001_0305) == 259)
        #expect(FileFormat.minor(0x1001_0305) == 65_541)
    }

    static let typeRows: [(FileKind, UInt64, String)] = [
        (.regular, 0, "regular empty file"), (.regular, 1, "regular file"), (.directory, 4096, "directory"),
        (.symlink, 3, "symbolic link"), (.fifo, 0, "fifo"), (.socket, 0, "socket"),
        (.characterDevice, 0, "character special file"), (.blockDevice, 0, "block special file"),
        (.unknown, 0, "weird file"),
    ]

    @Test(arguments: typeRows)
    func typeNames(_ kind: FileKind, _ size: UInt64, _ expected: String) {
        #expect(FileFormat.typeName(kind, size: size) == expected)
    }
}
