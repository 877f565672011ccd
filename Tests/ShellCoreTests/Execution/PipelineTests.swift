import PathModel
import Testing

@testable import ShellCore

/// `a | b | c`: built-ins and programs in any mix, each reading what the one before writes, at
/// the same time.
@Suite(.needsLocalFileSystem("the pipelines run programs, in a directory of the local file system"))
struct PipelineTests {
    /// The fixture both shells run in: a few lines, a large file, a directory of names.
    static func build(_ directory: File) throws {
        try (directory + "notes").write(text: "pear\napple\nfig\nplum\nkiwi\n")
        try (directory + "big").write(text: (1...100_000).map { "line \($0)\n" }.joined())
        try (directory + "names").makeDirectory()
        for name in ["b c", "a", ".hidden", "d.txt"] { try (directory + "names" + name).write(text: name) }
    }

    static let rows: [NamedLine] = [
        NamedLine(name: "built-ins only", line: "cat notes | head -n 4 | tail -n 2"),
        NamedLine(name: "built-ins only, counting", line: "ls names | wc -l"),
        NamedLine(name: "a built-in reads a large file whole", line: "cat big | tail -n 1"),
        NamedLine(name: "a built-in into a program", line: "cat notes | sort -r"),
        NamedLine(name: "a program into a built-in", line: "printf 'b\\na\\nc\\n' | tail -n 2"),
        NamedLine(name: "programs only", line: "printf 'x y z\\n' | tr ' ' '\\n' | sort -r"),
        NamedLine(name: "mixed, four stages", line: "ls -a names | grep -v '^\\.' | head -n 2 | tr a-z A-Z"),
        NamedLine(name: "a reader that stops early", line: "cat big | head -n 2"),
        NamedLine(name: "a program reader that stops early", line: "cat big | /usr/bin/head -n 1"),
        NamedLine(name: "a program writer whose reader stops early", line: "seq 1 1000000 | head -n 3"),
        NamedLine(name: "echo into a program", line: "echo hello there | tr a-z A-Z"),
        NamedLine(name: "a stage's messages", line: "cat notes missing | wc -l"),
        NamedLine(name: "redirection in a stage", line: "cat notes | sort > sorted; cat sorted"),
        NamedLine(name: "newline after |", line: "cat notes |\n  wc -c"),
    ]

    @Test("A pipeline writes what bash's writes, byte for byte", arguments: rows)
    func sameAsBash(_ row: NamedLine) throws {
        let (ours, theirs) = try runBesideBash(row.line, build: Self.build)
        #expect(ours.stdout == theirs.stdout)
        #expect(ours.stderr == theirs.stderr)
    }

    struct StatusRow: CustomTestStringConvertible, Sendable {
        let name: String
        let line: String
        let stdout: String
        let status: ShellCore.ExitStatus
        var testDescription: String { name }
    }

    static let statusRows: [StatusRow] = [
        StatusRow(
            name: "every stage succeeds", line: "echo a | cat | wc -l", stdout: "1\n", status: .success),
        StatusRow(
            name: "a failing first stage fails the pipeline", line: "cat missing | wc -c", stdout: "0\n",
            status: .failure),
        StatusRow(
            name: "the last failure wins", line: "sh -c 'exit 3' | sh -c 'exit 4' | cat", stdout: "",
            status: 4),
        StatusRow(name: "a failing last stage", line: "echo a | sh -c 'exit 5'", stdout: "", status: 5),
        StatusRow(
            name: "a built-in whose reader went away has not failed",
            line: "cat /dev/zero | head -c 3 | wc -c",
            stdout: "3\n", status: .success),
        StatusRow(
            name: "a program killed by SIGPIPE has not failed", line: "yes | head -n 2", stdout: "y\ny\n",
            status: .success),
        StatusRow(
            name: "cd in a pipeline changes nothing", line: "mkdir sub; cd sub | cat; ls -d sub",
            stdout: "sub\n",
            status: .success),
    ]

    @Test("The pipeline's status is the last failure of any stage", arguments: statusRows)
    func status(_ row: StatusRow) {
        let shell = TestShell()
        let result = shell.run(row.line + "; echo $?")
        #expect(result.stdout == row.stdout + "\(row.status)\n")
    }

    @Test("A script stops at a failing pipeline, and a leading - ignores its failure")
    func stopsAScript() {
        let shell = TestShell(interactive: false)
        let ignored = shell.run("-cat missing | wc -c\necho on")
        #expect(ignored.stdout == "0\non\n")
        let stopped = shell.run("cat missing | wc -c\necho never")
        #expect(stopped.stdout == "0\n")
        #expect(stopped.stderr == "cat: missing: No such file or directory\nshelf: stopped at test:1\n")
        #expect(stopped.status == .failure)
    }
}
