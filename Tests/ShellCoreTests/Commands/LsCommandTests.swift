import Glibc
@_spi(FaultInjection) import PathModel
import Testing

@testable import ShellCore

/// What `ls`'s options parse to, for table rows.
struct LsOptions: Equatable, Sendable, CustomStringConvertible {
    var format: LsCommand.Format? = nil
    var hidden: LsCommand.Hidden = .skipped
    var sort: LsCommand.Sort = .name
    var reverse = false
    var classify: LsCommand.When = .never
    var color: LsCommand.When = .never
    var width: Int? = nil

    var description: String {
        "\(format.map { "\($0)" } ?? "auto") \(hidden) \(sort) r=\(reverse) F=\(classify) color=\(color) w=\(width.map(String.init) ?? "-")"
    }
}

extension LsOptions {
    /// The options a parsed command holds.
    init(_ command: LsCommand) {
        self.init(
            format: command.format, hidden: command.hidden, sort: command.sort, reverse: command.reverse,
            classify: command.classify, color: command.color, width: command.width)
    }
}

/// Builds a fixture with every kind of entry `ls` tells apart, with fixed times and sizes.
///
/// Times are relative to now (recent ones) or fixed in 2020 (old ones), so that GNU ls and shelf,
/// run on it moments apart, show the same dates. Directory times are set last.
func makeListingFixture(_ shell: TestShell) throws {
    let now = Clock.now().seconds
    let day: Int64 = 86_400
    try shell.write("a.txt", "hello")
    try shell.write("big.bin", String(repeating: "x", count: 5000))
    try shell.write("empty", "")
    try shell.write(".hidden", "h")
    try shell.write("b c", "space")
    try shell.write("it's", "quote")
    try shell.write("new\nline", "")
    try shell.write("tool", "#!/bin/sh\n")
    try shell.path("tool").setPermissions(0o755)
    try shell.write("suid", "s")
    try shell.path("suid").setPermissions(0o4755)
    try shell.write("d/x.txt", "x")
    try shell.write("d/y", "yy")
    try shell.write("d/.dot", "")
    try shell.write("d/sub/deep.txt", "deep")
    try shell.path("sub2").makeDirectory()
    try shell.path("tmpdir").makeDirectory()
    try shell.path("tmpdir").setPermissions(0o1777)
    try shell.path("link").makeSymlink(to: "a.txt")
    try shell.path("dangling").makeSymlink(to: "nowhere")
    try shell.path("dirlink").makeSymlink(to: "d")
    #expect(mkfifo(shell.path("pipe").string, 0o644) == 0)
    let files = [
        "a.txt", "big.bin", "empty", ".hidden", "b c", "it's", "new\nline", "tool", "suid", "d/x.txt", "d/y",
        "d/.dot", "d/sub/deep.txt", "link", "dangling", "dirlink", "pipe",
    ]
    for (index, name) in files.enumerated() { try shell.setTime(name, now - 10 * day + Int64(index) * 600) }
    try shell.setTime("empty", 1_577_934_245)
    try shell.setTime("b c", 1_577_934_245)
    for name in ["d/sub", "d", "sub2", "tmpdir", "."] { try shell.setTime(name, now - 3 * day) }
}

/// Runs `ls` with `arguments` on a fresh listing fixture, and GNU ls on the same fixture (in UTC,
/// for an xterm), and expects the same output, messages and status.
func expectListingSameAsGNU(
    _ arguments: [String], _ comment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
    guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
    let shell = TestShell(environment: ["TZ": "UTC", "TERM": "xterm"])
    try makeListingFixture(shell)
    try shell.expectSameAsGNU("ls", arguments, environment: ["TERM": "xterm"], comment, sourceLocation: sourceLocation)
}

@Suite struct LsCommandTests {
    static let parsingRows: [(String, [String], LsOptions)] = [
        ("no options", [], LsOptions()),
        ("-1 after -l leaves it long, as in GNU ls", ["-l1"], LsOptions(format: .long)),
        ("-l after -1 wins", ["-1", "-l"], LsOptions(format: .long)),
        ("-C forces columns", ["-C"], LsOptions(format: .columns)),
        ("-A after -a wins", ["-a", "-A"], LsOptions(hidden: .almostAll)),
        ("-a after -A wins", ["-Aa"], LsOptions(hidden: .all)),
        ("-S after -t wins", ["-tS"], LsOptions(sort: .size)),
        ("-t after -S wins", ["-S", "-t"], LsOptions(sort: .time)),
        ("-r reverses", ["-r"], LsOptions(reverse: true)),
        ("--color alone is always", ["--color"], LsOptions(color: .always)),
        ("--color=auto", ["--color=auto"], LsOptions(color: .terminal)),
        ("--color=if-tty", ["--color=if-tty"], LsOptions(color: .terminal)),
        ("--color=none", ["--color=none"], LsOptions(color: .never)),
        ("an abbreviation", ["--color=alw"], LsOptions(color: .always)),
        ("an abbreviation of words meaning the same", ["--color=n"], LsOptions(color: .never)),
        ("-F", ["-F"], LsOptions(classify: .always)),
        ("--classify=auto", ["--classify=auto"], LsOptions(classify: .terminal)),
        ("-w", ["-w", "40"], LsOptions(width: 40)),
        ("--width=0", ["--width=0"], LsOptions(width: 0)),
        (
            "everything", ["-lAtrF", "--color=never"],
            LsOptions(format: .long, hidden: .almostAll, sort: .time, reverse: true, classify: .always)
        ),
    ]

    @Test(arguments: parsingRows)
    func parsesOptions(_ name: String, _ arguments: [String], _ expected: LsOptions) throws {
        let command = try LsCommand.parse(arguments.map(Argument.init))
        #expect(LsOptions(command) == expected, "\(name)")
    }

    static let usageErrorRows: [(String, [String], String)] = [
        (
            "unknown colour word", ["--color=bogus"],
            "invalid argument 'bogus' for '--color'\nValid arguments are:\n  - 'always', 'yes', 'force'\n  - 'never', 'no', 'none'\n  - 'auto', 'tty', 'if-tty'"
        ),
        (
            "ambiguous colour word", ["--color=a"],
            "ambiguous argument 'a' for '--color'\nValid arguments are:\n  - 'always', 'yes', 'force'\n  - 'never', 'no', 'none'\n  - 'auto', 'tty', 'if-tty'"
        ),
        ("width not a number", ["-w", "x"], "invalid line width: 'x'"),
        ("negative width", ["--width=-1"], "invalid line width: '-1'"),
        ("unknown option", ["-Z"], "invalid option -- 'Z'"),
        (
            "unknown sort word", ["--sort=bogus"],
            "invalid argument 'bogus' for '--sort'\nValid arguments are:\n  - 'none'\n  - 'time'\n  - 'size'\n  - 'extension'\n  - 'version'\n  - 'width'"
        ),
        (
            "an empty word abbreviates them all", ["--sort="],
            "ambiguous argument '' for '--sort'\nValid arguments are:\n  - 'none'\n  - 'time'\n  - 'size'\n  - 'extension'\n  - 'version'\n  - 'width'"
        ),
        (
            "an empty colour word", ["--color="],
            "ambiguous argument '' for '--color'\nValid arguments are:\n  - 'always', 'yes', 'force'\n  - 'never', 'no', 'none'\n  - 'auto', 'tty', 'if-tty'"
        ),
        (
            "an unknown quoting style", ["--quoting-style=bogus"],
            "invalid argument 'bogus' for '--quoting-style'\n" + quotingStyles
        ),
        ("an ambiguous quoting style", ["--quoting-style=sh"], "ambiguous argument 'sh' for '--quoting-style'\n" + quotingStyles),
        ("a tab size that is no number", ["-T", "x"], "invalid tab size: 'x'"),
        ("a negative tab size", ["--tabsize=-1"], "invalid tab size: '-1'"),
        (
            "an unknown format", ["--format=bogus"],
            "invalid argument 'bogus' for '--format'\nValid arguments are:\n  - 'verbose', 'long'\n  - 'commas'\n  - 'horizontal', 'across'\n  - 'vertical'\n  - 'single-column'"
        ),
        (
            "an unknown indicator style", ["--indicator-style=x"],
            "invalid argument 'x' for '--indicator-style'\nValid arguments are:\n  - 'none'\n  - 'slash'\n  - 'file-type'\n  - 'classify'"
        ),
    ]

    static let quotingStyles =
        "Valid arguments are:\n  - 'literal'\n  - 'shell'\n  - 'shell-always'\n  - 'shell-escape'\n  - 'shell-escape-always'\n  - 'c'\n  - 'c-maybe'\n  - 'escape'\n  - 'locale'\n  - 'clocale'"

    @Test(arguments: usageErrorRows)
    func rejectsBadOptions(_ name: String, _ arguments: [String], _ message: String) {
        let error = #expect(throws: UsageError.self, "\(name)") {
            try LsCommand.parse(arguments.map(Argument.init))
        }
        #expect(error.map(Diagnostics.render) == message, "\(name)")
    }

    // MARK: Against GNU ls

    static let comparisonRows: [[String]] = [
        [], ["-a", "d"], ["-A"], ["-l"], ["-la", "d"], ["-lA"], ["-F"], ["-lF"], ["-1F"], ["-R"], ["-lR"],
        ["-d", ".", "d", "a.txt"], ["-r"], ["-t"], ["-lt"], ["-ltr"], ["-S"], ["-lS"], ["-lSr"], ["-lh"],
        ["-lhS", "d", "big.bin"], ["missing", "a.txt", "d"], ["d", "a.txt"], ["d"], ["-C"],
        ["-C", "-w", "40"],
        ["-CF", "-w", "30"], ["-C", "-w", "0"], ["-C", "-w", "1"], ["--color=always"],
        ["-l", "--color=always"],
        ["-lF", "--color=always"], ["-C", "--color=always", "-w", "30"], ["-F", "--color=always", "-R"],
        ["--color=auto"], ["dirlink", "a.txt"], ["-l", "dirlink"], ["-F", "dirlink"], ["dirlink/"],
        ["-l", "dirlink/"],
        ["-d"], ["-ld"], ["-ld", "d", "dirlink", "pipe"], ["-R", "d", "sub2", "a.txt", "missing"], [""],
        ["-aR", "d"], ["-AR", "d/"], ["missing"], ["-l", "link", "dangling", "nothere"],
        ["-ltr", "--color=always", "d"],
        ["-lh", "--color=always", "-w", "20"], ["-1", "d", "-C", "sub2"],
        ["a.txt/"], ["missing/", "d/"], ["-l", "d/", "link/"], ["-ld", "dirlink/", "dangling/"],
        ["-X"], ["-Xr"], ["-lX", "d"], ["-XR"], ["--sort=extension", "-A"], ["--sort=size"],
        ["--sort=time", "-l"],
        ["--sort=ti"], ["--sort=none", "-d", "d", "a.txt", "sub2"], ["-U", "-d", "sub2", "a.txt"],
        ["-t", "-U"],
        ["-U"], ["-lU", "d"], ["-Ur"], ["--group-directories-first"], ["-l", "--group-directories-first"],
        ["--group-directories-first", "-F"], ["--group-directories-first", "-Sr"],
        ["--group-directories-first", "-R"],
        ["--group-directories-first", "d", "a.txt", "sub2"], ["-U", "--group-directories-first"],
        ["-I", "*.txt"], ["--ignore=d", "-R"],
        ["-a", "-I", "*"], ["-I", "b*", "-I", "d", "-l"], ["--hide=*.txt"], ["--hide=*.txt", "-A"],
        ["--hide=*", "-a"], ["-I", "x.txt", "d", "x.txt"], ["--hide", "s*", "--ignore", "t*"],
        ["-n"], ["-g", "d"], ["-o", "-a", "d"], ["-lG"], ["-og"], ["-nG"], ["-g", "-1"], ["-1", "-n"],
        ["-l", "-1"], ["-n", "-C"],
        ["--numeric-uid-gid", "-R"], ["--no-group", "-l", "pipe", "dangling"], ["-G"], ["-ho", "big.bin"],
        ["-i"], ["-s"], ["-1s"], ["-si", "d"], ["-ls"], ["-li"], ["-lsh"], ["-sh"], ["-Cs", "-w", "40"],
        ["-s", "a.txt", "d"], ["-isR"], ["-s", "-a", "d"], ["-ig"], ["--inode", "--size", "-F", "-C"],
        ["-s", "-l", "dangling", "nothere"], ["-1is", "--color=always"], ["-Ar"], ["-r", "d", "sub2"],
        ["-p"], ["-lp"], ["-p", "dirlink"], ["-pR"], ["--file-type"], ["-l", "--file-type"], ["-C", "-p", "-w", "40"],
        ["--indicator-style=slash"], ["--indicator-style=file-type", "-l"], ["--indicator-style=classify"],
        ["--indicator-style=none", "-F"], ["-F", "-p"], ["-p", "-F"], ["-p", "--classify=never"],
        ["-p", "--classify=auto"], ["-F", "--indicator-style=none"], ["-p", "--color=always"],
        ["--file-type", "dirlink", "pipe", "tool"], ["-ld", "--file-type", "dirlink/", "dangling"], ["-ps"],
        ["--indicator-style=sl", "-F", "--classify=never"],
        // The operands' columns are as wide as the directory operands' would be.
        ["-l", "a.txt", "d"], ["-li", "a.txt", "sub2"], ["-ls", "tool", "d", "dirlink"], ["-n", "pipe", "d"],
        ["-lh", "a.txt", "d"], ["-is", "a.txt", "d", "-C"],
    ]

    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: comparisonRows)
    func matchesGNULs(_ arguments: [String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell(environment: ["TZ": "UTC", "TERM": "xterm"])
        try makeListingFixture(shell)
        let expected = try ReferenceTool.run(
            "/usr/bin/ls", arguments, in: shell.directory.file, environment: ["TERM": "xterm"])
        let actual = shell.run(ReferenceTool.commandLine("ls", arguments))
        #expect(actual.stdout == expected.stdout, "ls \(arguments)")
        #expect(actual.stderr == expected.stderr, "ls \(arguments)")
        #expect(actual.status == expected.status, "ls \(arguments)")
    }

    static let terminalRows: [[String]] = [
        [], ["-l"], ["-F"], ["-lF"], ["-A"], ["-d", "d", "b c", "new\nline"], ["-R", "d"],
    ]

    /// On a terminal shelf quotes names as GNU's shell-escape style does and fills columns.
    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: terminalRows)
    func matchesGNULsOnATerminal(_ arguments: [String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell(environment: ["TZ": "UTC"])
        try makeListingFixture(shell)
        let gnuArguments = ["-C", "--quoting-style=shell-escape", "-w", "60"] + arguments
        let expected = try ReferenceTool.run("/usr/bin/ls", gnuArguments, in: shell.directory.file)
        let actual = shell.runOnTerminal(ReferenceTool.commandLine("ls", arguments), width: 60)
        #expect(actual.stdout == expected.stdout, "ls \(arguments)")
        #expect(actual.status == expected.status)
    }

    @Test func coloursAutomaticallyOnlyOnATerminalWithoutNoColor() throws {
        let shell = TestShell(environment: ["TERM": "xterm-256color"])
        try shell.path("d").makeDirectory(mode: 0o755)
        let escape = "\u{1B}[0m\u{1B}[01;34md\u{1B}[0m\n"
        #expect(shell.runOnTerminal("ls --color=auto").stdout == escape)
        #expect(shell.run("ls --color=auto").stdout == "d\n")
        #expect(shell.run("ls --color").stdout == escape)
        shell.state.environment.set("NO_COLOR", "1")
        #expect(shell.runOnTerminal("ls --color=auto").stdout == "d\n")
        #expect(shell.run("ls --color=always").stdout == escape)
    }

    static let terminalTypeRows: [(String, [String: String], Bool)] = [
        ("no TERM", [:], false),
        ("a dumb terminal", ["TERM": "dumb"], false),
        ("xterm", ["TERM": "xterm"], true),
        ("a colour terminal by name", ["TERM": "foot-256color"], true),
        ("tmux", ["TERM": "tmux-256color"], true),
        ("COLORTERM alone", ["COLORTERM": "truecolor"], true),
        ("an empty COLORTERM", ["COLORTERM": "", "TERM": "dumb"], false),
    ]

    /// Like GNU ls without `LS_COLORS`, even `--color=always` colours only for known terminals.
    @Test(arguments: terminalTypeRows)
    func coloursOnlyForColourTerminals(_ name: String, _ environment: [String: String], _ colours: Bool)
        throws
    {
        let shell = TestShell(environment: environment)
        try shell.path("d").makeDirectory()
        #expect(shell.run("ls --color=always").stdout.contains("\u{1B}[") == colours, "\(name)")
    }

    @Test(.needsLocalFileSystem("devices are the kernel's")) func devicesShowMajorAndMinorNumbers() throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell(environment: ["TZ": "UTC", "TERM": "xterm"])
        guard mknod(shell.path("null").string, S_IFCHR | 0o666, deviceNumber(major: 1, minor: 3)) == 0,
            mknod(shell.path("loop").string, S_IFBLK | 0o600, deviceNumber(major: 7, minor: 12)) == 0
        else { return }  // Creating device nodes needs privileges this machine does not give.
        try shell.write("file", String(repeating: "z", count: 123_456))
        for name in ["null", "loop", "file", "."] { try shell.setTime(name, 1_577_934_245) }
        for arguments in [["-l"], ["-lh"], ["-lF", "--color=always"], ["-F"]] {
            let expected = try ReferenceTool.run(
                "/usr/bin/ls", arguments, in: shell.directory.file, environment: ["TERM": "xterm"])
            #expect(
                shell.run(ReferenceTool.commandLine("ls", arguments)).stdout == expected.stdout,
                "\(arguments)")
        }
    }

    /// A coloured name that may wrap past the line width is followed by a clear-to-end-of-line.
    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"))
    func longColouredNamesClearTheLine() throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell(environment: ["TZ": "UTC", "TERM": "xterm"])
        let directory = String(repeating: "d", count: 100)
        try shell.path(directory).makeDirectory()
        try shell.write(String(repeating: "f", count: 70), "")
        try shell.path(String(repeating: "f", count: 70)).setPermissions(0o755)
        try shell.path(String(repeating: "l", count: 60)).makeSymlink(to: File(path: directory))
        for arguments in [
            ["--color=always"], ["-l", "--color=always"], ["-lF", "--color=always", "-w", "100"],
            ["-C", "--color=always", "-w", "50"],
        ] {
            let expected = try ReferenceTool.run(
                "/usr/bin/ls", arguments, in: shell.directory.file, environment: ["TERM": "xterm"])
            #expect(
                shell.run(ReferenceTool.commandLine("ls", arguments)).stdout == expected.stdout,
                "\(arguments)")
        }
    }

    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"))
    func wideCharactersTakeTwoColumns() throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls"), File(path: "/usr/lib/locale/C.utf8").exists else {
            return
        }
        let shell = TestShell(environment: ["LC_ALL": "C.UTF-8"])
        for name in ["日本語", "abc", "e\u{301}", "한국어 이름", "x", "emoji😀", "ｱｲｳ"] { try shell.write(name) }
        let expected = try ReferenceTool.run(
            "/usr/bin/ls", ["-C", "--quoting-style=shell-escape", "-w", "24"], in: shell.directory.file,
            environment: ["LC_ALL": "C.UTF-8"])
        #expect(shell.runOnTerminal("ls", width: 24).stdout == expected.stdout)
    }

    // MARK: Behaviour

    @Test func timeOrderBreaksTiesByName() throws {
        let shell = TestShell()
        for name in ["b", "a", "c", "old"] { try shell.write(name) }
        for name in ["b", "a", "c"] { try shell.setTime(name, 1_700_000_000) }
        try shell.setTime("old", 1_600_000_000)
        #expect(shell.run("ls -t").stdout == "a\nb\nc\nold\n")
        #expect(shell.run("ls -tr").stdout == "old\nc\nb\na\n")
    }

    @Test func sizeOrderIsLargestFirst() throws {
        let shell = TestShell()
        try shell.write("small", "1")
        try shell.write("large", "12345")
        try shell.write("tie-b", "12")
        try shell.write("tie-a", "12")
        #expect(shell.run("ls -S").stdout == "large\ntie-a\ntie-b\nsmall\n")
        #expect(shell.run("ls -Sr").stdout == "small\ntie-b\ntie-a\nlarge\n")
    }

    @Test func namesSortByBytesNotByText() throws {
        let shell = TestShell()
        for name in ["B", "a", "_", "é", "Z", "aa", "a-b", "10", "9"] { try shell.write(name) }
        #expect(shell.run("ls").stdout == "10\n9\nB\nZ\n_\na\na-b\naa\né\n")
    }

    @Test func namesThatAreNotUTF8ListAsTheirBytes() throws {
        let shell = TestShell()
        try shell.directory.file.appending(name: Array("caf".utf8) + [0xE9]).write(text: "")
        let stdout = OutputStream(capturingAsTerminal: false)
        let context = CommandContext(
            state: shell.state, stdout: stdout, stderr: OutputStream(), commandName: "ls")
        #expect(try LsCommand.parse([]).run(in: context) == .success)
        stdout.flush()
        #expect(stdout.contents == Array("caf".utf8) + [0xE9, 0x0A])
        #expect(shell.runOnTerminal("ls").stdout == "'caf'$'\\351'\n")
    }

    static let errorRows: [(String, String, String, ShellCore.ExitStatus)] = [
        (
            "a missing operand is serious", "ls missing",
            "ls: cannot access 'missing': No such file or directory\n", 2
        ),
        ("an empty operand names nothing", "ls ''", "ls: cannot access '': No such file or directory\n", 2),
        (
            "the others are still listed", "ls missing a",
            "ls: cannot access 'missing': No such file or directory\n", 2
        ),
        ("a file below a file", "ls a/x", "ls: cannot access 'a/x': Not a directory\n", 2),
        (
            "names are quoted as the shell would", "ls 'no such'",
            "ls: cannot access 'no such': No such file or directory\n", 2
        ),
    ]

    @Test(arguments: errorRows)
    func reportsErrors(_ name: String, _ line: String, _ message: String, _ status: ShellCore.ExitStatus)
        throws
    {
        let shell = TestShell()
        try shell.write("a")
        let result = shell.run(line)
        #expect(result.stderr == message, "\(name)")
        #expect(result.status == status, "\(name)")
    }

    @Test(.needsLocalFileSystem("faults are injected into syscalls"))
    func anUnreadableSubdirectoryIsAMinorFailure() throws {
        let shell = TestShell()
        try shell.write("top/inner/file")
        let inner = shell.path("top/inner").string
        // ls -R opens a subdirectory by its name in the open parent.
        let result = FaultPlan.$current.withValue(
            FaultPlan { call, path in
                call == .open && path == "inner" ? .permissionDenied : nil
            }
        ) { shell.run("ls -R top") }
        #expect(result.stdout == "top:\ninner\n")
        #expect(result.stderr == "ls: cannot open directory 'top/inner': Permission denied\n")
        #expect(result.status == 1)
        let direct = FaultPlan.$current.withValue(
            FaultPlan { call, path in
                call == .open && path == inner ? .permissionDenied : nil
            }
        ) { shell.run("ls top/inner") }
        #expect(direct.stderr == "ls: cannot open directory 'top/inner': Permission denied\n")
        #expect(direct.status == 2)
    }

    /// GNU ls shows a file it cannot examine with question marks and carries on (status 1).
    @Test(.needsLocalFileSystem("faults are injected into syscalls"))
    func aFileThatCannotBeExaminedShowsQuestionMarks() throws {
        let shell = TestShell(environment: ["TZ": "UTC"])
        try shell.write("d/a", "12345")
        try shell.write("d/x")
        let info = try shell.path("d/a").info()
        let owner = info.owner ?? String(info.userID)
        let group = info.group ?? String(info.groupID)
        let result = FaultPlan.$current.withValue(
            FaultPlan { call, path in call == .stat && path == "x" ? .permissionDenied : nil }
        ) { shell.run("ls -l d") }
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] == "total \(info.blocks / 2)")
        #expect(
            lines[2]
                == "-????????? ? ?\(String(repeating: " ", count: owner.count - 1)) ?\(String(repeating: " ", count: group.count - 1)) ?            ? x"
        )
        #expect(result.stderr == "ls: cannot access 'd/x': Permission denied\n")
        #expect(result.status == 1)
    }

    @Test func stopsWhenInterrupted() throws {
        let shell = TestShell()
        try shell.write("d/a")
        shell.state.isCancelled = { true }
        #expect(shell.run("ls -R d").status == .interrupted)
    }

    @Test func listsManyNamesInByteOrder() throws {
        let shell = TestShell()
        let directory = shell.path("many")
        try directory.makeDirectory()
        for index in 0..<2000 { try directory.appending(name: Array("f\(index)".utf8)).createFile() }
        let expected = (0..<2000).map { "f\($0)" }.sorted { bytesPrecede(Array($0.utf8), Array($1.utf8)) }
        #expect(shell.run("ls many").stdout == expected.joined(separator: "\n") + "\n")
    }
}
