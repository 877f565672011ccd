/// The session's aliases: names that stand for a piece of command line when they are a
/// command's name (`alias ll='ls -l'`).
///
/// An alias is expanded in command position only (a statement's first word, and the first word
/// after `;`, `&&`, `||`, `|` or a newline, past any `NAME=value` words), only when the word is
/// written without quotes or escapes (`\ll` and `'ll'` are the name itself), and once: its value
/// is tokenized as shell text in place of the word, and nothing in it is expanded again, so
/// `alias ls='ls -F'` works.
public struct Aliases: Sendable, Hashable {
    private var values: [[UInt8]: [UInt8]] = [:]

    /// No aliases.
    public init() {}

    /// The value of the alias `name`, nil when there is none; setting nil removes it.
    public subscript(name: [UInt8]) -> [UInt8]? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// Whether there are none.
    public var isEmpty: Bool { values.isEmpty }

    /// Removes every alias.
    public mutating func removeAll() { values = [:] }

    /// Every alias, sorted by the bytes of its name.
    public var sorted: [(name: [UInt8], value: [UInt8])] {
        values.map { (name: $0.key, value: $0.value) }.sorted { $0.name.lexicographicallyPrecedes($1.name) }
    }

    /// Whether `name` may be an alias's name: not empty, and without blanks, quotes, `/`, `$`,
    /// `=`, a backslash or a character that ends a word (`;`, `&`, `|`, `<`, `>`).
    public static func isName(_ name: [UInt8]) -> Bool {
        !name.isEmpty && !name.contains { forbidden.contains($0) || $0 < 0x20 || $0 == 0x7F }
    }

    private static let forbidden = Set(" \t\n'\"`/$=\\;&|<>()#".utf8)

    /// `tokens` with every alias in command position replaced by the tokens of its value, each
    /// spanning the alias's word (so that an error in it points there). A value that does not
    /// tokenize whole leaves the word as it is.
    public func expand(_ tokens: [Token]) -> [Token] {
        guard !values.isEmpty else { return tokens }
        var result: [Token] = []
        result.reserveCapacity(tokens.count)
        var commandPosition = true
        for token in tokens {
            guard case .word(let word) = token.kind else {
                result.append(token)
                commandPosition = Self.startsCommand(after: token.kind)
                continue
            }
            if commandPosition, word.assignment != nil {
                result.append(token)
                continue
            }
            guard commandPosition, word.pieces.count == 1, case .text(let name, quoted: false) = word.pieces[0],
                let value = values[name], let expansion = try? Lexer.tokenize(value)
            else {
                result.append(token)
                commandPosition = false
                continue
            }
            for inner in expansion {
                var kind = inner.kind
                if case .word(var innerWord) = kind {
                    innerWord.range = token.range
                    kind = .word(innerWord)
                }
                result.append(Token(kind: kind, range: token.range))
            }
            commandPosition = expansion.last.map { Self.startsCommand(after: $0.kind) } ?? true
        }
        return result
    }

    /// Whether a command starts after a token of this kind.
    private static func startsCommand(after kind: TokenKind) -> Bool {
        switch kind {
        case .separator, .newline, .and, .or, .pipe: return true
        case .word, .redirect, .shellLine: return false
        }
    }
}
