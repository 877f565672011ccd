/// A piece of a word as written: text (quoted or not) or a variable reference.
public enum WordPiece: Sendable, Hashable {
    /// Literal bytes. Unquoted text is subject to tilde and glob expansion; quoted text is not.
    case text([UInt8], quoted: Bool)
    /// `$NAME`, `${NAME}`, `$1`, `${10}`, `$#`, `$?`, `${NAME-word}`…, in double quotes or not.
    case variable(Variable, quoted: Bool)
}

/// A variable reference as written: which variable, and the word that stands in when it is unset.
public struct Variable: Sendable, Hashable {
    /// Which variable a reference names.
    public enum Name: Sendable, Hashable {
        /// `$NAME`: a letter or `_`, then letters, digits and `_` (so always ASCII).
        case named(String)
        /// `$0` (the script), `$1`…`$9`, `${10}`…: the script's words.
        case positional(Int)
        /// `$#`: how many positional parameters there are.
        case count
        /// `$?`: the status of the last command.
        case status
    }

    /// The variable.
    public var name: Name
    /// `${NAME-word}` and `${NAME:-word}`: the pieces of `word`, expanded instead of the variable.
    public var fallback: Fallback?

    /// A reference to `name`, with a default word or none.
    public init(_ name: Name, fallback: Fallback? = nil) {
        self.name = name
        self.fallback = fallback
    }

    /// The word of `${NAME-word}` (used when NAME is unset) or `${NAME:-word}` (unset or empty).
    public struct Fallback: Sendable, Hashable {
        /// The word as written: text, quotes and variables.
        public var pieces: [WordPiece]
        /// Whether an empty value is replaced too (`:-`), not only an unset one (`-`).
        public var replacesEmpty: Bool
    }
}

extension Variable.Name: CustomStringConvertible {
    /// The name as messages show it: `BUILD`, `$1`, `$#`, `$?`.
    public var description: String {
        switch self {
        case .named(let name): return name
        case .positional(let number): return "$\(number)"
        case .count: return "$#"
        case .status: return "$?"
        }
    }
}

/// One word of a command line, before expansion, with where it stood.
public struct Word: Sendable, Hashable {
    /// The pieces in order.
    public var pieces: [WordPiece]
    /// The bytes of the source the word spans, quotes included.
    public var range: Range<Int>

    /// A word from its pieces and the bytes they were read from.
    public init(pieces: [WordPiece], range: Range<Int>) {
        self.pieces = pieces
        self.range = range
    }

    /// The word's text if it is made only of literal text; quotes removed.
    public var literalText: [UInt8]? {
        var result: [UInt8] = []
        for piece in pieces {
            guard case .text(let bytes, _) = piece else { return nil }
            result.append(contentsOf: bytes)
        }
        return result
    }
}

/// What a token is.
public enum TokenKind: Sendable, Hashable {
    /// A word.
    case word(Word)
    /// `;`: ends a statement.
    case separator
    /// The end of a line: ends a statement, except right after `&&` or `||`.
    case newline
    /// `&&`: run the next command if this one succeeded.
    case and
    /// `||`: run the next command if this one failed.
    case or
    /// `|`: the next command reads what this one writes.
    case pipe
    /// `<`, `>`, `>>`, `2>`, `2>>`, `2>&1`, `&>`, `&>>`: a redirection.
    case redirect(RedirectionKind)
    /// `!` at the start of a line: the rest of the line, as it is, for `/bin/sh -c`.
    case shellLine([UInt8])
}

/// A token with the bytes of the source it spans; a `SourceMap` turns them into lines and columns.
public struct Token: Sendable, Hashable {
    /// What the token is.
    public var kind: TokenKind
    /// The byte offsets of the source it was read from.
    public var range: Range<Int>
}
