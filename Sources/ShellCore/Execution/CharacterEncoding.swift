/// The character set the locale gives text on the terminal: UTF-8, or ASCII with every other
/// byte escaped. It decides how tree draws and which names ls, stat and messages quote.
public enum CharacterEncoding: Sendable, Hashable {
    /// A UTF-8 locale (`C.UTF-8`, `en_US.utf8`): printable UTF-8 is shown as it is.
    case utf8
    /// Any other locale (`C`, `POSIX`, unset, `de_DE.ISO-8859-1`): only printable ASCII is shown
    /// as it is.
    case ascii

    /// The encoding the locale variables name, as setlocale(3) picks the variable for
    /// `LC_CTYPE`: the first of `LC_ALL`, `LC_CTYPE` and `LANG` that is set and not empty decides,
    /// and it is UTF-8 when its codeset (`language_TERRITORY.codeset@modifier`) is UTF-8 as glibc
    /// normalises codesets (letters and digits only, in lower case: `UTF-8`, `utf8`). Whether the
    /// locale is installed is not checked.
    /// - Parameter variable: the value of an environment variable, nil when it is unset.
    public init(variable: (String) -> String?) {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap(variable).first { !$0.isEmpty } ?? ""
        let codeset = name.split(separator: ".", maxSplits: 1).dropFirst().first?.prefix { $0 != "@" } ?? ""
        self = codeset.lowercased().filter { $0.isLetter || $0.isNumber } == "utf8" ? .utf8 : .ascii
    }

    /// The encoding of the command running now, which the shell binds for each command from its
    /// variables; UTF-8 outside a command (the prompt, completion).
    @TaskLocal public static var current: CharacterEncoding = .utf8
}
