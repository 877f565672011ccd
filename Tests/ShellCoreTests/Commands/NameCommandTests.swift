import PathModel
import Testing

@testable import ShellCore

/// basename, dirname and realpath against GNU coreutils on the same fixture: a directory, a
/// symlink to it, a dangling symlink and a symlink loop.
@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/realpath"), "needs GNU coreutils"))
struct NameCommandTests {
    static let lines: [(tool: String, arguments: [String])] = [
        ("basename", ["a/b/"]), ("basename", ["/"]), ("basename", ["//"]), ("basename", [""]),
        ("basename", ["a/b.txt", ".txt"]), ("basename", ["b.txt", "b.txt"]),
        ("basename", ["-a", "x/y", "z/"]),
        ("basename", ["-s", ".c", "a.c", "b.c", "c"]), ("basename", ["-z", "a/b"]),
        ("basename", ["日本/語.txt", ".txt"]),
        ("dirname", ["a/b/", "/", "//", "///a//", "a", "", "/a", "//a", "a/b.txt", ".", "a//b//"]),
        ("dirname", ["-z", "a/b", "c"]),
        ("realpath", ["d"]), ("realpath", ["l"]), ("realpath", ["l/x"]), ("realpath", ["l/x/y"]),
        ("realpath", ["-e", "l/x"]), ("realpath", ["-e", "l"]), ("realpath", ["-m", "l/x/../y"]),
        ("realpath", ["-m", "/nope/../a"]), ("realpath", ["."]), ("realpath", ["..", "d/../l"]),
        ("realpath", ["dangling"]), ("realpath", ["loop"]), ("realpath", ["-z", "d"]), ("realpath", [""]),
        ("realpath", ["d/f/x"]), ("realpath", ["-m", "d/f/x"]),
        ("realpath", ["-s", "l", "l/..", "l/x", "nope/x", "d/f", "./d//f/."]),
        ("realpath", ["-s", "nope/x/../y"]), ("realpath", ["-s", "d/f/x"]),
        ("realpath", ["-s", "-e", "d/f/.."]),
        ("realpath", ["-s", "d/f/"]), ("realpath", ["-s", "dangling/", "nope/"]),
        ("realpath", ["-s", "-e", "dangling"]),
        ("realpath", ["-s", "-e", "l/", "l/f", "nope/.."]), ("realpath", ["-s", "loop"]),
        ("realpath", ["-s", "-m", "d/f/x", "loop/../a"]), ("realpath", ["--strip", "/../l"]),
        ("realpath", ["--no-symlinks", "l/f"]), ("realpath", ["-s", ""]),
        ("realpath", ["-q", "nope/x", "d"]), ("realpath", ["-qe", "nope"]),
        ("realpath", ["--quiet", "-s", "loop"]),
        ("realpath", ["--relative-to=d", "d/f", "d", "l", "."]), ("realpath", ["--relative-to=d/f", "d"]),
        ("realpath", ["--relative-to", "l", "d/f"]), ("realpath", ["-s", "--relative-to=l", "l/f", "d/f"]),
        ("realpath", ["--relative-to=nope", "d"]), ("realpath", ["--relative-to=nope/x", "d"]),
        ("realpath", ["-q", "--relative-to=nope/x", "d"]), ("realpath", ["--relative-to=", "d"]),
        ("realpath", ["-e", "--relative-to=nope", "d"]), ("realpath", ["--relative-to=d", "nope/x", "d/f"]),
        ("realpath", ["--relative-base=d", "d/f", "d", ".", "/"]),
        ("realpath", ["--relative-base=d", "--relative-to=d/f", "d", "."]),
        ("realpath", ["--relative-to=d", "--relative-base=d/f", "d/f", "."]),
        ("realpath", ["--relative-to=/", "/", "."]), ("realpath", ["--relative-base=/", "/tmp", "."]),
        ("realpath", ["--relative-base=", "d"]), ("realpath", ["-z", "--relative-to=d", "d/f", "."]),
        ("realpath", ["-m", "--relative-to=x/y", "x", "x/y/z"]),
    ]

    @Test(.needsLocalFileSystem("GNU realpath reads the fixture from disk"), arguments: lines)
    func matchesGNU(_ tool: String, _ arguments: [String]) throws {
        let shell = TestShell()
        try shell.write("d/f", "x\n")
        try shell.path("l").makeSymlink(to: "d")
        try shell.path("dangling").makeSymlink(to: "nowhere/x")
        try shell.path("loop").makeSymlink(to: "loop")
        let expected = try ReferenceTool.run("/usr/bin/" + tool, arguments, in: shell.directory.file)
        let result = shell.run(ReferenceTool.commandLine(tool, arguments))
        // GNU realpath resolves the fixture's directory through its real path; so does shelf.
        #expect(result.stdout == expected.stdout, "\(tool) \(arguments)")
        #expect(result.stderr == expected.stderr, "\(tool) \(arguments)")
        #expect(result.status == expected.status, "\(tool) \(arguments)")
    }

    @Test(
        "Usage errors",
        arguments: [
            ("basename", "basename: missing operand"), ("basename a b c", "basename: extra operand 'c'"),
            ("dirname", "dirname: missing operand"), ("realpath", "realpath: missing operand"),
        ])
    func usageErrors(_ line: String, _ message: String) {
        let shell = TestShell()
        let result = shell.run(line)
        #expect(
            result.stderr == message + "\nTry 'help \(line.split(separator: " ")[0])' for more information.\n"
        )
        #expect(result.status == .usage)
    }

    @Test("realpath resolves against the shell's directory, not the process's")
    func realpathUsesTheShellDirectory() throws {
        let shell = TestShell()
        try shell.write("inner/file")
        let result = shell.run("cd inner; realpath file")
        let inner = try shell.path("inner").resolvingSymlinks()
        #expect(result.stdout == inner.string + "/file\n")
    }
}
