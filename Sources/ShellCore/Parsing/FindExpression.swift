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
    /// `-path GLOB` (`-wholename`): the whole path matches; wildcards match `/` too.
    case path(WholeTextGlob)
    /// `-ipath GLOB` (`-iwholename`): the same, ignoring ASCII case (the glob is lowercased).
    case caseInsensitivePath(WholeTextGlob)
    /// `-regex PATTERN`, `-iregex PATTERN`: the whole path matches the regular expression.
    case regex(RegularExpression)
    /// `-type X[,Y...]`.
    case type(Set<FileKind>)
    /// `-newer FILE`: modified after FILE was.
    case newer(Argument)
    /// `-size [+-]N[cwbkMG]`: the size in units, rounded up, compared with N.
    case size(Comparison, unit: UInt64, count: UInt64)
    /// `-mtime`, `-atime`, `-ctime` (`unit` a day) and `-mmin`, `-amin`, `-cmin` (a minute):
    /// how long ago the time was, in units, compared with `amount`.
    case age(TimeField, Comparison, amount: Double, unit: Int64)
    /// `-links`, `-inum`, `-uid`, `-gid`, and `-user`/`-group` once their names are ids.
    case number(NumberField, Comparison, UInt64)
    /// `-nouser`: no user has the file's owner id.
    case noUser
    /// `-nogroup`: no group has the file's group id.
    case noGroup
    /// `-perm MODE`, `-perm -MODE`, `-perm /MODE`.
    case permissions(PermissionMatch, UInt32)
    /// `-samefile FILE`: the same file (device and inode) as FILE.
    case sameFile(Argument)
    /// `-true` or `-false`; also what an expression of global options alone means.
    case constant(Bool)
    /// `-empty`: an empty regular file or directory.
    case empty
    /// `-prune`: do not enter this directory (no effect with `-depth`); always true.
    case prune
    /// `-quit`: stop the whole walk now.
    case quit
    /// `-delete`: remove the file or empty directory; true when that worked.
    case delete
    /// `-print`: the path and a newline.
    case print
    /// `-print0`: the path and a NUL byte.
    case printNull
    /// `-printf FORMAT`.
    case printFormat(FindFormat)
    /// `-ls`: a line in the form of `ls -dils`.
    case list
    /// `-fprint FILE`, `-fprint0 FILE`, `-fprintf FILE FORMAT`: as the action, into FILE.
    case printToFile(Argument, FileAction)
    /// What `--json` does for each entry selected: its file record (docs/json.md).
    case record
    /// `-exec` and `-execdir`: run a program.
    case execute(FindExecution)

    /// How `-size`, the times and the numbers compare.
    public enum Comparison: Sendable {
        /// `-N`: fewer units.
        case less
        /// `N`: exactly.
        case equal
        /// `+N`: more units.
        case greater
    }

    /// Which of a file's times a test reads.
    public enum TimeField: Sendable {
        /// `-atime`, `-amin`: last access.
        case access
        /// `-mtime`, `-mmin`: last change of the contents.
        case modification
        /// `-ctime`, `-cmin`: last change of the contents or the metadata.
        case change
    }

    /// Which number of a file's metadata a test reads.
    public enum NumberField: Sendable {
        /// `-links`: the hard-link count.
        case links
        /// `-inum`: the inode number.
        case inode
        /// `-uid`, `-user`: the owner's id.
        case userID
        /// `-gid`, `-group`: the group's id.
        case groupID
    }

    /// How `-perm` compares the permission bits.
    public enum PermissionMatch: Sendable {
        /// `MODE`: exactly these bits.
        case exactly
        /// `-MODE`: at least all of these bits.
        case allOf
        /// `/MODE`: any of these bits (every file when MODE has none).
        case anyOf
    }

    /// What `-fprint`, `-fprint0` and `-fprintf` write into their file.
    public enum FileAction: Sendable {
        /// The path and a newline.
        case print
        /// The path and a NUL byte.
        case printNull
        /// The format's output.
        case format(FindFormat)
    }

    /// Whether the expression prints or does anything itself; if not, `find` prints what it
    /// selects. `-prune` is no action.
    public var hasAction: Bool {
        switch self {
        case .and(let left, let right), .or(let left, let right): return left.hasAction || right.hasAction
        case .not(let inner): return inner.hasAction
        case .print, .printNull, .record, .printFormat, .list, .printToFile, .quit, .delete, .execute: return true
        default: return false
        }
    }

    /// Every node of the expression, depth first.
    var nodes: [FindExpression] {
        switch self {
        case .and(let left, let right), .or(let left, let right): return [self] + left.nodes + right.nodes
        case .not(let inner): return [self] + inner.nodes
        default: return [self]
        }
    }

    /// The files the expression compares with (`-newer`, `-samefile`), examined once before the walk.
    public var referenceFiles: [Argument] {
        nodes.compactMap { node in
            switch node {
            case .newer(let file), .sameFile(let file): return file
            default: return nil
            }
        }
    }

    /// The files the `-fprint` actions write, opened once before the walk, in order.
    public var outputFiles: [Argument] {
        var files: [Argument] = []
        for case .printToFile(let file, _) in nodes where !files.contains(file) { files.append(file) }
        return files
    }

    /// The `-exec` and `-execdir` actions, in order.
    public var executions: [FindExecution] {
        nodes.compactMap { node in
            if case .execute(let execution) = node { return execution }
            return nil
        }
    }

    /// Whether a word begins the expression rather than naming a starting point.
    static func startsExpression(_ word: [UInt8]) -> Bool {
        (word.count > 1 && word.first == 0x2D) || word == [0x21] || word == [0x28] || word == [0x29]
    }

    /// ASCII letters folded to lower case, as `-iname` compares them.
    static func lowercased<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
    }

    /// What a parse gives: the expression and the global options.
    struct Parsed {
        var expression: FindExpression
        var maxDepth: Int?
        var minDepth = 0
        /// `--json`: records instead of paths.
        var json = false
        /// `-depth` (or `-delete`): a directory's entries before the directory.
        var depthFirst = false
        /// `-xdev`, `-mount`: directories on another file system are not entered.
        var sameFileSystem = false
        /// `-follow`: symlinks are followed, as with `-L`.
        var follows = false
    }

    /// A recursive-descent parser over the expression's words.
    struct Parser {
        let words: [Argument]
        var index = 0
        var parsed = Parsed(expression: .constant(true))
        var executions = 0
        var prunes = false
        var deletes = false
        var explicitDepth = false
        /// The syntax `-regex` patterns are read in, as the last `-regextype` before them said.
        var regexType = "findutils-default"

        init(words: [Argument]) { self.words = words }

        mutating func parse() throws(UsageError) -> Parsed {
            let expression = try parseOr()
            if index < words.count {
                let word = words[index].bytes
                if word == [0x29] { throw .invalid(Messages.unexpectedClose) }
                throw .invalid(Messages.pathsFirst(words[index].text))
            }
            if parsed.json, let expression, expression.hasAction { throw .invalid(Messages.jsonWithPrint) }
            if deletes && prunes && !explicitDepth { throw .invalid(Messages.deleteWithPrune) }
            parsed.depthFirst = parsed.depthFirst || deletes
            parsed.expression = expression ?? .constant(true)
            return parsed
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
            case "-path", "-wholename":
                return .path(WholeTextGlob(bytes: try argument(of: spelled).bytes))
            case "-ipath", "-iwholename":
                return .caseInsensitivePath(
                    WholeTextGlob(bytes: FindExpression.lowercased(try argument(of: spelled).bytes)))
            case "-regex", "-iregex":
                let pattern = try argument(of: spelled).bytes
                return .regex(try RegularExpression(pattern, type: regexType, ignoringCase: spelled == "-iregex"))
            case "-regextype":
                let type = try argument(of: spelled).text
                guard RegularExpression.knowsType(type) else { throw .invalid(Messages.unknownRegexType(type)) }
                regexType = type
                return nil
            case "-type":
                return .type(try kinds(try argument(of: spelled).text))
            case "-newer":
                return .newer(try argument(of: spelled))
            case "-samefile":
                return .sameFile(try argument(of: spelled))
            case "-size":
                return try size(try argument(of: spelled).text)
            case "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin":
                return try age(spelled, try argument(of: spelled).text)
            case "-links", "-inum", "-uid", "-gid":
                let fields: [String: NumberField] = [
                    "-links": .links, "-inum": .inode, "-uid": .userID, "-gid": .groupID,
                ]
                let (comparison, value) = try number(try argument(of: spelled).text, option: spelled)
                return .number(fields[spelled]!, comparison, value)
            case "-user":
                let text = try argument(of: spelled).text
                if let user = Accounts.user(named: text) { return .number(.userID, .equal, UInt64(user.id)) }
                guard let id = UInt32(text) else { throw .invalid(Messages.unknownUser(text)) }
                return .number(.userID, .equal, UInt64(id))
            case "-group":
                let text = try argument(of: spelled).text
                if let group = Accounts.group(named: text) { return .number(.groupID, .equal, UInt64(group)) }
                guard let id = UInt32(text) else { throw .invalid(Messages.unknownGroup(text)) }
                return .number(.groupID, .equal, UInt64(id))
            case "-nouser":
                return .noUser
            case "-nogroup":
                return .noGroup
            case "-perm":
                return try permissions(try argument(of: spelled))
            case "-empty":
                return .empty
            case "-prune":
                prunes = true
                return .prune
            case "-quit":
                return .quit
            case "-delete":
                deletes = true
                return .delete
            case "-print":
                return .print
            case "-print0":
                return .printNull
            case "-printf":
                return .printFormat(try FindFormat(try argument(of: spelled).bytes))
            case "-ls":
                return .list
            case "-fprint", "-fprint0":
                let file = try argument(of: spelled)
                return .printToFile(file, spelled == "-fprint" ? .print : .printNull)
            case "-fprintf":
                let file = try argument(of: spelled)
                return .printToFile(file, .format(try FindFormat(try argument(of: spelled).bytes)))
            case "-exec", "-execdir":
                return .execute(try execution(spelled))
            case "-true", "-false":
                return .constant(spelled == "-true")
            case "--json":
                parsed.json = true
                return nil
            case "-depth", "-d":
                parsed.depthFirst = true
                explicitDepth = true
                return nil
            case "-xdev", "-mount":
                parsed.sameFileSystem = true
                return nil
            case "-follow":
                parsed.follows = true
                return nil
            case "-noleaf":
                return nil
            case "-maxdepth", "-mindepth":
                let text = try argument(of: spelled).text
                guard let depth = Int(text), depth >= 0, text.allSatisfy(\.isASCII) else {
                    throw .invalid(Messages.badDepth(option: spelled, text))
                }
                if spelled == "-maxdepth" { parsed.maxDepth = depth } else { parsed.minDepth = depth }
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

        /// A leading `+` or `-`, and what follows it.
        private func comparison(_ text: String) -> (Comparison, Substring) {
            var rest = Substring(text)
            switch rest.first {
            case "+":
                rest.removeFirst()
                return (.greater, rest)
            case "-":
                rest.removeFirst()
                return (.less, rest)
            default:
                return (.equal, rest)
            }
        }

        private func size(_ text: String) throws(UsageError) -> FindExpression {
            var (comparison, digits) = comparison(text)
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
                throw .invalid(Messages.badArgument(text, option: "-size"))
            }
            return .size(comparison, unit: unit, count: count)
        }

        private func age(_ option: String, _ text: String) throws(UsageError) -> FindExpression {
            let (comparison, digits) = comparison(text)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                let amount = Double(digits)
            else {
                throw .invalid(Messages.badArgument(text, option: option))
            }
            let field: TimeField = option.hasPrefix("-a") ? .access : option.hasPrefix("-c") ? .change : .modification
            return .age(field, comparison, amount: amount, unit: option.hasSuffix("min") ? 60 : 86_400)
        }

        private func number(_ text: String, option: String) throws(UsageError) -> (Comparison, UInt64) {
            let (comparison, digits) = comparison(text)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = UInt64(digits) else {
                throw .invalid(Messages.badArgument(text, option: option))
            }
            return (comparison, value)
        }

        /// `-perm MODE`, `-MODE` or `/MODE`, MODE octal or symbolic (applied to no bits, no umask).
        private func permissions(_ argument: Argument) throws(UsageError) -> FindExpression {
            var text = argument.bytes[...]
            var match = PermissionMatch.exactly
            if text.first == 0x2D || text.first == 0x2F {
                match = text.first == 0x2D ? .allOf : .anyOf
                text = text.dropFirst()
            }
            guard let mode = ModeExpression(Array(text)) else { throw .invalid(Messages.invalidMode(argument.text)) }
            return .permissions(match, mode.applied(to: 0, isDirectory: false, umask: 0))
        }

        /// `-exec COMMAND… ;` or `-exec COMMAND… {} +` (the same for `-execdir`).
        private mutating func execution(_ option: String) throws(UsageError) -> FindExecution {
            var command: [Argument] = []
            while index < words.count {
                let word = words[index]
                index += 1
                if word.bytes == [0x3B] {
                    guard !command.isEmpty else { throw .invalid(Messages.missingArgument(option)) }
                    return try made(command, batched: false, option)
                }
                if word.bytes == [0x2B], command.last?.bytes == FindExecution.placeholder {
                    let placeholders = command.filter { Self.contains($0.bytes, FindExecution.placeholder) }
                    guard placeholders.count == 1, command.count > 1 else {
                        throw .invalid(Messages.onePlaceholder)
                    }
                    return try made(Array(command.dropLast()), batched: true, option)
                }
                command.append(word)
            }
            throw .invalid(Messages.missingArgument(option))
        }

        private mutating func made(_ words: [Argument], batched: Bool, _ option: String) throws(UsageError)
            -> FindExecution
        {
            defer { executions += 1 }
            return FindExecution(
                words: words.map(\.bytes), batched: batched, inEntryDirectory: option == "-execdir",
                number: executions)
        }

        private static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
            bytes.count >= part.count && (0...(bytes.count - part.count)).contains { bytes[$0..<($0 + part.count)].elementsEqual(part) }
        }
    }

    /// GNU find's wording, with its backquoted names.
    enum Messages {
        static func unknownPredicate(_ word: String) -> String { "unknown predicate `\(word)'" }
        static func missingArgument(_ option: String) -> String { "missing argument to `\(option)'" }
        static func unknownType(_ text: String) -> String { "Unknown argument to -type: \(text)" }
        static func badDepth(option: String, _ text: String) -> String {
            "Expected a positive decimal integer argument to \(option), but got '\(text)'"
        }
        static func badSizeType(_ letter: String) -> String { "invalid -size type `\(letter)'" }
        static func badArgument(_ text: String, option: String) -> String { "invalid argument `\(text)' to `\(option)'" }
        static func pathsFirst(_ word: String) -> String { "paths must precede expression: `\(word)'" }
        static func missingOperand(_ word: String) -> String {
            "invalid expression; you have used a binary operator '\(word)' with nothing before it."
        }
        static func unknownUser(_ name: String) -> String { "'\(name)' is not the name of a known user" }
        static func unknownGroup(_ name: String) -> String { "'\(name)' is not the name of an existing group" }
        static func invalidMode(_ text: String) -> String { "invalid mode '\(text)'" }
        static func unknownRegexType(_ name: String) -> String {
            "Unknown regular expression type '\(name)'; valid types are 'findutils-default', 'ed', 'emacs', "
                + "'gnu-awk', 'grep', 'posix-awk', 'awk', 'posix-basic', 'posix-egrep', 'egrep', 'posix-extended', "
                + "'posix-minimal-basic', 'sed'."
        }
        static let onePlaceholder = "Only one instance of {} is supported with -exec ... +"
        static let deleteWithPrune =
            "The -delete action automatically turns on -depth, but -prune does nothing when -depth is in effect.  "
            + "If you want to carry on anyway, just explicitly use the -depth option."
        static let expectedClose =
            "invalid expression; I was expecting to find a ')' somewhere but did not see one."
        static let unexpectedClose = "invalid expression; you have too many ')'"
        static let emptyParentheses = "invalid expression; empty parentheses are not allowed."
        static let jsonWithPrint = "--json writes a record for each entry selected; it cannot be used with -print or -print0"
    }
}

/// A program `find -exec` or `-execdir` runs.
public struct FindExecution: Sendable {
    /// The `{}` that stands for the path.
    static let placeholder: [UInt8] = [0x7B, 0x7D]

    /// The program and its words as written; each `{}` in them becomes the path (with `+`,
    /// the paths are added after them instead).
    public var words: [[UInt8]]
    /// `+`: many paths to one run, always true; `;`: one run per entry, true when it succeeds.
    public var batched: Bool
    /// `-execdir`: run in the entry's directory, with `./NAME` for the path.
    public var inEntryDirectory: Bool
    /// Which `-exec` of the expression this is, counted from 0.
    public var number: Int

    /// The words for one run with `path` (`;`), each `{}` replaced.
    func words(for path: [UInt8]) -> [[UInt8]] {
        words.map { word in
            var result: [UInt8] = []
            var index = 0
            while index < word.count {
                if index + 1 < word.count, word[index] == 0x7B, word[index + 1] == 0x7D {
                    result += path
                    index += 2
                } else {
                    result.append(word[index])
                    index += 1
                }
            }
            return result
        }
    }
}
