import PathModel
import Testing

@testable import ShellCore

/// `< FILE`, `0< FILE`, `2> FILE`, `2>> FILE`, `2>&1`, `>&2`, `&> FILE` and `&>> FILE` on any command, applied left
/// to right as in sh.
struct RedirectionTests {
    /// The fixture both shells run in: two lines to read.
    static func build(_ directory: File) throws {
        try (directory + "in").write(text: "b\na\n")
    }

    static let rows: [NamedLine] = [
        NamedLine(name: "< feeds a built-in", line: "wc -l < in; tail -n 1 < in"),
        NamedLine(name: "< feeds a program", line: "sort < in"),
        NamedLine(name: "< feeds a pipeline's first command", line: "cat < in | sort"),
        NamedLine(name: "2> takes the messages", line: "cat in missing 2> err; cat err"),
        NamedLine(name: "2>> appends them", line: "cat missing 2>> err; ls missing 2>> err; cat err"),
        NamedLine(
            name: "> then 2>&1: both in the file, in order", line: "cat in missing in > all 2>&1; cat all"),
        NamedLine(
            name: "2>&1 then >: messages where the output went before",
            line: "cat in missing 2>&1 > out; cat out"),
        NamedLine(name: "&> sends both", line: "cat missing in &> all; cat all"),
        NamedLine(name: "&>> appends both", line: "cat in &>> all; cat missing &>> all; cat all"),
        NamedLine(
            name: "a program's two streams into one file",
            line: "sh -c 'echo 1; echo 2 >&2; echo 3' > all 2>&1; cat all"),
        NamedLine(name: "2>&1 into a pipe", line: "cat in missing 2>&1 | wc -l"),
        NamedLine(name: "a stage's messages to a file", line: "cat missing 2> err | wc -c; cat err"),
        NamedLine(name: "a redirection before the name", line: "< in > out sort; cat out"),
        NamedLine(
            name: "--help goes where > says",
            line: "wc --help > help; wc -l < help | tr -d ' ' | sed 's/[0-9]*/n/'"),
        NamedLine(name: "a usage error goes where 2> says", line: "head -x 2> err; wc -l < err | tr -d ' '"),
        NamedLine(name: "0< is <", line: "cat 0<in; sort 0< in"),
        NamedLine(name: ">&2 sends a built-in's output to the messages", line: "cat in >&2 2> err; cat in 2> err >&2; cat err"),
        NamedLine(name: "1>&2 sends a program's output to the messages", line: "sort in 1>&2 | wc -c"),
        NamedLine(name: ">&2 then 2>: the output stays where messages went before", line: "echo x >&2 2> err; wc -c < err"),
    ]

    @Test(
        "Redirections do what bash's do, byte for byte",
        .needsLocalFileSystem("compared with bash on the disk"),
        arguments: rows)
    func sameAsBash(_ row: NamedLine) throws {
        let (ours, theirs) = try runBesideBash(row.line, build: Self.build)
        #expect(ours.stdout == theirs.stdout)
        #expect(ours.stderr == theirs.stderr)
    }

    @Test("A file that < cannot open stops the command, which does not run")
    func missingInput() throws {
        let shell = TestShell()
        let result = shell.run("echo ran < nofile; echo $?")
        #expect(result.stdout == "1\n")
        #expect(result.stderr == "shelf: nofile: No such file or directory\n")
    }

    @Test("A command stopped half way leaves every > target as it was; 2> onto a directory is refused")
    func targetsStayWhole() throws {
        let shell = TestShell()
        try shell.write("keep", "old\n")
        try shell.path("dir").makeDirectory()
        let result = shell.run("echo new > keep 2> dir; cat keep")
        #expect(result.stdout == "old\n")
        #expect(result.stderr == "shelf: dir: Is a directory\n")
    }

    @Test("A read-only shell refuses 2>, 2>> and &>, and allows < and 2>&1")
    func readOnly() throws {
        let shell = TestShell()
        try shell.write("in", "x\n")
        shell.state.isReadOnly = true
        let refusal =
            "shelf: refused: >, >>, 2>, 2>> and &> write files, and this shell is read-only (--read-only)\n"
        for line in ["cat in 2> err", "cat in 2>> err", "cat in &> err", "cat in &>> err", "cat < in > out"] {
            let result = shell.run(line)
            #expect(result.stderr == refusal, "\(line)")
            #expect(result.status == .failure, "\(line)")
        }
        #expect(!shell.path("err").exists && !shell.path("out").exists)
        #expect(shell.run("cat < in 2>&1").stdout == "x\n")
    }
}
