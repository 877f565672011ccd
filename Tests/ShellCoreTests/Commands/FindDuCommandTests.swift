@_spi(FaultInjection) import PathModel
import Testing

@testable import ShellCore

/// A tree with what find and du must get right: sizes, spaces, a name that is not UTF-8, hidden
/// entries, symlinks (to a directory, dangling), a hard link, empty files and directories, and
/// modification times on both sides of a reference file.
private func makeWalkFixture() throws -> TestShell {
    let shell = TestShell()
    try shell.write("top.txt", "top\n")
    try shell.write("src/main.c", String(repeating: "c", count: 3000))
    try shell.write("src/util.h", "h\n")
    try shell.write("src/deep/er/est.c", String(repeating: "d", count: 70_000))
    try shell.write("src/.hidden/x.txt", "x\n")
    try shell.write("sp ace/a b.txt", "ab\n")
    try shell.write("Docs/README.MD", String(repeating: "r", count: 1025))
    try shell.write("empty.txt")
    try shell.path("hollow").makeDirectory()
    try shell.path("src/hollow").makeDirectory()
    try shell.directory.file.appending(name: Array("raw-".utf8) + [0xFF, 0xFE]).createFile()
    try shell.path("to-src").makeSymlink(to: "src")
    try shell.path("dangling").makeSymlink(to: "nowhere")
    try shell.path("src/hard").makeHardLink(to: shell.path("src/deep/er/est.c"))
    for (name, seconds): (String, Int64) in [("top.txt", 1_000), ("src/main.c", 3_000), ("src/util.h", 5_000), ("Docs/README.MD", 7_000)] {
        try shell.setTime(name, seconds)
    }
    return shell
}

/// Files and directories for `find -delete` to remove: nested, empty, and a symlink to a directory.
private func makeDeleteFixture(_ root: File) throws {
    for name in ["src/main.c", "src/util.h", "src/deep/er/est.c", "hollow/inner/x.c", "top.txt"] {
        _ = try (root + name).parent.makeDirectory(intermediates: true)
        try (root + name).write(text: name)
    }
    _ = try (root + "empty/nested").makeDirectory(intermediates: true)
    try (root + "to-src").makeSymlink(to: File(path: "src"))
}

/// Runs one line in shelf and the same arguments through the GNU tool; the outputs must match.
private func compareWithGNU(_ tool: String, _ arguments: [String], in shell: TestShell) throws {
    let expected = try ReferenceTool.run("/usr/bin/" + tool, arguments, in: shell.directory.file)
    let result = shell.run(ReferenceTool.commandLine(tool, arguments))
    #expect(result.stdout == expected.stdout, "\(tool) \(arguments)")
    #expect(result.stderr == expected.stderr, "\(tool) \(arguments)")
    #expect(result.status == expected.status, "\(tool) \(arguments)")
}

@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/find"), "needs GNU find"))
struct FindCommandTests {
    static let argumentLists: [[String]] = [
        [], ["."], ["src", "Docs"], ["src/"], ["-name", "*.c"], ["-name", ".*"], ["-iname", "readme*"],
        ["-name", "[a-m]*"], ["-type", "d"], ["-type", "l"], ["-type", "f,l"], ["-maxdepth", "1"],
        ["-mindepth", "2"], ["-mindepth", "1", "-maxdepth", "2", "-type", "f"], ["-empty"],
        ["-type", "f", "-empty"], ["-size", "-1k"], ["-size", "+2"], ["-size", "3k"], ["-size", "0"],
        ["-size", "+100c"], ["-size", "1M"], ["-size", "-1M"], ["-newer", "src/main.c"],
        ["!", "-name", "*.c", "-type", "f"], ["-name", "*.c", "-o", "-name", "*.h"],
        ["(", "-name", "src", "-o", "-name", "Docs", ")", "-type", "d"],
        ["-name", "*.c", "-print", "-o", "-name", "*.h", "-print0"], ["-print0"],
        ["-not", "-type", "d", "-a", "-name", "t*"], ["-not", "-type", "d", "-and", "-name", "t*"],
        ["-name", "*.c", "-or", "-name", "*.h"], ["missing", "src/util.h"], ["to-src"], ["to-src/"],
        ["dangling", "-type", "l"], ["-newer", "missing"], ["-false"], ["-true", "-maxdepth", "0"],
        // Paths, numbers, owners and permissions.
        ["-path", "./src/*"], ["-path", "*deep*", "-type", "f"], ["-ipath", "*DOCS*"], ["-wholename", "./s*c"],
        ["-links", "2"], ["-links", "+1", "-type", "f"], ["-links", "-2"], ["-uid", "0"], ["-gid", "+0"],
        ["-user", "root"], ["-group", "root", "-type", "d"], ["-nouser"], ["-nogroup"], ["-perm", "644"],
        ["-perm", "-u+w"], ["-perm", "/o+w"], ["-perm", "/u+x,g+x"], ["-perm", "-0755", "-type", "d"],
        ["-perm", "u=rw,go=r"], ["-samefile", "src/hard"], ["-inum", "+1", "-name", "*.h"],
        ["-regex", ".*/s[a-z]*"], ["-iregex", ".*/S[A-Z]*\\.C"], ["-regex", "\\./src\\(/.*\\)?"],
        ["-regextype", "posix-extended", "-regex", ".*/(main|util)\\..", "-type", "f"],
        ["-regextype", "egrep", "-iregex", ".*README.+"], ["-regextype", "posix-basic", "-regex", ".*/e\\{1,2\\}.*"],
        ["-regex", ".*\\.c", "-o", "-regex", ".*\\.h"], ["-regex", ""],
        // Pruning, order, stopping, following, file systems.
        ["-name", "src", "-prune", "-o", "-print"], ["-name", "deep", "-prune"], ["-depth"],
        ["-depth", "-name", "*.c"], ["-d", "-maxdepth", "1"], ["-name", "*.c", "-quit"],
        ["-name", "*.c", "-print", "-quit"], ["-L", ".", "-name", "est.c"], ["-L", ".", "-type", "l"],
        ["-L", "to-src"], ["-H", "to-src"], ["-H", "dangling"], ["-P", "to-src"], ["to-src", "-follow"],
        ["-xdev", "-maxdepth", "1"], ["-mount", "-type", "d"],
        // What is printed, and how.
        ["-printf", #"%p|%f|%h|%P|%H|%d|%y|%Y|%m|%M|%n|%s|%k|%b|%l|%u|%g|%U|%G|%i|%D\n"#],
        ["src", "Docs/", "sp ace//", "-printf", #"[%-10f][%10s][%.3p][%5d]\t%%\n"#], ["-printf", #"a\cb\n"#],
        ["src", "-printf", #"\101\0\n"#],
        ["-type", "f", "-printf", #"%t|%T@|%TY-%Tm-%Td %TH:%TM:%TS|%Tk|%TA %Ta %TB %Tb %Th|%TD %Te %TF %TI %Tj|\n"#],
        ["-type", "f", "-printf", #"%Tl %Tp %Tr %TT %TU %Tw %TW %TX %Tx %Ty %Tz %T+ %Tc|%A@|%a\n"#],
        ["-ls"], ["src", "-name", "*.h", "-ls", "-o", "-print"], ["-name", "*.c", "-printf", "%f %h\\n"],
        // Programs.
        ["src", "-exec", "echo", "X", "{}", "x{}y", ";"], ["src", "-exec", "echo", "{}", "+"],
        ["src", "-name", "*.c", "-execdir", "echo", "in", "{}", ";"], ["-name", "*.c", "-execdir", "pwd", ";"],
        ["-name", "*.h", "-exec", "false", ";", "-o", "-print"], ["src", "-type", "f", "-exec", "false", "{}", "+"],
        ["src", "-exec", "test", "-d", "{}", ";", "-print"],
    ]

    @Test(.needsLocalFileSystem("GNU find reads the fixture from disk"), arguments: argumentLists)
    func matchesGNUfind(_ arguments: [String]) throws {
        let shell = try makeWalkFixture()
        try compareWithGNU("find", arguments, in: shell)
    }

    @Test(
        "Bad expressions get GNU find's message",
        arguments: [
            (["-foo"], "find: unknown predicate `-foo'"),
            (["-name"], "find: missing argument to `-name'"),
            (["-type", "q"], "find: Unknown argument to -type: q"),
            (["-maxdepth", "x"], "find: Expected a positive decimal integer argument to -maxdepth, but got 'x'"),
            (["-size", "3q"], "find: invalid -size type `q'"),
            (["-name", "a", "extra"], "find: paths must precede expression: `extra'"),
            (["(", "-name", "a"], "find: invalid expression; I was expecting to find a ')' somewhere but did not see one."),
            (["-user", "no-such-user"], "find: 'no-such-user' is not the name of a known user"),
            (["-group", "no-such-group"], "find: 'no-such-group' is not the name of an existing group"),
            (["-perm", "9"], "find: invalid mode '9'"),
            (["-mtime", "x"], "find: invalid argument `x' to `-mtime'"),
            (["-links", "-"], "find: invalid argument `-' to `-links'"),
            (["-exec", "echo"], "find: missing argument to `-exec'"),
            (["-exec", ";"], "find: missing argument to `-exec'"),
            (["-exec", "echo", "a{}b", "{}", "+"], "find: Only one instance of {} is supported with -exec ... +"),
            (["-printf", "%Q"], "find: unrecognized format directive `%Q'"),
            (["-regex", "\\("], "find: failed to compile regular expression '\\(': Unmatched ( or \\("),
            (
                ["-regextype", "posix-extended", "-regex", "("],
                "find: failed to compile regular expression '(': Unmatched ( or \\("
            ),
            (["-printf", "%Tq%"], "find: unrecognized format directive `%'"),
            (
                ["-prune", "-delete"],
                "find: The -delete action automatically turns on -depth, but -prune does nothing when -depth is "
                    + "in effect.  If you want to carry on anyway, just explicitly use the -depth option."
            ),
        ])
    func rejectsBadExpressions(_ arguments: [String], _ message: String) throws {
        let shell = try makeWalkFixture()
        let result = shell.run(ReferenceTool.commandLine("find", arguments))
        #expect(result.stderr == message + "\nTry 'help find' for more information.\n")
        #expect(result.status == .usage)
        #expect(result.stdout == "")
    }

    @Test(
        "Ages in days and minutes are counted as GNU find counts them",
        .needsLocalFileSystem("GNU find reads the fixture from disk"),
        arguments: [
            "-mtime 0", "-mtime -1", "-mtime +0", "-mtime 1", "-mtime +1", "-mtime 2", "-mtime -0.5",
            "-mmin 1", "-mmin -1", "-mmin +1", "-mmin 2", "-mmin -1.5", "-mmin +100", "-amin -100",
            "-atime +1", "-ctime 0", "-cmin -5",
        ])
    func ages(_ test: String) throws {
        let shell = TestShell()
        let now = Clock.now().seconds
        // Ages well inside their minute and day, so that the seconds between the two runs change nothing.
        for age: Int64 in [20, 75, 130, 3_600, 43_000, 100_000, 180_000, 260_000] {
            try shell.write("a\(age)")
            try shell.setTime("a\(age)", now - age)
        }
        try compareWithGNU("find", ["-type", "f"] + test.split(separator: " ").map(String.init), in: shell)
    }

    @Test(
        "-delete removes what the expression selects, a directory after its entries, as GNU find does",
        .needsLocalFileSystem("GNU find changes its twin on disk"),
        arguments: [
            "find -name '*.c' -delete", "find -delete", "find -type d -empty -delete", "find src -delete",
            "find hollow -delete -print", "find -depth -name src -delete", "find src -name deep -delete",
            "find -path './src/deep*' -delete -print",
        ])
    func deletes(_ line: String) throws {
        let run = try TwinRun(line, build: makeDeleteFixture, describe: { "\($0.kind) \($0.size)" })
        run.expectSame(line, "find -delete")
    }

    @Test(
        "-fprint, -fprint0 and -fprintf write into their file, created and emptied before the walk",
        .needsLocalFileSystem("GNU find writes its twin's file on disk"))
    func printsIntoFiles() throws {
        let line =
            "find src -fprint out.txt -name '*.c' -fprintf out2 '%f %s\\n'; find . -name '*.h' -fprint0 out3; "
            + "cat out.txt out2 out3"
        let run = try TwinRun(line, build: makeDeleteFixture, describe: { "\($0.kind) \($0.size)" })
        run.expectSame(line, "find -fprint")
        let failed = TestShell().run("find . -fprint missing/out")
        #expect(failed.stderr == "find: 'missing/out': No such file or directory\n")
        #expect(failed.status == .failure)
    }

    @Test("-exec and -execdir are refused, before the walk, where programs are", arguments: [
        (ProgramRefusal.root, "find -exec", "-exec echo {} ';'"), (.noPrograms, "find -execdir", "-execdir echo {} +"),
        (.readOnly, "find -exec", "-print -exec echo {} +"),
    ])
    func refusesPrograms(_ refusal: ProgramRefusal, _ shown: String, _ expression: String) throws {
        let shell = try makeWalkFixture()
        shell.state.programRefusal = refusal
        let result = shell.run("find . \(expression)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("shelf: \(shown): refused: "))
        #expect(result.status == .failure)
    }

    @Test func walksEveryEntryOfALargeTreeOnce() throws {
        let shell = TestShell()
        for directory in 0..<20 {
            for file in 0..<50 { try shell.write("d\(directory)/sub/f\(file)") }
        }
        let result = shell.run("find . -type f")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1000)
        #expect(Set(lines).count == 1000)
    }
}

@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/du"), "needs GNU du"))
struct DuCommandTests {
    static let argumentLists: [[String]] = [
        [], ["-s"], ["-a"], ["-c", "src", "Docs"], ["-h"], ["-sh", "src", "top.txt"], ["-d", "1"],
        ["--max-depth=0", "src"], ["--apparent-size"], ["--apparent-size", "-a", "src"], ["-ah"],
        ["src/"], ["-s", "src", "src/deep"], ["src/deep", "src"], ["missing", "src"], ["to-src"],
        ["-a", "to-src", "dangling"], ["-ac", "src/hard", "src/deep/er/est.c"],
        // Units, in the order given.
        ["-b"], ["-ab", "src"], ["-k", "-a", "src"], ["-m"], ["-h", "-k"], ["-k", "-h"], ["-b", "-k", "src"],
        ["-m", "--apparent-size", "-a"], ["--bytes", "-h", "src"],
        // Thresholds, NUL ends, inodes.
        ["-t", "4K"], ["-a", "-t", "-4K"], ["--threshold=70K", "-a"], ["-t", "1KB", "-a", "src"], ["-t", "2k", "-a"],
        ["-c", "-t", "1G", "src"], ["-ab", "-t", "3000", "src"], ["-t", "+3KiB", "-a", "src"], ["-t", "-1m"],
        ["-0", "-a", "src"], ["-0", "-c", "src", "Docs"], ["--null", "-s"],
        ["--inodes"], ["--inodes", "-a", "src"], ["--inodes", "-c", "-s", "src", "Docs"], ["--inodes", "-b", "src"],
        ["--inodes", "-t", "3", "-a"],
        // One file system, symlinks followed.
        ["-x"], ["-x", "-a", "src"], ["--one-file-system", "-s", "to-src"],
        ["-L", "src", "to-src"], ["-L", "-s", "to-src"], ["-aL", "src"], ["-L", "-P", "-a"], ["--dereference", "to-src/"],
        // Exclusions.
        ["--exclude=*.c"], ["--exclude=*.c", "-a"], ["--exclude=deep", "-a", "src"], ["--exclude=src", "src", "Docs"],
        ["--exclude=er/est.c", "-a", "src"], ["--exclude=.hidden", "--exclude", "hollow", "-a"],
        ["--exclude=src/*", "-a"], ["--exclude=s?c", "-c", "src", "Docs"], ["--exclude=hard", "-a", "src"],
    ]

    @Test(.needsLocalFileSystem("GNU du reads the fixture from disk"), arguments: argumentLists)
    func matchesGNUdu(_ arguments: [String]) throws {
        let shell = try makeWalkFixture()
        try compareWithGNU("du", arguments, in: shell)
    }

    static let unitLinkAndTimeRows: [[String]] = [
        // Units of -B and --si, in the order given with the others.
        ["-B", "1000"], ["-BK", "-a", "src"], ["--block-size=1M", "-a"], ["-B", "KB", "src"], ["-B", "KiB", "-s"],
        ["--si"], ["--si", "-a", "src"], ["-B", "human-readable", "src"], ["-h", "-B", "1K"], ["-B", "1K", "-h"],
        ["-b", "-B", "2", "src"], ["-B", "2", "-b", "src"], ["-B", "512", "--apparent-size", "-a", "src"],
        ["--inodes", "-BK", "src"], ["--inodes", "--si", "-s"], ["-B1M", "-c", "-t", "1K", "src", "Docs"],
        // Directories without their subdirectories.
        ["-S"], ["-Sc"], ["-sS", "src"], ["-Sa", "src"], ["-S", "--max-depth=1"], ["--separate-dirs", "-c", "src", "Docs"],
        ["-S", "--inodes"],
        // Hard links (and directories met again) counted each time.
        ["-l"], ["-la", "src"], ["-l", "src", "src"], ["-lc", "src/hard", "src/deep/er/est.c"], ["--count-links", "-s"],
        ["-l", "-L", "-s", "src", "to-src"],
        // Symlinks named as operands followed.
        ["-D", "to-src"], ["-H", "to-src", "src"], ["--dereference-args", "-a", "to-src"], ["-D", "-a"],
        ["-L", "-D", "-a"], ["-D", "-L", "-s", "src", "to-src"], ["-D", "-P", "to-src"], ["-Dc", "src", "to-src"],
        // The newest time below each line.
        ["--time"], ["--time", "-a", "src"], ["--time=ctime", "-s"], ["--time=status", "-a", "Docs"],
        ["--time=atime", "top.txt", "src/main.c"], ["--time", "--time-style=full-iso", "-a", "src"],
        ["--time", "--time-style=iso", "-c", "src", "Docs"], ["--time", "--time-style=long-iso", "-s"],
        ["--time", "--time-style=+%s %N %%"], ["--time-style=bogus", "-s"], ["--time", "-S"], ["--time", "-d", "1"],
        ["--time", "-0", "-s"], ["--time=use", "--time", "-s"],
    ]

    @Test(.needsLocalFileSystem("GNU du reads the fixture from disk"), arguments: unitLinkAndTimeRows)
    func matchesGNUduWithUnitsLinksAndTimes(_ arguments: [String]) throws {
        let shell = try makeWalkFixture()
        shell.state.environment.set("TZ", "UTC")
        try compareWithGNU("du", arguments, in: shell)
    }

    @Test(
        "A dangling symlink named with -D is reported with its reason (GNU 9.1 leaves the reason out)",
        .needsLocalFileSystem("the fixture's symlinks are on disk"), arguments: ["-D", "-H", "--dereference-args"])
    func aDanglingOperandIsReported(_ option: String) throws {
        let shell = try makeWalkFixture()
        let result = shell.run("du \(option) to-src dangling")
        #expect(result.stderr == "du: cannot access 'dangling': No such file or directory\n")
        #expect(result.stdout.hasSuffix("\tto-src\n"))
        #expect(result.status == .failure)
    }

    @Test(
        "-L reports a symlink that leads nowhere and counts the rest as GNU du, giving the reason GNU 9.1 leaves out",
        .needsLocalFileSystem("GNU du reads the fixture from disk"),
        arguments: [["-L", "-a"], ["-L"], ["-L", "-s"], ["-L", "-ac"], ["-L", "-a", "--exclude=src"], ["-aL", "."]])
    func aDanglingSymlinkIsReportedWhenFollowing(_ arguments: [String]) throws {
        let shell = try makeWalkFixture()
        let expected = try ReferenceTool.run("/usr/bin/du", arguments, in: shell.directory.file)
        let result = shell.run(ReferenceTool.commandLine("du", arguments))
        #expect(result.stdout == expected.stdout, "du \(arguments)")
        let withReasons = expected.stderr.split(separator: "\n").map { $0 + ": No such file or directory\n" }.joined()
        #expect(result.stderr == withReasons, "du \(arguments)")
        #expect(result.stderr.contains("dangling'"), "du \(arguments)")
        #expect(result.status == expected.status, "du \(arguments)")
    }

    static let variableRows: [(String, [String: String], [String])] = [
        ("DU_BLOCK_SIZE", ["DU_BLOCK_SIZE": "1000"], []),
        ("DU_BLOCK_SIZE before BLOCK_SIZE", ["DU_BLOCK_SIZE": "1M", "BLOCK_SIZE": "1"], ["-s"]),
        ("BLOCK_SIZE with a unit alone", ["BLOCK_SIZE": "K"], ["-a", "src"]),
        ("BLOCK_SIZE before BLOCKSIZE", ["BLOCK_SIZE": "1000", "BLOCKSIZE": "1"], ["-s"]),
        ("BLOCKSIZE", ["BLOCKSIZE": "512"], []),
        ("POSIXLY_CORRECT", ["POSIXLY_CORRECT": "1"], []),
        ("a value that is no SIZE", ["DU_BLOCK_SIZE": "x"], ["-s"]),
        ("-k over the variable", ["DU_BLOCK_SIZE": "1M"], ["-k"]),
        ("BLOCK_SIZE=human-readable", ["BLOCK_SIZE": "human-readable"], ["-a"]),
        ("TIME_STYLE", ["TIME_STYLE": "full-iso"], ["--time"]),
        ("TIME_STYLE with posix-", ["TIME_STYLE": "posix-iso"], ["--time", "-s"]),
        ("TIME_STYLE=locale is long-iso", ["TIME_STYLE": "locale"], ["--time", "-s"]),
        ("TIME_STYLE of two formats gives the first", ["TIME_STYLE": "+%Y\n%m"], ["--time", "-a", "src"]),
        ("--time-style over TIME_STYLE", ["TIME_STYLE": "bogus"], ["--time", "--time-style=iso"]),
        ("TIME_STYLE without --time", ["TIME_STYLE": "bogus"], ["-s"]),
    ]

    @Test(.needsLocalFileSystem("GNU du reads the fixture from disk"), arguments: variableRows)
    func readsTheVariablesAsGNUdu(_ name: String, _ variables: [String: String], _ arguments: [String]) throws {
        let shell = try makeWalkFixture()
        shell.state.environment.set("TZ", "UTC")
        for (variable, value) in variables { shell.state.environment.set(variable, value) }
        let expected = try ReferenceTool.run(
            "/usr/bin/du", arguments, in: shell.directory.file, environment: variables)
        let result = shell.run(ReferenceTool.commandLine("du", arguments))
        #expect(result.stdout == expected.stdout, "\(name)")
        #expect(result.stderr == expected.stderr, "\(name)")
        #expect(result.status == expected.status, "\(name)")
    }

    @Test(
        "-X reads patterns from a file, one a line", .needsLocalFileSystem("GNU du reads the fixture from disk"),
        arguments: [["-a"], ["-a", "src"], ["-s", "--exclude=Docs"]])
    func excludesPatternsFromAFile(_ arguments: [String]) throws {
        let shell = try makeWalkFixture()
        let patterns = TemporaryDirectory(onLocalDisk: true)
        defer { patterns.remove() }
        try (patterns.file + "patterns").write(text: "*.h\nest.c\n\nhollow\n")
        try compareWithGNU("du", ["-X", (patterns.file + "patterns").string] + arguments, in: shell)
        try compareWithGNU("du", ["--exclude-from=" + (patterns.file + "patterns").string] + arguments, in: shell)
    }

    /// Lists of names for `--files0-from`, written beside the fixture: NUL-ended names, an
    /// empty name, `-` (a file name in a list that is not standard input), an empty list, a
    /// lone NUL, a name twice, a missing name, no NUL after the last name.
    static let nameLists: [String: String] = [
        "list": "src\0Docs\0top.txt\0", "holes": "src\0\0Docs", "dash": "-\0src\0", "empty": "",
        "nul": "\0", "twice": "src\0src\0", "missing": "nowhere\0src\0", "open": "sp ace/a b.txt",
    ]

    @Test(
        "--files0-from takes the PATHs from a NUL-separated list, as GNU du",
        .needsLocalFileSystem("GNU du reads the fixture from disk"),
        arguments: [
            ["--files0-from=list"], ["-c", "--files0-from=list"], ["-s", "--files0-from=list"],
            ["-a", "--files0-from=list"], ["-0", "--files0-from=list"], ["--files0-from=holes"],
            ["-c", "--files0-from=holes"], ["--files0-from=dash"], ["--files0-from=empty"],
            ["-c", "--files0-from=empty"], ["--files0-from=nul"], ["--files0-from=twice"],
            ["-c", "--files0-from=missing"], ["-a", "--files0-from=open"], ["--files0-from=absent"],
            ["--files0-from=src"], ["--files0-from=dash", "--files0-from=list"],
        ])
    func readsThePathsFromAList(_ arguments: [String]) throws {
        let shell = try makeWalkFixture()
        let lists = TemporaryDirectory(onLocalDisk: true)
        defer { lists.remove() }
        for (name, text) in Self.nameLists { try (lists.file + name).write(text: text) }
        try (lists.file + "src").makeDirectory()
        // The lists' names, messages included, are the same absolute paths for both.
        let option = "--files0-from="
        let placed = arguments.map {
            $0.hasPrefix(option) ? option + lists.file.string + "/" + $0.dropFirst(option.count) : $0
        }
        try compareWithGNU("du", placed, in: shell)
    }

    @Test("PATHs and --files0-from together are a usage error, in GNU's words")
    func pathsAndAListTogether() throws {
        let twins = try TwinRun("du --files0-from=list src", build: { root in
            try (root + "list").write(text: "src\0")
            try (root + "src").makeDirectory()
        }) { _ in "" }
        let lines = { (text: String) in text.split(separator: "\n").prefix(2) }
        #expect(lines(twins.ours.stderr) == lines(twins.theirs.stderr))
        #expect(twins.ours.stdout.isEmpty && twins.theirs.stdout.isEmpty)
        #expect(twins.ours.status == .usage)
    }

    @Test(
        "A file that cannot be examined is reported, and the rest is counted",
        .needsLocalFileSystem("the fault is injected into the local volume's statx"),
        arguments: ["du -s src", "du -a src", "du src"])
    func aFileThatCannotBeExamined(_ line: String) throws {
        let shell = try makeWalkFixture()
        let plan = FaultPlan { call, path in call == .stat && path == "main.c" ? .permissionDenied : nil }
        let result = FaultPlan.$current.withValue(plan) { shell.run(line) }
        #expect(result.stderr == "du: cannot access 'src/main.c': Permission denied\n")
        #expect(result.status == .failure)
        func total(_ output: String) -> Int { Int(output.split(separator: "\n").last!.split(separator: "\t")[0])! }
        let whole = shell.run(line)
        let file = shell.run("du -s src/main.c")
        #expect(total(result.stdout) == total(whole.stdout) - total(file.stdout))
        #expect(!result.stdout.contains("main.c"))
    }

    @Test(
        "Bad options get GNU du's message",
        arguments: [
            (["-d", "x"], "du: invalid maximum depth 'x'"),
            (["-s", "-d", "2"], "du: warning: summarizing conflicts with --max-depth=2"),
            (["-sa"], "du: cannot both summarize and show all entries"),
            (["-t", "-0"], "du: invalid --threshold argument '-0'"),
            (["--threshold=1Q"], "du: invalid suffix in --threshold argument '1Q'"),
            (["--threshold=x"], "du: invalid --threshold argument 'x'"),
            (["--threshold=2b"], "du: invalid suffix in --threshold argument '2b'"),
            (["-B", "x"], "du: invalid --block-size argument 'x'"),
            (["--block-size=0"], "du: invalid --block-size argument '0'"),
            (["-B1Q"], "du: invalid suffix in --block-size argument '1Q'"),
            (
                ["--time=birth"],
                "du: invalid argument 'birth' for '--time'\nValid arguments are:\n  - 'atime', 'access', 'use'\n  - 'ctime', 'status'"
            ),
            (
                ["--time", "--time-style=locale"],
                "du: invalid argument 'locale' for 'time style'\nValid arguments are:\n  - 'full-iso'\n  - 'long-iso'\n  - 'iso'"
            ),
            (
                ["--time", "--time-style=posix-iso"],
                "du: invalid argument 'posix-iso' for 'time style'\nValid arguments are:\n  - 'full-iso'\n  - 'long-iso'\n  - 'iso'"
            ),
        ])
    func rejectsBadOptions(_ arguments: [String], _ message: String) throws {
        let shell = try makeWalkFixture()
        let result = shell.run(ReferenceTool.commandLine("du", arguments))
        #expect(result.stderr == message + "\nTry 'help du' for more information.\n")
        #expect(result.status == .usage)
    }
}
