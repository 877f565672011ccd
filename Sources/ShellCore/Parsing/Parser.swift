/// A syntax error: what, and the line and column it points at.
public struct SyntaxError: Error, Sendable, Hashable {
    /// The message, without position (`unterminated quote '`).
    public var message: String
    /// 1-based line within the source.
    public var line: Int
    /// Byte offset within the line.
    public var column: Int
    /// Whether more input could complete the statement (an open quote, a trailing `&&`).
    public var isIncomplete: Bool
}

/// Builds statements from tokens; touches nothing but the tokens.
public enum Parser {
    /// Tokenizes and parses `source` into statements.
    /// - Throws: `SyntaxError` for the first problem; nothing of the source should run then.
    public static func parse(_ source: [UInt8]) throws(SyntaxError) -> [Statement] {
        let tokens: [Token]
        do {
            tokens = try Lexer.tokenize(source)
        } catch {
            throw SyntaxError(
                message: error.problem.description, line: error.line, column: error.column,
                isIncomplete: error.problem.isIncomplete)
        }
        return try parse(tokens: tokens, endOfInput: endPosition(of: source))
    }

    /// Whether `source` stops in the middle of a statement that more lines could finish (an
    /// open quote, a trailing `&&`, `||` or backslash); a shell then reads another line.
    public static func needsMoreInput(_ source: [UInt8]) -> Bool {
        do {
            _ = try parse(source)
            return false
        } catch {
            return error.isIncomplete
        }
    }

    private static func endPosition(of source: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for (offset, byte) in source.enumerated() where byte == 0x0A && offset != source.count - 1 {
            line += 1
            lineStart = offset + 1
        }
        let end = source.last == 0x0A ? source.count - 1 : source.count
        return (line, end - lineStart)
    }

    /// Parses tokens into statements.
    static func parse(tokens: [Token], endOfInput: (line: Int, column: Int)) throws(SyntaxError) -> [Statement] {
        var statements: [Statement] = []
        var index = 0

        func error(_ message: String, at token: Token?, incomplete: Bool = false) -> SyntaxError {
            SyntaxError(
                message: message, line: token?.line ?? endOfInput.line, column: token?.column ?? endOfInput.column,
                isIncomplete: incomplete)
        }

        func simpleCommand() throws(SyntaxError) -> SimpleCommand? {
            var words: [Word] = []
            var redirections: [Redirection] = []
            let start = index < tokens.count ? tokens[index] : nil
            while index < tokens.count {
                let token = tokens[index]
                switch token.kind {
                case .word(let word):
                    words.append(word)
                    index += 1
                case .redirect(let append):
                    index += 1
                    guard index < tokens.count, case .word(let target) = tokens[index].kind else {
                        throw error(
                            "expected a file name after '\(append ? ">>" : ">")'",
                            at: index < tokens.count ? tokens[index] : nil)
                    }
                    redirections.append(Redirection(append: append, target: target, column: token.column))
                    index += 1
                default:
                    return finish()
                }
            }
            return finish()

            func finish() -> SimpleCommand? {
                guard let start, !words.isEmpty || !redirections.isEmpty else { return nil }
                return SimpleCommand(words: words, redirections: redirections, line: start.line, column: start.column)
            }
        }

        while index < tokens.count {
            if tokens[index].kind == .separator || tokens[index].kind == .newline {
                index += 1
                continue
            }
            guard let first = try simpleCommand() else {
                let token = tokens[index]
                throw error("unexpected '\(token.kind == .and ? "&&" : "||")'", at: token)
            }
            if first.words.isEmpty {
                throw error("expected a command before '>'", at: tokens.first { $0.line == first.line && $0.column == first.column })
            }
            var rest: [(Connector, SimpleCommand)] = []
            while index < tokens.count, tokens[index].kind == .and || tokens[index].kind == .or {
                let operatorToken = tokens[index]
                let connector: Connector = operatorToken.kind == .and ? .and : .or
                index += 1
                // A newline after && or || continues the statement, as in sh.
                while index < tokens.count, tokens[index].kind == .newline { index += 1 }
                guard let next = try simpleCommand(), !next.words.isEmpty else {
                    let spelled = connector == .and ? "&&" : "||"
                    throw error(
                        "expected a command after '\(spelled)'", at: index < tokens.count ? tokens[index] : nil,
                        incomplete: index >= tokens.count)
                }
                rest.append((connector, next))
            }
            statements.append(Statement(first: first, rest: rest))
        }
        return statements
    }
}
