import Testing

@testable import ShellCore

/// The one reader of statements that the REPL and scripts share: lines in, whole statements out,
/// each parsed once.
@Suite struct StatementReaderTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let lines: [String]
        /// For each line: nil when the reader waits, else the first line and how many statements
        /// (or -1 for a syntax error) it gives.
        let expected: [Given?]
        var testDescription: String { name }
    }

    struct Given: Hashable, Sendable {
        let firstLine: Int
        let statements: Int
    }

    static let rows: [Row] = [
        Row(
            name: "one statement a line", lines: ["ls\n", "pwd; cd\n"],
            expected: [Given(firstLine: 1, statements: 1), Given(firstLine: 2, statements: 2)]),
        Row(
            name: "an open quote waits for its partner", lines: ["echo 'a\n", "b\n", "c'\n"],
            expected: [nil, nil, Given(firstLine: 1, statements: 1)]),
        Row(
            name: "a quote of the other kind does not close it", lines: ["echo 'a\n", "\"\n", "'\n"],
            expected: [nil, nil, Given(firstLine: 1, statements: 1)]),
        Row(
            name: "a trailing && waits", lines: ["ls &&\n", "pwd ||\n", "cd\n"],
            expected: [nil, nil, Given(firstLine: 1, statements: 1)]),
        Row(
            name: "a trailing | waits", lines: ["ls |\n", "\n", "wc -l\n"],
            expected: [nil, nil, Given(firstLine: 1, statements: 1)]),
        Row(
            name: "a trailing backslash waits", lines: ["echo a\\\n", "b\n"],
            expected: [nil, Given(firstLine: 1, statements: 1)]),
        Row(
            name: "a continued statement that goes wrong is reported at once", lines: ["ls &&\n", "&&\n"],
            expected: [nil, Given(firstLine: 1, statements: -1)]),
        Row(
            name: "a redirection-only command after && is reported at once", lines: ["ls &&\n", ">y &&\n"],
            expected: [nil, Given(firstLine: 1, statements: -1)]),
        Row(
            name: "an error more lines cannot mend is reported at once", lines: ["ls & x\n", "pwd\n"],
            expected: [Given(firstLine: 1, statements: -1), Given(firstLine: 2, statements: 1)]),
        Row(
            name: "line numbers go on after a long statement", lines: ["echo \"a\n", "b\"\n", "ls\n"],
            expected: [nil, Given(firstLine: 1, statements: 1), Given(firstLine: 3, statements: 1)]),
    ]

    @Test(arguments: rows)
    func givesWholeStatements(_ row: Row) {
        var reader = StatementReader()
        let given = row.lines.map { line in
            reader.add(Array(line.utf8)).map { parsed in
                Given(firstLine: parsed.firstLine, statements: (try? parsed.statements.get().count) ?? -1)
            }
        }
        #expect(given == row.expected)
    }

    @Test func theEndOfInputReportsWhatWaits() throws {
        var reader = StatementReader()
        #expect(reader.add(Array("ls &&\n".utf8)) == nil)
        #expect(reader.isWaiting)
        let finished = reader.finish()
        let unfinished = try #require(finished)
        let error = #expect(throws: SyntaxError.self) { try unfinished.statements.get() }
        #expect(error?.problem == .missingCommand(after: .and))
        #expect(error?.location == SourceLocation(line: 1, column: 5))
        #expect(!reader.isWaiting)
    }

    @Test func aSkippedLineIsCountedAndDiscardDropsTheWaitingStatement() {
        var reader = StatementReader()
        reader.skipLine()
        #expect(reader.add(Array("echo 'a\n".utf8)) == nil)
        reader.discard()
        #expect(!reader.isWaiting)
        #expect(reader.add(Array("ls\n".utf8))?.firstLine == 3)
    }

    @Test func theShellRunsWhatWasParsedWithoutParsingAgain() throws {
        // Statements parsed from one text, handed over with another: the shell runs the parsed
        // ones, so it never reads the source a second time.
        let statements = try Parser.parse(Array("echo parsed\n".utf8))
        let handed = ParsedSource(Array("echo again\n".utf8), firstLine: 1, statements: .success(statements))
        let shell = TestShell(interactive: false)
        let stdout = OutputStream(capturingAsTerminal: false)
        let stderr = OutputStream(capturingAsTerminal: false)
        let outcome = Shell(state: shell.state, stdout: stdout, stderr: stderr).run(handed, origin: "test")
        #expect(outcome == .finished(.success))
        #expect(String(decoding: stdout.contents, as: UTF8.self) == "parsed\n")
    }
}
