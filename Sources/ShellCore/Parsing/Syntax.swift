/// A redirection of standard output: `> file` or `>> file`.
public struct Redirection: Sendable, Hashable {
    /// Whether to append (`>>`) rather than replace (`>`).
    public var append: Bool
    /// The file to write to.
    public var target: Word
    /// Byte offset of the `>` in the source.
    public var offset: Int
}

/// One command with its words and redirections, before expansion.
public struct SimpleCommand: Sendable, Hashable {
    /// The command name followed by its arguments.
    public var words: [Word]
    /// Where standard output goes.
    public var redirections: [Redirection]
    /// Byte offset of the command's first token in the source.
    public var offset: Int
    /// For `!rest` at the start of a line: `rest`, run by `/bin/sh -c` (the command has no words).
    public var shellLine: [UInt8]?

    /// A command from its words, redirections and where it starts; `shellLine` for `!rest`.
    public init(words: [Word], redirections: [Redirection], offset: Int, shellLine: [UInt8]? = nil) {
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
