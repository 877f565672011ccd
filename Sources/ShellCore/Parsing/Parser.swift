/// A syntax error: what, and where in the source; Diagnostics words it.
public struct SyntaxError: Error, Sendable, Hashable {
    /// What is wrong.
    public enum Problem: Sendable, Hashable {
        /// The tokens could not be read (an open quote, `|`, `$(`…).
        case lexical(Lexer.Problem)
        /// `&&` or `||` with no command after it.
        case missingCommand(after: Connector)
        /// `&&` or `||` where a statement starts.
        case unexpected(Connector)
        /// A redirection operator (as written) with no file name after it.
        case missingTarget(String)
        /// A redirection (its operator as written) with no command (`> out`).
        case missingCommandBeforeRedirection(String)
        /// `|` with no command after it.
        case missingCommandAfterPipe
        /// `|` with no command before it.
        case unexpectedPipe
    }

    /// What is wrong.
    public var problem: Problem
    /// Byte offset of the offending token in the source (its end when the source stops short).
    public var offset: Int
    /// The line and column of `offset`.
    public var location: SourceLocation
    /// Whether more input could complete the statement (an open quote, a trailing `&&`).
    public var isIncomplete: Bool
}

/// Builds statements from tokens; touches nothing but the tokens.
public enum Parser {
    /// Tokenizes and parses `source` into statements, with `aliases` expanded in command position.
    /// - Throws: `SyntaxError` for the first problem; nothing of the source should run then.
    public static func parse(_ source: [UInt8], aliases: Aliases = Aliases()) throws(SyntaxError) -> [Statement] {
        let tokens: [Token]
        do {
            tokens = try Lexer.tokenize(source)
        } catch {
            throw syntaxError(error, in: source)
        }
        return try parse(tokens: aliases.expand(tokens), source: source)
    }

    /// The syntax error for tokens of `source` that could not be read.
    static func syntaxError(_ failure: Lexer.Failure, in source: [UInt8]) -> SyntaxError {
        SyntaxError(
            problem: .lexical(failure.problem), offset: failure.offset,
            location: SourceMap(source).location(of: failure.offset),
            isIncomplete: failure.problem.isIncomplete)
    }

    /// Parses the tokens of `source` into statements.
    static func parse(tokens: [Token], source: [UInt8]) throws(SyntaxError) -> [Statement] {
        var statements: [Statement] = []
        var index = 0
        // Where a statement that stops short points: the end, before a final newline.
        let end = source.last == 0x0A ? source.count - 1 : source.count

        func error(_ problem: SyntaxError.Problem, at token: Token?, incomplete: Bool = false) -> SyntaxError
        {
            let offset = token?.range.lowerBound ?? end
            return SyntaxError(
                problem: problem, offset: offset, location: SourceMap(source).location(of: offset),
                isIncomplete: incomplete)
        }

        func simpleCommand() throws(SyntaxError) -> SimpleCommand? {
            var assignments: [Assignment] = []
            var words: [Word] = []
            var redirections: [Redirection] = []
            let start = index < tokens.count ? tokens[index] : nil
            if let start, case .shellLine(let line) = start.kind {
                index += 1
                return SimpleCommand(words: [], redirections: [], offset: start.range.lowerBound, shellLine: line)
            }
            while index < tokens.count {
                let token = tokens[index]
                switch token.kind {
                case .word(let word):
                    if words.isEmpty, let assignment = word.assignment {
                        assignments.append(assignment)
                    } else {
                        words.append(word)
                    }
                    index += 1
                case .redirect(let kind):
                    index += 1
                    if kind.joinsStreams {
                        redirections.append(Redirection(kind: kind, target: nil, offset: token.range.lowerBound))
                        continue
                    }
                    guard index < tokens.count, case .word(let target) = tokens[index].kind else {
                        throw error(.missingTarget(kind.spelled), at: index < tokens.count ? tokens[index] : nil)
                    }
                    redirections.append(Redirection(kind: kind, target: target, offset: token.range.lowerBound))
                    index += 1
                default:
                    return finish()
                }
            }
            return finish()

            func finish() -> SimpleCommand? {
                guard let start, !words.isEmpty || !redirections.isEmpty || !assignments.isEmpty else { return nil }
                return SimpleCommand(
                    assignments: assignments, words: words, redirections: redirections, offset: start.range.lowerBound)
            }
        }

        /// Commands joined by `|`, a newline after a `|` continuing the pipeline as in sh; nil
        /// when no command starts a statement here. After `connector`, no command (or only
        /// redirections) is a missing command.
        func pipeline(after connector: Connector?) throws(SyntaxError) -> Pipeline? {
            var commands: [SimpleCommand] = []
            repeat {
                if !commands.isEmpty {
                    index += 1
                    while index < tokens.count, tokens[index].kind == .newline { index += 1 }
                }
                if index < tokens.count, tokens[index].kind == .pipe { throw error(.unexpectedPipe, at: tokens[index]) }
                let command = try simpleCommand()
                let here = index < tokens.count ? tokens[index] : nil
                // Assignments alone set variables; with a redirection and no command, they are as
                // `> out` alone.
                if let command,
                    !command.words.isEmpty || command.shellLine != nil
                        || (!command.assignments.isEmpty && command.redirections.isEmpty)
                {
                    commands.append(command)
                    continue
                }
                if commands.isEmpty, let connector {
                    throw error(.missingCommand(after: connector), at: here, incomplete: here == nil)
                }
                if let command {
                    let start = tokens.first { $0.range.lowerBound == command.offset }
                    throw error(.missingCommandBeforeRedirection(command.redirections[0].kind.spelled), at: start)
                }
                if commands.isEmpty { return nil }
                throw error(.missingCommandAfterPipe, at: here, incomplete: here == nil)
            } while index < tokens.count && tokens[index].kind == .pipe
            return Pipeline(commands)
        }

        while index < tokens.count {
            if tokens[index].kind == .separator || tokens[index].kind == .newline {
                index += 1
                continue
            }
            guard let first = try pipeline(after: nil) else {
                let token = tokens[index]
                throw error(.unexpected(token.kind == .and ? .and : .or), at: token)
            }
            var rest: [(Connector, Pipeline)] = []
            while index < tokens.count, tokens[index].kind == .and || tokens[index].kind == .or {
                let connector: Connector = tokens[index].kind == .and ? .and : .or
                index += 1
                // A newline after && or || continues the statement, as in sh.
                while index < tokens.count, tokens[index].kind == .newline { index += 1 }
                // After a connector, a missing command is an error, never nil.
                let next = try pipeline(after: connector)!
                rest.append((connector, next))
            }
            statements.append(Statement(first: first, rest: rest))
        }
        return statements
    }
}
