/// A mode as `chmod` takes it, octal (`755`, `04755`) or symbolic (`u+x`, `go-w`, `a=r,+t`,
/// `u=g`, `+X`), parsed into clauses that are applied one after the other to a file's mode, as
/// GNU chmod reads and applies them.
///
///     let mode = ModeExpression(Array("go-w,u+x".utf8))!
///     mode.applied(to: 0o666, isDirectory: false, umask: 0o022)   // 0o744
public struct ModeExpression: Sendable, Hashable {
    /// One step: `[ugoa]*` then an operator and what it applies (`rwxXst`, `u`, `g`, `o`, or an
    /// octal number).
    struct Clause: Sendable, Hashable {
        /// What the step does with its bits.
        enum Operation: Sendable, Hashable {
            case add, remove, set
        }

        /// Where the step's bits come from.
        enum Source: Sendable, Hashable {
            /// The bits written (`rwxst`, an octal number).
            case literal
            /// `X`: the written bits, plus execute for all when the file is a directory or
            /// already has an execute bit.
            case executeIfAny
            /// `u`, `g` or `o` after the operator: the file's own bits of that class (the
            /// clause's value says which), copied to every class.
            case copied
        }

        var operation: Operation
        var source: Source
        /// The bits of the classes named before the operator; 0 when none was, and the umask
        /// then limits the change.
        var who: UInt32
        /// The bits the step adds, removes or sets, before `who` (or the umask) limits them.
        var value: UInt32
        /// The bits the step speaks of: a directory keeps its set-user-ID and set-group-ID bits
        /// unless they are among them.
        var mentioned: UInt32
    }

    /// The steps in the order written.
    let clauses: [Clause]

    /// Parses `text`, octal or symbolic (comma-separated clauses).
    /// - Returns: nil when `text` is not a mode GNU chmod accepts.
    public init?(_ text: [UInt8]) {
        if let first = text.first, Self.isOctalDigit(first) {
            guard let (mode, end) = Self.octalNumber(in: text, from: 0), end == text.count else { return nil }
            // Fewer than five digits leave a directory's set-id bits alone unless they are set.
            let mentioned = end < 5 ? (mode & Bits.setIDs) | Bits.sticky | Bits.permissions : Bits.all
            clauses = [
                Clause(operation: .set, source: .literal, who: Bits.all, value: mode, mentioned: mentioned)
            ]
            return
        }
        guard let clauses = Self.symbolicClauses(text) else { return nil }
        self.clauses = clauses
    }

    /// The expression that sets every mode bit to `mode`'s (`chmod --reference`).
    public init(exactly mode: UInt32) {
        let bits = mode & Bits.all
        clauses = [Clause(operation: .set, source: .literal, who: Bits.all, value: bits, mentioned: Bits.all)]
    }

    /// The mode bits (`0o7777` at most) a file with mode `mode` gets.
    /// - Parameters:
    ///   - isDirectory: whether the file is a directory (for `X`, and its set-id bits).
    ///   - umask: the bits a clause that names no class (`+w`) leaves alone.
    public func applied(to mode: UInt32, isDirectory: Bool, umask: UInt32) -> UInt32 {
        var result = mode & Bits.all
        for clause in clauses {
            let kept = isDirectory ? Bits.setIDs & ~clause.mentioned : 0
            var value = clause.value
            switch clause.source {
            case .literal:
                break
            case .executeIfAny:
                if result & Bits.execute != 0 || isDirectory { value |= Bits.execute }
            case .copied:
                value &= result
                value =
                    (value & Bits.read != 0 ? Bits.read : 0) | (value & Bits.write != 0 ? Bits.write : 0)
                    | (value & Bits.execute != 0 ? Bits.execute : 0)
            }
            value &= (clause.who != 0 ? clause.who : ~umask) & ~kept
            switch clause.operation {
            case .add:
                result |= value
            case .remove:
                result &= ~value
            case .set:
                let preserved = (clause.who != 0 ? ~clause.who : 0) | kept
                result = (result & preserved) | value
            }
        }
        return result & Bits.all
    }

    /// The clauses of a symbolic mode: `[ugoa]*([-+=]([rwxXst]*|[ugo]))+` or `[-+=][0-7]+`,
    /// separated by commas; nil for anything else.
    private static func symbolicClauses(_ text: [UInt8]) -> [Clause]? {
        var clauses: [Clause] = []
        var position = 0
        func current() -> UInt8? { position < text.count ? text[position] : nil }
        while true {
            var who: UInt32 = 0
            whoLoop: while true {
                switch current() {
                case UInt8(ascii: "u"): who |= Bits.setUser | 0o700
                case UInt8(ascii: "g"): who |= Bits.setGroup | 0o070
                case UInt8(ascii: "o"): who |= Bits.sticky | 0o007
                case UInt8(ascii: "a"): who |= Bits.all
                case let byte? where isOperator(byte): break whoLoop
                default: return nil
                }
                position += 1
            }
            repeat {
                let operation: Clause.Operation
                switch text[position] {
                case UInt8(ascii: "+"): operation = .add
                case UInt8(ascii: "-"): operation = .remove
                default: operation = .set
                }
                position += 1
                var clause = Clause(operation: operation, source: .copied, who: who, value: 0, mentioned: 0)
                switch current() {
                case let digit? where isOctalDigit(digit):
                    guard let (mode, end) = octalNumber(in: text, from: position), who == 0,
                        end == text.count || text[end] == UInt8(ascii: ",")
                    else { return nil }
                    position = end
                    who = Bits.all
                    clause = Clause(
                        operation: operation, source: .literal, who: Bits.all, value: mode,
                        mentioned: Bits.all)
                case UInt8(ascii: "u"):
                    clause.value = 0o700
                    position += 1
                case UInt8(ascii: "g"):
                    clause.value = 0o070
                    position += 1
                case UInt8(ascii: "o"):
                    clause.value = 0o007
                    position += 1
                default:
                    clause.source = .literal
                    letters: while let byte = current() {
                        switch byte {
                        case UInt8(ascii: "r"): clause.value |= Bits.read
                        case UInt8(ascii: "w"): clause.value |= Bits.write
                        case UInt8(ascii: "x"): clause.value |= Bits.execute
                        case UInt8(ascii: "X"): clause.source = .executeIfAny
                        case UInt8(ascii: "s"): clause.value |= Bits.setIDs
                        case UInt8(ascii: "t"): clause.value |= Bits.sticky
                        default: break letters
                        }
                        position += 1
                    }
                }
                if clause.mentioned == 0 { clause.mentioned = who != 0 ? who & clause.value : clause.value }
                clauses.append(clause)
            } while current().map(isOperator) ?? false
            guard let separator = current() else { return clauses }
            guard separator == UInt8(ascii: ",") else { return nil }
            position += 1
        }
    }

    /// The octal number that starts at `start`, and where it ends; nil when it exceeds `0o7777`.
    private static func octalNumber(in text: [UInt8], from start: Int) -> (UInt32, Int)? {
        var value: UInt32 = 0
        var end = start
        while end < text.count, isOctalDigit(text[end]) {
            value = value * 8 + UInt32(text[end] - UInt8(ascii: "0"))
            if value > Bits.all { return nil }
            end += 1
        }
        return (value, end)
    }

    private static func isOctalDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte)
    }

    private static func isOperator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "=")
    }

    /// The mode bits by meaning.
    enum Bits {
        static let setUser: UInt32 = 0o4000
        static let setGroup: UInt32 = 0o2000
        static let setIDs: UInt32 = 0o6000
        static let sticky: UInt32 = 0o1000
        static let permissions: UInt32 = 0o777
        static let all: UInt32 = 0o7777
        static let read: UInt32 = 0o444
        static let write: UInt32 = 0o222
        static let execute: UInt32 = 0o111
    }
}
