import Foundation
import PathModel
import Testing

@testable import ShellCore

@Suite struct TimeFormatTests {
    /// Moments on both sides of awkward calendar edges: the epoch, a leap day, ISO weeks that
    /// belong to the year before or after, before 1970, a year below 1000.
    static let moments: [Int64] = [
        0, 1_577_934_245, 1_582_934_400, 1_609_459_199, 1_609_459_200, 1_704_067_199, 1_735_603_200, -86_401,
        -30_610_224_000,
    ]

    /// Formats with every conversion, flags and widths GNU's nstrftime knows.
    static let patterns: [String] = [
        "%a %A %b %B %h %c", "%C %d %D %e %F", "%g %G %V %u %w %U %W", "%H %I %j %k %l %m %M",
        "%n%t%%", "%p %P %r %R %s %S %T", "%x %X %y %Y %z %:z %::z %:::z %Z %q",
        "%_d %-d %0e %_5H %-5d %05e %^b %#b %#p %^a %#A %#Z", "%10F|%_3j|%3N|%N|%12N|%_N",
        "%Ey %OH %EY %Q %", "plain text", "%-j %-m %_y %010s %_10s %^c",
    ]

    /// Each pattern against GNU date's, which writes times through the same nstrftime as ls.
    @Test(.needsLocalFileSystem("GNU date runs in a directory on disk"), arguments: patterns)
    func matchesGNUDate(_ pattern: String) throws {
        guard ReferenceTool.isInstalled("/usr/bin/date") else { return }
        let directory = TemporaryDirectory(onLocalDisk: true)
        defer { directory.remove() }
        for seconds in Self.moments {
            let time = Timestamp(seconds: seconds, nanoseconds: 123_456_789)
            // GNU date reads -86401.123456789 as 86401.123456789 seconds before the epoch.
            let moment = seconds >= 0 ? "\(seconds).123456789" : "\(seconds + 1).876543211"
            let expected = try ReferenceTool.run(
                "/usr/bin/date", ["-u", "-d", "@" + moment, "+" + pattern], in: directory.file)
            let actual = String(decoding: TimeFormat.format(Array(pattern.utf8), time, zone: .utc), as: UTF8.self)
            #expect(actual + "\n" == expected.stdout, "\(pattern) at \(seconds)")
        }
    }
}
