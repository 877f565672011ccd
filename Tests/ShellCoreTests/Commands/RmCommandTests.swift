@_spi(FaultInjection) import PathModel
import Testing

@testable import ShellCore

@Suite struct RmCommandTests {
    static let rows: [FixtureRow] = [
        FixtureRow(
            name: "no operand", line: "rm",
            stderr: "rm: missing operand\nTry 'help rm' for more information.\n", status: .usage,
            coreutils: .differs("GNU points to 'rm --help' and exits 1")),
        FixtureRow(name: "no operand with -f", line: "rm -f"),
        FixtureRow(name: "file", line: "rm a"),
        FixtureRow(name: "verbose files", line: "rm -v a empty", stdout: "removed 'a'\nremoved 'empty'\n"),
        FixtureRow(
            name: "missing file", line: "rm nope",
            stderr: "rm: cannot remove 'nope': No such file or directory\n", status: .failure),
        FixtureRow(name: "missing file with -f", line: "rm -f nope"),
        FixtureRow(
            name: "-i after -f reports missing files again", line: "rm -fi nope",
            stderr: "rm: cannot remove 'nope': No such file or directory\n", status: .failure),
        FixtureRow(
            name: "empty operand", line: "rm ''",
            stderr: "rm: cannot remove '': No such file or directory\n", status: .failure),
        FixtureRow(name: "empty operand with -rf", line: "rm -rf ''"),
        FixtureRow(
            name: "directory without -r", line: "rm d",
            stderr: "rm: cannot remove 'd': Is a directory\n", status: .failure),
        FixtureRow(name: "empty directory with -d", line: "rm -dv d", stdout: "removed directory 'd'\n"),
        FixtureRow(
            name: "full directory with -d", line: "rm -d s",
            stderr: "rm: cannot remove 's': Directory not empty\n", status: .failure),
        FixtureRow(
            name: "verbose tree", line: "rm -rv s",
            stdout: "removed 's/l'\nremoved 's/t/q'\nremoved directory 's/t'\nremoved directory 's'\n",
            coreutils: .sameInAnyOrder),
        FixtureRow(
            name: "tree with doubled trailing slashes", line: "rm -rv e//",
            stdout: "removed 'e/s/x'\nremoved directory 'e/s'\nremoved directory 'e/'\n"),
        FixtureRow(
            name: "symlinks and dangling symlinks", line: "rm -v la dang ls",
            stdout: "removed 'la'\nremoved 'dang'\nremoved 'ls'\n"),
        FixtureRow(name: "symlink to a directory with -r", line: "rm -rv ls", stdout: "removed 'ls'\n"),
        FixtureRow(
            name: "dot", line: "rm -r .",
            stderr: "rm: refusing to remove '.' or '..' directory: skipping '.'\n", status: .failure),
        FixtureRow(
            name: "dot dot below", line: "rm -rf s/..",
            stderr: "rm: refusing to remove '.' or '..' directory: skipping 's/..'\n", status: .failure),
        FixtureRow(
            name: "dot with a slash", line: "rm -r s/./",
            stderr: "rm: refusing to remove '.' or '..' directory: skipping 's/./'\n", status: .failure),
        FixtureRow(
            name: "dot slash", line: "rm -r ./",
            stderr: "rm: refusing to remove '.' or '..' directory: skipping './'\n", status: .failure),
        FixtureRow(
            name: "root", line: "rm -rf /",
            stderr:
                "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n",
            status: .failure),
        FixtureRow(
            name: "root spelled twice", line: "rm -r //",
            stderr: "rm: it is dangerous to operate recursively on '//' (same as '/')\n"
                + "rm: use --no-preserve-root to override this failsafe\n",
            status: .failure),
        FixtureRow(
            name: "root through a symlink", line: "rm -r rl//",
            stderr: "rm: it is dangerous to operate recursively on 'rl/' (same as '/')\n"
                + "rm: use --no-preserve-root to override this failsafe\n",
            status: .failure, links: ["rl": "/"]),
        FixtureRow(
            name: "root without -r", line: "rm /", stderr: "rm: cannot remove '/': Is a directory\n",
            status: .failure),
        FixtureRow(
            name: "symlink to a directory with a slash", line: "rm ls/",
            stderr: "rm: cannot remove 'ls/': Is a directory\n", status: .failure),
        FixtureRow(
            name: "symlink to a full directory with a slash and -d", line: "rm -d ls/",
            stderr: "rm: cannot remove 'ls/': Directory not empty\n", status: .failure),
        FixtureRow(
            name: "symlink to a directory with a slash and -r", line: "rm -r ls/",
            stderr: "rm: cannot remove 'ls/': Not a directory\n", status: .failure,
            coreutils: .sameMessages("GNU empties the directory behind the link first; shelf leaves it alone")
        ),
        FixtureRow(
            name: "symlink to a directory with a slash and -rf", line: "rm -rf ls/",
            stderr: "rm: cannot remove 'ls/': Not a directory\n", status: .failure,
            coreutils: .differs(
                "GNU silently empties the directory behind the link; shelf refuses and says so")),
        FixtureRow(
            name: "file with a slash", line: "rm a/", stderr: "rm: cannot remove 'a/': Not a directory\n",
            status: .failure),
        FixtureRow(name: "file with a slash and -f", line: "rm -f a/"),
        FixtureRow(
            name: "below a file", line: "rm a/x", stderr: "rm: cannot remove 'a/x': Not a directory\n",
            status: .failure),
        FixtureRow(
            name: "dangling symlink with a slash", line: "rm -r dang/",
            stderr: "rm: cannot remove 'dang/': Not a directory\n", status: .failure),
        FixtureRow(
            name: "interactive without a terminal", line: "rm -i a empty && rm -ri s",
            stderr: "rm: not removing 'a' (no terminal to ask)\nrm: not removing 's' (no terminal to ask)\n",
            coreutils: .differs("GNU reads the answers from standard input")),
        FixtureRow(
            name: "one failure, the others still go", line: "rm -r nope d e",
            stderr: "rm: cannot remove 'nope': No such file or directory\n", status: .failure),
    ]

    @Test(arguments: rows) func messagesAndStatuses(_ row: FixtureRow) throws {
        try row.check()
    }

    @Test(arguments: rows) func matchesGNUrm(_ row: FixtureRow) throws {
        try row.compareWithCoreutils(tool: "rm")
    }

    @Test(
        "An option that names an existing file gets GNU's hint, before the usual one",
        arguments: [
            ("rm -foo", ["rm: invalid option -- 'o'", "Try 'rm ./-foo' to remove the file '-foo'."]),
            ("rm -x -- -foo", ["rm: invalid option -- 'x'", "Try 'rm ./-foo' to remove the file '-foo'."]),
            ("rm --long", ["rm: unrecognized option '--long'", "Try 'rm ./--long' to remove the file '--long'."]),
            ("rm -z '-a b' -foo", ["rm: invalid option -- 'z'", "Try 'rm ./'-a b'' to remove the file '-a b'."]),
            ("rm -q -dangling", ["rm: invalid option -- 'q'", "Try 'rm ./-dangling' to remove the file '-dangling'."]),
            ("rm -q -missing", ["rm: invalid option -- 'q'"]),
        ] as [(String, [String])])
    func hintForAFileNamedLikeAnOption(_ line: String, _ messages: [String]) throws {
        let shell = TestShell()
        try shell.write("-foo")
        try shell.write("--long")
        try shell.write("-a b")
        try shell.path("-dangling").makeSymlink(to: "nowhere")
        let result = shell.run(line)
        #expect(result.stderr == (messages + ["Try 'help rm' for more information.", ""]).joined(separator: "\n"))
        #expect(result.status == .usage)
        guard TestVolume.isLocal, ReferenceTool.isInstalled("/usr/bin/rm") else { return }
        let words = try Lexer.tokenize(Array(line.utf8)).dropFirst().compactMap { token -> String? in
            guard case .word(let word) = token.kind else { return nil }
            return word.literalText.map { String(decoding: $0, as: UTF8.self) }
        }
        let gnu = try ReferenceTool.run("/usr/bin/rm", words, in: shell.directory.file)
        // GNU names itself as it was called.
        #expect(gnu.stderr.replacing("'/usr/bin/rm ", with: "'rm ") == (messages + ["Try 'rm --help' for more information.", ""]).joined(separator: "\n"))
    }

    @Test(arguments: [
        "rm ls", "rm -r ls", "rm -rf ls", "rm -r ls/", "rm -rf ls/", "rm -rf ls//", "rm -d ls/", "rm ls/",
    ])
    func symlinkToADirectoryNeverLosesTheDirectory(_ line: String) throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        let before = try treeSnapshot(shell.path("s"))
        shell.runConfined(line)
        #expect(try treeSnapshot(shell.path("s")) == before)
        #expect(shell.path("ls").exists == line.hasSuffix("/"))
    }

    @Test func treeWithASymlinkOutsideLeavesTheOutsideAlone() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        try (shell.path("s/t/out")).makeSymlink(to: "../../e")
        try (shell.path("s/abs")).makeSymlink(to: shell.path("f"))
        let outside = try treeSnapshot(shell.path("e")) + treeSnapshot(shell.path("f"))
        let result = shell.runConfined("rm -r s")
        #expect(result.status == .success)
        #expect(!shell.path("s").exists)
        #expect(try treeSnapshot(shell.path("e")) + treeSnapshot(shell.path("f")) == outside)
    }

    @Test func interactiveAsksGNUsQuestions() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        try shell.path("s/empty").makeDirectory()
        let answers = ScriptedAnswers([
            "rm: remove regular file 'a'? ": true, "rm: remove regular empty file 'empty'? ": true,
            "rm: remove symbolic link 'la'? ": false, "rm: descend into directory 's'? ": true,
            "rm: remove directory 's/empty'? ": true, "rm: remove symbolic link 's/l'? ": false,
            "rm: descend into directory 's/t'? ": true, "rm: remove regular file 's/t/q'? ": false,
        ])
        answers.install(in: shell)
        let result = shell.runConfined("rm -iv a empty la; rm -riv s")
        #expect(
            answers.questions.prefix(4) == [
                "rm: remove regular file 'a'? ", "rm: remove regular empty file 'empty'? ",
                "rm: remove symbolic link 'la'? ",
                "rm: descend into directory 's'? ",
            ])
        // Entries come in directory order, and a directory's contents before its removal.
        #expect(
            answers.questions.dropFirst(4).sorted() == [
                "rm: descend into directory 's/t'? ", "rm: remove directory 's/empty'? ",
                "rm: remove regular file 's/t/q'? ",
                "rm: remove symbolic link 's/l'? ",
            ])
        let descent = try #require(answers.questions.firstIndex(of: "rm: descend into directory 's/t'? "))
        let question = try #require(answers.questions.firstIndex(of: "rm: remove regular file 's/t/q'? "))
        #expect(descent < question)
        #expect(result.stdout == "removed 'a'\nremoved 'empty'\nremoved directory 's/empty'\n")
        #expect(result.status == .success)
        #expect(shell.path("la").exists && shell.path("s/l").exists && shell.path("s/t/q").exists)
    }

    @Test func directoryWithDAsksToRemoveIt() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        let answers = ScriptedAnswers([:])
        answers.install(in: shell)
        #expect(shell.runConfined("rm -di d").status == .success)
        #expect(answers.questions == ["rm: remove directory 'd'? "])
        #expect(shell.path("d").exists)
    }

    @Test func withoutOptionsNothingIsAskedOfAWritableFile() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        let answers = ScriptedAnswers([:])
        answers.install(in: shell)
        #expect(shell.runConfined("rm -r a s").status == .success)
        #expect(answers.questions == [])
    }

    @Test(
        "A write-protected file is asked about only when standard input is a terminal",
        .needsLocalFileSystem("faults are injected into syscalls"),
        arguments: [("terminal", true), ("script on standard input", false)])
    func writeProtectedAskedOnlyFromATerminal(_ input: String, isTerminal: Bool) throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        let answers = ScriptedAnswers(["rm: remove write-protected regular file 'a'? ": false])
        answers.install(in: shell)
        shell.state.standardInputIsTerminal = isTerminal
        // Root may write anywhere: the kernel's answer to access(2) is injected instead.
        let protected = FaultPlan { name, path in
            name == .access && path?.hasSuffix("/a") == true ? .permissionDenied : nil
        }
        let result = FaultPlan.$current.withValue(protected) { shell.run("rm a") }
        #expect(result.status == .success)
        #expect(answers.questions == (isTerminal ? ["rm: remove write-protected regular file 'a'? "] : []), "\(input)")
        #expect(shell.path("a").exists == isTerminal)
    }

    @Test func namesThatAreNotUTF8AreCopiedMovedAndRemovedExactly() throws {
        let shell = TestShell()
        let name: [UInt8] = [0x6E, 0xE9]
        try shell.directory.file.appending(name: name).write(text: "x")
        try shell.path("d").makeDirectory()
        let result = shell.runConfined("cp -v n* d && mv -v n* d/m && rm -rv d")
        #expect(
            result.stdout
                == """
                'n'$'\\351' -> 'd/n'$'\\351'
                renamed 'n'$'\\351' -> 'd/m'
                removed 'd/n'$'\\351'
                removed 'd/m'
                removed directory 'd'

                """
                || result.stdout
                    == """
                    'n'$'\\351' -> 'd/n'$'\\351'
                    renamed 'n'$'\\351' -> 'd/m'
                    removed 'd/m'
                    removed 'd/n'$'\\351'
                    removed directory 'd'

                    """)
        #expect(result.status == .success)
        #expect(try shell.directory.file.entries().isEmpty)
    }

    @Test(.needsLocalFileSystem("faults are injected into syscalls"))
    func theSafetyNetOfTheseTestsHolds() throws {
        let shell = TestShell()
        let outside = TemporaryDirectory()
        defer { outside.remove() }
        try (outside.file + "keep").write(text: "keep")
        let result = shell.runConfined("rm \(outside.file.string)/keep; rm -r \(outside.file.string)")
        #expect(result.stderr.contains("Operation not permitted"))
        #expect((outside.file + "keep").exists)
    }

    @Test func interruptedRemovalStopsAtOnce() throws {
        let shell = TestShell()
        for index in 0..<50 { try shell.write("tree/\(index)/file", "\(index)\n") }
        let cancel = CancelAfter(polls: 10)
        cancel.install(in: shell)
        let result = shell.runConfined("rm -r tree")
        #expect(result.status == .interrupted)
        #expect(result.stderr == "")
        #expect(try treeSnapshot(shell.path("tree")).count > 80)
    }
}
