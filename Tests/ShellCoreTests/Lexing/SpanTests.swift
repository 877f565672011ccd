import Testing

@testable import ShellCore

/// Tokens keep the bytes they were read from, and errors point at their line and column through
/// the source map, whichever line of a statement they are on.
@Suite struct SpanTests {
    @Test func tokensSpanTheirBytesQuotesIncluded() throws {
        let source = "cp 'a b' \"$X\"y >> out && ls;\n"
        let tokens = try Lexer.tokenize(Array(source.utf8))
        let spans = tokens.map { token in
            String(source.utf8.dropFirst(token.range.lowerBound).prefix(token.range.count))!
        }
        #expect(spans == ["cp", "'a b'", "\"$X\"y", ">>", "out", "&&", "ls", ";", "\n"])
    }

    @Test func wordsOnLaterLinesKeepTheirOffsets() throws {
        let source = Array("echo 'a\nb' c\npwd".utf8)
        let statements = try Parser.parse(source)
        let map = SourceMap(source)
        #expect(statements.count == 2)
        let words = statements.map { $0.first.commands[0].words.map { map.location(of: $0.range.lowerBound) } }
        #expect(
            words == [
                [
                    SourceLocation(line: 1, column: 0), SourceLocation(line: 1, column: 5),
                    SourceLocation(line: 2, column: 3),
                ],
                [SourceLocation(line: 3, column: 0)],
            ])
        #expect(map.location(of: statements[1].first.offset) == SourceLocation(line: 3, column: 0))
    }

    /// A source, and the offset and location its syntax error is at.
    typealias Row = SourceMapTests.Row

    static let errorRows: [Row] = [
        Row(
            name: "a pipe with no command after a quoted line break", source: "echo 'a\nb' | ;", offset: 13, line: 2,
            column: 5),
        Row(
            name: "redirection without a file on line three", source: "ls &&\n\n  cat >", offset: 14, line: 3,
            column: 7),
        Row(
            name: "&& at a statement's start on line two", source: "pwd\n&& ls", offset: 4, line: 2, column: 0
        ),
        Row(name: "&& at the end of the source", source: "pwd &&\n", offset: 6, line: 1, column: 6),
        Row(name: "open quote on line two", source: "pwd\necho \"x", offset: 9, line: 2, column: 5),
    ]

    @Test(arguments: errorRows)
    func syntaxErrorsPointAtTheirLineAndColumn(_ row: Row) {
        let error = #expect(throws: SyntaxError.self) { try Parser.parse(Array(row.source.utf8)) }
        #expect(error?.offset == row.offset)
        #expect(error?.location == SourceLocation(line: row.line, column: row.column))
    }

    @Test func aScriptsSyntaxErrorNamesTheLineOfItsStatement() {
        let shell = TestShell(interactive: false)
        let result = shell.run("pwd\necho 'a\nb' &x\n")
        #expect(result.stderr == "shelf: test:3:4: syntax error: '&' is not supported\nb' &x\n   ^\n")
        #expect(result.status == .usage)
    }
}
