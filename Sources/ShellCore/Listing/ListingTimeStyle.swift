import PathModel

/// How a long listing writes its dates: `ls --time-style=STYLE`, `--full-time`, or the
/// `TIME_STYLE` variable.
///
///     try ListingTimeStyle(named: Array("long-iso".utf8), timeLocaleIsC: true)
///     // .formats(old: "%Y-%m-%d %H:%M", recent: "%Y-%m-%d %H:%M")
enum ListingTimeStyle: Sendable, Hashable {
    /// `locale` in the C locale: `Nov 22 05:03` within the last six months, else `Jan  2  2020`.
    case standard
    /// `date`-style formats (`TimeFormat`) for times older than six months or in the future, and
    /// for recent ones.
    case formats(old: [UInt8], recent: [UInt8])

    /// The style `style` names, as GNU ls reads it: `full-iso`, `long-iso`, `iso`, `locale` (or an
    /// unambiguous abbreviation), `+FORMAT`, or `+OLD` and `RECENT` on two lines. A `posix-` prefix
    /// means the locale's style in the C locale, and is dropped in any other.
    /// - Throws: `UsageError.invalid` in GNU's words for a style that is none of these.
    init(named style: [UInt8], timeLocaleIsC: Bool) throws(UsageError) {
        var rest = style[...]
        let posix = Array("posix-".utf8)
        while rest.starts(with: posix) {
            if timeLocaleIsC {
                self = .standard
                return
            }
            rest = rest.dropFirst(posix.count)
        }
        if rest.first == 0x2B {
            let format = Array(rest.dropFirst())
            let lines = format.split(separator: 0x0A, omittingEmptySubsequences: false)
            guard lines.count <= 2 else { throw .invalid(Messages.invalidFormat + " " + Quoting.locale(format)) }
            self = .formats(old: Array(lines[0]), recent: Array(lines.count == 2 ? lines[1] : lines[0]))
            return
        }
        self = try Self.named.value(of: Array(rest))
    }

    /// Whether the locale dates are written in is C or POSIX, as setlocale(3) picks the variable
    /// for `LC_TIME`: the first of `LC_ALL`, `LC_TIME` and `LANG` that is set and not empty.
    static func timeLocaleIsC(_ environment: Environment) -> Bool {
        let name = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap { environment.text($0) }.first { !$0.isEmpty }
        return name == nil || name == "C" || name == "POSIX"
    }

    /// The named styles.
    private static let named = ArgumentChoice<ListingTimeStyle>(
        option: Messages.timeStyle,
        [
            ("full-iso", .formats(old: fullISO, recent: fullISO)),
            ("long-iso", .formats(old: longISO, recent: longISO)),
            ("iso", .formats(old: Array("%Y-%m-%d ".utf8), recent: Array("%m-%d %H:%M".utf8))),
            ("locale", .standard),
        ],
        listing: Messages.styles)

    /// The format of `full-iso` (du's too).
    static let fullISO = Array("%Y-%m-%d %H:%M:%S.%N %z".utf8)
    /// The format of `long-iso` (du's too).
    static let longISO = Array("%Y-%m-%d %H:%M".utf8)

    private enum Messages {
        static let timeStyle = "time style"
        static let invalidFormat = "invalid time style format"
        static let styles = [
            "[posix-]full-iso", "[posix-]long-iso", "[posix-]iso", "[posix-]locale",
            "+FORMAT (e.g., +%H:%M) for a 'date'-style format",
        ]
    }
}
