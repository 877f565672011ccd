import PathModel

/// A `find` expression: tests and actions joined by `!`, `-a` (or nothing) and `-o`, with
/// parentheses, as GNU find reads them.
public indirect enum FindExpression: Sendable {
    /// Both (`-a`, or two expressions side by side); the right one only when the left holds.
    case and(FindExpression, FindExpression)
    /// Either (`-o`); the right one only when the left fails.
    case or(FindExpression, FindExpression)
    /// The opposite (`!`, `-not`).
    case not(FindExpression)
    /// `-name GLOB`: the last component matches (a wildcard matches a leading dot too).
    case name(Glob)
    /// `-iname GLOB`: the same, ignoring ASCII case (the glob is lowercased).
    case caseInsensitiveName(Glob)
    /// `-type X[,Y...]`.
    case type(Set<FileKind>)
    /// `-newer FILE`: modified after FILE was.
    case newer(Argument)
    /// `-size [+-]N[cwbkMG]`: the size in units, rounded up, compared with N.
    case size(Comparison, unit: UInt64, count: UInt64)
    /// `-true` or `-false`; also what an expression of global options alone means.
    case constant(Bool)
    /// `-empty`: an empty regular file or directory.
    case empty
    /// `-print`: the path and a newline.
    case print
    /// `-print0`: the path and a NUL byte.
    case printNull
    /// What `--json` does for each entry selected: its file record (docs/json.md).
    case record

    /// How `-size` compares.
    public enum Comparison: Sendable {
        /// `-N`: fewer units.
        case less
        /// `N`: exactly.
        case equal
        /// `+N`: more units.
        case greater
    }

    /// Whether the expression prints anything itself; if not, `find` prints what it selects.
    public var hasAction: Bool {
        switch self {
        case .and(let left, let right), .or(let left, let right): return left.hasAction || right.hasAction
        case .not(let inner): return inner.hasAction
        case .print, .printNull, .record: return true
        default: return false
        }
    }

    /// The `-newer` reference files, which are examined once before the walk.
    public var newerReferences: [Argument] {
        switch self {
        case .and(let left, let right), .or(let left, let right): return left.newerReferences + right.newerReferences
        case .not(let inner): return inner.newerReferences
        case .newer(let file): return [file]
        default: return []
        }
    }

    /// Whether a word begins the expression rather than naming a starting point.
    static func startsExpression(_ word: [UInt8]) -> Bool {
        (word.count > 1 && word.first == 0x2D) || word == [0x21] || word == [0x28] || word == [0x29]
    }

    /// ASCII letters folded to lower case, as `-iname` compares them.
    static func lowercased(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
    }

    /// What a parse gives: the expression and the global depth options.
    struct Parsed {
        var expression: FindExpression
        var maxDepth: Int?
        var minDepth = 0
        /// `--json`: records instead of paths.
        var json = false
    }

    /// A recursive-descent parser over the expression's words.
    struct Parser {
        let words: [Argument]
        var index = 0
        var maxDepth: Int?
        var minDepth = 0
        var json = false

        init(words: [Argument]) { self.words = words }

        mutating func parse() throws(UsageError) -> Parsed {
            let expression = try parseOr()
            if index < words.count {
                let word = words[index].bytes
                if word == [0x29] { throw .invalid(Messages.unexpectedClose) }
                throw .invalid(Messages.pathsFirst(words[index].text))
            }
            if json, let expression, expression.hasAction { throw .invalid(Messages.jsonWithPrint) }
            return Parsed(expression: expression ?? .constant(true), maxDepth: maxDepth, minDepth: minDepth, json: json)
        }

        private var current: [UInt8]? { index < words.count ? words[index].bytes : nil }

        private mutating func parseOr() throws(UsageError) -> FindExpression? {
            var left = try parseAnd()
            while current == Array("-o".utf8) || current == Array("-or".utf8) {
                let spelled = words[index].text
                index += 1
                guard let right = try parseAnd(), let first = left else {
                    throw .invalid(Messages.missingOperand(spelled))
                }
                left = .or(first, right)
            }
            return left
        }

        private mutating func parseAnd() throws(UsageError) -> FindExpression? {
            var left = try parseUnary()
            while let word = current, word != Array("-o".utf8), word != Array("-or".utf8), word != [0x29] {
                if word == Array("-a".utf8) || word == Array("-and".utf8) {
                    let spelled = words[index].text
                    index += 1
                    guard current != nil, left != nil else { throw .invalid(Messages.missingOperand(spelled)) }
                }
                guard let right = try parseUnary() else { continue }
                left = left.map { .and($0, right) } ?? right
            }
            return left
        }

        /// A test, an action, `! X`, `( X )`, or nil for a global option (which selects everything).
        private mutating func parseUnary() throws(UsageError) -> FindExpression? {
            guard let word = current else { return nil }
            let spelled = words[index].text
            index += 1
            switch spelled {
            case "!", "-not":
                guard let inner = try parseUnary() else { throw .invalid(Messages.missingOperand(spelled)) }
                return .not(inner)
            case "(":
                let inner = try parseOr()
                guard current == [0x29] else { throw .invalid(Messages.expectedClose) }
                index += 1
                guard let inner else { throw .invalid(Messages.emptyParentheses) }
                return inner
            case "-name", "-iname":
                let pattern = try argument(of: spelled)
                return spelled == "-name"
                    ? .name(Glob(bytes: pattern.bytes))
                    : .caseInsensitiveName(Glob(bytes: FindExpression.lowercased(pattern.bytes)))
            case "-type":
                return .type(try kinds(try argument(of: spelled).text))
            case "-newer":
                return .newer(try argument(of: spelled))
            case "-size":
                return try size(try argument(of: spelled).text)
            case "-empty":
                return .empty
            case "-print":
                return .print
            case "-print0":
                return .printNull
            case "-true", "-false":
                return .constant(spelled == "-true")
            case "--json":
                json = true
                return nil
            case "-maxdepth", "-mindepth":
                let text = try argument(of: spelled).text
                guard let depth = Int(text), depth >= 0, text.allSatisfy(\.isASCII) else {
                    throw .invalid(Messages.badDepth(option: spelled, text))
                }
                if spelled == "-maxdepth" { maxDepth = depth } else { minDepth = depth }
                return nil
            default:
                if word.first == 0x2D { throw .invalid(Messages.unknownPredicate(spelled)) }
                throw .invalid(Messages.pathsFirst(spelled))
            }
        }

        private mutating func argument(of option: String) throws(UsageError) -> Argument {
            guard index < words.count else { throw .invalid(Messages.missingArgument(option)) }
            index += 1
            return words[index - 1]
        }

        private func kinds(_ text: String) throws(UsageError) -> Set<FileKind> {
            var kinds: Set<FileKind> = []
            for letter in text.split(separator: ",", omittingEmptySubsequences: false) {
                switch letter {
                case "f": kinds.insert(.regular)
                case "d": kinds.insert(.directory)
                case "l": kinds.insert(.symlink)
                case "p": kinds.insert(.fifo)
                case "s": kinds.insert(.socket)
                case "b": kinds.insert(.blockDevice)
                case "c": kinds.insert(.characterDevice)
                default: throw .invalid(Messages.unknownType(text))
                }
            }
            return kinds
        }

        private func size(_ text: String) throws(UsageError) -> FindExpression {
            var digits = Substring(text)
            var comparison = Comparison.equal
            if digits.first == "+" || digits.first == "-" {
                comparison = digits.first == "+" ? .greater : .less
                digits.removeFirst()
            }
            var unit: UInt64 = 512
            if let last = digits.last, !last.isNumber {
                switch last {
                case "c": unit = 1
                case "w": unit = 2
                case "b": unit = 512
                case "k": unit = 1 << 10
                case "M": unit = 1 << 20
                case "G": unit = 1 << 30
                default: throw .invalid(Messages.badSizeType(String(last)))
                }
                digits.removeLast()
            }
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let count = UInt64(digits) else {
                throw .invalid(Messages.badSize(text))
            }
            return .size(comparison, unit: unit, count: count)
        }
    }

    /// GNU find's wording, with its backquoted names.
    private enum Messages {
        static func unknownPredicate(_ word: String) -> String { "unknown predicate `\(word)'" }
        static func missingArgument(_ option: String) -> String { "missing argument to `\(option)'" }
        static func unknownType(_ text: String) -> String { "Unknown argument to -type: \(text)" }
        static func badDepth(option: String, _ text: String) -> String {
            "Expected a positive decimal integer argument to \(option), but got '\(text)'"
        }
        static func badSizeType(_ letter: String) -> String { "invalid -size type `\(letter)'" }
        static func badSize(_ text: String) -> String { "invalid argument `\(text)' to `-size'" }
        static func pathsFirst(_ word: String) -> String { "paths must precede expression: `\(word)'" }
        static func missingOperand(_ word: String) -> String {
            "invalid expression; you have used a binary operator '\(word)' with nothing before it."
        }
        static let expectedClose =
            "invalid expression; I was expecting to find a ')' somewhere but did not see one."
        static let unexpectedClose = "invalid expression; you have too many ')'"
        static let emptyParentheses = "invalid expression; empty parentheses are not allowed."
        static let jsonWithPrint = "--json writes a record for each entry selected; it cannot be used with -print or -print0"
    }
}
