import Testing

@testable import ShellCore

/// Renders statements as `[(NAME=value) cmd args > file] | [...] && [...]`.
private func render(_ statements: [Statement]) -> String {
    func command(_ simple: SimpleCommand) -> String {
        var parts = simple.assignments.map { "(\($0.name)=" + String(decoding: $0.value.literalText ?? [], as: UTF8.self) + ")" }
        parts += simple.words.map { String(decoding: $0.literalText ?? [], as: UTF8.self) }
        for redirection in simple.redirections {
            let target = redirection.target.map { " " + String(decoding: $0.literalText ?? [], as: UTF8.self) } ?? ""
            parts.append(redirection.kind.spelled + target)
        }
        return "[" + parts.joined(separator: " ") + "]"
    }
    func pipeline(_ pipeline: Pipeline) -> String { pipeline.commands.map(command).joined(separator: " | ") }
    return statements.map { statement in
        ([pipeline(statement.first)] + statement.rest.map { ($0.0 == .and ? "&& " : "|| ") + pipeline($0.1) })
            .joined(separator: " ")
    }.joined(separator: " ; ")
}

@Suite struct ParserTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let input: String
        let expected: String
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "one command", input: "ls -l", expected: "[ls -l]"),
        Row(name: "semicolons split statements", input: "a; b ;c", expected: "[a] ; [b] ; [c]"),
        Row(name: "and-or chain", input: "a && b || c", expected: "[a] && [b] || [c]"),
        Row(name: "newline after && continues", input: "a &&\n  b", expected: "[a] && [b]"),
        Row(name: "redirections attach to their command", input: "ls > out && cat x >> log", expected: "[ls > out] && [cat x >> log]"),
        Row(name: "redirection before words", input: "> out echo hi", expected: "[echo hi > out]"),
        Row(name: "empty statements are skipped", input: ";;\n\n a", expected: "[a]"),
        Row(name: "comment only", input: "# nothing", expected: ""),
        Row(name: "a pipeline", input: "ls -R | grep x|wc -l", expected: "[ls -R] | [grep x] | [wc -l]"),
        Row(
            name: "pipelines bind tighter than && and ||", input: "a | b && c || d | e > out",
            expected: "[a] | [b] && [c] || [d] | [e > out]"),
        Row(name: "a newline after | continues", input: "a |\n\n  b", expected: "[a] | [b]"),
        Row(
            name: "redirections of every stream, in order", input: "sort <in >out 2>&1 | wc 2>>log &>all",
            expected: "[sort < in > out 2>&1] | [wc 2>> log &> all]"),
        Row(name: "assignments alone", input: "A=1 B='x y' C=", expected: "[(A=1) (B=x y) (C=)]"),
        Row(
            name: "assignments before a command, and words after its name are words",
            input: "A=1 run B=2 && C=3 | x", expected: "[(A=1) run B=2] && [(C=3)] | [x]"),
        Row(name: "a quoted name or one that is no name is a word", input: "'A'=1 1B=2", expected: "[A=1 1B=2]"),
    ]

    @Test(arguments: rows)
    func parses(_ row: Row) throws {
        #expect(render(try Parser.parse(Array(row.input.utf8))) == row.expected)
    }

    struct ErrorRow: CustomTestStringConvertible, Sendable {
        let name: String
        let input: String
        let message: String
        let column: Int
        let incomplete: Bool
        var testDescription: String { name }
    }

    static let errorRows: [ErrorRow] = [
        ErrorRow(name: "&& with nothing after", input: "ls &&", message: "expected a command after '&&'", column: 5, incomplete: true),
        ErrorRow(name: "&& before ;", input: "ls && ; pwd", message: "expected a command after '&&'", column: 6, incomplete: false),
        ErrorRow(name: "leading ||", input: "|| ls", message: "unexpected '||'", column: 0, incomplete: false),
        ErrorRow(name: "redirection without file", input: "ls >", message: "expected a file name after '>'", column: 4, incomplete: false),
        ErrorRow(name: "redirection followed by operator", input: "ls >> && x", message: "expected a file name after '>>'", column: 6, incomplete: false),
        ErrorRow(name: "unterminated quote", input: "echo \"abc", message: "unterminated quote \"", column: 5, incomplete: true),
        ErrorRow(name: "| with nothing after", input: "ls |", message: "expected a command after '|'", column: 4, incomplete: true),
        ErrorRow(name: "| before ;", input: "ls | ; pwd", message: "expected a command after '|'", column: 5, incomplete: false),
        ErrorRow(name: "leading |", input: "| ls", message: "unexpected '|'", column: 0, incomplete: false),
        ErrorRow(name: "| after &&", input: "ls && | wc", message: "unexpected '|'", column: 6, incomplete: false),
        ErrorRow(name: "two |", input: "ls | | wc", message: "unexpected '|'", column: 5, incomplete: false),
        ErrorRow(name: "a stage of redirections only", input: "ls | > out", message: "expected a command before '>'", column: 5, incomplete: false),
        ErrorRow(name: "input without a command", input: "< in", message: "expected a command before '<'", column: 0, incomplete: false),
        ErrorRow(name: "assignments with a redirection and no command", input: "A=1 > out", message: "expected a command before '>'", column: 0, incomplete: false),
        ErrorRow(name: "2> without a file", input: "ls 2> ; x", message: "expected a file name after '2>'", column: 6, incomplete: false),
    ]

    @Test(arguments: errorRows)
    func pointsAtTheProblem(_ row: ErrorRow) {
        do {
            _ = try Parser.parse(Array(row.input.utf8))
            Issue.record("expected a syntax error")
        } catch {
            #expect(Diagnostics.render(error) == row.message)
            #expect(error.location.column == row.column)
            #expect(error.isIncomplete == row.incomplete)
        }
    }
}
