/// `echo [-neE] WORD...`: print words separated by spaces; with `-e`, backslash escapes in them
/// are interpreted, as GNU echo does.
public struct EchoCommand: ShellCommand {
    public static let name = "echo"
    public static let summary = "Print the words, separated by spaces, and a newline."
    public static let synopsis = "[-neE] [WORD]..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case noNewline, escapes, noEscapes
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("n", key: .noNewline, help: "do not print the trailing newline"),
        OptionSpec("e", key: .escapes, help: "interpret backslash escapes"),
        OptionSpec("E", key: .noEscapes, help: "do not interpret backslash escapes (the default)"),
    ]
    /// `echo --help` prints `--help`, as in bash.
    public static let takesHelpOption = false

    /// Whether to leave out the newline.
    public var omitNewline: Bool
    /// Whether backslash escapes are interpreted (`-e`; the last of `-e` and `-E` wins).
    public var interpretsEscapes: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        omitNewline = arguments.has(.noNewline)
        interpretsEscapes = arguments.last(of: [.escapes, .noEscapes]) == .escapes
        operands = arguments.operands
    }

    /// As in GNU echo, leading words made only of the letters `n`, `e` and `E` after a `-` are
    /// options; anything else, and everything after it, is printed.
    public static func parse(_ arguments: [Argument]) throws(UsageError) -> EchoCommand {
        var options: [(key: Option, value: [UInt8]?)] = []
        var rest = arguments[...]
        while let first = rest.first, first.pattern == nil, first.bytes.count >= 2, first.bytes[0] == 0x2D {
            let letters = first.bytes.dropFirst().map(option(forLetter:))
            guard !letters.contains(nil) else { break }
            options += letters.map { ($0!, nil) }
            rest = rest.dropFirst()
        }
        return try EchoCommand(ParsedArguments(options: options, operands: Array(rest)))
    }

    /// The option a letter of an option word stands for.
    private static func option(forLetter letter: UInt8) -> Option? {
        switch letter {
        case 0x6E: .noNewline  // n
        case 0x65: .escapes  // e
        case 0x45: .noEscapes  // E
        default: nil
        }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        for (index, operand) in operands.enumerated() {
            if index > 0 { context.stdout.write(" ") }
            guard interpretsEscapes else {
                context.stdout.write(bytes: operand.bytes)
                continue
            }
            let (bytes, stop) = Self.interpretingEscapes(operand.bytes)
            context.stdout.write(bytes: bytes)
            if stop { return .success }
        }
        if !omitNewline { context.stdout.line() }
        return .success
    }

    /// `word` with its backslash escapes replaced by the bytes they stand for: `\\`, `\a`, `\b`,
    /// `\e`, `\f`, `\n`, `\r`, `\t`, `\v`, `\0NNN` and `\NNN` (octal, up to three digits after
    /// the `0` or in all), `\xHH` (one or two hex digits); any other backslash stays. `stop` is
    /// true at `\c`, after which nothing more is printed, not even the newline.
    static func interpretingEscapes(_ word: [UInt8]) -> (bytes: [UInt8], stop: Bool) {
        var out: [UInt8] = []
        out.reserveCapacity(word.count)
        var index = 0
        /// The value of up to `limit` digits of `radix` from `index` on, consuming them.
        func digits(radix: UInt8, limit: Int) -> (value: Int, count: Int) {
            var value = 0
            var count = 0
            while count < limit, index < word.count, let digit = digitValue(word[index], radix: radix) {
                value = value * Int(radix) + Int(digit)
                count += 1
                index += 1
            }
            return (value, count)
        }
        while index < word.count {
            let byte = word[index]
            index += 1
            guard byte == 0x5C, index < word.count else {
                out.append(byte)
                continue
            }
            let letter = word[index]
            index += 1
            switch letter {
            case 0x5C: out.append(0x5C)
            case 0x61: out.append(0x07)  // \a
            case 0x62: out.append(0x08)  // \b
            case 0x63: return (out, true)  // \c
            case 0x65: out.append(0x1B)  // \e
            case 0x66: out.append(0x0C)  // \f
            case 0x6E: out.append(0x0A)  // \n
            case 0x72: out.append(0x0D)  // \r
            case 0x74: out.append(0x09)  // \t
            case 0x76: out.append(0x0B)  // \v
            case 0x78:  // \xHH
                let (value, count) = digits(radix: 16, limit: 2)
                out.append(contentsOf: count == 0 ? [0x5C, 0x78] : [UInt8(value)])
            case 0x30:  // \0NNN
                out.append(UInt8(truncatingIfNeeded: digits(radix: 8, limit: 3).value))
            case 0x31...0x37:  // \NNN
                index -= 1
                out.append(UInt8(truncatingIfNeeded: digits(radix: 8, limit: 3).value))
            default:
                out.append(contentsOf: [0x5C, letter])
            }
        }
        return (out, false)
    }

    /// The value of an ASCII digit in `radix` (8 or 16), or nil.
    private static func digitValue(_ byte: UInt8, radix: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39 where byte - 0x30 < radix: byte - 0x30
        case 0x61...0x66 where radix == 16: byte - 0x61 + 10
        case 0x41...0x46 where radix == 16: byte - 0x41 + 10
        default: nil
        }
    }
}
