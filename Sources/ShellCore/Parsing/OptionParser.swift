/// One option a command accepts.
public struct OptionSpec: Sendable, Hashable {
    /// Whether the option takes a value.
    public enum Value: Sendable, Hashable {
        /// A flag: `-a`, `--all`.
        case none
        /// A required value: `-L 2`, `-L2`, `--max-depth=2`, `--max-depth 2`.
        case required
        /// An optional value, only as `--color=WHEN`.
        case optional
    }

    /// The option's identity within its command, used to read it back.
    public var key: String
    /// The one-letter form, if any.
    public var short: Character?
    /// The long form without dashes, if any.
    public var long: String?
    /// Whether it takes a value.
    public var value: Value
    /// The value's name in help (`N`, `WHEN`).
    public var valueName: String
    /// One line of help.
    public var help: String

    /// An option; `key` defaults to the long name, else the short letter.
    public init(
        _ short: Character? = nil, _ long: String? = nil, value: Value = .none, valueName: String = "",
        key: String? = nil, help: String
    ) {
        self.short = short
        self.long = long
        self.value = value
        self.valueName = valueName
        self.help = help
        self.key = key ?? long ?? short.map(String.init) ?? ""
    }
}

/// Why a command line was rejected, as data; Diagnostics words it, the shell puts the command
/// name before it and `Try 'help CMD'` after.
public enum UsageError: Error, Sendable, Hashable {
    /// A letter no option of the command has (`-z`).
    case invalidOption(UInt8)
    /// A long option no option of the command has, as typed (`--foo`, `--foo=1`).
    case unrecognizedOption(String)
    /// A long option's prefix that several options share: as typed, and their long names.
    case ambiguousOption(String, candidates: [String])
    /// An option that needs a value got none: its letter, as typed (`-L`).
    case missingShortValue(Character)
    /// An option that needs a value got none: its long name (`--max-depth`).
    case missingLongValue(String)
    /// A flag given a value (`--all=yes`): its long name.
    case unexpectedValue(String)
    /// A command's own objection to its arguments, in the words at the bottom of its file.
    case invalid(String)
}

/// A command line split into options (in order) and operands, GNU style.
public struct ParsedArguments: Sendable {
    /// Options in the order given, each with its value as the bytes typed.
    public var options: [(key: String, value: [UInt8]?)] = []
    /// Operands in order.
    public var operands: [Argument] = []

    /// Whether an option was given.
    public func has(_ key: String) -> Bool { options.contains { $0.key == key } }

    /// The value of the last occurrence of an option, as text (bytes that are not UTF-8 become
    /// U+FFFD): for numbers and keywords.
    public func value(_ key: String) -> String? { bytes(key).map { String(decoding: $0, as: UTF8.self) } }

    /// The value of the last occurrence of an option, byte for byte: for names and patterns.
    public func bytes(_ key: String) -> [UInt8]? { options.last { $0.key == key }?.value }

    /// The last of several mutually overriding options given (`-f` after `-i` wins).
    public func last(of keys: Set<String>) -> String? { options.last { keys.contains($0.key) }?.key }
}

/// Splits arguments GNU style: bundles (`-la`), long options with unambiguous prefixes,
/// `--opt=value`, `--` ends options, a lone `-` is an operand, options and operands may mix.
/// A name that came from a glob is always an operand.
public enum OptionParser {
    /// Parses `arguments` against `specs`.
    /// - Throws: `UsageError` with GNU's wording for unknown, ambiguous or incomplete options.
    public static func parse(_ arguments: [Argument], specs: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let bytes = argument.bytes
            if optionsEnded || argument.fromGlob || argument.pattern != nil || bytes.count < 2 || bytes[0] != 0x2D {
                result.operands.append(argument)
                continue
            }
            if bytes == [0x2D, 0x2D] {
                optionsEnded = true
                continue
            }
            if bytes[1] == 0x2D {
                let equals = bytes.firstIndex(of: 0x3D)
                let name = String(decoding: bytes[2..<(equals ?? bytes.endIndex)], as: UTF8.self)
                let inlineValue = equals.map { Array(bytes[($0 + 1)...]) }
                let spec = try longOption(name, specs: specs, spelled: argument.text)
                switch spec.value {
                case .none:
                    if inlineValue != nil { throw .unexpectedValue(spec.long!) }
                    result.options.append((spec.key, nil))
                case .optional:
                    result.options.append((spec.key, inlineValue))
                case .required:
                    if let inlineValue {
                        result.options.append((spec.key, inlineValue))
                    } else if index < arguments.count {
                        result.options.append((spec.key, arguments[index].bytes))
                        index += 1
                    } else {
                        throw .missingLongValue(spec.long!)
                    }
                }
                continue
            }
            var position = 1
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                let letter = Character(Unicode.Scalar(byte))
                guard byte < 0x80, let spec = specs.first(where: { $0.short == letter }) else {
                    throw .invalidOption(byte)
                }
                guard spec.value == .required else {
                    result.options.append((spec.key, nil))
                    continue
                }
                if position < bytes.count {
                    result.options.append((spec.key, Array(bytes[position...])))
                } else if index < arguments.count {
                    result.options.append((spec.key, arguments[index].bytes))
                    index += 1
                } else {
                    throw .missingShortValue(letter)
                }
                break
            }
        }
        return result
    }

    private static func longOption(_ name: String, specs: [OptionSpec], spelled: String) throws(UsageError) -> OptionSpec {
        if let exact = specs.first(where: { $0.long == name }) { return exact }
        let candidates = specs.filter { $0.long?.hasPrefix(name) ?? false }
        if candidates.count == 1, !name.isEmpty { return candidates[0] }
        if candidates.count > 1, !name.isEmpty {
            let long = candidates.map { $0.long! }
            throw .ambiguousOption(String(spelled.split(separator: "=").first ?? ""), candidates: long)
        }
        throw .unrecognizedOption(spelled)
    }
}
