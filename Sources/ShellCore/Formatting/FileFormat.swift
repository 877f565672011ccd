import PathModel

/// How coreutils writes file metadata: mode strings, human sizes, dates and type names.
///
/// Pure functions over values; shared by `ls` and `stat`.
public enum FileFormat {
    /// The ten-letter mode string `ls -l` and `stat` show: the type letter, then `rwx` for owner,
    /// group and others, with set-user-id, set-group-id and sticky as `s`/`S` and `t`/`T`.
    ///
    ///     FileFormat.modeString(0o100644)   // "-rw-r--r--"
    ///     FileFormat.modeString(0o41777)    // "drwxrwxrwt"
    public static func modeString(_ mode: UInt32) -> String {
        String(decoding: modeBytes(mode), as: UTF8.self)
    }

    /// `modeString(_:)` as ASCII bytes, for writing straight into an output buffer.
    public static func modeBytes(_ mode: UInt32) -> [UInt8] {
        func bit(_ mask: UInt32, _ letter: UInt8) -> UInt8 { mode & mask != 0 ? letter : 0x2D }
        func special(_ special: UInt32, _ execute: UInt32, set: UInt8, unset: UInt8) -> UInt8 {
            if mode & special != 0 { return mode & execute != 0 ? set : unset }
            return mode & execute != 0 ? 0x78 : 0x2D
        }
        return [
            typeLetter(FileKind(mode: mode)),
            bit(0o400, 0x72), bit(0o200, 0x77), special(0o4000, 0o100, set: 0x73, unset: 0x53),
            bit(0o040, 0x72), bit(0o020, 0x77), special(0o2000, 0o010, set: 0x73, unset: 0x53),
            bit(0o004, 0x72), bit(0o002, 0x77), special(0o1000, 0o001, set: 0x74, unset: 0x54),
        ]
    }

    /// The letter that starts a mode string: `-` regular, `d`, `l`, `p`, `s`, `c`, `b`, `?`.
    public static func typeLetter(_ kind: FileKind) -> UInt8 {
        switch kind {
        case .regular: return 0x2D
        case .directory: return 0x64
        case .symlink: return 0x6C
        case .fifo: return 0x70
        case .socket: return 0x73
        case .characterDevice: return 0x63
        case .blockDevice: return 0x62
        case .unknown: return 0x3F
        }
    }

    /// The words `stat` uses for a file's type (`%F`): `regular empty file`, `directory`…
    public static func typeName(_ kind: FileKind, size: UInt64) -> String {
        switch kind {
        case .regular: return size == 0 ? "regular empty file" : "regular file"
        case .directory: return "directory"
        case .symlink: return "symbolic link"
        case .fifo: return "fifo"
        case .socket: return "socket"
        case .characterDevice: return "character special file"
        case .blockDevice: return "block special file"
        case .unknown: return "weird file"
        }
    }

    /// The major half of a device number, as glibc's `major(3)` splits it: `major(0xfe00)` is 254.
    public static func major(_ device: UInt64) -> UInt64 {
        ((device >> 8) & 0xFFF) | ((device >> 32) & ~UInt64(0xFFF))
    }

    /// The minor half of a device number, as glibc's `minor(3)` splits it.
    public static func minor(_ device: UInt64) -> UInt64 {
        (device & 0xFF) | ((device >> 12) & ~UInt64(0xFF))
    }

    /// A count of `fromBlockSize`-byte units written in `toBlockSize`-byte units, rounded up, as
    /// coreutils' `human_readable` does. With `autoscale`, powers of `base` (1024, or 1000 for
    /// SI) get a letter (`K`, `M`, `G`…; `k` for 1000) and values under 10 keep one decimal.
    /// Without it, `letter` writes the power of `base` that `toBlockSize` is (`--block-size=K`
    /// gives `5K`); `bytes` adds `B`, or `iB` after a power of 1024 (`5KiB`, `5kB`).
    ///
    ///     FileFormat.humanSize(1024)                                  // "1.0K"
    ///     FileFormat.humanSize(10239)                                 // "10K"
    ///     FileFormat.humanSize(9, fromBlockSize: 512, toBlockSize: 1024, autoscale: false)  // "5"
    ///     FileFormat.humanSize(5000, base: 1000)                      // "5.0k"
    public static func humanSize(
        _ count: UInt64, fromBlockSize: UInt64 = 1, toBlockSize: UInt64 = 1, autoscale: Bool = true,
        base: UInt64 = 1024, letter: Bool? = nil, bytes: Bool = false
    ) -> String {
        let letters: [Character] = ["K", "M", "G", "T", "P", "E", "Z", "Y", "R", "Q"]
        var count = count
        var fromBlockSize = fromBlockSize
        if toBlockSize % fromBlockSize != 0 && fromBlockSize % toBlockSize != 0 {
            // Neither divides the other (512-byte blocks in units of 1000): count bytes.
            let (product, overflow) = count.multipliedReportingOverflow(by: fromBlockSize)
            count = overflow ? .max : product
            fromBlockSize = 1
        }
        var amount: UInt64
        var tenths: UInt64 = 0
        // 0: exact; 1: below a half; 2: exactly a half; 3: above a half (of the last digit kept).
        var rounding: UInt64 = 0
        if toBlockSize <= fromBlockSize {
            let (product, overflow) = count.multipliedReportingOverflow(by: fromBlockSize / toBlockSize)
            amount = overflow ? .max : product
        } else {
            let divisor = toBlockSize / fromBlockSize
            let r10 = (count % divisor) * 10
            let r2 = (r10 % divisor) * 2
            amount = count / divisor
            tenths = r10 / divisor
            rounding = r2 < divisor ? (r2 > 0 ? 1 : 0) : (divisor < r2 ? 3 : 2)
        }
        var exponent = 0
        var fraction = ""
        if autoscale && amount >= base {
            repeat {
                let r10 = (amount % base) * 10 + tenths
                let r2 = (r10 % base) * 2 + (rounding >> 1)
                amount /= base
                tenths = r10 / base
                rounding = r2 < base ? (r2 + rounding != 0 ? 1 : 0) : (base < r2 + rounding ? 3 : 2)
                exponent += 1
            } while amount >= base && exponent < letters.count
            if amount < 10 {
                if rounding > 0 {
                    tenths += 1
                    rounding = 0
                    if tenths == 10 {
                        amount += 1
                        tenths = 0
                    }
                }
                if amount < 10 {
                    fraction = "." + String(tenths)
                    tenths = 0
                }
            }
        }
        if tenths + rounding > 0 {
            amount += 1
            if autoscale && amount == base && exponent < letters.count {
                exponent += 1
                fraction = ".0"
                amount = 1
            }
        }
        let writesLetter = letter ?? autoscale
        if !autoscale && writesLetter {
            var power: UInt64 = 1
            while power < toBlockSize && exponent < letters.count {
                let (next, overflow) = power.multipliedReportingOverflow(by: base)
                power = overflow ? .max : next
                exponent += 1
            }
        }
        var suffix = ""
        if writesLetter && exponent > 0 {
            suffix = base == 1000 && exponent == 1 ? "k" : String(letters[exponent - 1])
        }
        if bytes { suffix += (base == 1024 && exponent > 0 ? "iB" : "B") }
        return String(amount) + fraction + suffix
    }

    /// Half of an average Gregorian year, in seconds: what `ls -l` calls recent.
    public static let sixMonths: Int64 = 31_556_952 / 2

    /// The date `ls -l` shows: `Nov 22 05:03` within the last six months, else `Jan  2  2020`.
    ///
    /// A time in the future counts as old, as in GNU ls. When the calendar cannot express the
    /// time, the seconds since the epoch are shown instead.
    public static func listingDate(_ time: Timestamp, now: Timestamp, zone: Clock.Zone) -> String {
        let sixMonthsAgo = Timestamp(seconds: now.seconds - sixMonths, nanoseconds: now.nanoseconds)
        let recent = sixMonthsAgo < time && time < now
        guard let civil = Clock.civil(time.seconds, in: zone) else { return String(time.seconds) }
        let month = monthNames[civil.month - 1]
        let day = civil.day < 10 ? " \(civil.day)" : String(civil.day)
        if recent { return "\(month) \(day) \(twoDigits(civil.hour)):\(twoDigits(civil.minute))" }
        return "\(month) \(day)  \(year(civil.year))"
    }

    /// The full time `stat` shows: `2026-11-22 05:03:33.123456789 +0000`.
    public static func preciseTime(_ time: Timestamp, zone: Clock.Zone) -> String {
        let nanos = String(time.nanoseconds)
        let fraction = String(repeating: "0", count: 9 - nanos.count) + nanos
        guard let civil = Clock.civil(time.seconds, in: zone) else { return "\(time.seconds).\(fraction)" }
        let offset = abs(civil.utcOffset) / 60
        let sign = civil.utcOffset < 0 ? "-" : "+"
        return "\(year(civil.year))-\(twoDigits(civil.month))-\(twoDigits(civil.day)) "
            + "\(twoDigits(civil.hour)):\(twoDigits(civil.minute)):\(twoDigits(civil.second)).\(fraction) "
            + "\(sign)\(twoDigits(offset / 60))\(twoDigits(offset % 60))"
    }

    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// A year padded to four digits, as gnulib's `%Y` writes it.
    private static func year(_ value: Int) -> String {
        let digits = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
