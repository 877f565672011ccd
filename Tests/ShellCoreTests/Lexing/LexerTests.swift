import Testing

@testable import ShellCore

/// Renders tokens of `input` compactly: words as `W(text@column)` with `~` marking quoted pieces,
/// operators by symbol.
private func render(_ tokens: [Token], of input: String) -> String {
    let map = SourceMap(Array(input.utf8))
    return tokens.map { token -> String in
        switch token.kind {
        case .word(let word):
            return "W(\(render(word.pieces))@\(map.location(of: token.range.lowerBound).column))"
        case .separator: return ";"
        case .newline: return "NL"
        case .and: return "&&"
        case .or: return "||"
        case .pipe: return "|"
        case .redirect(let kind): return kind.spelled
        case .shellLine(let line): return "!(\(String(decoding: line, as: UTF8.self))@\(map.location(of: token.range.lowerBound).column))"
        }
    }.joined(separator: " ")
}

/// Renders pieces as `text|$NAME`, a default word as `${NAME:-pieces}` or `${NAME-pieces}`.
private func render(_ pieces: [WordPiece]) -> String {
    pieces.map { piece -> String in
        switch piece {
        case .text(let bytes, let quoted): return (quoted ? "~" : "") + String(decoding: bytes, as: UTF8.self)
        case .variable(let variable, let quoted):
            let name = variable.name.description
            let spelled = name.hasPrefix("$") ? name : "$" + name
            guard let fallback = variable.fallback else { return (quoted ? "~" : "") + spelled }
            let operator_ = fallback.replacesEmpty ? ":-" : "-"
            return (quoted ? "~" : "") + "${\(spelled.dropFirst())\(operator_)\(render(fallback.pieces))}"
        }
    }.joined(separator: "|")
}

@Suite struct LexerTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let input: String
        let expected: String
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "blanks split words", input: "ls  -l\ta", expected: "W(ls@0) W(-l@4) W(a@7)"),
        Row(name: "single quotes are literal", input: "echo 'a $b \\c'", expected: "W(echo@0) W(~a $b \\c@5)"),
        Row(name: "double quotes allow escapes", input: #"echo "a\"b\\c\$d""#, expected: #"W(echo@0) W(~a"b\c$d@5)"#),
        Row(name: "double quotes expand variables", input: #"echo "x$HOME/y""#, expected: "W(echo@0) W(~x|~$HOME|~/y@5)"),
        Row(name: "backslash outside quotes", input: #"rm a\ b"#, expected: "W(rm@0) W(a|~ |b@3)"),
        Row(name: "braced variable", input: "cd ${HOME}/x", expected: "W(cd@0) W($HOME|/x@3)"),
        Row(name: "last status", input: "echo $?", expected: "W(echo@0) W($?@5)"),
        Row(name: "lone dollar is text", input: "echo $ a$", expected: "W(echo@0) W($@5) W(a$@7)"),
        Row(name: "positional parameters", input: "echo $1 $10 ${10} $0", expected: "W(echo@0) W($1@5) W($1|0@8) W($10@12) W($0@18)"),
        Row(name: "parameter count", input: "echo $# \"$#\" ${#}", expected: "W(echo@0) W($#@5) W(~$#@8) W($#@13)"),
        Row(name: "default when unset or empty", input: "rm ${DIR:-build}/x", expected: "W(rm@0) W(${DIR:-build}|/x@3)"),
        Row(name: "default when unset", input: "rm ${DIR-build}", expected: "W(rm@0) W(${DIR-build}@3)"),
        Row(name: "empty default", input: "echo ${DIR:-}", expected: "W(echo@0) W(${DIR:-}@5)"),
        Row(
            name: "a default holds blanks, quotes, operators and variables",
            input: "echo ${A:-a b;'c}'\"$HOME\"${B-$C}}",
            expected: "W(echo@0) W(${A:-a b;|~c}|~$HOME|${B-$C}}@5)"),
        Row(
            name: "a default in double quotes reads as double-quoted text",
            input: #"echo "${A:-'x' "y}" \}}""#, expected: #"W(echo@0) W(~${A:-~'x' y} }}@5)"#),
        Row(name: "a default starts with ~", input: "cd ${D:-~/x}", expected: "W(cd@0) W(${D:-~/x}@3)"),
        Row(name: "comment to end of line", input: "ls # list\npwd", expected: "W(ls@0) NL W(pwd@0)"),
        Row(name: "hash inside a word", input: "echo a#b", expected: "W(echo@0) W(a#b@5)"),
        Row(name: "operators", input: "a&&b||c;d|e", expected: "W(a@0) && W(b@3) || W(c@6) ; W(d@8) | W(e@10)"),
        Row(name: "redirections", input: "ls >out >>log", expected: "W(ls@0) > W(out@4) >> W(log@10)"),
        Row(
            name: "every redirection", input: "a <in 1>o 2>e 2>>e2 2>&1 &>b &>>c 1>>d",
            expected: "W(a@0) < W(in@3) > W(o@8) 2> W(e@12) 2>> W(e2@17) 2>&1 &> W(b@27) &>> W(c@32) >> W(d@37)"),
        Row(name: "a quoted or longer number is a word", input: "echo '2'>x 12 x2>y", expected: "W(echo@0) W(~2@5) > W(x@9) W(12@11) W(x2@14) > W(y@17)"),
        Row(name: "empty quotes make an empty word", input: "touch ''", expected: "W(touch@0) W(~@6)"),
        Row(name: "quotes join with text", input: #"a"b c"'d'"#, expected: "W(a|~b cd@0)"),
        Row(name: "backslash newline joins lines", input: "echo a\\\nb", expected: "W(echo@0) W(ab@5)"),
        Row(name: "UTF-8 passes through", input: "cat 日本語.txt", expected: "W(cat@0) W(日本語.txt@4)"),
        Row(
            name: "! at a line's start takes the rest of the line as it is",
            input: "ls\n  !for f in *; do echo \"$f\" | wc; done &\npwd",
            expected: "W(ls@0) NL !(for f in *; do echo \"$f\" | wc; done &@2) NL W(pwd@0)"),
        Row(name: "! elsewhere is a word's", input: "echo !a; !b", expected: "W(echo@0) W(!a@5) ; W(!b@9)"),
    ]

    @Test(arguments: rows)
    func tokenizes(_ row: Row) throws {
        #expect(render(try Lexer.tokenize(Array(row.input.utf8)), of: row.input) == row.expected)
    }

    struct ErrorRow: CustomTestStringConvertible, Sendable {
        let name: String
        let input: String
        let problem: Lexer.Problem
        let line: Int
        let column: Int
        var testDescription: String { name }
    }

    static let errorRows: [ErrorRow] = [
        ErrorRow(name: "open single quote", input: "cp 'a b", problem: .unterminatedQuote(0x27), line: 1, column: 3),
        ErrorRow(name: "open double quote", input: "ls\ncat \"x", problem: .unterminatedQuote(0x22), line: 2, column: 4),
        ErrorRow(name: "open brace", input: "echo ${HOME", problem: .unterminatedVariable, line: 1, column: 5),
        ErrorRow(name: "trailing backslash", input: "echo a\\", problem: .trailingBackslash, line: 1, column: 6),
        ErrorRow(name: "background ampersand", input: "ls &", problem: .unsupportedOperator("&"), line: 1, column: 3),
        ErrorRow(name: "here-document", input: "cat <<END", problem: .unsupportedOperator("<<"), line: 1, column: 4),
        ErrorRow(name: "another descriptor", input: "rm x 3>/dev/null", problem: .unsupportedOperator("3>"), line: 1, column: 5),
        ErrorRow(name: "2>& to a file", input: "ls 2>&out", problem: .unsupportedOperator("2>&"), line: 1, column: 3),
        ErrorRow(name: "another descriptor read", input: "rm x 3<in", problem: .unsupportedOperator("3<"), line: 1, column: 5),
        ErrorRow(name: "a here-document on 0", input: "cat 0<<END", problem: .unsupportedOperator("0<<"), line: 1, column: 4),
        ErrorRow(name: ">& to a file", input: "ls >&out", problem: .unsupportedOperator(">&"), line: 1, column: 3),
        ErrorRow(name: "1>& to standard output", input: "ls 1>&1", problem: .unsupportedOperator(">&"), line: 1, column: 3),
        ErrorRow(name: "appending descriptor", input: "ls 12>>log", problem: .unsupportedOperator("12>"), line: 1, column: 3),
        ErrorRow(name: "command substitution", input: "rm $(cat list)", problem: .unsupportedOperator("$("), line: 1, column: 3),
        ErrorRow(name: "arithmetic", input: "echo $((1+2))", problem: .unsupportedOperator("$("), line: 1, column: 5),
        ErrorRow(name: "backquotes", input: "rm `cat list`", problem: .unsupportedOperator("`"), line: 1, column: 3),
        ErrorRow(name: "backquote in double quotes", input: "echo \"a`b\"", problem: .unsupportedOperator("`"), line: 1, column: 7),
        ErrorRow(
            name: "assigning default", input: "rm -rf ${DIR:=build}/x", problem: .unsupportedOperator("${DIR:=build}"), line: 1,
            column: 7),
        ErrorRow(name: "length", input: "rm ${#DIR}", problem: .unsupportedOperator("${#DIR}"), line: 1, column: 3),
        ErrorRow(name: "empty braces", input: "echo ${}", problem: .unsupportedOperator("${}"), line: 1, column: 5),
        ErrorRow(name: "all parameters", input: "rm \"$@\"", problem: .unsupportedOperator("$@"), line: 1, column: 4),
        ErrorRow(name: "all parameters, one word", input: "rm $*", problem: .unsupportedOperator("$*"), line: 1, column: 3),
        ErrorRow(name: "open default", input: "echo ${A:-x", problem: .unterminatedVariable, line: 1, column: 5),
        ErrorRow(name: "default open at the line's end", input: "echo ${A:-x\n}", problem: .unterminatedVariable, line: 1, column: 5),
    ]

    @Test(
        "Digits before > are a descriptor only when bare and touching it; quoted < $( ` are words",
        arguments: [
            ("echo x2>y", "x2"), ("echo '2'>y", "2"), ("echo 2 >y", "2"), ("echo '<'>y", "<"), ("echo \\<>y", "<"),
            ("echo '$(x)`'>y", "$(x)`"), ("echo \\`>y", "`"),
        ])
    func wordsThatLookLikeRedirections(_ input: String, _ word: String) throws {
        let tokens = try Lexer.tokenize(Array(input.utf8))
        #expect(tokens.count == 4, "\(input)")
        guard tokens.count == 4, case .word(let second) = tokens[1].kind else { return }
        #expect(second.literalText.map { String(decoding: $0, as: UTF8.self) } == word, "\(input)")
    }

    @Test(arguments: errorRows)
    func reportsWhereItFailed(_ row: ErrorRow) {
        let input = Array(row.input.utf8)
        let failure = #expect(throws: Lexer.Failure.self) { try Lexer.tokenize(input) }
        #expect(failure?.problem == row.problem)
        let location = failure.map { SourceMap(input).location(of: $0.offset) }
        #expect(location == SourceLocation(line: row.line, column: row.column))
    }

    @Test func incompleteProblemsAskForMoreInput() {
        #expect(Lexer.Problem.unterminatedQuote(0x27).isIncomplete)
        #expect(Lexer.Problem.trailingBackslash.isIncomplete)
        #expect(!Lexer.Problem.unsupportedOperator("&").isIncomplete)
    }

    @Test func partialLineReportsOpenQuoteAndLastWord() {
        let partial = Lexer.tokenizePartial(Array("cat 'my fi".utf8))
        #expect(partial.openQuote == 0x27)
        #expect(partial.lastWordStart == 4)
        #expect(render(partial.tokens, of: "cat 'my fi") == "W(cat@0)")
    }
}
