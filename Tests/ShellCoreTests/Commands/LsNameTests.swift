import PathModel
import Testing

@testable import ShellCore

/// How `ls` orders names by version (`-v`), against GNU ls on twin fixtures.
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
    ]

    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: comparisonRows)
    func matchesGNULs(_ name: String, _ arguments: [String], _ environment: [String: String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell(environment: ["TZ": "UTC"].merging(environment) { $1 })
        try Self.makeFixture(shell)
        try shell.expectSameAsGNU("ls", arguments, environment: environment, name)
    }

    static let barePathRows: [[String]] = [["-v"], ["--sort=version"]]

    /// A plain listing on a pipe writes names byte for byte without examining them; each of
    /// these options changes the order, so it must not go that way.
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
