import PathModel
import Testing

@testable import ShellCore

/// `ls`'s layouts (`-x -m --format -T --zero`) and `--sort=width`, against GNU ls on twin
/// fixtures: the listing fixture, and the names fixture of `LsNameTests`.
@Suite struct LsLayoutTests {
    static let comparisonRows: [(String, [String])] = [
        ("-x", ["-x"]),
        ("-x narrow", ["-x", "-w", "30"]),
        ("-x without a width", ["-x", "-w", "0"]),
        ("-x one column", ["-x", "-w", "1"]),
        ("-x with indicators", ["-xF", "-w", "40"]),
        ("-x with block counts", ["-xs", "-w", "50"]),
        ("-x with inodes and colours", ["-xi", "--color=always", "-w", "60"]),
        ("-x recursive", ["-xR", "-w", "40"]),
        ("-m", ["-m"]),
        ("-m narrow", ["-m", "-w", "20"]),
        ("-m without a width", ["-m", "-w", "0"]),
        ("-m with block counts", ["-ms"]),
        ("-m with inodes", ["-mi", "-w", "40"]),
        ("-m with indicators", ["-mF", "-w", "30"]),
        ("-m with colours", ["-m", "--color=always", "-w", "30"]),
        ("-m recursive", ["-mR"]),
        ("-m of operands", ["-m", "d", "a.txt", "big.bin"]),
        ("--format=across", ["--format=across"]),
        ("--format=horizontal", ["--format=horizontal", "-w", "40"]),
        ("--format=commas", ["--format=commas"]),
        ("--format=long", ["--format=long"]),
        ("--format=verbose", ["--format=verbose", "d"]),
        ("--format=single-column", ["--format=single-column", "-C"]),
        ("--format=vertical", ["--format=vertical"]),
        ("-m after -l", ["-l", "-m"]),
        ("-l after -m", ["-m", "-l"]),
        ("-1 after --format=long", ["--format=long", "-1"]),
        ("-1 after -x", ["-x", "-1"]),
        ("-C after -m", ["-m", "-C"]),
        ("-T 4", ["-C", "-T", "4", "-w", "60"]),
        ("-T 0", ["-C", "-T", "0", "-w", "60"]),
        ("--tabsize with -x", ["-x", "--tabsize=2", "-w", "60"]),
        ("-T in a long listing", ["-l", "-T", "3"]),
        ("--zero", ["--zero"]),
        ("--zero long", ["--zero", "-l"]),
        ("--zero long with links", ["--zero", "-l", "link", "dangling", "dirlink"]),
        ("--zero recursive", ["--zero", "-R"]),
        ("--zero then -C", ["--zero", "-C", "-w", "40"]),
        ("-C then --zero", ["-C", "--zero"]),
        ("--zero then -m", ["--zero", "-m", "-w", "30"]),
        ("--zero with operands", ["--zero", "d", "a.txt", "sub2"]),
        ("--zero has no colours", ["--color=always", "--zero", "-F"]),
        ("--zero shows names as they are", ["-q", "--zero"]),
        ("-q after --zero", ["--zero", "-q"]),
        ("--zero with -s", ["--zero", "-s"]),
        ("--sort=width", ["--sort=width"]),
        ("--sort=width reversed", ["--sort=width", "-r"]),
        ("--sort=width in columns", ["--sort=width", "-C", "-w", "50"]),
        ("--sort=width long", ["--sort=width", "-l"]),
        ("--sort=wi", ["--sort=wi", "-a"]),
    ]

    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: comparisonRows)
    func matchesGNULs(_ name: String, _ arguments: [String]) throws {
        try expectListingSameAsGNU(arguments, name)
    }

    static let quotedRows: [(String, [String])] = [
        ("-x, shell-escape", ["-x", "--quoting-style=shell-escape", "-w", "70"]),
        ("-x, c-maybe", ["-x", "--quoting-style=c-maybe", "-w", "70"]),
        ("-m, shell-escape", ["-m", "--quoting-style=shell-escape"]),
        ("-m, escape", ["-mb"]),
        ("--sort=width, c", ["--sort=width", "-Q"]),
        ("--sort=width, shell-escape", ["--sort=width", "--quoting-style=shell-escape"]),
        ("--sort=width, -q", ["--sort=width", "-q"]),
        ("--zero after -Q", ["-Q", "--zero"]),
        ("-Q after --zero", ["--zero", "-Q"]),
    ]

    /// Names that quoting widens and a `-q` narrows, laid out and sorted by width.
    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: quotedRows)
    func matchesGNULsWithQuotedNames(_ name: String, _ arguments: [String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell(environment: ["TZ": "UTC"])
        try LsNameTests.makeFixture(shell)
        let expected = try ReferenceTool.run("/usr/bin/ls", arguments, in: shell.directory.file)
        let actual = shell.run(ReferenceTool.commandLine("ls", arguments))
        #expect(actual.stdout == expected.stdout, "\(name)")
        #expect(actual.status == expected.status, "\(name)")
    }

    static let terminalRows: [[String]] = [["-x"], ["-m"], ["-x", "-N"], ["-m", "-F"], ["--zero"]]

    /// On a terminal too (GNU ls given the terminal's defaults on a pipe, then the row's options).
    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: terminalRows)
    func matchesGNULsOnATerminal(_ arguments: [String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell(environment: ["TZ": "UTC"])
        try LsNameTests.makeFixture(shell)
        let terminal = ["-C", "-q", "-w", "60", "--quoting-style=shell-escape"]
        let expected = try ReferenceTool.run("/usr/bin/ls", terminal + arguments, in: shell.directory.file)
        let actual = shell.runOnTerminal(ReferenceTool.commandLine("ls", arguments), width: 60)
        #expect(actual.stdout == expected.stdout, "\(arguments)")
    }

    static let barePathRows: [[String]] = [["-x"], ["-m"], ["--format=commas"], ["--zero"], ["--sort=width"]]

    /// A plain listing on a pipe writes names byte for byte without examining them; each of
    /// these options changes the layout, the line ends or the order, so it must not go that
    /// way unchanged.
    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: barePathRows)
    func optionsThatChangeTheLayoutLeaveTheBarePath(_ arguments: [String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell()
        try makeListingFixture(shell)
        let plain = shell.run("ls").stdout
        let expected = try ReferenceTool.run("/usr/bin/ls", arguments, in: shell.directory.file)
        #expect(expected.stdout != plain, "\(arguments)")
        #expect(shell.run(ReferenceTool.commandLine("ls", arguments)).stdout == expected.stdout, "\(arguments)")
    }
}
