import PathModel
import Testing

@testable import ShellCore

/// Variables as bytes, positional parameters, unset variables and `${NAME-word}` defaults, run
/// as a script runs them (a failure stops it).
@Suite struct VariableTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let line: String
        var stdout = ""
        var stderr = ""
        var status: ShellCore.ExitStatus = .success
        var testDescription: String { name }
    }

    /// A script shell with `EMPTY` set to nothing, positional parameters `a`, `b c` and `*`, and
    /// files `g1` and `g2`.
    private static func makeShell() throws -> TestShell {
        let shell = TestShell(interactive: false, environment: ["EMPTY": ""])
        shell.state.arguments = [Array("a".utf8), Array("b c".utf8), Array("*".utf8)]
        try shell.write("g1")
        try shell.write("g2")
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
}
