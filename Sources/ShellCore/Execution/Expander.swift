import PathModel

/// A word after tilde and variable expansion, before glob expansion.
public struct Argument: Sendable, Hashable {
    /// The text with quotes removed.
    public var bytes: [UInt8]
    /// The glob pattern when the word has an unquoted `*`, `?` or `[` (quoted parts escaped).
    public var pattern: Glob?
    /// Where the word started in its line.
    public var column: Int
    /// Whether the argument came from a glob match (such a name is never taken as an option).
    public var fromGlob: Bool

    /// An argument from its parts.
    public init(bytes: [UInt8], pattern: Glob? = nil, column: Int = 0, fromGlob: Bool = false) {
        self.bytes = bytes
        self.pattern = pattern
        self.column = column
        self.fromGlob = fromGlob
    }

    /// An argument from text, with no glob.
    public init(_ text: String) { self.init(bytes: Array(text.utf8)) }

    /// The text; bytes that are not UTF-8 become U+FFFD.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The argument as a path.
    public var file: File { File(bytes: bytes) }
}

/// Expands words: `@place`, `~`, `$NAME`/`${NAME}`/`$?`, then globs against the shell's directory.
public enum Expander {
    /// Tilde and variable expansion; no disk access.
    public static func expand(_ word: Word, state: ShellState) -> Argument {
        var bytes: [UInt8] = []
        var pattern: [UInt8] = []
        var globActive = false
        for (index, piece) in word.pieces.enumerated() {
            switch piece {
            case .text(var text, let quoted):
                if index == 0, !quoted, text.first == 0x40, let place = place(at: text, alone: word.pieces.count == 1, state) {
                    bytes.append(contentsOf: place.path)
                    pattern.append(contentsOf: escapeGlob(place.path))
                    text = Array(text[place.rest...])
                }
                if index == 0, !quoted, text.first == 0x7E {
                    let slash = text.firstIndex(of: 0x2F) ?? text.endIndex
                    let expanded = File(bytes: text[..<slash]).expandingTilde(home: state.home)
                    if expanded.bytes.first != 0x7E {
                        let home = expanded.bytes
                        bytes.append(contentsOf: home)
                        pattern.append(contentsOf: escapeGlob(home))
                        text = Array(text[slash...])
                    }
                }
                bytes.append(contentsOf: text)
                if quoted {
                    pattern.append(contentsOf: escapeGlob(text))
                } else {
                    pattern.append(contentsOf: text)
                    if Glob.hasWildcards(text) { globActive = true }
                }
            case .variable(let name, _):
                let value = name == "?" ? Array(state.lastStatus.description.utf8) : state.environment[name] ?? []
                bytes.append(contentsOf: value)
                pattern.append(contentsOf: escapeGlob(value))
            }
        }
        return Argument(bytes: bytes, pattern: globActive ? Glob(bytes: pattern) : nil, column: word.column)
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
        let matches = pattern.expand(relativeTo: state.cwd)
        guard !matches.isEmpty else { throw NoMatch(pattern: argument.text) }
        return matches.map { Argument(bytes: $0.bytes, column: argument.column, fromGlob: true) }
    }

    /// The named place an unquoted word starts with (`@docs`, `@config/shelf`): its path and
    /// where the rest of the word starts. Only a known name followed by `/` or the end of the word
    /// counts; anything else (`@foo`, `@docs.txt`) stays as written.
    private static func place(at text: [UInt8], alone: Bool, _ state: ShellState) -> (path: [UInt8], rest: Int)? {
        let end = text.firstIndex(of: 0x2F) ?? text.endIndex
        guard end < text.endIndex || alone else { return nil }
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
