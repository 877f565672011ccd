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
        ["-not", "-type", "d", "-a", "-name", "t*"], ["missing", "src/util.h"], ["to-src"], ["to-src/"],
        ["dangling", "-type", "l"], ["-newer", "missing"], ["-false"], ["-true", "-maxdepth", "0"],
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
        ])
    func rejectsBadExpressions(_ arguments: [String], _ message: String) throws {
        let shell = try makeWalkFixture()
        let result = shell.run(ReferenceTool.commandLine("find", arguments))
        #expect(result.stderr == message + "\nTry 'help find' for more information.\n")
        #expect(result.status == .usage)
        #expect(result.stdout == "")
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
    ]

    @Test(.needsLocalFileSystem("GNU du reads the fixture from disk"), arguments: argumentLists)
    func matchesGNUdu(_ arguments: [String]) throws {
        let shell = try makeWalkFixture()
        try compareWithGNU("du", arguments, in: shell)
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
        ])
    func rejectsBadOptions(_ arguments: [String], _ message: String) throws {
        let shell = try makeWalkFixture()
        let result = shell.run(ReferenceTool.commandLine("du", arguments))
        #expect(result.stderr == message + "\nTry 'help du' for more information.\n")
        #expect(result.status == .usage)
    }
}
