import PathModel

/// GNU ls's built-in colours, used when `LS_COLORS` says nothing: SGR codes by file type.
///
/// Regular files without execute bits, and files of unknown type, are left uncoloured.
enum ListingColors {
    static let directory = "01;34"
    static let symlink = "01;36"
    static let fifo = "33"
    static let socket = "01;35"
    static let device = "01;33"
    static let executable = "01;32"
    static let setUserID = "37;41"
    static let setGroupID = "30;43"
    static let sticky = "37;44"
    static let otherWritable = "34;42"
    static let stickyOtherWritable = "30;42"

    /// Written before the first colour of a run, and after each coloured name.
    static let reset: [UInt8] = Array("\u{1B}[0m".utf8)
    /// Written after a coloured name that may have wrapped, to clear the rest of the line.
    static let clearToEndOfLine: [UInt8] = Array("\u{1B}[K".utf8)

    /// The colour for a file of `kind` with full `mode` (when it was examined), or nil for none.
    static func code(kind: FileKind?, mode: UInt32?) -> String? {
        switch kind {
        case .regular:
            guard let mode else { return nil }
            if mode & 0o4000 != 0 { return setUserID }
            if mode & 0o2000 != 0 { return setGroupID }
            return mode & 0o111 != 0 ? executable : nil
        case .directory:
            guard let mode else { return directory }
            let sticky = mode & 0o1000 != 0
            let otherWritable = mode & 0o002 != 0
            if sticky && otherWritable { return stickyOtherWritable }
            if otherWritable { return self.otherWritable }
            return sticky ? self.sticky : directory
        case .symlink: return symlink
        case .fifo: return fifo
        case .socket: return socket
        case .characterDevice, .blockDevice: return device
        case .unknown, nil: return nil
        }
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
    static func terminalTakesColor(_ environment: [String: String]) -> Bool {
        if let colorTerm = environment["COLORTERM"], !colorTerm.isEmpty { return true }
        guard let term = environment["TERM"] else { return false }
        return colorTerminals.contains { $0.matches(name: term) }
    }

    /// The `SGR` sequence that starts colour `code`: ESC `[` code `m`.
    static func start(_ code: String) -> [UInt8] { [0x1B, 0x5B] + Array(code.utf8) + [0x6D] }
}
