import PathModel

/// The colours names are written in, by file type and extension: GNU ls's built-in table, with
/// what `LS_COLORS` (dircolors syntax: `di=01;34:ln=01;36:*.tar=01;31`) sets on top of it.
struct ListingColors: Sendable {
    /// SGR parameters by two-letter indicator (`di`, `ln`, `ex`…), and the `lc`/`rc`/`ec`/`rs`
    /// pieces colour sequences are made of.
    private var indicators: [String: [UInt8]]
    /// `*SUFFIX=…` entries, in the order given; the last one that matches wins, as in GNU ls.
    private var suffixes: [(suffix: [UInt8], sequence: [UInt8])] = []

    /// GNU ls's colours when `LS_COLORS` says nothing.
    static let builtIn = ListingColors(indicators: [
        "lc": Array("\u{1B}[".utf8), "rc": Array("m".utf8), "rs": Array("0".utf8),
        "di": Array("01;34".utf8), "ln": Array("01;36".utf8), "pi": Array("33".utf8), "so": Array("01;35".utf8),
        "bd": Array("01;33".utf8), "cd": Array("01;33".utf8), "ex": Array("01;32".utf8),
        "su": Array("37;41".utf8), "sg": Array("30;43".utf8), "st": Array("37;44".utf8),
        "ow": Array("34;42".utf8), "tw": Array("30;42".utf8),
    ])

    /// No colours at all, only the pieces sequences are made of: what tree(1) starts from when
    /// `LS_COLORS` is set.
    static let none = ListingColors(indicators: [
        "lc": Array("\u{1B}[".utf8), "rc": Array("m".utf8), "rs": Array("0".utf8),
    ])

    private init(indicators: [String: [UInt8]]) { self.indicators = indicators }

    /// The colours `environment` asks for: `LS_COLORS` over `base` (GNU ls keeps its built-in
    /// table under it; tree(1) starts from nothing) when it is set and not empty, else the
    /// built-in table.
    init(environment: Environment, base: ListingColors = .builtIn) {
        self = ListingColors.isConfigured(environment) ? base : .builtIn
        guard let text = environment.text("LS_COLORS"), !text.isEmpty else { return }
        for entry in text.split(separator: ":", omittingEmptySubsequences: true) {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            let key = entry[..<equals]
            let value = Self.unescaped(entry[entry.index(after: equals)...])
            if key.hasPrefix("*") {
                suffixes.append((Array(key.dropFirst().utf8), value))
            } else if key.count == 2 {
                indicators[String(key)] = value
            }
        }
    }

    /// Whether `LS_COLORS` describes the colours (so that the terminal type need not be known).
    static func isConfigured(_ environment: Environment) -> Bool {
        !(environment["LS_COLORS"] ?? []).isEmpty
    }

    /// The SGR parameters for a name (possibly empty), or nil to write it plain. `mode` and `linkCount` are known
    /// when the file was examined; without them a regular file is just a file.
    func sequence<Name: BidirectionalCollection<UInt8>>(
        name: Name, kind: FileKind?, mode: UInt32?, linkCount: UInt32? = nil, targetMissing: Bool = false
    ) -> [UInt8]? {
        let indicator: String
        switch kind {
        case .regular:
            let mode = mode ?? 0
            if mode & 0o4000 != 0 && isSet("su") {
                indicator = "su"
            } else if mode & 0o2000 != 0 && isSet("sg") {
                indicator = "sg"
            } else if mode & 0o111 != 0 && isSet("ex") {
                indicator = "ex"
            } else if (linkCount ?? 1) > 1 && isSet("mh") {
                indicator = "mh"
            } else {
                if let match = suffixes.last(where: { name.count >= $0.suffix.count && name.suffix($0.suffix.count).elementsEqual($0.suffix) }) {
                    return match.sequence
                }
                indicator = "fi"
            }
        case .directory:
            let mode = mode ?? 0
            let sticky = mode & 0o1000 != 0
            let otherWritable = mode & 0o002 != 0
            if sticky && otherWritable && isSet("tw") {
                indicator = "tw"
            } else if otherWritable && isSet("ow") {
                indicator = "ow"
            } else if sticky && isSet("st") {
                indicator = "st"
            } else {
                indicator = "di"
            }
        case .symlink: indicator = targetMissing && isSet("or") ? "or" : "ln"
        case .fifo: indicator = "pi"
        case .socket: indicator = "so"
        case .characterDevice: indicator = "cd"
        case .blockDevice: indicator = "bd"
        case .unknown, nil: indicator = "fi"
        }
        // Set, even to nothing, is coloured (GNU writes `ESC[m`); unset is plain.
        return indicators[indicator]
    }

    /// Whether dangling symlinks get colours of their own (`or`, `mi`), so targets must be examined.
    var marksOrphans: Bool { isSet("or") || isSet("mi") }

    /// The colour of a dangling symlink's target: `mi` if set, else (as GNU ls, not tree(1))
    /// `or` when `orphanFallback`.
    func missing(orphanFallback: Bool) -> [UInt8]? {
        if isSet("mi") { return indicators["mi"] }
        return orphanFallback && isSet("or") ? indicators["or"] : nil
    }

    /// Whether a special kind has a real colour: set, and not empty, `0` or `00` (GNU's `is_colored`).
    private func isSet(_ indicator: String) -> Bool {
        guard let value = indicators[indicator] else { return false }
        return !(value.isEmpty || value == [0x30] || value == [0x30, 0x30])
    }

    /// The bytes that start a colour: `lc`, the parameters, `rc` (ESC `[` … `m`).
    func start(_ sequence: [UInt8]) -> [UInt8] {
        (indicators["lc"] ?? []) + sequence + (indicators["rc"] ?? [])
    }

    /// Written before the first colour of a run and after each coloured name: `ec` when given,
    /// else `lc`, `rs`, `rc` (ESC `[0m`).
    var end: [UInt8] { indicators["ec"] ?? start(indicators["rs"] ?? []) }

    /// Written after a coloured name that may have wrapped, to clear the rest of the line.
    static let clearToEndOfLine: [UInt8] = Array("\u{1B}[K".utf8)

    /// A value as dircolors writes it: `\e`, `\\`, `\NNN` (octal) and `^X` (control) escapes.
    private static func unescaped(_ text: Substring) -> [UInt8] {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x5E, index < bytes.count {  // ^X
                result.append(bytes[index] == 0x3F ? 0x7F : bytes[index] & 0x1F)
                index += 1
            } else if byte == 0x5C, index < bytes.count {
                let next = bytes[index]
                index += 1
                switch next {
                case 0x65, 0x45: result.append(0x1B)  // \e
                case 0x6E: result.append(0x0A)
                case 0x74: result.append(0x09)
                case 0x5F: result.append(0x20)  // \_
                case 0x30...0x37:
                    var value = UInt32(next - 0x30)
                    while index < bytes.count, (0x30...0x37).contains(bytes[index]), value < 0o40 {
                        value = value * 8 + UInt32(bytes[index] - 0x30)
                        index += 1
                    }
                    result.append(UInt8(truncatingIfNeeded: value))
                default: result.append(next)
                }
            } else {
                result.append(byte)
            }
        }
        return result
    }

    /// The terminal types dircolors' built-in database lists; GNU ls colours only for these
    /// (or when `COLORTERM` is set), even with `--color=always`.
    private static let colorTerminals = [
        "Eterm", "ansi", "*color*", "con[0-9]*x[0-9]*", "cons25", "console", "cygwin", "*direct*", "dtterm",
        "gnome", "hurd", "jfbterm", "konsole", "kterm", "linux", "linux-c", "mlterm", "putty", "rxvt*",
        "screen*", "st", "terminator", "tmux*", "vt100", "xterm*",
    ].map(Glob.init)

    /// Whether the environment describes a terminal that takes colours, as GNU ls decides when
    /// `LS_COLORS` is not set: `COLORTERM` is set, or `TERM` is a known colour terminal.
    static func terminalTakesColor(_ environment: Environment) -> Bool {
        if let colorTerm = environment["COLORTERM"], !colorTerm.isEmpty { return true }
        guard let term = environment["TERM"] else { return false }
        return colorTerminals.contains { $0.matches(name: term) }
    }

    /// Whether `NO_COLOR` is set and not empty: colours that would be on by default stay off.
    static func isDisabled(_ environment: Environment) -> Bool {
        !(environment["NO_COLOR"] ?? []).isEmpty
    }
}
