import PathModel
import Testing

@testable import ShellCore

/// A name that no built-in has runs the program of that name from PATH, in the shell's
/// directory, with its variables as the environment; its status becomes `$?`.
@Suite(.needsLocalFileSystem("a program runs in a directory of the local file system"))
struct ProgramTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        /// Lines run after the set-up; `$DIR` in them and in the expectations is the shell's directory.
        let lines: String
        let stdout: String
        var stderr = ""
        var status: ShellCore.ExitStatus = .success
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "a program's output and status", lines: "printf '%s-' a b; echo $?", stdout: "a-b-0\n"),
        Row(name: "its failure is $?", lines: "sh -c 'exit 3'; echo $?", stdout: "3\n", status: .success),
        Row(
            name: "death by a signal is 128 + its number", lines: "sh -c 'kill -TERM $$'; echo $?",
            stdout: "143\n"),
        Row(
            name: "its standard error is the shell's", lines: "sh -c 'echo oops >&2'", stdout: "",
            stderr: "oops\n"),
        Row(
            name: "it runs in the shell's directory", lines: "mkdir sub; cd sub; /bin/pwd",
            stdout: "$DIR/sub\n"),
        Row(name: "it gets the shell's variables", lines: "cd /; sh -c 'echo $PWD $LC_ALL'", stdout: "/ C\n"),
        Row(
            name: "only the exported ones", lines: "X=1; sh -c 'echo \"[${X-unset}]\"'; export X; sh -c 'echo \"[$X]\"'",
            stdout: "[unset]\n[1]\n"),
        Row(
            name: "NAME=value before it is in its environment only",
            lines: "Y=2 Z=\"a  $Y\" sh -c 'echo $Y \"$Z\"'; echo ${Y-gone} ${Z-gone}", stdout: "2 a  2\ngone gone\n"),
        Row(
            name: "export -n and unset take a variable away",
            lines: "export -n LC_ALL; sh -c 'echo \"[${LC_ALL-none}]\"'; export Z=1; unset Z; sh -c 'echo \"[${Z-none}]\"'",
            stdout: "[none]\n[none]\n"),
        Row(
            name: "its words are globbed", lines: "touch b.txt a.txt; /bin/echo *.txt",
            stdout: "a.txt b.txt\n"),
        Row(name: "its output is redirected", lines: "/bin/echo hi > out; cat out", stdout: "hi\n"),
        Row(
            name: "command runs the program even when a built-in has the name",
            lines: "command echo --help | head -n 1; echo --help",
            stdout: "Usage: echo [SHORT-OPTION]... [STRING]...\n--help\n"),
        Row(
            name: "command passes every word on", lines: "command ls -d --quoting-style=c .",
            stdout: "\".\"\n"),
        Row(name: "command alone does nothing", lines: "command; echo $?", stdout: "0\n"),
        Row(
            name: "! hands the rest of the line to sh",
            lines: "!for w in a b; do echo \"<$w>\"; done | tr '<>' '[]'",
            stdout: "[a]\n[b]\n"),
        Row(name: "! passes sh's status on", lines: "!exit 4\necho $?", stdout: "4\n"),
        Row(
            name: "a name found nowhere", lines: "no-such-program-here x", stdout: "",
            stderr: "shelf: no-such-program-here: command not found\n", status: .notFound),
        Row(
            name: "a close built-in is suggested", lines: "ecoh x", stdout: "",
            stderr: "shelf: ecoh: command not found; did you mean 'echo'?\n", status: .notFound),
        Row(
            name: "a path that names nothing", lines: "./missing", stdout: "",
            stderr: "shelf: ./missing: No such file or directory\n", status: .notFound),
        Row(
            name: "a file that is not executable", lines: "touch plain; ./plain", stdout: "",
            stderr: "shelf: ./plain: Permission denied\n", status: .cannotExecute),
        Row(
            name: "a directory", lines: "mkdir sub; ./sub", stdout: "",
            stderr: "shelf: ./sub: Is a directory\n",
            status: .cannotExecute),
        Row(
            name: "a file the kernel cannot run", lines: "touch bad; chmod +x bad; ./bad", stdout: "",
            stderr: "shelf: ./bad: Exec format error\n", status: .cannotExecute),
    ]

    @Test(arguments: rows)
    func runsPrograms(_ row: Row) {
        let shell = TestShell()
        let result = shell.run(row.lines)
        let directory = shell.directory.file.string
        #expect(result.stdout == row.stdout.replacingOccurrences(of: "$DIR", with: directory))
        #expect(result.stderr == row.stderr)
        #expect(result.status == row.status)
    }

    @Test(
        "PATH is searched in order, past a file that is not executable; an empty entry is the shell's directory"
    )
    func searchPath() throws {
        let shell = TestShell(environment: ["PATH": "first:second:"])
        try shell.write("first/tool", "#!/bin/sh\necho first\n")
        try shell.write("second/tool", "#!/bin/sh\necho second\n")
        try shell.write("here", "#!/bin/sh\necho here\n")
        #expect(shell.run("chmod +x second/tool here; tool; here").stdout == "second\nhere\n")
        let denied = shell.run("chmod -x second/tool; tool")
        #expect(denied.stderr == "shelf: tool: Permission denied\n")
        #expect(denied.status == .cannotExecute)
    }

    @Test("A program's words and the shell's variables reach it byte for byte")
    func bytesReachTheProgram() throws {
        let shell = TestShell()
        let word: [UInt8] = Array("bad".utf8) + [0xFE, 0xFF] + Array("name".utf8)
        shell.state.environment["RAW"] = word
        #expect(shell.run("printf '%s|' \"$RAW\" $RAW").status == .success)
        #expect(shell.stdout.contents == word + [0x7C] + word + [0x7C])
        #expect(shell.run("export RAW; sh -c 'printf %s \"$RAW\"'").status == .success)
        #expect(shell.stdout.contents == word)
        #expect(shell.run("ONE=$RAW sh -c 'printf %s \"$ONE\"'").status == .success)
        #expect(shell.stdout.contents == word)
    }

    @Test("A program cannot start in a directory that was removed, and the message says so")
    func removedDirectory() throws {
        let shell = TestShell()
        let result = shell.run("mkdir gone; cd gone; rmdir ../gone; sh -c true")
        let gone = shell.path("gone").string
        #expect(result.stderr == "shelf: sh: cannot start in the shell's directory '\(gone)': No such file or directory\n")
        #expect(result.status == .cannotExecute)
        #expect(shell.run("/bin/sh -c true").status == .cannotExecute)
    }

    @Test(
        "A confined shell refuses a statement that runs a program before any of it runs",
        arguments: [
            (ProgramRefusal.root, "programs cannot be confined to --root"),
            (.readOnly, "programs cannot be confined to --read-only"),
            (.noPrograms, "programs are turned off in this shell (--no-programs)"),
        ])
    func refusals(_ refusal: ProgramRefusal, _ reason: String) {
        let shell = TestShell()
        shell.state.programRefusal = refusal
        for (line, name) in [
            ("echo ran && vi notes", "vi"), ("-echo ran && command ls", "ls"), ("!echo ran", "!"),
        ] {
            let result = shell.run(line)
            #expect(result.stdout == "", "\(line)")
            #expect(result.stderr == "shelf: \(name): refused: \(reason)\n", "\(line)")
            #expect(result.status == .failure, "\(line)")
        }
        #expect(shell.run("echo built-ins run").stdout == "built-ins run\n")
    }
}
