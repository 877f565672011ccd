/// How an option is written and described, whatever command it belongs to (help and Tab read it).
public struct OptionForm: Sendable, Hashable {
    /// Whether the option takes a value.
    public enum Value: Sendable, Hashable {
        /// A flag: `-a`, `--all`.
        case none
        /// A required value: `-L 2`, `-L2`, `--max-depth=2`, `--max-depth 2`.
        case required
        /// An optional value, only as `--color=WHEN`.
        case optional
    }

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

    /// `--help`, which every command but `echo` accepts; the shell answers it before parsing.
    static let help = OptionForm(short: nil, long: "help", value: .none, valueName: "", help: "show help")
}

/// One option a command accepts: how it is written, and the key the command reads it back by.
public struct OptionSpec<Key: Hashable & Sendable>: Sendable, Hashable {
    /// The option's identity within its command (a case of the command's `Option`).
    public var key: Key
    /// How it is written and described.
    public var form: OptionForm

    /// An option written `-short` and/or `--long`, read back as `key`.
    public init(
        _ short: Character? = nil, _ long: String? = nil, value: OptionForm.Value = .none, valueName: String = "",
        key: Key, help: String
    ) {
        self.key = key
        form = OptionForm(short: short, long: long, value: value, valueName: valueName, help: help)
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
public struct ParsedArguments<Key: Hashable & Sendable>: Sendable {
    /// Options in the order given, each with its value as the bytes typed.
    public var options: [(key: Key, value: [UInt8]?)] = []
    /// Operands in order.
    public var operands: [Argument] = []

    /// Options and operands as given.
    public init(options: [(key: Key, value: [UInt8]?)] = [], operands: [Argument] = []) {
        self.options = options
        self.operands = operands
    }

    /// Whether an option was given.
    public func has(_ key: Key) -> Bool { options.contains { $0.key == key } }

    /// The value of the last occurrence of an option, as text (bytes that are not UTF-8 become
    /// U+FFFD): for numbers and keywords.
    public func value(_ key: Key) -> String? { bytes(key).map { String(decoding: $0, as: UTF8.self) } }

    /// The value of the last occurrence of an option, byte for byte: for names and patterns.
    public func bytes(_ key: Key) -> [UInt8]? { options.last { $0.key == key }?.value }

    /// The values of every occurrence of an option, in order, byte for byte (`-I a -I b`).
    public func allBytes(_ key: Key) -> [[UInt8]] { options.filter { $0.key == key }.compactMap(\.value) }

    /// The last of several mutually overriding options given (`-f` after `-i` wins).
    public func last(of keys: Set<Key>) -> Key? { options.last { keys.contains($0.key) }?.key }
}

/// Splits arguments GNU style: bundles (`-la`), long options with unambiguous prefixes,
/// `--opt=value`, `--` ends options, a lone `-` is an operand, options and operands may mix.
/// A name that came from a glob is always an operand.
public enum OptionParser {
    /// Parses `arguments` against `specs`; with `acceptsHelp`, `--help` (which the shell has
    /// answered already) is accepted and left out, as it is still a prefix that others share.
    /// - Throws: `UsageError` with GNU's wording for unknown, ambiguous or incomplete options.
    public static func parse<Key>(
        _ arguments: [Argument], specs: [OptionSpec<Key>], acceptsHelp: Bool = false
    ) throws(UsageError) -> ParsedArguments<Key> {
        let forms = specs.map(\.form) + (acceptsHelp ? [OptionForm.help] : [])
        var result = ParsedArguments<Key>()
        /// Records the option at `index` of `forms` with its value; `--help` is not recorded.
        func record(_ index: Int, _ value: [UInt8]?) {
            if index < specs.count { result.options.append((specs[index].key, value)) }
        }
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
                let found = try longOption(name, forms: forms, spelled: argument.text)
                let form = forms[found]
                switch form.value {
                case .none:
                    if inlineValue != nil { throw .unexpectedValue(form.long!) }
                    record(found, nil)
                case .optional:
                    record(found, inlineValue)
                case .required:
                    if let inlineValue {
                        record(found, inlineValue)
                    } else if index < arguments.count {
                        record(found, arguments[index].bytes)
                        index += 1
                    } else {
                        throw .missingLongValue(form.long!)
                    }
                }
                continue
            }
            var position = 1
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                let letter = Character(Unicode.Scalar(byte))
                guard byte < 0x80, let found = forms.firstIndex(where: { $0.short == letter }) else {
                    throw .invalidOption(byte)
                }
                guard forms[found].value == .required else {
                    record(found, nil)
                    continue
                }
                if position < bytes.count {
                    record(found, Array(bytes[position...]))
                } else if index < arguments.count {
                    record(found, arguments[index].bytes)
                    index += 1
                } else {
                    throw .missingShortValue(letter)
                }
                break
            }
        }
        return result
    }

    /// The index in `forms` of the long option `name` names, in full or by an unambiguous prefix.
    private static func longOption(_ name: String, forms: [OptionForm], spelled: String) throws(UsageError) -> Int {
        if let exact = forms.firstIndex(where: { $0.long == name }) { return exact }
        let candidates = forms.indices.filter { forms[$0].long?.hasPrefix(name) ?? false }
        if candidates.count == 1, !name.isEmpty { return candidates[0] }
        if candidates.count > 1, !name.isEmpty {
            let long = candidates.map { forms[$0].long! }
            throw .ambiguousOption(String(spelled.split(separator: "=").first ?? ""), candidates: long)
        }
        throw .unrecognizedOption(spelled)
    }
}
