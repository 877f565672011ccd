/// Splits shell input into tokens, keeping the bytes each spans.
///
/// Words split on blanks; `'...'` is literal; `"..."` allows `\"`, `\\`, `\$` and variables;
/// a backslash outside quotes makes the next character literal (and joins lines); `#` at the
/// start of a word begins a comment; `;` and newlines separate commands; `&&`, `||`, `|` and the
/// redirections `<`, `0<`, `>`, `>>`, `2>`, `2>>`, `2>&1`, `>&2`, `&>`, `&>>` are operators; `!` at the start of a line takes the rest of the line as it is, for sh.
public struct Lexer {
    /// Why input could not be tokenized.
    public enum Problem: Sendable, Hashable {
        /// A `'` or `"` with no closing partner.
        case unterminatedQuote(UInt8)
        /// A `${` with no closing `}`.
        case unterminatedVariable
        /// A backslash at the very end of the input.
        case trailingBackslash
        /// `&` alone: background jobs do not exist here.
        case unsupportedOperator(String)

        /// Whether more input could complete it (an interactive shell asks for another line).
        public var isIncomplete: Bool {
            switch self {
            case .unterminatedQuote, .trailingBackslash: return true
            case .unterminatedVariable, .unsupportedOperator: return false
            }
        }
    }

    /// The failure of a tokenization: what and where.
    public struct Failure: Error, Sendable, Hashable {
        /// What went wrong.
        public var problem: Problem
        /// Byte offset into the input where it starts (a `SourceMap` gives its line and column).
        public var offset: Int
    }

    /// Tokens and the state at the end, for a possibly unfinished line (completion uses it).
    public struct Partial: Sendable {
        /// The tokens that were complete.
        public var tokens: [Token]
        /// The quote character still open at the end, if any.
        public var openQuote: UInt8?
        /// Where the last word (possibly unfinished) starts, as a byte offset into the input.
        public var lastWordStart: Int?
    }

    private let input: [UInt8]
    private var index = 0

    /// A lexer over `input` bytes.
    public init(_ input: [UInt8]) { self.input = input }

    /// Tokenizes all input.
    public static func tokenize(_ input: [UInt8]) throws(Failure) -> [Token] {
        var lexer = Lexer(input)
        return try lexer.run(partial: false).tokens
    }

    /// Tokenizes input that may stop in the middle of a word or quote (for completion).
    public static func tokenizePartial(_ input: [UInt8]) -> Partial {
        var lexer = Lexer(input)
        do { return try lexer.run(partial: true) } catch {
            return Partial(tokens: [], openQuote: nil, lastWordStart: nil)
        }
    }

    private mutating func run(partial: Bool) throws(Failure) -> Partial {
        var tokens: [Token] = []
        var lastWordStart: Int?
        while index < input.count {
            let byte = input[index]
            switch byte {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                tokens.append(Token(kind: .newline, range: index..<(index + 1)))
                index += 1
            case 0x3B:
                tokens.append(Token(kind: .separator, range: index..<(index + 1)))
                index += 1
            case 0x26:
                if peek(1) == 0x26 {
                    tokens.append(Token(kind: .and, range: index..<(index + 2)))
                    index += 2
                } else if peek(1) == 0x3E {
                    let length = peek(2) == 0x3E ? 3 : 2
                    tokens.append(
                        Token(kind: .redirect(.outputAndErrors(append: length == 3)), range: index..<(index + length)))
                    index += length
                } else {
                    throw Failure(problem: .unsupportedOperator("&"), offset: index)
                }
            case 0x7C:
                let length = peek(1) == 0x7C ? 2 : 1
                tokens.append(Token(kind: length == 2 ? .or : .pipe, range: index..<(index + length)))
                index += length
            case 0x3C:
                // Here-documents: not in shelf, and `<<` read as `<` would take `<` as a file name.
                if peek(1) == 0x3C { throw Failure(problem: .unsupportedOperator("<<"), offset: index) }
                tokens.append(Token(kind: .redirect(.input), range: index..<(index + 1)))
                index += 1
            case 0x3E where peek(1) == 0x26:
                tokens.append(try outputToErrors(from: index))
            case 0x3E:
                let length = peek(1) == 0x3E ? 2 : 1
                tokens.append(Token(kind: .redirect(.output(append: length == 2)), range: index..<(index + length)))
                index += length
            case 0x5C where peek(1) == 0x0A:
                // A backslash-newline between words joins the lines; at the very end it asks for more.
                if index + 2 >= input.count {
                    if partial { return Partial(tokens: tokens, openQuote: nil, lastWordStart: nil) }
                    throw Failure(problem: .trailingBackslash, offset: index)
                }
                index += 2
            case 0x23:
                while index < input.count && input[index] != 0x0A { index += 1 }
            case 0x21 where startsLine(index):
                let start = index
                while index < input.count && input[index] != 0x0A { index += 1 }
                tokens.append(Token(kind: .shellLine(Array(input[(start + 1)..<index])), range: start..<index))
            default:
                lastWordStart = index
                let start = index
                let outcome = readWord()
                switch outcome {
                case .success(let word):
                    // Digits touching `>` name a descriptor, as in sh: `1>` is `>`, `2>` standard
                    // error; any other is refused rather than passed on as a word (rm x 3>log
                    // would remove a file named 3).
                    if peek(0) == 0x3E || peek(0) == 0x3C, word.pieces.count == 1,
                        case .text(let digits, quoted: false) = word.pieces[0],
                        digits.allSatisfy({ (0x30...0x39).contains($0) })
                    {
                        tokens.append(try descriptorRedirection(digits, from: start))
                        break
                    }
                    tokens.append(Token(kind: .word(word), range: word.range))
                case .failure(let failure):
                    if partial, case .unterminatedQuote(let quote) = failure.problem {
                        return Partial(tokens: tokens, openQuote: quote, lastWordStart: lastWordStart)
                    }
                    if partial, failure.problem == .trailingBackslash {
                        return Partial(tokens: tokens, openQuote: nil, lastWordStart: lastWordStart)
                    }
                    throw failure
                }
                if index >= input.count && partial {
                    return Partial(tokens: tokens, openQuote: nil, lastWordStart: lastWordStart)
                }
                lastWordStart = nil
            }
        }
        return Partial(tokens: tokens, openQuote: nil, lastWordStart: lastWordStart)
    }

    /// The redirection that `digits` and the `>` or `<` at `index` start: `0<`, `1>`, `1>>`,
    /// `1>&2`, `2>`, `2>>` or `2>&1`; the token spans from `start`.
    private mutating func descriptorRedirection(_ digits: [UInt8], from start: Int) throws(Failure) -> Token {
        if peek(0) == 0x3C {
            guard digits == [0x30], peek(1) != 0x3C else {
                let spelled = String(decoding: digits, as: UTF8.self) + (peek(1) == 0x3C ? "<<" : "<")
                throw Failure(problem: .unsupportedOperator(spelled), offset: start)
            }
            index += 1
            return Token(kind: .redirect(.input), range: start..<index)
        }
        let append = peek(1) == 0x3E
        let kind: RedirectionKind
        if digits == [0x31], !append, peek(1) == 0x26 {
            return try outputToErrors(from: start)
        } else if digits == [0x31] {
            kind = .output(append: append)
        } else if digits == [0x32], !append, peek(1) == 0x26 {
            guard peek(2) == 0x31, peek(3).map(Lexer.isWordEnd) ?? true else {
                throw Failure(problem: .unsupportedOperator("2>&"), offset: start)
            }
            index += 3
            return Token(kind: .redirect(.errorsToOutput), range: start..<index)
        } else if digits == [0x32] {
            kind = .errors(append: append)
        } else {
            throw Failure(problem: .unsupportedOperator(String(decoding: digits, as: UTF8.self) + ">"), offset: start)
        }
        index += append ? 2 : 1
        return Token(kind: .redirect(kind), range: start..<index)
    }

    /// `>&2`, whose `>` is at `index` (the token spans from `start`, before a `1`); `>&`
    /// followed by anything else is refused.
    private mutating func outputToErrors(from start: Int) throws(Failure) -> Token {
        guard peek(2) == 0x32, peek(3).map(Lexer.isWordEnd) ?? true else {
            throw Failure(problem: .unsupportedOperator(">&"), offset: start)
        }
        index += 3
        return Token(kind: .redirect(.outputToErrors), range: start..<index)
    }

    /// Whether only blanks stand between the start of `offset`'s line and `offset`.
    private func startsLine(_ offset: Int) -> Bool {
        var before = offset - 1
        while before >= 0, [0x20, 0x09, 0x0D].contains(input[before]) { before -= 1 }
        return before < 0 || input[before] == 0x0A
    }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < input.count ? input[index + offset] : nil
    }

    private static func isWordEnd(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, 0x3B, 0x26, 0x7C, 0x3C, 0x3E: return true
        default: return false
        }
    }

    private mutating func readWord() -> Result<Word, Failure> {
        let start = index
        var builder = PieceBuilder()
        do throws(Failure) {
            _ = try readPieces(into: &builder, braced: false)
        } catch {
            return .failure(error)
        }
        return .success(Word(pieces: builder.finish(), range: start..<index))
    }

    /// Word pieces as they are gathered: runs of text of one quoting join into one piece.
    private struct PieceBuilder {
        private var pieces: [WordPiece] = []
        private var text: [UInt8] = []
        private var textQuoted = false
        /// Whether any quotes were read: `''` is an empty word, not no word.
        var sawQuotes = false

        mutating func append(_ bytes: [UInt8], quoted: Bool) {
            if quoted != textQuoted { flush(); textQuoted = quoted }
            text.append(contentsOf: bytes)
        }

        mutating func append(_ variable: Variable, quoted: Bool) {
            flush()
            pieces.append(.variable(variable, quoted: quoted))
        }

        private mutating func flush() {
            if !text.isEmpty { pieces.append(.text(text, quoted: textQuoted)) }
            text = []
        }

        mutating func finish() -> [WordPiece] {
            flush()
            if pieces.isEmpty && sawQuotes { pieces.append(.text([], quoted: true)) }
            return pieces
        }
    }

    /// Reads a word's pieces up to a blank or operator, or with `braced`, the default word of
    /// `${NAME-word}` up to and past its `}`, where blanks and operators are text. Returns whether
    /// the `}` was found.
    private mutating func readPieces(into builder: inout PieceBuilder, braced: Bool) throws(Failure) -> Bool {
        while index < input.count {
            let byte = input[index]
            if braced {
                if byte == 0x7D {
                    index += 1
                    return true
                }
                if byte == 0x0A { return false }
            } else if Lexer.isWordEnd(byte) {
                break
            }
            switch byte {
            case 0x27:  // '
                let start = index
                builder.sawQuotes = true
                index += 1
                var literal: [UInt8] = []
                while index < input.count && input[index] != 0x27 {
                    literal.append(input[index])
                    index += 1
                }
                if index >= input.count {
                    throw Failure(problem: .unterminatedQuote(0x27), offset: start)
                }
                index += 1
                builder.append(literal, quoted: true)
            case 0x22:  // "
                let start = index
                builder.sawQuotes = true
                index += 1
                if !(try readDoubleQuoted(into: &builder, until: 0x22)) {
                    throw Failure(problem: .unterminatedQuote(0x22), offset: start)
                }
            case 0x5C:  // backslash
                guard let next = peek(1) else {
                    throw Failure(problem: .trailingBackslash, offset: index)
                }
                if next == 0x0A {
                    // A backslash-newline that ends the input asks for the next line.
                    if index + 2 >= input.count {
                        throw Failure(problem: .trailingBackslash, offset: index)
                    }
                    index += 2
                    continue
                }
                builder.append([next], quoted: true)
                index += 2
            case 0x60:  // `
                throw Failure(problem: .unsupportedOperator("`"), offset: index)
            case 0x24:  // $
                if let variable = try readVariable(quoted: false) {
                    builder.append(variable, quoted: false)
                } else {
                    builder.append([byte], quoted: false)
                    index += 1
                }
            default:
                builder.append([byte], quoted: false)
                index += 1
            }
        }
        return false
    }

    /// Reads double-quoted text up to and past `terminator`: `"`, or `}` for the default word of a
    /// `${NAME-word}` inside double quotes (where `"…"` nests). Returns whether it was found.
    private mutating func readDoubleQuoted(into builder: inout PieceBuilder, until terminator: UInt8) throws(Failure) -> Bool {
        while index < input.count {
            let inner = input[index]
            if inner == terminator {
                index += 1
                return true
            }
            if inner == 0x5C, let next = peek(1), [0x22, 0x5C, 0x24, 0x60, terminator].contains(next) {
                builder.append([next], quoted: true)
                index += 2
                continue
            }
            if inner == 0x5C, peek(1) == 0x0A {
                index += 2
                continue
            }
            if inner == 0x24, let variable = try readVariable(quoted: true) {
                builder.append(variable, quoted: true)
                continue
            }
            if inner == 0x60 {
                throw Failure(problem: .unsupportedOperator("`"), offset: index)
            }
            if inner == 0x22 {
                let start = index
                index += 1
                if !(try readDoubleQuoted(into: &builder, until: 0x22)) {
                    throw Failure(problem: .unterminatedQuote(0x22), offset: start)
                }
                continue
            }
            builder.append([inner], quoted: true)
            index += 1
        }
        return false
    }

    /// Reads `$NAME`, `$1`, `$#`, `$?` or a `${…}` form at `index`; nil when `$` starts none.
    private mutating func readVariable(quoted: Bool) throws(Failure) -> Variable? {
        guard let next = peek(1) else { return nil }
        switch next {
        case 0x3F:
            index += 2
            return Variable(.status)
        case 0x23:
            index += 2
            return Variable(.count)
        case 0x30...0x39:
            index += 2
            return Variable(.positional(Int(next - 0x30)))
        case 0x28:
            // Command substitution and arithmetic: not in shelf, and not to be passed on as text.
            throw Failure(problem: .unsupportedOperator("$("), offset: index)
        case 0x40, 0x2A:
            // All the positional parameters: not in shelf, and `rm "$@"` must not mean a file named `$@`.
            throw Failure(problem: .unsupportedOperator("$" + String(UnicodeScalar(next))), offset: index)
        case 0x7B:
            return try readBracedVariable(quoted: quoted)
        case _ where Lexer.isNameStart(next):
            var end = index + 1
            while end < input.count && Lexer.isNameCharacter(input[end]) { end += 1 }
            let name = String(decoding: input[(index + 1)..<end], as: UTF8.self)
            index = end
            return Variable(.named(name))
        default:
            return nil
        }
    }

    /// Reads `${NAME}`, `${10}`, `${#}`, `${?}`, `${NAME-word}` or `${NAME:-word}` at `index`.
    /// Any other form is refused: `${DIR:=x}` or `${#DIR}` passed on as text, or as an empty
    /// value, could turn `rm -rf ${…}/*` into `rm -rf /*`.
    private mutating func readBracedVariable(quoted: Bool) throws(Failure) -> Variable {
        let start = index
        let nameStart = index + 2
        var end = nameStart
        let name: Variable.Name?
        if let first = peek(2), Lexer.isNameStart(first) {
            while end < input.count && Lexer.isNameCharacter(input[end]) { end += 1 }
            name = .named(String(decoding: input[nameStart..<end], as: UTF8.self))
        } else if let first = peek(2), (0x30...0x39).contains(first) {
            while end < input.count && (0x30...0x39).contains(input[end]) { end += 1 }
            name = .positional(Int(String(decoding: input[nameStart..<end], as: UTF8.self)) ?? Int.max)
        } else if peek(2) == 0x3F || peek(2) == 0x23 {
            end += 1
            name = peek(2) == 0x3F ? .status : .count
        } else {
            name = nil
        }
        let after = end < input.count ? input[end] : nil
        let colonDash = after == 0x3A && end + 1 < input.count && input[end + 1] == 0x2D
        if let name, after == 0x7D {
            index = end + 1
            return Variable(name)
        }
        if let name, after == 0x2D || colonDash {
            index = end + (colonDash ? 2 : 1)
            var builder = PieceBuilder()
            let closed =
                quoted ? try readDoubleQuoted(into: &builder, until: 0x7D) : try readPieces(into: &builder, braced: true)
            guard closed else { throw Failure(problem: .unterminatedVariable, offset: start) }
            return Variable(name, fallback: Variable.Fallback(pieces: builder.finish(), replacesEmpty: colonDash))
        }
        guard let close = input[index...].firstIndex(of: 0x7D) else {
            throw Failure(problem: .unterminatedVariable, offset: start)
        }
        let spelled = String(decoding: input[index...close], as: UTF8.self)
        throw Failure(problem: .unsupportedOperator(spelled), offset: start)
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    static func isNameCharacter(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 0x30 && byte <= 0x39)
    }
}
