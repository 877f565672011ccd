import PathModel
import Testing

@testable import ShellCore

/// rm's -I, --interactive[=WHEN], --one-file-system, --preserve-root[=all] and --no-preserve-root against GNU rm on
/// twin fixtures (`TransferFixture`), and the questions -I asks, answered alike in both (the
/// options about file systems are tried on mounts in `MountedFixtureTests`).
@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/rm"), "needs GNU coreutils"))
struct RmOptionTests {
    static let rows: [(name: String, line: String)] = [
        ("-I asks nothing for three files", "rm -I a b empty"),
        ("-f after -I asks nothing", "rm -I -f a b empty la nope"),
        ("-I after -f reports a missing file", "rm -f -I nope"),
        ("--no-preserve-root in full", "rm -r --no-preserve-root s"),
        ("--preserve-root", "rm -r --preserve-root s e"),
        ("--preserve-root=all on one file system", "rm -r --preserve-root=all s"),
        ("--preserve-root=all without -r", "rm --preserve-root=all a"),
        ("--one-file-system on one file system", "rm --recursive -v --one-file-system s"),
        (
            "the last of --preserve-root and --no-preserve-root wins",
            "rm -r --no-preserve-root --preserve-root e"
        ),
        ("--interactive=never reports a missing file", "rm --interactive=never nope a"),
        ("--interactive=never after -f keeps it silent", "rm -f --interactive=never nope a"),
        ("--interactive=no removes a tree unasked", "rm --interactive=no -r s"),
        ("--interactive=none after -i asks nothing", "rm -i --interactive=none a b"),
        ("--interactive=n, an abbreviation of three synonyms", "rm -I --interactive=n a b empty la"),
        ("--interactive=o asks nothing for three files", "rm --interactive=o a b empty"),
        ("-f after --interactive=always asks nothing", "rm --interactive=always -f a nope"),
    ]

    static func twins(_ line: String) throws -> TwinRun {
        try TwinRun(line, build: TransferFixture.build) { $0.kind.rawValue }
    }

    @Test(arguments: rows)
    func matchesGNU(_ name: String, _ line: String) throws {
        try Self.twins(line).expectSame(line, name)
    }

    @Test(arguments: [
        "rm -r --no-pres s", "rm -r --no-preserve s", "rm --preserve-root=al a", "rm -r --preserve-root= a",
        "rm --interactive=sometimes a", "rm --interactive=nevermore a",
    ])
    func usageErrorsMatchGNU(_ line: String) throws {
        try Self.twins(line).expectSameUsageError(line)
    }

    @Test(
        "-I asks GNU's question once, and a no removes nothing",
        arguments: [
            ("rm -I a b empty la", true), ("rm -I a b empty la", false), ("rm -rI s", true),
            ("rm -rI s", false),
            ("rm -rI s e", true), ("rm -dI d a b empty", false), ("rm -iI a b empty la", false),
            ("rm --interactive=once a b empty la", false), ("rm --interactive=once -r s", true),
            ("rm --interactive a", false), ("rm --interactive=yes a", true), ("rm -I --interactive a", false),
            ("rm --interactive -I a b empty la", true),
        ])
    func asksOnce(_ line: String, _ answer: Bool) throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        let twin = TemporaryDirectory(onLocalDisk: true)
        defer { twin.remove() }
        try TransferFixture.build(in: twin.file)
        let gnu = try ReferenceTool.run(
            "/bin/bash", ["-c", "echo \(answer ? "y" : "n") | \(line)"], in: twin.file)
        // GNU's question gets the answer; any other question is seen in `questions`.
        let answers = ScriptedAnswers([gnu.stderr: answer])
        answers.install(in: shell)
        let result = shell.runConfined(line)
        #expect(answers.questions.joined() == gnu.stderr, "\(line)")
        #expect(result.status == gnu.status, "\(line)")
        #expect(try treeSnapshot(shell.directory.file) == treeSnapshot(twin.file), "\(line)")
    }
}
