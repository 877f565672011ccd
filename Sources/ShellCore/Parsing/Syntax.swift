/// What a redirection operator does.
public enum RedirectionKind: Sendable, Hashable {
    /// `< FILE`: standard input reads FILE.
    case input
    /// `> FILE` (or `>> FILE` when `append`, and `1>`, `1>>`): standard output goes to FILE.
    case output(append: Bool)
    /// `2> FILE` (or `2>> FILE` when `append`): standard error goes to FILE.
    case errors(append: Bool)
    /// `&> FILE` (or `&>> FILE` when `append`): standard output and error go to FILE.
    case outputAndErrors(append: Bool)
    /// `2>&1`: standard error goes where standard output goes at this point.
    case errorsToOutput
    /// `>&2` (or `1>&2`): standard output goes where standard error goes at this point.
    case outputToErrors

    /// Whether it names no file: it joins one stream to another (`2>&1`, `>&2`).
    public var joinsStreams: Bool { self == .errorsToOutput || self == .outputToErrors }

    /// The operator as written (`2>>`).
    public var spelled: String {
        switch self {
        case .input: return "<"
        case .output(let append): return append ? ">>" : ">"
        case .errors(let append): return append ? "2>>" : "2>"
        case .outputAndErrors(let append): return append ? "&>>" : "&>"
        case .errorsToOutput: return "2>&1"
        case .outputToErrors: return ">&2"
        }
    }

    /// Whether it writes a file (refused in a read-only shell).
    public var writes: Bool { self != .input && !joinsStreams }
}

/// A redirection of a command's standard input, output or error.
public struct Redirection: Sendable, Hashable {
    /// What it does.
    public var kind: RedirectionKind
    /// The file it names; nil for `2>&1`.
    public var target: Word?
    /// Byte offset of the operator in the source.
    public var offset: Int
}

/// `NAME=value` before a command's name: the variable set for that command only, or for the
/// session when no command follows.
public struct Assignment: Sendable, Hashable {
    /// The variable's name: a letter or `_`, then letters, digits and `_`.
    public var name: String
    /// What follows the `=`, as written: expanded as an argument is (`~`, `$X`, quotes), never
    /// globbed or split.
    public var value: Word

    /// The assignment `name=value`.
    public init(name: String, value: Word) {
        self.name = name
        self.value = value
    }
}

extension Word {
    /// The assignment the word is, when it starts with a name and `=`, unquoted (`X=1`,
    /// `PATH=~/bin:$PATH`); nil for any other word (`'X'=1`, `1X=1`, `=x`).
    public var assignment: Assignment? {
        guard case .text(let text, quoted: false) = pieces.first, let equals = text.firstIndex(of: 0x3D),
            Variable.isName(text[..<equals])
        else { return nil }
        let rest = Array(text[(equals + 1)...])
        let valuePieces = (rest.isEmpty ? [] : [WordPiece.text(rest, quoted: false)]) + pieces.dropFirst()
        let name = String(decoding: text[..<equals], as: UTF8.self)
        return Assignment(name: name, value: Word(pieces: valuePieces, range: (range.lowerBound + equals + 1)..<range.upperBound))
    }
}

extension Variable {
    /// Whether `bytes` are a variable's name: a letter or `_`, then letters, digits and `_`.
    public static func isName(_ bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first, Lexer.isNameStart(first) else { return false }
        return bytes.allSatisfy(Lexer.isNameCharacter)
    }
}

/// One command with its words and redirections, before expansion.
public struct SimpleCommand: Sendable, Hashable {
    /// `NAME=value` words before the command's name, in the order written.
    public var assignments: [Assignment]
    /// The command name followed by its arguments.
    public var words: [Word]
    /// Where standard input, output and error go, in the order written.
    public var redirections: [Redirection]
    /// Byte offset of the command's first token in the source.
    public var offset: Int
    /// For `!rest` at the start of a line: `rest`, run by `/bin/sh -c` (the command has no words).
    public var shellLine: [UInt8]?

    /// A command from its assignments, words, redirections and where it starts; `shellLine` for
    /// `!rest`.
    public init(
        assignments: [Assignment] = [], words: [Word], redirections: [Redirection], offset: Int,
        shellLine: [UInt8]? = nil
    ) {
        self.assignments = assignments
        self.words = words
        self.redirections = redirections
        self.offset = offset
        self.shellLine = shellLine
    }
}

/// Commands joined by `|`: each one's standard output is the next one's standard input.
public struct Pipeline: Sendable, Hashable {
    /// The commands in order, at least one.
    public var commands: [SimpleCommand]

    /// A pipeline of `commands` (one for a lone command).
    public init(_ commands: [SimpleCommand]) { self.commands = commands }

    /// Byte offset of the pipeline's first token in the source.
    public var offset: Int { commands[0].offset }
}

/// How a pipeline is chained to the one before it.
public enum Connector: Sendable, Hashable {
    /// `&&`: run when the previous command succeeded.
    case and
    /// `||`: run when the previous command failed.
    case or
}

/// Pipelines joined by `&&` and `||`, ended by `;` or a newline.
public struct Statement: Sendable, Hashable {
    /// The first pipeline.
    public var first: Pipeline
    /// The pipelines after it with the connector before each.
    public var rest: [(Connector, Pipeline)]

    /// A statement of `first` and the pipelines after it.
    public init(first: Pipeline, rest: [(Connector, Pipeline)]) {
        self.first = first
        self.rest = rest
    }

    /// Every pipeline, in order.
    public var pipelines: [Pipeline] { [first] + rest.map(\.1) }

    /// Statements compare by their commands and connectors.
    public static func == (lhs: Statement, rhs: Statement) -> Bool {
        lhs.first == rhs.first && lhs.rest.elementsEqual(rhs.rest) { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    /// Hashes the commands and connectors.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(first)
        for (connector, command) in rest {
            hasher.combine(connector)
            hasher.combine(command)
        }
    }
}
