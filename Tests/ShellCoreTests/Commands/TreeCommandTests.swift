import Foundation
@_spi(FaultInjection) import PathModel
import Testing

@testable import ShellCore

// Expected outputs were taken from tree v2.1.0 run with LC_ALL=C.UTF-8 on the same fixtures, and
// the shells that check them run in that locale (`utf8Locale`); `TreeLocaleTests` compares both
// locales with tree(1). In the tables a vertical bar is written `│   `; tree follows it with two
// no-break spaces and a space, which `drawn(_:)` puts back.

/// The locale the tables were taken in, in which tree draws box characters.
private let utf8Locale = ["LC_ALL": "C.UTF-8"]

/// tree's text with each `│   ` turned into the `│`, two U+00A0 and a space it really prints.
private func drawn(_ text: String) -> String {
    text.replacingOccurrences(of: "│   ", with: "│\u{A0}\u{A0} ")
}

/// One row of a table: a command line in the fixture and what it prints.
struct TreeRow: CustomTestStringConvertible, Sendable {
    let name: String
    let line: String
    let stdout: String
    var stderr = ""
    var status: ShellCore.ExitStatus = .success
    var testDescription: String { name }
}

/// The fixture most rows list:
///
///     d/a.txt (3 bytes)  d/big (5000)  d/sub/b.txt (6)  d/sub/deep/
///     e/huge (1300000)   sp ace/x y    日本/ファイル.txt  z.c
///     .hfile  .hid/      linkdir -> d  dangling -> nowhere
private func makeFixture(locale: [String: String] = utf8Locale) throws -> TestShell {
    let shell = TestShell(environment: locale)
    try shell.write("d/a.txt", "hi\n")
    try shell.write("d/big", String(repeating: "x", count: 5000))
    try shell.write("d/sub/b.txt", "hello\n")
    try shell.path("d/sub/deep").makeDirectory()
    try shell.write("e/huge", String(repeating: "y", count: 1_300_000))
    try shell.write("sp ace/x y")
    try shell.write("日本/ファイル.txt")
    try shell.write("z.c")
    try shell.write(".hfile")
    try shell.path(".hid").makeDirectory()
    try shell.path("linkdir").makeSymlink(to: "d")
    try shell.path("dangling").makeSymlink(to: "nowhere")
    return shell
}

@Suite struct TreeCommandTests {
    static let rows: [TreeRow] = [
        TreeRow(
            name: "the current directory by default", line: "tree",
            stdout: """
                .
                ├── d
                │   ├── a.txt
                │   ├── big
                │   └── sub
                │       ├── b.txt
                │       └── deep
                ├── dangling -> nowhere
                ├── e
                │   └── huge
                ├── linkdir -> d
                ├── sp ace
                │   └── x y
                ├── z.c
                └── 日本
                    └── ファイル.txt

                8 directories, 8 files

                """),
        TreeRow(
            name: "-a shows hidden names", line: "tree -a -L 1",
            stdout: """
                .
                ├── .hfile
                ├── .hid
                ├── d
                ├── dangling -> nowhere
                ├── e
                ├── linkdir -> d
                ├── sp ace
                ├── z.c
                └── 日本

                7 directories, 3 files

                """),
        TreeRow(
            name: "-d lists directories and links to them", line: "tree -d",
            stdout: """
                .
                ├── d
                │   └── sub
                │       └── deep
                ├── e
                ├── linkdir -> d
                ├── sp ace
                └── 日本

                8 directories

                """),
        TreeRow(
            name: "-f prefixes the operand's path", line: "tree -f",
            stdout: """
                .
                ├── ./d
                │   ├── ./d/a.txt
                │   ├── ./d/big
                │   └── ./d/sub
                │       ├── ./d/sub/b.txt
                │       └── ./d/sub/deep
                ├── ./dangling -> nowhere
                ├── ./e
                │   └── ./e/huge
                ├── ./linkdir -> d
                ├── ./sp ace
                │   └── ./sp ace/x y
                ├── ./z.c
                └── ./日本
                    └── ./日本/ファイル.txt

                8 directories, 8 files

                """),
        TreeRow(
            name: "-f drops trailing slashes of the operand", line: "tree -f d//",
            stdout: """
                d
                ├── d/a.txt
                ├── d/big
                └── d/sub
                    ├── d/sub/b.txt
                    └── d/sub/deep

                3 directories, 3 files

                """),
        TreeRow(
            name: "without -f the operand is printed as given", line: "tree e/",
            stdout: "e/\n└── huge\n\n1 directory, 1 file\n"),
        TreeRow(
            name: "-L 1 counts directories it does not enter", line: "tree -L 1",
            stdout: """
                .
                ├── d
                ├── dangling -> nowhere
                ├── e
                ├── linkdir -> d
                ├── sp ace
                ├── z.c
                └── 日本

                6 directories, 2 files

                """),
        TreeRow(
            name: "--dirsfirst puts links to directories with directories", line: "tree -a -L 1 --dirsfirst",
            stdout: """
                .
                ├── .hid
                ├── d
                ├── e
                ├── linkdir -> d
                ├── sp ace
                ├── 日本
                ├── .hfile
                ├── dangling -> nowhere
                └── z.c

                7 directories, 3 files

                """),
        TreeRow(
            name: "-I excludes files and directories, | separates patterns", line: "tree -I 'sub|e|*.c'",
            stdout: """
                .
                ├── d
                │   ├── a.txt
                │   └── big
                ├── dangling -> nowhere
                ├── linkdir -> d
                ├── sp ace
                │   └── x y
                └── 日本
                    └── ファイル.txt

                5 directories, 5 files

                """),
        TreeRow(
            name: "-I given twice excludes both", line: "tree -I sub -I e -L 1 d",
            stdout: "d\n├── a.txt\n└── big\n\n1 directory, 2 files\n"),
        TreeRow(
            name: "-P keeps matching files and every directory", line: "tree -P '*.txt'",
            stdout: """
                .
                ├── d
                │   ├── a.txt
                │   └── sub
                │       ├── b.txt
                │       └── deep
                ├── e
                ├── sp ace
                └── 日本
                    └── ファイル.txt

                7 directories, 3 files

                """),
        TreeRow(
            name: "a pattern ending in / matches directories only", line: "tree -I 'sub/|big/' d",
            stdout: "d\n├── a.txt\n└── big\n\n1 directory, 2 files\n"),
        TreeRow(
            name: "--noreport omits the counts", line: "tree --noreport d",
            stdout: """
                d
                ├── a.txt
                ├── big
                └── sub
                    ├── b.txt
                    └── deep

                """),
        TreeRow(
            name: "several operands share one report", line: "tree d e",
            stdout: """
                d
                ├── a.txt
                ├── big
                └── sub
                    ├── b.txt
                    └── deep
                e
                └── huge

                4 directories, 4 files

                """),
        TreeRow(
            name: "a missing operand is named, not counted, and fails", line: "tree missing d/sub",
            stdout: """
                missing  [error opening dir]
                d/sub
                ├── b.txt
                └── deep

                2 directories, 1 file

                """,
            status: 2),
        TreeRow(
            name: "a file operand counts as a file", line: "tree d/a.txt",
            stdout: "d/a.txt  [error opening dir]\n\n0 directories, 1 file\n"),
        TreeRow(
            name: "a dangling link operand counts as a file", line: "tree dangling",
            stdout: "dangling  [error opening dir]\n\n0 directories, 1 file\n"),
        TreeRow(
            name: "a link to a directory as operand is listed", line: "tree -L 1 linkdir",
            stdout: "linkdir\n├── a.txt\n├── big\n└── sub\n\n2 directories, 2 files\n"),
        TreeRow(
            name: "an operand with nothing listed is not counted", line: "tree -d e",
            stdout: "e\n\n0 directories\n"),
        TreeRow(
            name: "one directory and one file are singular", line: "tree -f 'sp ace'",
            stdout: "sp ace\n└── sp ace/x y\n\n1 directory, 1 file\n"),
        TreeRow(
            name: "Japanese names are printed as they are", line: "tree 日本",
            stdout: "日本\n└── ファイル.txt\n\n1 directory, 1 file\n"),
        TreeRow(
            name: "-L 0 is refused", line: "tree -L 0",
            stdout: "", stderr: "tree: Invalid level, must be greater than 0.\n", status: 1),
        TreeRow(
            name: "-L with a word is refused", line: "tree -L x d",
            stdout: "", stderr: "tree: Invalid level, must be greater than 0.\n", status: 1),
    ]

    @Test(arguments: rows)
    func listsTheFixture(_ row: TreeRow) throws {
        let shell = try makeFixture()
        let result = shell.run(row.line)
        #expect(result.stdout == drawn(row.stdout))
        #expect(result.stderr == row.stderr)
        #expect(result.status == row.status)
    }

    @Test func sizeColumnsShowLstatSizes() throws {
        let shell = try makeFixture()
        let dir = try shell.path("d").info().size
        let sub = try shell.path("d/sub").info().size
        let deep = try shell.path("d/sub/deep").info().size
        func bytes(_ size: UInt64) -> String {
            let digits = String(size)
            return "[" + String(repeating: " ", count: 11 - digits.count) + digits + "]"
        }
        let result = shell.run("tree -s d linkdir")
        #expect(
            result.stdout == """
                \(bytes(dir))  d
                ├── [          3]  a.txt
                ├── [       5000]  big
                └── \(bytes(sub))  sub
                    ├── [          6]  b.txt
                    └── \(bytes(deep))  deep
                [          1]  linkdir
                ├── [          3]  a.txt
                ├── [       5000]  big
                └── \(bytes(sub))  sub
                    ├── [          6]  b.txt
                    └── \(bytes(deep))  deep

                6 directories, 6 files

                """)
    }

    @Test func humanSizesAreFourColumnsWide() throws {
        let shell = try makeFixture()
        let result = shell.run("tree -h -L 1 -P 'huge|big|a.txt' d e dangling")
        // Directory sizes depend on the file system; sizes as such are checked by the next test.
        let d = TreeText.humanSize(try shell.path("d").info().size)
        let sub = TreeText.humanSize(try shell.path("d/sub").info().size)
        let e = TreeText.humanSize(try shell.path("e").info().size)
        #expect(
            result.stdout == """
                [\(d)]  d
                ├── [   3]  a.txt
                ├── [4.9K]  big
                └── [\(sub)]  sub
                [\(e)]  e
                └── [1.2M]  huge
                [   7]  dangling  [error opening dir]

                3 directories, 4 files

                """)
    }

    @Test(
        arguments: [
            (0, "   0"), (999, " 999"), (1023, "1023"), (1024, "1.0K"), (1075, "1.0K"), (1076, "1.1K"),
            (1280, "1.2K"), (1792, "1.8K"), (10188, "9.9K"), (10189, "10.0K"), (10240, " 10K"),
            (10752, " 10K"),
            (11776, " 12K"), (102_400, "100K"), (1_048_575, "1024K"), (1_048_576, "1.0M"),
            (10_433_331, "9.9M"),
            (1_073_741_824, "1.0G"), (1_099_511_627_776, "1.0T"), (1_152_921_504_606_846_976, "1.0E"),
        ] as [(UInt64, String)])
    func humanSizeRoundsAsTreeDoes(_ size: UInt64, _ expected: String) {
        #expect(TreeText.humanSize(size) == expected)
    }

    @Test(
        arguments: [
            ("plain ASCII", Array("a.txt".utf8), "a.txt"),
            ("space and backslash in UTF-8", Array("x y\\z".utf8), "x y\\z"),
            ("tab in UTF-8 as octal", Array("tab\there".utf8), "tab\\011here"),
            ("newline in UTF-8 as octal", Array("nl\nx".utf8), "nl\\012x"),
            ("delete", [0x64, 0x7F], "d\\177"),
            ("C1 control U+0085", [0x63, 0xC2, 0x85], "c\\205"),
            ("unassigned U+0378", [0xCD, 0xB8], "\\1570"),
            ("line separator U+2028", [0xE2, 0x80, 0xA8], "\\20050"),
            ("Japanese kept", Array("日本".utf8), "日本"),
            ("private use kept", [0xEE, 0x80, 0x80], "\u{E000}"),
            (
                "invalid byte: whole name byte by byte", Array("bad".utf8) + [0xFF] + Array("name".utf8),
                "bad\\377name"
            ),
            (
                "invalid: UTF-8 escaped too, space and tab", [0x6D, 0xE9, 0x20, 0xC3, 0xA9, 0x09],
                "m\\351\\ \\303\\251\\t"
            ),
            ("invalid: backslash doubled", [0x5C, 0xFF], "\\\\\\377"),
        ] as [(String, [UInt8], String)])
    func namesAreEscapedAsTreeDoes(_ label: String, _ name: [UInt8], _ expected: String) {
        var line: [UInt8] = []
        TreeText.appendName(name, in: .utf8, to: &line)
        #expect(String(decoding: line, as: UTF8.self) == expected, "\(label)")
    }

    @Test(
        arguments: [
            ("plain ASCII", Array("a.txt".utf8), "a.txt"),
            ("space and backslash", Array("x y\\z".utf8), "x\\ y\\\\z"),
            ("tab", Array("tab\there".utf8), "tab\\there"),
            ("é byte by byte", Array("é".utf8), "\\303\\251"),
            ("Japanese byte by byte", Array("日".utf8), "\\346\\227\\245"),
            ("invalid byte", Array("bad".utf8) + [0xFE], "bad\\376"),
        ] as [(String, [UInt8], String)])
    func namesAreEscapedAsTreeDoesInTheCLocale(_ label: String, _ name: [UInt8], _ expected: String) {
        var line: [UInt8] = []
        TreeText.appendName(name, in: .ascii, to: &line)
        #expect(String(decoding: line, as: UTF8.self) == expected, "\(label)")
    }

    @Test func oddNamesAreEscapedOnAPipeToo() throws {
        let shell = TestShell(environment: utf8Locale)
        try shell.path("d").makeDirectory()
        try shell.path("d").appending(name: Array("bad".utf8) + [0xFF]).createFile()
        try shell.path("d").appending(name: Array("nl\nx".utf8)).createFile()
        try shell.path("d/link").makeSymlink(to: File(bytes: Array("ta\tget".utf8)))
        let result = shell.run("tree d")
        #expect(
            result.stdout == "d\n├── bad\\377\n├── link -> ta\\011get\n└── nl\\012x\n\n1 directory, 3 files\n"
        )
    }

    @Test(
        arguments: [
            ("3", 3), ("010", 8), ("0x10", 16), (" 2", 2), ("+4", 4), ("2abc", 2), ("x", 0), ("0", 0),
            ("-1", -1),
            ("", 0), ("0x", 0), ("4294967297", 1), ("99999999999999999999", -1),
        ] as [(String, Int)])
    func levelIsReadLikeStrtoul(_ text: String, _ expected: Int) {
        #expect(TreeCommand.level(text) == expected)
    }

    @Test(
        arguments: [
            ("*.txt", "a.txt", false, true),
            ("*.txt", "a.txt.bak", false, false),
            ("*", ".hidden", false, true),
            ("?.c", "z.c", false, true),
            ("?.c", "日.c", false, false),
            ("???.c", "日.c", false, true),
            ("[a-c]*", "big", false, true),
            ("[^a-c]*", "big", false, false),
            ("[]x]*", "x]y", false, false),
            ("[\\]]*", "]y", false, true),
            ("a\\*b", "a*b", false, true),
            ("a\\*b", "axb", false, false),
            ("sub/", "sub", true, true),
            ("sub/", "sub", false, false),
            ("x|y", "y", false, true),
            ("x|y", "z", false, false),
            ("|x", "anything", false, true),
            ("x|", "anything", false, true),
            ("x||y", "anything", false, true),
            ("[abc", "anything", false, true),
            ("**t", "a.txt", false, false),
            ("**", "a.txt", false, true),
            ("*.[ch]", "main.c", false, true),
            ("", "a", false, false),
        ] as [(String, String, Bool, Bool)])
    func patternsMatchAsTreeDoes(_ pattern: String, _ name: String, _ isDirectory: Bool, _ expected: Bool) {
        #expect(
            TreeCommand.Pattern(pattern).matches(name: Array(name.utf8), isDirectory: isDirectory) == expected
        )
    }

    @Test(.needsLocalFileSystem("faults are injected into syscalls"))
    func anUnreadableSubdirectoryIsMarkedAndFails() throws {
        let shell = try makeFixture()
        // Tests run as root, whom chmod 000 does not stop: inject EACCES on opening d/sub.
        let plan = FaultPlan { call, path in
            call == .open && (path?.hasSuffix("sub") ?? false) ? .permissionDenied : nil
        }
        let result = FaultPlan.$current.withValue(plan) { shell.run("tree d") }
        #expect(
            result.stdout == "d\n├── a.txt\n├── big\n└── sub  [error opening dir]\n\n2 directories, 2 files\n"
        )
        #expect(result.status == 2)
    }

    @Test func ctrlCStopsTheWalk() throws {
        let shell = try makeFixture()
        shell.state.isCancelled = { true }
        let result = shell.run("tree")
        #expect(result.status == .interrupted)
        #expect(!result.stdout.contains("directories"))
    }

    @Test func aTreeDeeperThanPathMaxIsListedWhole() throws {
        let shell = TestShell()
        // 30 levels of 200-byte names make paths of 6000 bytes, past PATH_MAX (4096).
        let name = String(repeating: "n", count: 200)
        let top = shell.path("top")
        var level = top
        for _ in 0..<15 { level = level + name }
        try level.makeDirectory(intermediates: true)
        let middle = shell.path("middle")
        level = middle
        for _ in 0..<15 { level = level + name }
        try level.makeDirectory(intermediates: true)
        try (level + "leaf").createFile()
        try middle.move(
            to: shell.path("top/" + Array(repeating: name, count: 15).joined(separator: "/") + "/m"))
        let result = shell.run("tree -f top")
        #expect(result.stdout.filter { $0 == "\n" }.count == 35)
        #expect(
            result.stdout.split(separator: "\n").contains {
                $0.contains("/m/") && $0.hasSuffix(name + "/leaf")
            })
        #expect(result.stdout.split(separator: "\n").map(\.utf8.count).max() ?? 0 > 6000)
        #expect(result.stdout.hasSuffix("\n32 directories, 1 file\n"))
        #expect(result.status == .success)
    }

    @Test(.needsLocalFileSystem("the 200 MB listing goes to /dev/null, a device"))
    func tenThousandLevelsDoNotOverflowTheStack() throws {
        let shell = TestShell(environment: utf8Locale)
        // Built from the bottom up in chunks of 500 levels, so that no path passes PATH_MAX:
        // chain/a/…/a/chain/a/…/a/chain/…
        let segment = Array(repeating: "a", count: 500).joined(separator: "/")
        let chains = 20
        try shell.path("chain/" + segment).makeDirectory(intermediates: true)
        for _ in 1..<chains {
            try (shell.path("next") + segment).makeDirectory(intermediates: true)
            try shell.path("chain").move(to: shell.path("next") + segment + "chain")
            try shell.path("next").move(to: shell.path("chain"))
        }
        // The whole listing is 200 MB of indentation: it goes to /dev/null.
        let deep = shell.run("tree -d >> /dev/null")
        #expect(deep.status == .success)
        #expect(deep.stderr == "")
        let shallow = shell.run("tree -d -L 3")
        #expect(
            shallow.stdout
                == drawn(
                    """
                    .
                    └── chain
                        └── a
                            └── a

                    4 directories

                    """))
        // Take the chain apart again, so that removing the test's directory (one open directory
        // per level) stays within the descriptor limit.
        var current = shell.path("chain")
        for index in 1..<chains {
            let part = shell.path("part\(index)")
            try (current + segment + "chain").move(to: part)
            current = part
        }
    }
}

/// Comparisons with tree(1) itself, when it is installed: same fixture, same arguments, same
/// output and status. tree is run with LC_ALL=C.UTF-8, the locale whose drawing and escaping
/// shelf's tree follows.
@Suite(
    .enabled(if: RealTree.isUsable, "needs /usr/bin/tree and the C.UTF-8 locale"),
    .needsLocalFileSystem("tree(1) reads the fixture from disk"))
struct TreeComparisonTests {
    static let argumentLists: [[String]] = [
        [], ["-a"], ["-d"], ["-f"], ["-s"], ["-h"], ["-a", "-s", "-f"], ["-L", "1"], ["-L", "2", "-d"],
        ["--dirsfirst"], ["-a", "--dirsfirst", "-h"], ["-I", "sub|e"], ["-I", "*.c", "-I", "d"],
        ["-P", "*.txt"],
        ["-P", "*.txt", "-d"], ["-P", "[a-c]*|?.c", "-a"], ["--noreport"], ["d", "e"], ["missing", "d"],
        ["d/a.txt"], ["dangling"], ["linkdir"], ["-f", "d//"], ["e/"], ["-d", "e"], ["-L", "010"],
        ["-L", "0"],
        ["-f", "日本", "sp ace"], ["-s", "-h", "linkdir", "e"],
    ]

    @Test(arguments: argumentLists)
    func matchesTree(_ arguments: [String]) throws {
        let shell = try makeFixture()
        try compare(shell, arguments)
    }

    @Test(arguments: [["LC_ALL": "C"], utf8Locale])
    func matchesTreeOnOddNames(_ locale: [String: String]) throws {
        let shell = TestShell(environment: locale)
        let names: [[UInt8]] = [
            Array("tab\there".utf8), Array("nl\nx".utf8), Array("back\\slash".utf8),
            Array("bad".utf8) + [0xFF],
            [0x6D, 0x69, 0x78, 0xE9, 0x20, 0xC3, 0xA9], Array("dq\"q".utf8), [0x64, 0x7F],
            [0x63, 0xC2, 0x85],
            Array(" lead".utf8), Array("ｗide".utf8), [0xE2, 0x80, 0xA8], [0xCD, 0xB8], [0xEE, 0x80, 0x80],
        ]
        for name in names { try shell.directory.file.appending(name: name).createFile() }
        try shell.path("lnk").makeSymlink(to: File(bytes: Array("ta\trget/".utf8)))
        try compare(shell, [], locale: locale)
        try compare(shell, ["-f"], locale: locale)
    }

    @Test func matchesTreeOnHumanSizes() throws {
        let shell = TestShell(environment: utf8Locale)
        for size in [
            0, 999, 1023, 1024, 1075, 1076, 1280, 1792, 10188, 10189, 10240, 10752, 11776, 1_048_575,
            1_048_576,
        ] {
            try shell.path("f\(size)").write(bytes: [UInt8](repeating: 0x61, count: size))
        }
        try compare(shell, ["-h"])
    }

    private func compare(_ shell: TestShell, _ arguments: [String], locale: [String: String] = utf8Locale) throws {
        let expected = try RealTree.run(arguments, in: shell.directory.file, locale: locale)
        let line = (["tree"] + arguments.map { "'" + $0 + "'" }).joined(separator: " ")
        let result = shell.run(line)
        #expect(shell.stdout.contents == expected.stdout, "tree \(arguments)")
        #expect(result.status.code == expected.status, "tree \(arguments)")
    }
}

/// Locale variables for a run of shelf's tree and of tree(1), which draw with box characters in a
/// UTF-8 locale and with ASCII in any other.
struct LocaleRow: CustomTestStringConvertible, Sendable {
    let name: String
    /// `LC_ALL`, `LC_CTYPE` and `LANG` as set; a missing one is unset.
    let variables: [String: String]
    var testDescription: String { name }

    static let rows = [
        LocaleRow(name: "LC_ALL=C", variables: ["LC_ALL": "C"]),
        LocaleRow(name: "LC_ALL=C.UTF-8", variables: ["LC_ALL": "C.UTF-8"]),
        LocaleRow(name: "LC_ALL=POSIX", variables: ["LC_ALL": "POSIX"]),
        LocaleRow(name: "nothing set", variables: [:]),
        LocaleRow(name: "LANG=C.UTF-8", variables: ["LANG": "C.UTF-8"]),
        LocaleRow(name: "LC_CTYPE=C.utf8 over LANG=C", variables: ["LC_CTYPE": "C.utf8", "LANG": "C"]),
        LocaleRow(name: "LC_ALL=C over LC_CTYPE=C.UTF-8", variables: ["LC_ALL": "C", "LC_CTYPE": "C.UTF-8"]),
        LocaleRow(name: "an empty LC_ALL leaves LANG=C.UTF-8", variables: ["LC_ALL": "", "LANG": "C.UTF-8"]),
    ]

    /// A test shell with these variables and no other locale variable.
    func shell() -> TestShell {
        let shell = TestShell(environment: variables)
        if variables["LC_ALL"] == nil { shell.state.environment["LC_ALL"] = nil }
        return shell
    }
}

/// tree draws and escapes as tree(1) does in the locale the shell's variables name.
@Suite(
    .enabled(if: RealTree.isUsable, "needs /usr/bin/tree and the C.UTF-8 locale"),
    .needsLocalFileSystem("tree(1) reads the fixture from disk"))
struct TreeLocaleTests {
    /// Names in UTF-8 (é, Japanese), one that is not (`\xfe`), and names tree escapes in the C
    /// locale only (a space, a backslash):
    ///
    ///     a b  back\slash  bad\xfename  tab<TAB>here  é  .hidé  diré/inner  diré/日本語/ファイル.txt
    ///     linké -> é  dangling -> 日本x
    private func makeFixture(_ locale: LocaleRow) throws -> TestShell {
        let shell = locale.shell()
        for name in ["a b", "back\\slash", "tab\there", "é", ".hidé", "diré/inner", "diré/日本語/ファイル.txt"] {
            try shell.write(name)
        }
        try shell.directory.file.appending(name: Array("bad".utf8) + [0xFE] + Array("name".utf8)).createFile()
        try shell.path("linké").makeSymlink(to: "é")
        try shell.path("dangling").makeSymlink(to: "日本x")
        return shell
    }

    @Test(
        arguments: LocaleRow.rows,
        [[], ["-a"], ["-f"], ["-d"], ["-s", "--dirsfirst"], ["-L", "1"], ["-f", "diré"], ["--noreport", "diré/日本語"]])
    func matchesTree(_ locale: LocaleRow, _ arguments: [String]) throws {
        let shell = try makeFixture(locale)
        let expected = try RealTree.run(arguments, in: shell.directory.file, locale: locale.variables)
        let result = shell.run(ReferenceTool.commandLine("tree", arguments))
        #expect(shell.stdout.contents == expected.stdout, "\(locale.name) tree \(arguments)")
        #expect(result.status.code == expected.status, "\(locale.name) tree \(arguments)")
    }

    /// JSON is not drawn: tree(1) writes the same names in every locale, and so does shelf.
    @Test func jsonIsTheSameInEveryLocale() throws {
        let shell = try makeFixture(LocaleRow.rows[0])
        let treeInC = try RealTree.run(["-J"], in: shell.directory.file, locale: ["LC_ALL": "C"]).stdout
        #expect(try RealTree.run(["-J"], in: shell.directory.file, locale: utf8Locale).stdout == treeInC)
        // Listing a directory changes its access time, so that is left out of the comparison.
        func listed() -> String { shell.run("tree -J").stdout.replacing(/"accessed":"[^"]*",/, with: "") }
        let inC = listed()
        shell.state.environment.set("LC_ALL", "C.UTF-8")
        #expect(listed() == inC)
        #expect(inC.contains("\"name\":\"é\""))
    }
}

/// Runs /usr/bin/tree.
enum RealTree {
    static let path = "/usr/bin/tree"

    /// Whether tree is installed and draws with UTF-8 lines under LC_ALL=C.UTF-8.
    static let isUsable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: path) else { return false }
        let probe = TemporaryDirectory()
        defer { probe.remove() }
        do {
            try (probe.file + "x").createFile()
            return String(decoding: try run([], in: probe.file).stdout, as: UTF8.self).contains("└── x")
        } catch {
            return false
        }
    }()

    /// tree's standard output and exit status for `arguments` in `directory`, with the locale
    /// variables `locale` (the others unset) and the other variables `environment`.
    static func run(
        _ arguments: [String], in directory: File, locale: [String: String] = utf8Locale,
        environment: [String: String] = [:]
    ) throws -> (stdout: [UInt8], status: Int32) {
        waitForTheCoarseClock()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory.string)
        process.environment = ["PATH": "/usr/bin:/bin"].merging(locale) { $1 }.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ([UInt8](data), process.terminationStatus)
    }

    /// Waits until time(2) has reached the second the precise clock is in. tree(1) writes a
    /// time later than time(2) as a future one (with the year), and time(2) reads the kernel's
    /// coarse clock, which lags the clock files are stamped from by up to a tick: a file made
    /// just before tree runs could show as made in the future (seen in 8 of 3,000 runs of
    /// `tree -D` right after a write), where shelf, reading the precise clock, shows it as recent.
    private static func waitForTheCoarseClock() {
        var precise = timespec()
        clock_gettime(CLOCK_REALTIME, &precise)
        while time(nil) < precise.tv_sec { usleep(200) }
    }
}

/// `tree --fromfile` against tree(1) on the same listing, in both locales.
@Suite(
    .enabled(if: RealTree.isUsable, "needs /usr/bin/tree and the C.UTF-8 locale"),
    .needsLocalFileSystem("tree(1) reads the fixture from disk"))
struct TreeFromFileTests {
    static let listing = "a/b/c.txt\na/d.txt\ne\na/b/\nz/y\n/abs/p\n./dot/x\na//f\n.hidden/x\nsp ace\nB\n_u\n日本/語\n"

    @Test(
        arguments: [
            ["--fromfile", "list.txt"], ["--fromfile", "-d", "list.txt"], ["--fromfile", "missing"],
            ["-L", "1", "-f", "--noreport", "--fromfile", "list.txt"], ["-P", "*.txt", "--fromfile", "list.txt"],
            ["--dirsfirst", "--fromfile", "list.txt"], ["-L", "2", "--fromfile", "list.txt", "list.txt"],
        ], [["LC_ALL": "C"], utf8Locale])
    func matchesTree(_ arguments: [String], _ locale: [String: String]) throws {
        let shell = TestShell(environment: locale)
        try shell.write("list.txt", Self.listing)
        let expected = try RealTree.run(arguments, in: shell.directory.file, locale: locale)
        let result = shell.run(ReferenceTool.commandLine("tree", arguments))
        #expect(Array(result.stdout.utf8) == expected.stdout, "tree \(arguments)")
        #expect(result.status.code == expected.status, "tree \(arguments)")
    }

    @Test("-I leaves out matching names, directories with what is below them")
    func ignorePatterns() throws {
        let shell = TestShell(environment: utf8Locale)
        try shell.write("list.txt", "a/b/c.txt\na/d.txt\n")
        #expect(shell.run("tree -I b --fromfile list.txt").stdout == "list.txt\n└── a\n    └── d.txt\n\n2 directories, 1 file\n")
    }
}
