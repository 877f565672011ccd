/// Source that holds whole statements, parsed once: the statements, or the syntax error that
/// stops all of them.
public struct ParsedSource: Sendable {
    /// The bytes, as the statements' and the error's offsets count them.
    public var source: [UInt8]
    /// The line number of the source's first line within its origin (a script, `-c`).
    public var firstLine: Int
    /// The statements, or the first syntax error (nothing of the source runs then).
    public var statements: Result<[Statement], SyntaxError>

    /// Parses `source`, whose first line is line `firstLine` of its origin, with `aliases`
    /// expanded in command position.
    public init(_ source: [UInt8], firstLine: Int = 1, aliases: Aliases = Aliases()) {
        self.init(
            source, firstLine: firstLine,
            statements: Result { () throws(SyntaxError) in try Parser.parse(source, aliases: aliases) })
    }

    init(_ source: [UInt8], firstLine: Int, statements: Result<[Statement], SyntaxError>) {
        self.source = source
        self.firstLine = firstLine
        self.statements = statements
    }
}

/// Gathers lines into whole statements and parses each once; the REPL and the script runner both
/// read through it.
///
/// An open quote, or a trailing `&&`, `||`, `|` or backslash, waits for more lines. Once a statement
/// is unfinished, only the lines it gains are tokenized until they look finished, and then the
/// whole statement once: each byte of a long statement is read a bounded number of times.
public struct StatementReader {
    /// What has been read of a statement that is not finished.
    private var pending: [UInt8] = []
    /// Where the pending statement became unfinished: an open quote's offset, or its end.
    private var unfinishedFrom: Int?
    /// The line number of the pending statement's first line.
    private var pendingStart = 1
    /// How many lines have been read, skipped ones included.
    public private(set) var lineNumber = 0

    /// A reader at the first line.
    public init() {}

    /// Whether a statement is waiting for more lines.
    public var isWaiting: Bool { !pending.isEmpty }

    /// Counts a line that belongs to no statement (a script's `#!` line).
    public mutating func skipLine() { lineNumber += 1 }

    /// Drops the unfinished statement (Ctrl-C at a continuation prompt).
    public mutating func discard() {
        pending = []
        unfinishedFrom = nil
    }

    /// Adds `line` (with its newline, unless it is the input's last and has none).
    /// - Parameter aliases: the aliases expanded in command position once the statement is whole
    ///   (those in force when it is read, as in sh).
    /// - Returns: the statements read so far, parsed, once they are whole (or wrong in a way more
    ///   lines cannot mend); nil while the statement waits for more.
    public mutating func add(_ line: [UInt8], aliases: Aliases = Aliases()) -> ParsedSource? {
        lineNumber += 1
        if pending.isEmpty { pendingStart = lineNumber }
        pending += line
        if let start = unfinishedFrom {
            if Self.isQuote(pending[start]), !line.contains(pending[start]) {
                return nil  // a quote stays open until a line brings its partner
            }
            if let point = Self.unfinishedPoint(of: Array(pending[start...])) {
                unfinishedFrom = start + point
                return nil
            }
        }
        let parsed: Result<[Statement], SyntaxError>
        do {
            let tokens = try Lexer.tokenize(pending)
            parsed = Result { () throws(SyntaxError) in
                try Parser.parse(tokens: aliases.expand(tokens), source: pending)
            }
        } catch {
            if error.problem.isIncomplete {
                unfinishedFrom = Self.isQuoteProblem(error.problem) ? error.offset : pending.count
                return nil
            }
            parsed = .failure(Parser.syntaxError(error, in: pending))
        }
        if case .failure(let error) = parsed, error.isIncomplete {
            unfinishedFrom = pending.count
            return nil
        }
        return take(parsed)
    }

    /// The statement still waiting when the input ends, parsed: the syntax error it is (an open
    /// quote, a trailing `&&`); nil when nothing waits.
    public mutating func finish() -> ParsedSource? {
        guard !pending.isEmpty else { return nil }
        return take(ParsedSource(pending).statements)
    }

    private mutating func take(_ parsed: Result<[Statement], SyntaxError>) -> ParsedSource {
        let result = ParsedSource(pending, firstLine: pendingStart, statements: parsed)
        discard()
        return result
    }

    private static func isQuote(_ byte: UInt8) -> Bool { byte == 0x27 || byte == 0x22 }

    private static func isQuoteProblem(_ problem: Lexer.Problem) -> Bool {
        if case .unterminatedQuote = problem { return true }
        return false
    }

    /// Where the tail of an unfinished statement is still unfinished (an open quote's offset, or
    /// its end after a trailing `&&`, `||` or backslash), or nil when it looks finished. Read from
    /// an open quote or a line start, the tail says "unfinished" only when the whole statement is.
    private static func unfinishedPoint(of tail: [UInt8]) -> Int? {
        do {
            // Only a tail that ends in &&, || or | can still want more: its tokens say whether.
            let tokens = try Lexer.tokenize(tail)
            let last = tokens.last { $0.kind != .newline }
            guard last?.kind == .and || last?.kind == .or || last?.kind == .pipe else { return nil }
            do { _ = try Parser.parse(tokens: tokens, source: tail) } catch {
                return error.isIncomplete ? tail.count : nil
            }
            return nil
        } catch {
            guard error.problem.isIncomplete else { return nil }
            return isQuoteProblem(error.problem) ? error.offset : tail.count
        }
    }
}
