import PathModel
import Testing

@testable import ShellCore

/// `ls -c -u --time --time-style --full-time`, against GNU ls on twin fixtures.
@Suite struct LsTimeTests {
    /// The listing fixture, with access times apart from the modification times: some older,
    /// one recent, one in the future.
    static func makeFixture(_ shell: TestShell) throws {
        try makeListingFixture(shell)
        let now = Clock.now().seconds
        let accesses: [(String, Int64)] = [
            ("a.txt", 1_546_300_800), ("big.bin", now - 86_400), ("empty", now + 86_400 * 40), ("tool", now - 7_200),
            ("d/y", 1_262_304_000),
        ]
        for (name, seconds) in accesses {
            let file = shell.path(name)
            let modified = try file.info(followSymlinks: false).modificationTime
            try file.setTimes(
                access: Timestamp(seconds: seconds, nanoseconds: 250_000_000), modification: modified,
                followSymlinks: false)
        }
    }

    static let comparisonRows: [(String, [String], [String: String])] = [
        ("-u sorts by access time", ["-u"], [:]),
        ("-ut one per line", ["-ut", "-1", "d"], [:]),
        ("-u with -r", ["-ur"], [:]),
        ("-c sorts by change time", ["-c"], [:]),
        ("-lc", ["-lc", "--full-time"], [:]),
        ("-lct", ["-lct", "--time-style=+%s.%N"], [:]),
        ("-u then -c", ["-uc", "-l", "--full-time"], [:]),
        ("--time=atime", ["--time=atime"], [:]),
        ("--time=ctime -r", ["--time=ctime", "-r"], [:]),
        ("--time=status with -l", ["--time=status", "-l", "--full-time"], [:]),
        ("--time=birth", ["--time=birth"], [:]),
        ("--time=creation sorted", ["--time=creation", "-l", "--sort=time", "--full-time"], [:]),
        ("-u with --sort=none", ["-u", "--sort=none", "-d", "tool", "a.txt", "big.bin"], [:]),
        ("-c with -S", ["-c", "-S"], [:]),
        ("-u with -X", ["-uX"], [:]),
        ("-u with a directory operand", ["-u", "d", "a.txt", "tool", "empty"], [:]),
        ("-t alone still uses the modification time", ["-t"], [:]),
        ("full-iso", ["-l", "--time-style=full-iso"], [:]),
        ("long-iso", ["-l", "--time-style=long-iso"], [:]),
        ("iso", ["-l", "--time-style=iso"], [:]),
        ("locale", ["-l", "--time-style=locale"], [:]),
        ("posix-iso in the C locale", ["-l", "--time-style=posix-iso"], [:]),
        ("posix- alone", ["-l", "--time-style=posix-"], [:]),
        ("an abbreviated style", ["-l", "--time-style=full"], [:]),
        ("--full-time", ["--full-time"], [:]),
        ("--full-time stays long after -1", ["--full-time", "-1"], [:]),
        ("--full-time then a style", ["--full-time", "--time-style=iso"], [:]),
        ("a style then --full-time", ["-l", "--time-style=iso", "--full-time"], [:]),
        ("+FORMAT", ["-l", "--time-style=+%Y-%m-%d %T.%3N %a"], [:]),
        ("old and recent formats", ["-l", "--time-style=+%Y old\n%H:%M recent"], [:]),
        ("an empty recent format", ["-l", "--time-style=+%F\n"], [:]),
        ("an empty format", ["-g", "--time-style=+"], [:]),
        ("a style without -l", ["--time-style=long-iso"], [:]),
        ("a bad style without -l is not read", ["--time-style=bogus"], [:]),
        ("with -s and -i", ["-lsi", "--time-style=long-iso", "d"], [:]),
        ("TIME_STYLE", ["-l"], ["TIME_STYLE": "long-iso"]),
        ("TIME_STYLE posix-", ["-l"], ["TIME_STYLE": "posix-full-iso"]),
        ("--time-style wins over TIME_STYLE", ["-l", "--time-style=iso"], ["TIME_STYLE": "full-iso"]),
        ("a bad TIME_STYLE without -l", [], ["TIME_STYLE": "bogus"]),
    ]

    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: comparisonRows)
    func matchesGNULs(_ name: String, _ arguments: [String], _ environment: [String: String]) throws {
        try compare(name, arguments, environment, restoringLinkAccessTimes: false)
    }

    /// Long listings that show access times, where GNU ls reading a symlink's target has just
    /// made the link's access time now.
    static let accessRows: [(String, [String], [String: String])] = [
        ("-lu shows it, sorted by name", ["-lu"], [:]),
        ("-lut shows and sorts by it", ["-lut"], [:]),
        ("-c then -u: the last wins", ["-cu", "-l"], [:]),
        ("--time=access -l", ["--time=access", "-l"], [:]),
        ("--time=use -lt", ["--time=use", "-lt"], [:]),
        ("an abbreviated word", ["--time=acc", "-l"], [:]),
        ("an empty recent format", ["-lu", "--time-style=+%F\n"], [:]),
        ("TIME_STYLE as +FORMAT", ["-lu"], ["TIME_STYLE": "+%s %Z"]),
    ]

    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: accessRows)
    func matchesGNULsOnAccessTimes(_ name: String, _ arguments: [String], _ environment: [String: String]) throws {
        try compare(name, arguments, environment, restoringLinkAccessTimes: true)
    }

    /// Runs GNU ls, then shelf's, on one fixture; with `restoringLinkAccessTimes`, the symlinks'
    /// access times are set back between the two (which changes their change times).
    private func compare(
        _ name: String, _ arguments: [String], _ environment: [String: String], restoringLinkAccessTimes: Bool
    ) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell(environment: ["TZ": "UTC"].merging(environment) { $1 })
        try Self.makeFixture(shell)
        let links = try ["link", "dangling", "dirlink"].map { name in
            (shell.path(name), try shell.path(name).info(followSymlinks: false).accessTime)
        }
        let expected = try ReferenceTool.run("/usr/bin/ls", arguments, in: shell.directory.file, environment: environment)
        if restoringLinkAccessTimes {
            for (link, accessed) in links {
                let modified = try link.info(followSymlinks: false).modificationTime
                try link.setTimes(access: accessed, modification: modified, followSymlinks: false)
            }
        }
        let actual = shell.run(ReferenceTool.commandLine("ls", arguments))
        #expect(actual.stdout == expected.stdout, "\(name)")
        #expect(actual.stderr == expected.stderr, "\(name)")
        #expect(actual.status == expected.status, "\(name)")
    }

    static let mistakeRows: [(String, [String], [String: String])] = [
        ("an unknown time", ["--time=mtime"], [:]),
        ("an ambiguous time", ["--time=c"], [:]),
        ("an unknown style", ["-l", "--time-style=bogus"], [:]),
        ("an ambiguous style", ["-l", "--time-style=l"], [:]),
        ("an empty style", ["-l", "--time-style="], [:]),
        ("three lines", ["-l", "--time-style=+a\nb\nc"], [:]),
        ("three lines with a quote and a backslash", ["--full-time", "--time-style=+it's\n\\\n"], [:]),
        ("a bad TIME_STYLE with -l", ["-l"], ["TIME_STYLE": "bogus"]),
    ]

    /// The same message as GNU ls, and shelf's pointer to `help ls` after it, as after every usage
    /// error (GNU ls has its own after some of them, and none after a time style format).
    /// Shelf's status is 2 for them all; GNU's is 1 for a `--time` word.
    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: mistakeRows)
    func reportsMistakesAsGNULs(_ name: String, _ arguments: [String], _ environment: [String: String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell(environment: environment)
        try shell.write("a")
        let expected = try ReferenceTool.run("/usr/bin/ls", arguments, in: shell.directory.file, environment: environment)
        let actual = shell.run(ReferenceTool.commandLine("ls", arguments))
        let gnuMessage = expected.stderr.replacingOccurrences(
            of: "Try '/usr/bin/ls --help' for more information.\n", with: "")
        #expect(expected.status != 0, "\(name)")
        #expect(actual.stderr == gnuMessage + "Try 'help ls' for more information.\n", "\(name)")
        #expect(actual.stdout == "", "\(name)")
        #expect(actual.status == .usage, "\(name)")
    }

    /// A birth time the volume does not record is a `?` right-aligned under the dates.
    @Test func aMissingBirthTimeIsAQuestionMark() throws {
        let volume = MemoryVolume()
        let shell = TestShell(environment: ["TZ": "UTC"])
        shell.state.cwd = volume.file("/")
        try volume.file("/x").createFile()
        let standard = shell.run("ls -l --time=birth x").stdout
        let iso = shell.run("ls -l --time=birth --time-style=long-iso x").stdout
        // Dates are 12 columns wide in the standard style, 16 in long-iso.
        #expect(standard.hasSuffix(" 0 " + String(repeating: " ", count: 11) + "? x\n"), "\(standard)")
        #expect(iso.hasSuffix(" 0 " + String(repeating: " ", count: 15) + "? x\n"), "\(iso)")
    }

    @Test(arguments: [
        ("-c", LsCommand.TimeField.change, LsCommand.Sort.time), ("-u", .access, .time), ("-lu", .access, .name),
        ("-ult", .access, .time), ("--time=birth", .birth, .time), ("-u --sort=size", .access, .size),
        ("-u -U", .access, .none), ("--full-time -u", .access, .name), ("-cu", .access, .time),
    ])
    func parsesTimeOptions(_ line: String, _ field: LsCommand.TimeField, _ sort: LsCommand.Sort) throws {
        let command = try LsCommand.parse(line.split(separator: " ").map { Argument(String($0)) })
        #expect(command.timeField == field, "\(line)")
        #expect(command.sort == sort, "\(line)")
    }
}
