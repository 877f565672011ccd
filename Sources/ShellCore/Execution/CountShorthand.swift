/// The older spelling of head's and tail's count as their first argument, which GNU still takes:
/// `head -5`, `head -2c`, `head -1kq`, `tail -3`, `tail +2`, `tail -20f`. `parse` rewrites it as
/// the options it stands for (`-n 5`); a digit option anywhere else is refused with GNU's words.
enum CountShorthand {
    /// Which command's spelling: head's letters differ from tail's.
    enum Command { case head, tail }

    /// The options and operands of `arguments`, a leading shorthand read as the options it
    /// stands for.
    /// - Throws: `UsageError` for a letter the shorthand does not take, a digit option that is
    ///   not first (or, for tail, comes with more than one operand), or what the option table
    ///   refuses.
    static func parse<Key>(_ arguments: [Argument], for command: Command, specs: [OptionSpec<Key>])
        throws(UsageError) -> ParsedArguments<Key>
    {
        var arguments = arguments
        if let first = arguments.first, !first.fromGlob, first.pattern == nil {
            let options: [String]?
            switch command {
            case .head: options = try headOptions(first.bytes)
            case .tail: options = tailTakesShorthand(arguments) ? tailOptions(first.bytes) : nil
            }
            if let options { arguments.replaceSubrange(0..<1, with: options.map(Argument.init)) }
        }
        do {
            return try OptionParser.parse(arguments, specs: specs, acceptsHelp: true)
        } catch .invalidOption(let letter) where isDigit(letter) {
            let digit = Character(Unicode.Scalar(letter))
            throw .invalid(command == .head ? Messages.trailing(digit) : Messages.invalidContext(digit))
        }
    }

    /// head's `-NUM[bkm][cqvlz]…`: digits, then letters in any number (`c` bytes, `b` `k` `m`
    /// bytes times 512, 1024, 1048576, `l` lines, `q` no headers, `v` headers, `z` lines ending
    /// with NUL).
    private static func headOptions(_ bytes: [UInt8]) throws(UsageError) -> [String]? {
        guard bytes.count > 1, bytes[0] == 0x2D, isDigit(bytes[1]) else { return nil }
        let digits = bytes.dropFirst().prefix(while: isDigit)
        var lines = true
        var multiplier = ""
        var headers: [String] = []
        var zero: [String] = []
        for letter in bytes.dropFirst(1 + digits.count) {
            switch letter {
            case UInt8(ascii: "c"): (lines, multiplier) = (false, "")
            case UInt8(ascii: "b"): (lines, multiplier) = (false, "b")
            case UInt8(ascii: "k"): (lines, multiplier) = (false, "K")
            case UInt8(ascii: "m"): (lines, multiplier) = (false, "M")
            case UInt8(ascii: "l"): lines = true
            case UInt8(ascii: "q"): headers = ["-q"]
            case UInt8(ascii: "v"): headers = ["-v"]
            case UInt8(ascii: "z"): zero = ["-z"]
            default: throw .invalid(Messages.trailing(Character(Unicode.Scalar(letter))))
            }
        }
        return [lines ? "-n" : "-c", String(decoding: digits, as: UTF8.self) + multiplier] + headers + zero
    }

    /// Whether tail reads its first argument as the shorthand at all: only when it is the one
    /// option, with at most one operand after it.
    private static func tailTakesShorthand(_ arguments: [Argument]) -> Bool {
        if arguments.count == 1 { return true }
        guard arguments.count == 2 else { return false }
        let second = arguments[1].bytes
        return !(second.count > 1 && second[0] == 0x2D)
    }

    /// tail's `-NUM[bcl][f]` (the last NUM) and `+NUM[bcl][f]` (from NUM on); NUM is 10 when left
    /// out. A lone `-`, `-c` are not the shorthand: standard input, the option.
    private static func tailOptions(_ bytes: [UInt8]) -> [String]? {
        guard let sign = bytes.first, sign == 0x2B || sign == 0x2D else { return nil }
        var rest = bytes.dropFirst()
        if sign == 0x2D && (rest.isEmpty || rest.elementsEqual([UInt8(ascii: "c")])) { return nil }
        let digits = rest.prefix(while: isDigit)
        rest = rest.dropFirst(digits.count)
        var count = digits.isEmpty ? "10" : String(decoding: digits, as: UTF8.self)
        var lines = true
        switch rest.first {
        case UInt8(ascii: "b"):
            (lines, count) = (false, count + "b")
            rest = rest.dropFirst()
        case UInt8(ascii: "c"):
            lines = false
            rest = rest.dropFirst()
        case UInt8(ascii: "l"):
            rest = rest.dropFirst()
        default:
            break
        }
        let follows = rest.first == UInt8(ascii: "f")
        if follows { rest = rest.dropFirst() }
        guard rest.isEmpty else { return nil }
        return [lines ? "-n" : "-c", (sign == 0x2B ? "+" : "") + count] + (follows ? ["-f"] : [])
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private enum Messages {
        static func trailing(_ letter: Character) -> String { "invalid trailing option -- \(letter)" }
        static func invalidContext(_ letter: Character) -> String { "option used in invalid context -- \(letter)" }
    }
}
