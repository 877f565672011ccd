import PathModel

/// A word after tilde and variable expansion, before glob expansion.
public struct Argument: Sendable, Hashable {
    /// The text with quotes removed.
    public var bytes: [UInt8]
    /// The glob pattern when the word has an unquoted `*`, `?` or `[` (quoted parts escaped).
    public var pattern: Glob?
    /// Whether the argument came from a glob match (such a name is never taken as an option).
    public var fromGlob: Bool

    /// An argument from its parts.
    public init(bytes: [UInt8], pattern: Glob? = nil, fromGlob: Bool = false) {
        self.bytes = bytes
        self.pattern = pattern
        self.fromGlob = fromGlob
    }

    /// An argument from text, with no glob.
    public init(_ text: String) { self.init(bytes: Array(text.utf8)) }

    /// The text; bytes that are not UTF-8 become U+FFFD.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The argument as a path.
    public var file: File { File(bytes: bytes) }
}

/// Expands words: `@place`, `~`, `$NAME`/`${NAME}`/`$1`/`$#`/`$?`, then globs against the shell's directory.
public enum Expander {
    /// The failure of a word that names a variable that is not set (and gives no default).
    public struct UnsetVariable: Error, Sendable, Hashable {
        /// The variable as messages show it: `BUILD`, `$3`.
        public var name: String
    }

    /// Tilde and variable expansion; no disk access.
    /// - Throws: `UnsetVariable` when the word uses a variable that is not set, without a default.
    public static func expand(_ word: Word, state: ShellState) throws(UnsetVariable) -> Argument {
        var expansion = Expansion()
        try expansion.append(word.pieces, state: state)
        return Argument(
            bytes: expansion.bytes, pattern: expansion.globActive ? Glob(bytes: expansion.pattern) : nil)
    }

    /// A word's value as it is built, with the glob pattern beside it.
    private struct Expansion {
        var bytes: [UInt8] = []
        /// The same bytes with every wildcard that came from quotes or variables escaped.
        var pattern: [UInt8] = []
        var globActive = false

        /// Appends `pieces`, which start a word (or the default word of `${NAME-word}`, which
        /// begins like one: `${DIR:-~/build}`).
        mutating func append(_ pieces: [WordPiece], state: ShellState) throws(UnsetVariable) {
            for (index, piece) in pieces.enumerated() {
                switch piece {
                case .text(var text, let quoted):
                    if index == 0, !quoted, text.first == 0x40,
                        let place = Expander.place(at: text, alone: pieces.count == 1, state)
                    {
                        appendLiteral(place.path)
                        text = Array(text[place.rest...])
                    }
                    if index == 0, !quoted, text.first == 0x7E {
                        let slash = text.firstIndex(of: 0x2F) ?? text.endIndex
                        let expanded = File(bytes: text[..<slash]).expandingTilde(home: state.home)
                        if expanded.bytes.first != 0x7E {
                            appendLiteral(expanded.bytes)
                            text = Array(text[slash...])
                        }
                    }
                    if quoted {
                        appendLiteral(text)
                    } else {
                        bytes.append(contentsOf: text)
                        pattern.append(contentsOf: text)
                        if Glob.hasWildcards(text) { globActive = true }
                    }
                case .variable(let variable, _):
                    let value = Expander.value(of: variable.name, state: state)
                    if let fallback = variable.fallback, value == nil || (fallback.replacesEmpty && value == []) {
                        try append(fallback.pieces, state: state)
                    } else if let value {
                        appendLiteral(value)
                    } else {
                        throw UnsetVariable(name: variable.name.description)
                    }
                }
            }
        }

        /// Appends bytes that are never a glob: quoted text, a variable's value, a home directory.
        private mutating func appendLiteral(_ text: [UInt8]) {
            bytes.append(contentsOf: text)
            pattern.append(contentsOf: Expander.escapeGlob(text))
        }
    }

    /// The value of a variable, nil when it is not set: `$?`, `$#` and `$0` always are; `$N` is
    /// set up to the number of positional parameters.
    private static func value(of name: Variable.Name, state: ShellState) -> [UInt8]? {
        switch name {
        case .named(let name): return state.environment[name]
        case .status: return Array(state.lastStatus.description.utf8)
        case .count: return Array(String(state.arguments.count).utf8)
        case .positional(0): return state.scriptName
        case .positional(let number): return number <= state.arguments.count ? state.arguments[number - 1] : nil
        }
    }

    /// The failure of a glob that matched nothing.
    public struct NoMatch: Error, Sendable, Hashable {
        /// The pattern as typed.
        public var pattern: String
    }

    /// Expands a glob argument into the matching paths, sorted by bytes; other arguments pass through.
    /// - Throws: `NoMatch` when a pattern matches nothing.
    public static func expandGlob(_ argument: Argument, state: ShellState) throws(NoMatch) -> [Argument] {
        guard let pattern = argument.pattern else { return [argument] }
        let matches = expandInURL(pattern, state: state) ?? pattern.expand(relativeTo: state.cwd).map(\.bytes)
        guard !matches.isEmpty else { throw NoMatch(pattern: argument.text) }
        // `*/` gives directories spelled with their slash, as in sh.
        let suffix: [UInt8] = pattern.matchesDirectoriesOnly ? [0x2F] : []
        return matches.map { Argument(bytes: $0 + suffix, fromGlob: true) }
    }

    /// The matches of a pattern in a URL of a registered scheme (`s3://b/logs/*.txt`,
    /// `s3://ph*`), else nil: the names before the first that has a wildcard are an operand
    /// like any (`s3://b/logs/`, on the bucket's volume), the rest is matched there, and each
    /// match is spelled after that start.
    private static func expandInURL(_ pattern: Glob, state: ShellState) -> [[UInt8]]? {
        let bytes = pattern.pattern
        guard let schemeEnd = bytes.firstIndex(of: 0x3A),
            bytes[schemeEnd...].starts(with: [0x3A, 0x2F, 0x2F]),
            state.schemes.isRegistered(Array(bytes[..<schemeEnd]))
        else { return nil }
        var start = schemeEnd + 3
        while let slash = bytes[start...].firstIndex(of: 0x2F), !Glob.hasWildcards(bytes[start..<slash]) {
            start = slash + 1
        }
        let head = Array(bytes[..<start])
        // An escaped byte before the wildcards would need unescaping: such a word is matched as
        // any other.
        guard !head.contains(0x5C) else { return nil }
        let base = state.resolve(File(bytes: head))
        guard state.schemes.locator(of: base.volume) != nil else { return nil }
        return Glob(bytes: Array(bytes[start...])).expand(relativeTo: base).map { head + $0.bytes }
    }

    /// The named place or remote an unquoted word starts with (`@docs`, `@config/shelf`,
    /// `@backup/2024`): its path or URL and where the rest of the word starts. Only a known name
    /// followed by `/` or the end of the word counts; anything else (`@foo`, `@docs.txt`) stays
    /// as written.
    private static func place(at text: [UInt8], alone: Bool, _ state: ShellState) -> (path: [UInt8], rest: Int)? {
        let end = text.firstIndex(of: 0x2F) ?? text.endIndex
        guard end < text.endIndex || alone else { return nil }
        if let url = state.remotes[Array(text[1..<end])] { return (url, end) }
        let name = String(decoding: text[1..<end], as: UTF8.self)
        guard WellKnownPlaces.names.contains(name), let place = state.places.place(named: name) else { return nil }
        return (place.bytes, end)
    }

    private static func escapeGlob(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        for byte in bytes {
            if byte == 0x2A || byte == 0x3F || byte == 0x5B || byte == 0x5C { result.append(0x5C) }
            result.append(byte)
        }
        return result
    }
}
