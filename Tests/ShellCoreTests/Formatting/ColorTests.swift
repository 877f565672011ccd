import PathModel
import Testing

@testable import ShellCore

/// A directory with every kind of name the colours tell apart.
private func makeColorFixture() throws -> TestShell {
    let shell = TestShell()
    try shell.write("archive.tar")
    try shell.write("notes.txt", "n\n")
    try shell.write("run.sh")
    try shell.path("run.sh").setPermissions(0o755)
    try shell.write("sub/inner.tar")
    try shell.path("shared").makeDirectory()
    try shell.path("shared").setPermissions(0o1777)
    try shell.path("link").makeSymlink(to: "run.sh")
    try shell.path("dangling").makeSymlink(to: "nowhere")
    return shell
}

@Suite struct ColorTests {
    static let lsColors = [
        "", "di=01;31:*.tar=01;32:ln=35", "fi=00:*.txt=04;33:ex=01;35", "ec=\\e[0m\\e[K:di=1",
        "di=:ln=01;35", "ex=0:fi=:*.tar=", "su=0:sg=00:tw=:ow=1", "*.TAR=31:*.tar=32:*ar=33", "lc=\\033[:rc=m:di=4",
        "ln=35:or=31:mi=32", "or=31", "mi=32",
    ]
    static let lsArguments: [[String]] = [["--color=always"], ["--color=always", "-l"], ["--color=always", "-F", "sub", "."]]

    @Test(
        "ls --color=always matches GNU ls under LS_COLORS",
        .needsLocalFileSystem("GNU ls reads the fixture from disk"),
        .enabled(if: ReferenceTool.isInstalled("/usr/bin/ls")), arguments: lsColors, lsArguments)
    func lsMatchesGNU(_ colors: String, _ arguments: [String]) throws {
        let shell = try makeColorFixture()
        shell.state.environment.set("TERM", "xterm")
        shell.state.environment.set("LS_COLORS", colors)
        let environment = ["TERM": "xterm", "LS_COLORS": colors]
        let expected = try ReferenceTool.run("/usr/bin/ls", arguments, in: shell.directory.file, environment: environment)
        let result = shell.run(ReferenceTool.commandLine("ls", arguments))
        #expect(result.stdout == expected.stdout, "LS_COLORS=\(colors) ls \(arguments)")
    }

    @Test(
        "tree -C matches tree(1) under LS_COLORS",
        .needsLocalFileSystem("tree(1) reads the fixture from disk"),
        .enabled(if: RealTree.isUsable, "needs /usr/bin/tree"),
        arguments: [
            "di=01;31:*.tar=01;32:ln=35", "di=1:or=31:ex=35:*notes.txt=4", "ex=01;32:tw=30;42", "ln=35:or=31:mi=32",
            "mi=32",
        ],
        [["-C"], ["-C", "-f"], ["-C", "-n"], ["-n"]])
    func treeMatchesTree(_ colors: String, _ arguments: [String]) throws {
        let shell = try makeColorFixture()
        shell.state.environment.set("LS_COLORS", colors)
        shell.state.environment.set("LC_ALL", "C.UTF-8")
        let expected = try RealTree.run(arguments, in: shell.directory.file, environment: ["LS_COLORS": colors, "TERM": "xterm"])
        let result = shell.run(ReferenceTool.commandLine("tree", arguments))
        #expect(Array(result.stdout.utf8) == expected.stdout, "LS_COLORS=\(colors) tree \(arguments)")
    }

    @Test(
        "Automatic colour: only on a terminal, and NO_COLOR turns it off",
        arguments: [
            ("ls --color=auto", [:], true), ("ls --color=auto", ["NO_COLOR": "1"], false),
            ("ls --color=always", ["NO_COLOR": "1"], true), ("ls --color=auto", ["NO_COLOR": ""], true),
            ("tree", ["LS_COLORS": "di=1"], true), ("tree", ["LS_COLORS": "di=1", "NO_COLOR": "1"], false),
            ("tree", [:], false), ("tree -C", ["NO_COLOR": "1"], true),
        ] as [(String, [String: String], Bool)])
    func automaticColour(_ line: String, _ environment: [String: String], _ colored: Bool) throws {
        let shell = try makeColorFixture()
        shell.state.environment.set("TERM", "xterm")
        for (name, value) in environment { shell.state.environment.set(name, value) }
        #expect(shell.runOnTerminal(line).stdout.contains("\u{1B}[") == colored, "\(line) \(environment) on a terminal")
        let forced = line.contains("always") || line.contains("-C")
        #expect(shell.run(line).stdout.contains("\u{1B}[") == forced, "\(line) \(environment) into a file")
    }

    @Test("LS_COLORS values: escapes, caret notation, the last matching suffix")
    func parsing() {
        let colors = ListingColors(environment: ["LS_COLORS": "ec=\\e[0m^[[K:*.gz=31:*z=32:di=\\061"])
        #expect(colors.end == [0x1B, 0x5B, 0x30, 0x6D, 0x1B, 0x5B, 0x4B])
        #expect(colors.sequence(name: Array("a.gz".utf8), kind: .regular, mode: 0o644) == Array("32".utf8))
        #expect(colors.sequence(name: Array("d".utf8), kind: .directory, mode: 0o755) == Array("1".utf8))
        #expect(colors.sequence(name: Array("x".utf8), kind: .regular, mode: 0o644) == nil)
        #expect(colors.sequence(name: Array("x".utf8), kind: .regular, mode: 0o755) == Array("01;32".utf8))
    }
}
