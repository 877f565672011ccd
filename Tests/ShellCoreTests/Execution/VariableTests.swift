import PathModel
import Testing

@testable import ShellCore

/// Variables as bytes, positional parameters, unset variables, `${NAME-word}` defaults,
/// `NAME=value`, `export` and `unset`, run as a script runs them (a failure stops it).
@Suite struct VariableTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let line: String
        var stdout = ""
        var stderr = ""
        var status: ShellCore.ExitStatus = .success
        var testDescription: String { name }
    }

    /// A script shell with `EMPTY` set to nothing, positional parameters `a`, `b c` and `*`,
    /// files `g1` and `g2`, and a directory `sub`.
    private static func makeShell() throws -> TestShell {
        let shell = TestShell(interactive: false, environment: ["EMPTY": ""])
        shell.state.arguments = [Array("a".utf8), Array("b c".utf8), Array("*".utf8)]
        try shell.write("g1")
        try shell.write("g2")
        try shell.write("sub/f")
        return shell
    }

    static let rows: [Row] = [
        Row(
            name: "an unset variable fails the statement", line: "echo $NOPE/x; echo never",
            stderr: "shelf: NOPE: unset variable\nshelf: stopped at test:1\n", status: .failure),
        Row(
            name: "in braces, in double quotes, in a redirection", line: "set +e; echo ${NOPE}; echo \"a$NOPE\"; echo x > $NOPE",
            stderr: "shelf: NOPE: unset variable\nshelf: NOPE: unset variable\nshelf: NOPE: unset variable\n",
            status: .failure),
        Row(
            name: "a leading - does not ignore it", line: "-echo $NOPE; echo never",
            stderr: "shelf: NOPE: unset variable\nshelf: stopped at test:1\n", status: .failure),
        Row(
            name: "no command of the statement runs", line: "echo ran && echo $NOPE",
            stderr: "shelf: NOPE: unset variable\n", status: .failure),
        Row(name: "an empty variable is set", line: "echo [$EMPTY]", stdout: "[]\n"),
        Row(
            name: ":- replaces unset and empty, - only unset",
            line: "echo ${NOPE:-u} ${NOPE-u} ${EMPTY:-e} [${EMPTY-e}] ${HOME:-h}",
            stdout: "u u e [] $TMP\n"),
        Row(
            name: "a default is a word: quotes, blanks, variables, a default of its own",
            line: "echo ${NOPE:-'a  b'} \"${NOPE:-x  y}\" ${NOPE:-$HOME/z} ${NOPE-${NOPE2:-deep}} [${NOPE:-}]",
            stdout: "a  b x  y $TMP/z deep []\n"),
        Row(name: "an unquoted default globs and starts with ~", line: "echo ${NOPE:-g*} ${NOPE:-~/k}", stdout: "g1 g2 $TMP/k\n"),
        Row(name: "a quoted default does not glob", line: "echo \"${NOPE:-g*}\" ${NOPE:-'g*'}", stdout: "g* g*\n"),
        Row(
            name: "a variable unset in the default used is unset", line: "echo ${NOPE:-$NOPE2}",
            stderr: "shelf: NOPE2: unset variable\n", status: .failure),
        Row(name: "a default not used is not expanded", line: "echo ${HOME-$NOPE}", stdout: "$TMP\n"),
        Row(name: "$?, $# and $0 are always set", line: "echo $? $# $0", stdout: "0 3 shelf\n"),
        Row(
            name: "positional parameters, whole and unsplit, never globbed",
            line: "echo $1 \"$2\" ${2} $3 $10 ${1:-x}", stdout: "a b c b c * a0 a\n"),
        Row(
            name: "a positional parameter beyond the count is unset", line: "echo ${4:-four}; echo $4",
            stdout: "four\n", stderr: "shelf: $4: unset variable\n", status: .failure),
        Row(
            name: "so is ${10}", line: "echo ${10}", stderr: "shelf: $10: unset variable\n", status: .failure),
        // Assignments, export and unset.
        Row(name: "an assignment alone sets a variable", line: "X=1; echo $X", stdout: "1\n"),
        Row(name: "several on a line", line: "A=1 B=2; echo $A$B", stdout: "12\n"),
        Row(
            name: "each sees those before it, alone or before a command",
            line: "A=1 B=$A; echo $B; unset A B; A=sub B=~/$A HOME=$B cd; pwd; echo ${B-unset}",
            stdout: "1\n$TMP/sub\nunset\n"),
        Row(name: "an empty value is set", line: "E=; echo [$E]", stdout: "[]\n"),
        Row(
            name: "the value expands ~, variables and quotes, never globs or splits",
            line: "V=~/x; W=\"a  b\"$V; G=g*; Q='$V'; echo $V \"$W\" $G $Q",
            stdout: "$TMP/x a  b$TMP/x g* $V\n"),
        Row(name: "a quoted name is a command", line: "'X'=1", stderr: "shelf: 'X=1': command not found\n", status: .notFound),
        Row(name: "so is a name that is no variable name", line: "1X=1", stderr: "shelf: '1X=1': command not found\n", status: .notFound),
        Row(name: "an argument that looks like one is an argument", line: "echo X=1", stdout: "X=1\n"),
        Row(name: "a later command of the statement sees it", line: "X=5 && echo $X", stdout: "5\n"),
        Row(name: "a variable unset in the value is an error", line: "X=$NOPE", stderr: "shelf: NOPE: unset variable\n", status: .failure),
        Row(
            name: "for one command, its words still see the value before",
            line: "X=old; X=new echo $X; echo $X", stdout: "old\nold\n"),
        Row(
            name: "for one built-in, it sees the value, which is gone after",
            line: "HOME=~/sub cd; pwd; echo $HOME", stdout: "$TMP/sub\n$TMP\n"),
        Row(
            name: "for one command, a variable that was not set is unset after",
            line: "NEW=1 echo x; echo ${NEW-unset}", stdout: "x\nunset\n"),
        Row(
            name: "unset removes it, and $X is an error again",
            line: "X=1; unset X; echo ${X-gone}; echo $X", stdout: "gone\n",
            stderr: "shelf: X: unset variable\n", status: .failure),
        Row(name: "unset of a variable that is not set is no error", line: "unset NOPE; echo $?", stdout: "0\n"),
        Row(
            name: "export sets and exports; the listing reads back",
            line: "export B A=1 'Q=it'\\''s'; export -p",
            stdout:
                "export A='1'\nexport B\nexport EMPTY=''\nexport HOME='$TMP'\nexport LC_ALL='C'\nexport PATH='/usr/bin:/bin'\nexport Q='it'\\''s'\n"
        ),
        Row(name: "export expands ~ after = and does not glob", line: "export V=~/g* W=g*; echo $V $W", stdout: "$TMP/g* g*\n"),
        Row(name: "export -n keeps the variable", line: "export -n EMPTY HOME LC_ALL PATH; export; echo $PATH", stdout: "/usr/bin:/bin\n"),
        Row(
            name: "export reports an invalid name and goes on with the others",
            line: "export 1x=2 Y=3 'a b'", stderr: "shelf: export: '1x=2': not a valid identifier\nshelf: export: 'a b': not a valid identifier\n",
            status: .failure),
        Row(
            name: "unset reports an invalid name", line: "unset 1x",
            stderr: "shelf: unset: '1x': not a valid identifier\n", status: .failure),
    ]

    @Test(arguments: rows)
    func expands(_ row: Row) throws {
        let shell = try Self.makeShell()
        let result = shell.run(row.line)
        let home = shell.directory.file.string
        #expect(result.stdout == row.stdout.replacing("$TMP", with: home))
        #expect(result.stderr == row.stderr)
        #expect(result.status == row.status)
    }

    @Test("An unset variable stops the statement before anything of it runs")
    func nothingOfTheStatementRuns() throws {
        let shell = try Self.makeShell()
        try shell.write("keep")
        shell.run("set +e; mkdir made && rm -f keep$NOPE; rm -f keep ${NOPE}; rm -f keep > out$NOPE")
        #expect(!shell.path("made").exists)
        #expect(shell.path("keep").exists)
    }

    @Test("A value that is not UTF-8 expands to its exact bytes")
    func valuesAreBytes() throws {
        let shell = try Self.makeShell()
        let name: [UInt8] = [0x78, 0xFE, 0x80]
        shell.state.environment["BAD"] = name
        shell.state.arguments = [name]
        #expect(shell.run("touch $BAD && rm $1").status == .success)
        #expect(shell.run("touch \"${NOPE:-$BAD}\"").status == .success)
        #expect(try shell.directory.file.appending(name: name).exists)
    }

    @Test("export goes on after an invalid name")
    func exportGoesOn() throws {
        let shell = try Self.makeShell()
        shell.run("set +e; export 1x=2 Y=3")
        #expect(shell.state.environment["Y"] == Array("3".utf8))
        #expect(shell.state.exportedNames.contains(Array("Y".utf8)))
    }

    @Test("What export lists reads back to the same bytes, quotes, newlines and invalid UTF-8 included")
    func exportListingReadsBack() throws {
        let first = try Self.makeShell()
        let value: [UInt8] = Array("a'b\n\"c\" $d ".utf8) + [0xFE, 0x80]
        first.state.environment["ODD"] = value
        first.run("export ODD EMPTY=")
        first.run("export")
        let listing = first.stdout.contents
        let second = TestShell(interactive: false)
        second.state.environment = Environment()
        second.state.exportedNames = []
        let output = OutputStream()
        let shell = Shell(state: second.state, stdout: output, stderr: output)
        #expect(ScriptRunner(shell: shell, origin: "test").run(source: listing) == .success)
        #expect(second.state.environment["ODD"] == value)
        #expect(second.state.environment["EMPTY"] == [])
        second.run("export")
        #expect(second.stdout.contents == listing)
    }
}
