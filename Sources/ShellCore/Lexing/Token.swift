/// A piece of a word as written: text (quoted or not) or a variable reference.
public enum WordPiece: Sendable, Hashable {
    /// Literal bytes. Unquoted text is subject to tilde and glob expansion; quoted text is not.
    case text([UInt8], quoted: Bool)
    /// `$NAME` or `${NAME}`; `$?` is the last status.
    case variable(String, quoted: Bool)
}

/// One word of a command line, before expansion, with where it stood.
public struct Word: Sendable, Hashable {
    /// The pieces in order.
    public var pieces: [WordPiece]
    /// Byte offset of the word's first character within its line (0-based).
    public var column: Int

    /// A word from its pieces.
    public init(pieces: [WordPiece], column: Int) {
        self.pieces = pieces
        self.column = column
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
    /// `>` (or `>>` when `append`): send standard output to a file.
    case redirect(append: Bool)
}

/// A token with the line and column it starts at.
public struct Token: Sendable, Hashable {
    /// What the token is.
    public var kind: TokenKind
    /// 1-based line number within the source.
    public var line: Int
    /// Byte offset within that line (0-based).
    public var column: Int
}
