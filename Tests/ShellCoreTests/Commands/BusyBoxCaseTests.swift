@_spi(FaultInjection) import PathModel
import Testing

@testable import ShellCore

/// One case of BusyBox's test suite for ls, cp, mv, rm and cat (a file of testsuite/APPLET/, or a
/// `testing` line of testsuite/APPLET.tests), in this project's words: the fixture it builds, the
/// line it gives the applet, and the checks it makes on the tree afterwards.
struct BusyBoxCase: CustomTestStringConvertible, Sendable {
    /// What shelf's output must be, besides GNU's.
    enum Expectation: Sendable {
        /// The output (then the messages) the case expects, with status 0.
        case caseSays(String)
        /// The case expects BusyBox's own words or behaviour (the reason given): GNU's alone are
        /// the reference.
        case gnuDiffers(String)
    }

    /// The case's name in BusyBox's suite.
    let name: String
    /// sh lines that build the fixture.
    let setup: String
    /// The line the case runs the applet with, run through shelf and through bash with GNU's tools.
    let line: String
    /// sh commands run afterwards on shelf's tree, one a line: each must succeed.
    var checks: [String] = []
    var expectation: Expectation = .caseSays("")

    var testDescription: String { name }
}

/// BusyBox's cases for ls, cp, mv, rm and cat, run through shelf: each must do what GNU's tools do
/// on a twin fixture (output, messages, status, tree), pass the case's checks, and print what the
/// case expects unless that is BusyBox's own.
@Suite(.needsLocalFileSystem("the cases build their fixtures and check them with sh on the disk"))
struct BusyBoxCaseTests {
    static let rows: [BusyBoxCase] = catCases + cpCases + cpTableCases + lsCases + mvCases + [
        BusyBoxCase(name: "rm-removes-file", setup: "touch foo", line: "rm foo", checks: ["test ! -f foo"])
    ]

    static let catCases: [BusyBoxCase] = [
        BusyBoxCase(
            name: "cat-prints-a-file", setup: "echo I WANT > foo", line: "cat foo > bar", checks: ["cmp foo bar"]),
        BusyBoxCase(
            name: "cat-prints-a-file-and-standard-input", setup: "echo I WANT > foo",
            line: "echo SOMETHING | cat foo - > bar", checks: ["printf 'I WANT\\nSOMETHING\\n' | cmp - bar"]),
        BusyBoxCase(
            name: "cat.tests: cat -e", setup: "printf 'foo\\n' > input", line: "cat -e < input",
            expectation: .caseSays("foo$\n")),
        BusyBoxCase(
            name: "cat.tests: cat -v", setup: "printf 'foo\\n' > input", line: "cat -v < input",
            expectation: .caseSays("foo\n")),
        BusyBoxCase(
            name: "cat.tests: cat -n", setup: "printf 'line 1\\n\\nline 3\\n' > input", line: "cat -n < input",
            expectation: .caseSays("     1\tline 1\n     2\t\n     3\tline 3\n")),
        BusyBoxCase(
            name: "cat.tests: cat -b", setup: "printf 'line 1\\n\\nline 3\\n' > input", line: "cat -b < input",
            expectation: .caseSays("     1\tline 1\n\n     2\tline 3\n")),
    ]

    /// The files, the symlink to one and the directory that several cp and mv cases start from.
    static let filesAndDirectory =
        "echo file number one > file1; echo file number two > file2; ln -s file2 link1; mkdir dir1 there"

    static let cpCases: [BusyBoxCase] = [
        BusyBoxCase(
            name: "cp-RHL-does_not_preserve-links", setup: "mkdir a; : > a/file; ln -s file a/link",
            line: "cp -RHL a b", checks: ["test ! -L b/link"]),
        BusyBoxCase(
            name: "cp-a-files-to-dir", setup: filesAndDirectory, line: "cp -a file1 file2 link1 dir1 there",
            checks: [
                "test -f there/file1", "test -f there/file2", "test ! -s there/dir1/file3", "test -L there/link1",
                "test \"$(readlink there/link1)\" = file2",
            ]),
        BusyBoxCase(
            name: "cp-a-preserves-links", setup: "touch foo; ln -s foo bar", line: "cp -a bar baz",
            checks: ["test -L baz", "test \"$(readlink baz)\" = foo"]),
        BusyBoxCase(name: "cp-copies-empty-file", setup: "touch foo", line: "cp foo bar", checks: ["cmp foo bar"]),
        BusyBoxCase(
            name: "cp-copies-large-file", setup: "dd if=/dev/zero of=foo seek=10k count=1 2>/dev/null",
            line: "cp foo bar", checks: ["cmp foo bar"]),
        BusyBoxCase(
            name: "cp-copies-small-file", setup: "echo I WANT > foo", line: "cp foo bar", checks: ["cmp foo bar"]),
        BusyBoxCase(
            name: "cp-d-files-to-dir", setup: filesAndDirectory + "; touch file3",
            line: "cp -d file1 file2 file3 link1 there",
            checks: [
                "test -f there/file1", "test -f there/file2", "test ! -s there/file3", "test -L there/link1",
                "test \"$(readlink there/link1)\" = file2",
            ]),
        BusyBoxCase(name: "cp-dev-file", setup: "", line: "cp /dev/null foo", checks: ["test -f foo"]),
        BusyBoxCase(
            name: "cp-dir-create-dir", setup: "mkdir bar; touch bar/baz", line: "cp -R bar foo",
            checks: ["test -f foo/baz"]),
        BusyBoxCase(
            name: "cp-dir-existing-dir", setup: "mkdir bar foo; touch bar/baz", line: "cp -R bar foo",
            checks: ["test -f foo/bar/baz"]),
        BusyBoxCase(
            name: "cp-files-to-dir", setup: filesAndDirectory + "; touch file3",
            line: "cp file1 file2 file3 link1 there",
            checks: [
                "test -f there/file1", "test -f there/file2", "test ! -s there/file3", "test -f there/link1",
                "cmp there/file2 there/link1",
            ]),
        BusyBoxCase(
            name: "cp-follows-links", setup: "touch foo; ln -s foo bar", line: "cp bar baz", checks: ["test -f baz"]),
        BusyBoxCase(
            name: "cp-parents", setup: "mkdir -p foo/bar/baz dir; touch foo/bar/baz/file",
            line: "cp --parents foo/bar/baz/file dir", checks: ["test -f dir/foo/bar/baz/file"]),
        BusyBoxCase(
            name: "cp-preserves-hard-links", setup: "touch foo; ln foo bar; mkdir baz", line: "cp -d foo bar baz",
            checks: ["test baz/foo -ef baz/bar"]),
        BusyBoxCase(
            name: "cp-preserves-links", setup: "touch foo; ln -s foo bar", line: "cp -d bar baz",
            checks: ["test -L baz", "test \"$(readlink baz)\" = foo"]),
        BusyBoxCase(
            name: "cp-preserves-source-file", setup: "touch foo", line: "cp foo bar", checks: ["test -f foo"]),
    ]

    /// The tree cp.tests copies from: a file, a directory holding a file and a symlink to it, and
    /// symlinks to the file and to the directory.
    static let cpTable =
        "mkdir -p cp.testdir/dir cp.testdir2; cd cp.testdir; : > dir/file; ln -s file dir/file_symlink; : > file;"
        + " ln -s file file_symlink; ln -s dir dir_symlink"

    /// cp.tests' checks, in cp.testdir2: for each name whether it is a symlink and what it leads to
    /// (`f` a file, `d` a directory, `-` nothing was copied).
    static func copied(_ expected: [(String, link: Bool, kind: Character)]) -> [String] {
        expected.map { name, link, kind in
            let path = "cp.testdir2/" + name
            let found = kind == "-" ? "! -e \(path)" : "-\(kind) \(path)"
            return "test \(link ? "" : "! ")-L \(path) && test \(found)"
        }
    }

    static let omitting = BusyBoxCase.Expectation.gnuDiffers(
        "BusyBox's message is 'cp: omitting directory', GNU's 'cp: -r not specified; omitting directory'")

    static let cpTableCases: [BusyBoxCase] = [
        plain("", links: false), plain(" -d", links: true), plain(" -P", links: true), plain(" -L", links: false),
        plain(" -H", links: false),
        recursive("-R", links: [true, true, true]),
        recursive("-Rd", links: [true, true, true]),
        recursive("-RP", links: [true, true, true]),
        recursive("-RL", links: [false, false, false]),
        recursive("-RH", links: [false, false, true]),
        // GNU takes the last of -H, -L and -P; BusyBox's case expects -H to hold after -P, and -L
        // to give way to a later -H below the operands.
        recursive(
            "-RHP", links: [true, true, true],
            expectation: .gnuDiffers("GNU takes the last of -H -L -P: -P copies the symlinks, BusyBox follows them")),
        recursive("-RHL", links: [false, false, false]),
        recursive(
            "-RLH", links: [false, false, true],
            expectation: .gnuDiffers("GNU takes the last of -H -L -P: -H keeps dir/file_symlink, BusyBox follows it")),
    ]

    /// A row of cp.tests without -r: the files are copied (the symlinks as symlinks when `links`),
    /// the directories left out with a message.
    static func plain(_ options: String, links: Bool) -> BusyBoxCase {
        BusyBoxCase(
            name: "cp.tests: cp\(options)", setup: cpTable, line: "cd cp.testdir && cp\(options) * ../cp.testdir2",
            checks: copied([
                ("file", false, "f"), ("file_symlink", links, "f"), ("dir", false, "-"), ("dir_symlink", links, "-"),
            ]), expectation: omitting)
    }

    /// A recursive row of cp.tests: whether file_symlink, dir_symlink and dir/file_symlink are
    /// copied as symlinks.
    static func recursive(
        _ options: String, links: [Bool], expectation: BusyBoxCase.Expectation = .caseSays("")
    ) -> BusyBoxCase {
        BusyBoxCase(
            name: "cp.tests: cp \(options)", setup: cpTable, line: "cd cp.testdir && cp \(options) * ../cp.testdir2",
            checks: copied([
                ("file", false, "f"), ("file_symlink", links[0], "f"), ("dir", false, "d"),
                ("dir_symlink", links[1], "d"), ("dir/file", false, "f"), ("dir/file_symlink", links[2], "f"),
            ]), expectation: expectation)
    }

    /// A directory of assorted entries with fixed times, for the cases that list one.
    static let listed =
        "mkdir -p d/sub; echo hello > d/a; head -c 3000 /dev/zero > d/b; truncate -s 5000 d/sparse;"
        + " ln -s a d/link; : > d/exe; chmod 755 d/exe; touch -h -d '2000-01-30 05:24:08' d/* d/sub"

    static let lsCases: [BusyBoxCase] = [
        BusyBoxCase(
            name: "ls-1-works", setup: listed, line: "ls -1 d",
            expectation: .gnuDiffers("the case compares BusyBox's ls with GNU's")),
        BusyBoxCase(
            name: "ls-h-works", setup: listed, line: "ls -h d",
            expectation: .gnuDiffers("the case compares BusyBox's ls with GNU's")),
        BusyBoxCase(
            name: "ls-l-works", setup: listed, line: "ls -l d",
            expectation: .gnuDiffers("the case compares BusyBox's ls with GNU's, ignoring blanks")),
        BusyBoxCase(
            name: "ls-s-works", setup: listed, line: "ls -1s d",
            expectation: .gnuDiffers("the case compares BusyBox's ls with GNU's, ignoring blanks")),
        BusyBoxCase(
            name: "ls.tests: ls unicode test with codepoints limited to 767",
            setup: "mkdir ls.testdir; cd ls.testdir; for n in '\\300\\257' '\\355\\240\\200' '\\376\\377'"
                + " '\\302\\200' '\\364\\220\\200\\200' '\\357\\277\\276'; do : > \"$(printf \"n_$n\")\"; done",
            line: "ls -1 ls.testdir",
            expectation: .gnuDiffers("BusyBox built with its own Unicode tables shows '?' for bytes it rejects")),
        BusyBoxCase(
            name: "ls.tests: ls symlink_to_dir", setup: "mkdir ls.testdir",
            line:
                "touch ls.testdir/A ls.testdir/B; ln -s ls.testdir ls.link; ls ls.link; ls -1 ls.link/;"
                + " ls -1 ls.link; rm -f ls.link",
            expectation: .caseSays("A\nB\nA\nB\nA\nB\n")),
    ]

    /// The fixture of mv-files-to-dir and its kin: a file dated in 2000 inside dir1.
    static let toMove = filesAndDirectory + "; TZ=UTC0 touch -d '2000-01-30 05:24:08' dir1/file3"

    /// What mv-files-to-dir checks: everything is in there, nothing is left behind.
    static let movedIntoThere = [
        "test -f there/file1", "test -f there/file2", "test -f there/dir1/file3", "test -L there/link1",
        "test \"$(readlink there/link1)\" = file2", "test ! -e file1", "test ! -e file2", "test ! -e link1",
        "test ! -e dir1/file3",
    ]

    static let mvCases: [BusyBoxCase] = [
        BusyBoxCase(
            name: "mv-files-to-dir", setup: toMove, line: "mv file1 file2 link1 dir1 there", checks: movedIntoThere),
        BusyBoxCase(
            name: "mv-files-to-dir-2", setup: toMove, line: "mv -t there file1 file2 link1 dir1",
            checks: movedIntoThere),
        BusyBoxCase(
            name: "mv-follows-links", setup: "touch foo; ln -s foo bar", line: "mv bar baz", checks: ["test -f baz"]),
        BusyBoxCase(
            name: "mv-moves-empty-file", setup: "touch foo", line: "mv foo bar",
            checks: ["test ! -e foo", "test -f bar"]),
        BusyBoxCase(
            name: "mv-moves-file", setup: "touch foo", line: "mv foo bar", checks: ["test ! -f foo -a -f bar"]),
        BusyBoxCase(
            name: "mv-moves-hardlinks", setup: "touch foo; ln foo bar", line: "mv bar baz",
            checks: ["test ! -f bar -a -f baz"]),
        BusyBoxCase(
            name: "mv-moves-large-file", setup: "dd if=/dev/zero of=foo seek=10k count=1 2>/dev/null",
            line: "mv foo bar", checks: ["test ! -e foo", "test -f bar"]),
        BusyBoxCase(
            name: "mv-moves-small-file", setup: "echo I WANT > foo", line: "mv foo bar",
            checks: ["test ! -e foo", "test -f bar"]),
        BusyBoxCase(
            name: "mv-moves-symlinks", setup: "touch foo; ln -s foo bar", line: "mv bar baz",
            checks: ["test -f foo", "test ! -e bar", "test -L baz"]),
        BusyBoxCase(
            name: "mv-moves-unreadable-files", setup: "touch foo; chmod a-r foo", line: "mv foo bar",
            checks: ["test ! -e foo", "test -f bar"]),
        BusyBoxCase(
            name: "mv-preserves-hard-links", setup: "touch foo; ln foo bar; mkdir baz", line: "mv foo bar baz",
            checks: ["test baz/foo -ef baz/bar"]),
        BusyBoxCase(
            name: "mv-preserves-links", setup: "touch foo; ln -s foo bar", line: "mv bar baz",
            checks: ["test -L baz", "test \"$(readlink baz)\" = foo"]),
        BusyBoxCase(
            name: "mv-refuses-mv-dir-to-subdir", setup: toMove,
            line: "mv file1 file2 link1 dir1 there; mv there there/dir1", checks: movedIntoThere,
            expectation: .gnuDiffers("the case asks only for a failure; GNU's message and status are the reference")),
        BusyBoxCase(
            name: "mv-removes-source-file", setup: "touch foo", line: "mv foo bar",
            checks: ["test ! -e foo", "test -f bar"]),
    ]

    @Test(arguments: rows)
    func caseRunsAsWithGNU(_ row: BusyBoxCase) throws {
        let shell = TestShell(interactive: false)
        let twin = TemporaryDirectory(onLocalDisk: true)
        defer { twin.remove() }
        for root in [shell.directory.file, twin.file] {
            let built = try ReferenceTool.run("/bin/sh", ["-c", "set -e; " + row.setup], in: root)
            try #require(built.status == .success, "set-up: \(built.stderr)")
        }
        let ours = shell.run(row.line)
        let theirs = try ReferenceTool.run("/bin/bash", ["-c", row.line], in: twin.file)
        #expect(ours.stdout == theirs.stdout)
        #expect(ours.stderr == theirs.stderr)
        #expect(ours.status == theirs.status)
        #expect(try TwinRun.snapshot(shell.directory.file, CpOptionTests.describe) == TwinRun.snapshot(twin.file, CpOptionTests.describe))
        let checks = row.checks.map { "\($0) || echo \"BAD: \"'\($0.replacingOccurrences(of: "'", with: "'\\''"))'" }
        let checked = try ReferenceTool.run("/bin/sh", ["-c", checks.joined(separator: "\n")], in: shell.directory.file)
        #expect(checked.stdout + checked.stderr == "")
        if case .caseSays(let expected) = row.expectation {
            #expect(ours.stdout + ours.stderr == expected)
            #expect(ours.status == .success)
        }
    }

    /// cp-does-not-copy-unreadable-file: the tests run as root, who may read any file, so the
    /// source's open is refused by an injected EACCES, as it is refused to another user; the case
    /// asks that nothing be copied, GNU's cp words the failure so.
    @Test func anUnreadableFileIsNotCopied() throws {
        let shell = TestShell(interactive: false)
        try shell.write("foo", "")
        let plan = FaultPlan { call, path in call == .open && path?.hasSuffix("/foo") == true ? .permissionDenied : nil }
        let result = FaultPlan.$current.withValue(plan) { shell.run("cp foo bar") }
        #expect(result.stderr == "cp: cannot open 'foo' for reading: Permission denied\n")
        #expect(result.status == .failure)
        #expect(!shell.path("bar").exists)
    }
}
