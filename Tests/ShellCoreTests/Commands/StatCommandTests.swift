import Glibc
import PathModel
import Testing

@testable import ShellCore

/// A few files of each kind, with fixed times (nanoseconds included).
func makeStatFixture(_ shell: TestShell) throws {
    try shell.write("a.txt", "hello")
    try shell.write("empty", "")
    try shell.write("b c", "x")
    try shell.write("d/inner", "")
    try shell.path("link").makeSymlink(to: "a.txt")
    try shell.path("spaced link").makeSymlink(to: "b c")
    try shell.path("dangling").makeSymlink(to: "nowhere")
    #expect(mkfifo(shell.path("pipe").string, 0o600) == 0)
    try shell.path("a.txt").setPermissions(0o4750)
    let time = Timestamp(seconds: 1_577_934_245, nanoseconds: 123_456_789)
    for name in ["a.txt", "empty", "b c", "d", "pipe"] {
        try shell.path(name).setTimes(access: time, modification: time, followSymlinks: false)
    }
    let before1970 = Timestamp(seconds: -2, nanoseconds: 500_000_000)
    try shell.path("empty").setTimes(access: before1970, modification: before1970)
    // Reading a link moves its access time while that is not after its change time (relatime):
    // an access time in the future keeps the two tools' readings from moving it.
    let future = Timestamp(seconds: Clock.now().seconds + 86_400)
    for link in ["link", "spaced link", "dangling"] {
        try shell.path(link).setTimes(access: future, modification: time, followSymlinks: false)
    }
}

@Suite struct StatCommandTests {
    static let everyDirective =
        "%n|%N|%s|%b|%B|%F|%a|%A|%h|%i|%u|%U|%g|%G|%x|%y|%z|%w|%X|%Y|%Z|%W|%d|%D|%t|%T|%o|%f|%r|%R|%Hd|%Ld|%Hr|%Lr|%%|%q|%H|%"

    static let comparisonRows: [[String]] = [
        ["a.txt"], ["d", "link", "pipe", "empty"], ["-L", "link"], ["b c", "spaced link"], ["dangling"],
        ["-c", everyDirective, "a.txt", "link", "d", "pipe", "empty", "spaced link"],
        ["-c", "[%05U][%-5n][%5.1n][%+i][% s][%#a][%#D][%#t][%10A][%-12F][%.2A][%5a][%I5s][%020x]", "a.txt"],
        [
            "-c", "%.3Y|%.9Y|%.Y|%.0Y|%10.2Y|%-12.1X|%06.3Y|%-14.3Y|%+.2Y|%.12Y|%20.12Y|%2.1Y|%-20.12Y|",
            "a.txt",
        ],
        ["-c", "%Y %.3Y %X %.1X %-8.2Y|%08.2Y", "empty"],
        ["-c", "[% b][% u][% h][% o][% d][%+B][% i][%+g][% X][%+W][%05a][%-6D][%.3s][%.0s]", "a.txt"],
        ["-c", "%.3s|%-.3n|%10.2N|", "a.txt", "b c"],
        ["-c", "no directives at all", "a.txt"], ["-c", "", "a.txt"], ["--format=%N", "link", "dangling"],
        ["-c", "a\\nb\\t%n", "a.txt"], ["-c", "x%5%y", "a.txt", "d"], ["-c", "x%5", "a.txt"],
        ["-c", "%n", "missing", "a.txt"], ["-c", "%N %F %a %t %T %Hr %Lr", "/dev/null"],
        ["-c", "%n %F", "d/", "a.txt/", "link/", "dangling/"],
        ["--printf", "a\\zb\\\\c\\\"d\\x41\\101\\e\\x4g\\0\\1234|\\q\\n", "a.txt", "d"],
        ["--printf=%n\\t%s\\n", "a.txt", "b c"], ["--printf", "%n\\", "a.txt"], ["--printf=[%N]", "link"],
        ["--printf", "%s", "-c", "%n", "a.txt"], ["-c", "%s", "--printf=[%n]", "a.txt"],
        ["--printf", "%5%", "a.txt"], ["--printf", "\\x\\xZ\\8%s\\", "empty"],
        ["-t", "a.txt", "d", "link", "pipe", "empty", "missing"], ["--terse", "-L", "link"],
        ["-t", "-c", "%s", "a.txt"],
        ["-f", "/proc", "/sys"], ["-f", "-t", "/proc", "/dev"], ["--file-system", "missing", "/proc"],
        ["-f", "-c", "%n|%i|%l|%t|%T|%s|%S|%b|%c|%q|%Hd|%N|%%", ".", "a.txt", "/proc", "/dev", "/sys"],
        ["-f", "--printf=%n %T\\n", "link", "missing"], [
            "--file-system", "-c", "[%-10T][%#t][%5l][%+d][%+a][%+c][% b][%+s][%+S][%+l][%+i][%+f][%+t]", "/proc",
        ],
        ["-f", "-c", "x%5%", "d"],
    ]

    /// GNU stat built with statx says `cannot statx`; shelf keeps the classic `cannot stat`.
    @Test(.needsLocalFileSystem("GNU stat reads the fixture from disk"), arguments: comparisonRows)
    func matchesGNUStat(_ arguments: [String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/stat") else { return }
        let shell = TestShell(environment: ["TZ": "UTC"])
        try makeStatFixture(shell)
        let expected = try ReferenceTool.run("/usr/bin/stat", arguments, in: shell.directory.file)
        let actual = shell.run(ReferenceTool.commandLine("stat", arguments))
        #expect(actual.stdout == expected.stdout, "stat \(arguments)")
        #expect(
            actual.stderr == expected.stderr.replacingOccurrences(of: "cannot statx", with: "cannot stat"),
            "stat \(arguments)")
        #expect(actual.status == expected.status, "stat \(arguments)")
    }

    @Test(.needsLocalFileSystem("devices are the kernel's")) func devicesShowTheirDeviceType() throws {
        guard ReferenceTool.isInstalled("/usr/bin/stat") else { return }
        let shell = TestShell(environment: ["TZ": "UTC"])
        guard mknod(shell.path("loop").string, S_IFBLK | 0o600, deviceNumber(major: 7, minor: 12)) == 0 else {
            return
        }
        for arguments in [["loop"], ["-c", "%t %T %r %R %Hr %Lr %F", "loop"]] {
            let expected = try ReferenceTool.run("/usr/bin/stat", arguments, in: shell.directory.file)
            #expect(shell.run(ReferenceTool.commandLine("stat", arguments)).stdout == expected.stdout)
        }
    }

    @Test func defaultLayout() throws {
        let shell = TestShell(environment: ["TZ": "UTC"])
        try shell.write("f", "hello")
        let time = Timestamp(seconds: 1_577_934_245, nanoseconds: 5)
        try shell.path("f").setTimes(access: time, modification: time)
        try shell.path("f").setPermissions(0o640)
        let info = try shell.path("f").info()
        let lines = shell.run("stat f").stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "  File: f")
        #expect(lines[1].hasPrefix("  Size: 5         \tBlocks: "))
        #expect(lines[1].hasSuffix(" regular file"))
        #expect(
            lines[2].hasPrefix(
                "Device: \(FileFormat.major(info.device)),\(FileFormat.minor(info.device))\tInode: \(info.inode)"
            ))
        #expect(lines[3].hasPrefix("Access: (0640/-rw-r-----)  Uid: ("))
        #expect(lines[4] == "Access: 2020-01-02 03:04:05.000000005 +0000")
        #expect(lines[5] == "Modify: 2020-01-02 03:04:05.000000005 +0000")
        #expect(lines[6].hasPrefix("Change: "))
        #expect(lines[7].hasPrefix(" Birth: "))
        #expect(lines[8] == "")
        #expect(lines.count == 9)
    }

    static let formatRows: [(String, String, String)] = [
        ("name and size", "%n %s", "f 5"),
        ("quoted name", "%N", "'f'"),
        ("seconds with a fraction", "%.3Y", "1577934245.123"),
        ("a bare dot gives nanoseconds", "%.Y", "1577934245.123456789"),
        ("width covers the fraction", "%16.2Y|", "   1577934245.12|"),
        ("left-aligned", "%-16.2Y|", "1577934245.12   |"),
        ("zero-padded", "%016.2Y|", "0001577934245.12|"),
        ("more digits than nanoseconds", "%.11Y", "1577934245.12345678900"),
        ("octal permissions", "%a %04a %#a", "640 0640 0640"),
        ("hex mode", "%f", "81a0"),
        ("a string cut by precision", "%.3F", "reg"),
        ("padding a string", "[%8n][%-3n]", "[       f][f  ]"),
        ("unknown directive", "%q%j", "??"),
        ("a lone percent at the end", "100%", "100%"),
        ("backslashes stay", "a\\n", "a\\n"),
    ]

    @Test(arguments: formatRows)
    func rendersFormats(_ name: String, _ format: String, _ expected: String) throws {
        let shell = TestShell(environment: ["TZ": "UTC"])
        try shell.write("f", "hello")
        try shell.path("f").setPermissions(0o640)
        let time = Timestamp(seconds: 1_577_934_245, nanoseconds: 123_456_789)
        try shell.path("f").setTimes(access: time, modification: time)
        let result = shell.run(ReferenceTool.commandLine("stat", ["-c", format, "f"]))
        #expect(result.stdout == expected + "\n", "\(name)")
        #expect(result.status == .success)
    }

    @Test func followsLinksWithL() throws {
        let shell = TestShell()
        try shell.write("target", "12345")
        try shell.path("link").makeSymlink(to: "target")
        #expect(shell.run("stat -c '%F %s %N' link").stdout == "symbolic link 6 'link' -> 'target'\n")
        #expect(shell.run("stat -L -c '%F %s %N' link").stdout == "regular file 5 'link'\n")
        #expect(shell.run("stat --dereference -c %F link").stdout == "regular file\n")
    }

    static let errorRows: [(String, String, String, String, ShellCore.ExitStatus)] = [
        ("a missing file", "stat missing", "", "stat: cannot stat 'missing': No such file or directory\n", 1),
        (
            "the others still shown", "stat -c %n missing f", "f\n",
            "stat: cannot stat 'missing': No such file or directory\n", 1
        ),
        ("an empty name", "stat ''", "", "stat: cannot stat '': No such file or directory\n", 1),
        (
            "a dangling link followed", "stat -L dangling", "",
            "stat: cannot stat 'dangling': No such file or directory\n", 1
        ),
        ("no operand", "stat", "", "stat: missing operand\nTry 'help stat' for more information.\n", 1),
        ("an invalid directive stops", "stat -c 'x%5%' f f", "x", "stat: '%5%': invalid directive\n", 1),
        (
            "no format", "stat -c", "",
            "stat: option requires an argument -- 'c'\nTry 'help stat' for more information.\n", 2
        ),
    ]

    @Test(arguments: errorRows)
    func reportsErrors(
        _ name: String, _ line: String, _ stdout: String, _ stderr: String, _ status: ShellCore.ExitStatus
    ) throws {
        let shell = TestShell()
        try shell.write("f")
        try shell.path("dangling").makeSymlink(to: "nowhere")
        let result = shell.run(line)
        #expect(result.stdout == stdout, "\(name)")
        #expect(result.stderr == stderr, "\(name)")
        #expect(result.status == status, "\(name)")
    }
}
