import PathModel
import Testing

@testable import ShellCore

/// How `ls` orders and writes names: version order (`-v`), the quoting styles (`-Q -N -b -q
/// --quoting-style`, `QUOTING_STYLE`), against GNU ls on twin fixtures.
@Suite struct LsNameTests {
    /// Names that version order and every quoting style treat in their own ways, all with the
    /// same old time so that long listings show the same dates.
    static func makeFixture(_ shell: TestShell) throws {
        let names = [
            "a1", "a01", "a1.5", "a1.10", ".a", "~", "foo.tar.gz", "foo-1.0-rc1", "a10", "a2", "b c", "it's",
            "new\nline", "tab\tx", "dq\"x", "back\\slash", "é", "\u{1}ctl", "x:y", "at@x", "st*r", "eq=x", "pi|x",
            "-dash", "#x", "{", "both'\"x", "del\u{7F}", "it's(", "\u{1}it's\u{1}", "it's@", "~it's", "x\u{7}",
        ]
        for name in names { try shell.write(name, "x") }
        try shell.directory.file.appending(name: Array("caf".utf8) + [0xE9]).write(text: "")
        try shell.write("d:z/p q", "")
        try shell.write("sp ace/in\nner", "")
        try shell.path("ln k").makeSymlink(to: "new\nline")
        try shell.path("arrow").makeSymlink(to: "b c")
        try shell.path("at@link").makeSymlink(to: "st*r")
        let all =
            names + ["caf\u{E9}", "d:z/p q", "d:z", "sp ace/in\nner", "sp ace", "ln k", "arrow", "at@link", "."]
        for name in all where name != "caf\u{E9}" { try shell.setTime(name, 1_577_934_245) }
        let time = Timestamp(seconds: 1_577_934_245, nanoseconds: 0)
        try shell.directory.file.appending(name: Array("caf".utf8) + [0xE9]).setTimes(
            access: time, modification: time, followSymlinks: false)
    }

    static let comparisonRows: [(String, [String], [String: String])] = [
        ("-v", ["-v"], [:]),
        ("-v reversed", ["-vr"], [:]),
        ("-v with hidden names", ["-va"], [:]),
        ("-v long", ["-lv"], [:]),
        ("--sort=version", ["--sort=version"], [:]),
        ("--sort=v", ["--sort=v"], [:]),
        ("operands in version order", ["-vd", "a10", "a2", "a1", "a01", "~"], [:]),
        ("-U after -v", ["-v", "-U", "-d", "a10", "a2"], [:]),
        ("-t after -v", ["-v", "-t"], [:]),
        ("-v after -S", ["-S", "-v"], [:]),
        ("-Q", ["-Q"], [:]),
        ("--quote-name", ["--quote-name", "-l"], [:]),
        ("-b", ["-b"], [:]),
        ("--escape long", ["--escape", "-l"], [:]),
        ("-N", ["-N"], [:]),
        ("-q", ["-q"], [:]),
        ("--hide-control-chars long", ["--hide-control-chars", "-l"], [:]),
        ("literal", ["--quoting-style=literal"], [:]),
        ("locale", ["--quoting-style=locale"], [:]),
        ("clocale", ["--quoting-style=clocale"], [:]),
        ("shell", ["--quoting-style=shell"], [:]),
        ("shell-always", ["--quoting-style=shell-always"], [:]),
        ("shell-escape", ["--quoting-style=shell-escape"], [:]),
        ("shell-escape-always", ["--quoting-style=shell-escape-always"], [:]),
        ("c", ["--quoting-style=c"], [:]),
        ("c-maybe", ["--quoting-style=c-maybe"], [:]),
        ("escape", ["--quoting-style=escape"], [:]),
        ("an abbreviation", ["--quoting-style=shell-escape-a"], [:]),
        ("shell with -q", ["--quoting-style=shell", "-q"], [:]),
        ("shell-always with -q", ["--quoting-style=shell-always", "-q"], [:]),
        ("c with -q", ["-Qq"], [:]),
        ("shell-escape long, aligned", ["--quoting-style=shell-escape", "-l"], [:]),
        ("shell long", ["--quoting-style=shell", "-l"], [:]),
        ("c-maybe long", ["--quoting-style=c-maybe", "-l"], [:]),
        ("shell-escape in columns", ["--quoting-style=shell-escape", "-C", "-w", "70"], [:]),
        ("c-maybe in columns", ["--quoting-style=c-maybe", "-C", "-w", "70"], [:]),
        ("escape in columns", ["-b", "-C", "-w", "70"], [:]),
        ("shell in columns without a width", ["--quoting-style=shell", "-C", "-w", "0"], [:]),
        ("literal in columns", ["-N", "-C", "-w", "70"], [:]),
        ("-q in columns", ["-q", "-C", "-w", "70"], [:]),
        ("headers, shell", ["-R", "--quoting-style=shell"], [:]),
        ("headers, escape", ["-R", "-b"], [:]),
        ("headers, c", ["-R", "-Q"], [:]),
        ("headers, locale", ["-R", "--quoting-style=locale"], [:]),
        ("headers, literal with -q", ["-R", "-q"], [:]),
        ("headers of operands", ["--quoting-style=shell-escape", "d:z", "sp ace"], [:]),
        ("-F quotes its indicators, c", ["-F", "-Q"], [:]),
        ("-F quotes its indicators, shell-escape", ["-F", "--quoting-style=shell-escape"], [:]),
        ("--file-type quotes *, escape", ["--file-type", "-b"], [:]),
        ("-p quotes none", ["-p", "--quoting-style=shell-escape"], [:]),
        ("-lF targets", ["-lF", "--quoting-style=shell-escape"], [:]),
        ("targets, escape", ["-l", "-b", "ln k", "arrow", "at@link"], [:]),
        ("targets, -q", ["-lq", "ln k"], [:]),
        ("the last of -Q and -N", ["-Q", "-N"], [:]),
        ("the last of -N and -Q", ["-N", "-Q"], [:]),
        ("--quoting-style after -b", ["-b", "--quoting-style=shell"], [:]),
        ("-b after --quoting-style", ["--quoting-style=c", "-b"], [:]),
        ("--show-control-chars after -q", ["-q", "--show-control-chars"], [:]),
        ("-q after --show-control-chars", ["--show-control-chars", "-q"], [:]),
        ("QUOTING_STYLE", [], ["QUOTING_STYLE": "c"]),
        ("QUOTING_STYLE abbreviated", [], ["QUOTING_STYLE": "shell-escape-al"]),
        ("QUOTING_STYLE under an option", ["-N"], ["QUOTING_STYLE": "c"]),
        ("a bad QUOTING_STYLE is ignored", [], ["QUOTING_STYLE": "bogus"]),
        ("an ambiguous QUOTING_STYLE", ["-l"], ["QUOTING_STYLE": "sh"]),
        ("a bad QUOTING_STYLE under an option is not read", ["-b"], ["QUOTING_STYLE": "bogus"]),
    ]

    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: comparisonRows)
    func matchesGNULs(_ name: String, _ arguments: [String], _ environment: [String: String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell(environment: ["TZ": "UTC"].merging(environment) { $1 })
        try Self.makeFixture(shell)
        try shell.expectSameAsGNU("ls", arguments, environment: environment, name)
    }

    static let utf8Rows: [(String, [String])] = [
        ("shell-escape", ["--quoting-style=shell-escape"]), ("locale's quotes", ["--quoting-style=locale"]),
        ("clocale's quotes", ["--quoting-style=clocale"]), ("-q", ["-q"]), ("c", ["-Q"]), ("escape", ["-b"]),
    ]

    /// In a UTF-8 locale `é` is printable and `locale` quotes with `‘’`.
    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: utf8Rows)
    func matchesGNULsInAUTF8Locale(_ name: String, _ arguments: [String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls"), File(path: "/usr/lib/locale/C.utf8").exists else { return }
        let shell = TestShell(environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"])
        try Self.makeFixture(shell)
        try shell.write("it’s", "")
        try shell.expectSameAsGNU("ls", arguments, environment: ["LC_ALL": "C.UTF-8"], name)
    }

    static let terminalRows: [(String, [String], String?)] = [
        ("the defaults", [], nil),
        ("long", ["-l"], nil),
        ("-N hides control characters", ["-N"], nil),
        ("-N long", ["-lN"], nil),
        ("--show-control-chars", ["-N", "--show-control-chars"], nil),
        ("shell hides them too", ["--quoting-style=shell"], nil),
        ("shell-always", ["--quoting-style=shell-always", "-l"], nil),
        ("escape", ["-b"], nil),
        ("c long", ["-Ql"], nil),
        ("recursive", ["-R", "-N"], nil),
        ("QUOTING_STYLE", [], "literal"),
        ("QUOTING_STYLE long", ["-l"], "c"),
    ]

    /// On a terminal GNU's defaults differ: `shell-escape` and `-q` (given to GNU ls on a pipe
    /// before the row's options, or the style `QUOTING_STYLE` names).
    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: terminalRows)
    func matchesGNULsOnATerminal(_ name: String, _ arguments: [String], _ variable: String?) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell(environment: ["TZ": "UTC"])
        if let variable { shell.state.environment.set("QUOTING_STYLE", variable) }
        try Self.makeFixture(shell)
        let terminal = ["-C", "-q", "-w", "60", "--quoting-style=" + (variable ?? "shell-escape")]
        let expected = try ReferenceTool.run("/usr/bin/ls", terminal + arguments, in: shell.directory.file)
        let actual = shell.runOnTerminal(ReferenceTool.commandLine("ls", arguments), width: 60)
        #expect(actual.stdout == expected.stdout, "\(name)")
        #expect(actual.status == expected.status, "\(name)")
    }

    static let barePathRows: [[String]] = [
        ["-v"], ["--sort=version"], ["-Q"], ["-b"], ["-q"], ["--quoting-style=shell"],
        ["--quoting-style=locale"],
    ]

    /// A plain listing on a pipe writes names byte for byte without examining them; each of
    /// these options changes the names or their order, so it must not go that way.
    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: barePathRows)
    func optionsThatChangeNamesLeaveTheBarePath(_ arguments: [String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell()
        try Self.makeFixture(shell)
        let plain = shell.run("ls").stdout
        let expected = try ReferenceTool.run("/usr/bin/ls", arguments, in: shell.directory.file)
        #expect(expected.stdout != plain, "\(arguments)")
        #expect(shell.run(ReferenceTool.commandLine("ls", arguments)).stdout == expected.stdout, "\(arguments)")
    }
}
