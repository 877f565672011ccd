import PathModel
import Testing

@testable import ShellCore

/// touch's dates and sources against GNU touch on twin fixtures (`f`, `g` with known times, a
/// symlink `lf` to `f`, a dangling `dl`), under `TZ=UTC`: the same messages, status, and access
/// and modification times of every entry afterwards (the rows never set a time to now).
@Suite(
    .serialized, .enabled(if: ReferenceTool.isInstalled("/usr/bin/touch"), "needs GNU coreutils"))
struct TouchCommandTests {
    static let rows: [(name: String, line: String)] = [
        ("a date and time", "touch -d '2024-01-02 03:04:05' f"),
        ("a date alone is midnight", "touch -d 2024-01-02 f"),
        ("T between date and time", "touch -d 2024-01-02T03:04:05 f"),
        ("hours and minutes", "touch -d '2024-01-02 03:04' f"),
        ("a fraction of a second", "touch -d '2024-01-02 03:04:05.25' f"),
        ("Z", "touch -d 2024-01-02T03:04:05Z f"),
        ("an offset", "touch -d '2024-01-02 03:04:05 +0100' f"),
        ("an offset with a colon", "touch -d '2024-01-02 03:04:05 -05:30' f"),
        ("seconds since the epoch", "touch -d @1700000000 f"),
        ("with a fraction", "touch -d @1700000000.5 f"),
        ("before the epoch", "touch -d @-1.25 f"),
        ("not a date", "touch -d xyz f"),
        ("February 30th", "touch -d 2024-02-30 f"),
        ("hour 25", "touch -d '2024-01-02 25:00' f"),
        ("a stamp with century", "touch -t 202401020304.05 f"),
        ("a stamp with a two-digit year", "touch -t 6901020304 f"),
        ("a stamp in the 2060s", "touch -t 6801020304 f"),
        ("a stamp too short", "touch -t 123 f"),
        ("month 13", "touch -t 202413020304 f"),
        ("-a", "touch -a -d @100 f"),
        ("-m", "touch -m -d @200 f"),
        ("--time=atime", "touch --time=atime -d @500 f"),
        ("--time=modify", "touch --time=modify -d @500 f"),
        ("-r", "touch -r g f"),
        ("-r with -m", "touch -m -r g f"),
        ("-r and -d: the date wins", "touch -r g -d @42 f"),
        ("-r through a symlink", "touch -r lf g"),
        ("-r a missing file", "touch -r nope f"),
        ("a symlink operand is followed", "touch -d @300 lf"),
        ("-h changes the symlink", "touch -h -d @300 lf"),
        ("-h creates nothing", "touch -h -d @1 nope"),
        ("-h -c on a missing file", "touch -c -h -d @1 nope"),
        ("-h on a dangling symlink", "touch -h -d @300 dl"),
        ("a dangling symlink makes its target", "touch -d @400 dl"),
        ("a new file gets the date", "touch -d @600 new"),
    ]

    static func build(in root: File) throws {
        try (root + "f").write(text: "f\n")
        try (root + "g").write(text: "g\n")
        try (root + "lf").makeSymlink(to: "f")
        try (root + "dl").makeSymlink(to: "nowhere")
        for (name, seconds) in [("f", 1_000_000_000), ("g", 1_100_000_000)] as [(String, Int64)] {
            try (root + name).setTimes(
                access: Timestamp(seconds: seconds, nanoseconds: 0),
                modification: Timestamp(seconds: seconds + 7))
        }
        for name in ["lf", "dl"] {
            let time = Timestamp(seconds: 1_200_000_000, nanoseconds: 0)
            try (root + name).setTimes(access: time, modification: time, followSymlinks: false)
        }
    }

    @Test(arguments: rows)
    func matchesGNU(_ name: String, _ line: String) throws {
        // A symlink's access time is when it was last read, which reading it changes.
        let twins = try TwinRun(line, environment: ["TZ": "UTC"], build: Self.build) {
            let access = $0.kind == .symlink ? "" : "\($0.accessTime.seconds).\($0.accessTime.nanoseconds) "
            return "\($0.kind) \(access)\($0.modificationTime.seconds).\($0.modificationTime.nanoseconds)"
        }
        twins.expectSame(line, name)
    }

    @Test(arguments: ["touch -d @1 -t 202401020304 f", "touch -r g -t 202401020304 f", "touch --time=xyz f"])
    func usageErrorsMatchGNU(_ line: String) throws {
        let twins = try TwinRun(line, environment: ["TZ": "UTC"], build: Self.build) { _ in "" }
        twins.expectSameUsageError(line)
    }

    @Test("A stamp without a year is in this year")
    func stampWithoutYear() throws {
        let now = Timestamp(seconds: 1_767_323_040, nanoseconds: 0)  // 2026-01-02 03:04 UTC
        let time = try #require(DateExpression.parseStamp(Array("03040506".utf8), in: .utc, now: now))
        #expect(time.seconds == 1_772_600_760)  // 2026-03-04 05:06 UTC
    }
}
