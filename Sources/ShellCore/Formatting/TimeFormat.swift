import PathModel

/// Times written through a `date`-style format, as GNU's `nstrftime` writes them in the C locale:
/// what `ls --time-style=+FORMAT` shows, and every field of `find -printf`'s `%T`.
///
///     TimeFormat.format(Array("%Y-%m-%d %H:%M".utf8), Timestamp(seconds: 0), zone: .utc)
///     // "1970-01-01 00:00"
///
/// Conversions: `a A b B h c C d D e F g G H I j k l m M n N p P q r R s S t T u U V w W x X y Y
/// z Z %`; flags `_` (pad with blanks), `-` (no padding), `0` (pad with zeros), `^` (upper case),
/// `#` (the other case); a field width; `:z`, `::z`, `:::z`; the `E` and `O` modifiers, which
/// change nothing in the C locale. An unknown conversion is copied as written.
enum TimeFormat {
    /// `time` in `zone` written through `pattern`; the seconds since the epoch when the
    /// calendar cannot express the time, as GNU ls shows such a time.
    static func format(_ pattern: [UInt8], _ time: Timestamp, zone: Clock.Zone) -> [UInt8] {
        guard let civil = Clock.civil(time.seconds, in: zone) else { return Array(String(time.seconds).utf8) }
        return format(pattern, Moment(time: time, civil: civil, zone: zone))
    }

    /// One moment, with what the conversions derive from it.
    private struct Moment {
        let time: Timestamp
        let civil: Clock.CivilTime
        let zone: Clock.Zone
        /// 0 for Sunday.
        let weekday: Int
        /// 0 for January 1st.
        let yearDay: Int

        init(time: Timestamp, civil: Clock.CivilTime, zone: Clock.Zone) {
            self.time = time
            self.civil = civil
            self.zone = zone
            let day = TimeFormat.days(civil.year, civil.month, civil.day)
            let remainder = (day + 4) % 7
            weekday = remainder < 0 ? remainder + 7 : remainder
            yearDay = day - TimeFormat.days(civil.year, 1, 1)
        }
    }

    /// How one conversion was asked for: its flags, width and colons.
    private struct Directive {
        /// `_`, `-` or `0`; nil for the conversion's own padding.
        var pad: UInt8?
        var upperCase = false
        var otherCase = false
        var width: Int?
        var colons = 0
    }

    private static func format(_ pattern: [UInt8], _ moment: Moment) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < pattern.count {
            guard pattern[index] == percent else {
                output.append(pattern[index])
                index += 1
                continue
            }
            let start = index
            index += 1
            var directive = Directive()
            flags: while index < pattern.count {
                switch pattern[index] {
                case 0x5F, 0x2D, 0x30: directive.pad = pattern[index]
                case 0x5E: directive.upperCase = true
                case 0x23: directive.otherCase = true
                default: break flags
                }
                index += 1
            }
            while index < pattern.count, (0x30...0x39).contains(pattern[index]) {
                let digit = Int(pattern[index] - 0x30)
                let (times, overflow) = (directive.width ?? 0).multipliedReportingOverflow(by: 10)
                directive.width = overflow ? Int.max : min(times + digit, 1 << 20)
                index += 1
            }
            while index < pattern.count, pattern[index] == 0x45 || pattern[index] == 0x4F { index += 1 }
            while index < pattern.count, pattern[index] == 0x3A {
                directive.colons += 1
                index += 1
            }
            guard index < pattern.count else {
                output.append(contentsOf: pattern[start...])
                break
            }
            let letter = pattern[index]
            index += 1
            if let field = conversion(letter, directive, moment) {
                output.append(contentsOf: field)
            } else {
                output.append(contentsOf: pattern[start..<index])
            }
        }
        return output
    }

    /// The text of conversion `letter`, or nil when there is no such conversion.
    private static func conversion(_ letter: UInt8, _ directive: Directive, _ moment: Moment) -> [UInt8]? {
        let civil = moment.civil
        let hour12 = civil.hour % 12 == 0 ? 12 : civil.hour % 12
        if directive.colons > 0 && letter != UInt8(ascii: "z") { return nil }
        switch letter {
        case UInt8(ascii: "a"): return text(weekdayNames[moment.weekday], directive, otherCaseIsUpper: true)
        case UInt8(ascii: "A"): return text(fullWeekdayNames[moment.weekday], directive, otherCaseIsUpper: true)
        case UInt8(ascii: "b"), UInt8(ascii: "h"):
            return text(monthNames[civil.month - 1], directive, otherCaseIsUpper: true)
        case UInt8(ascii: "B"): return text(fullMonthNames[civil.month - 1], directive, otherCaseIsUpper: true)
        case UInt8(ascii: "c"): return composite("%a %b %e %H:%M:%S %Y", directive, moment)
        case UInt8(ascii: "C"): return number(floorDivide(civil.year, 100), digits: 2, directive)
        case UInt8(ascii: "d"): return number(civil.day, digits: 2, directive)
        case UInt8(ascii: "D"), UInt8(ascii: "x"): return composite("%m/%d/%y", directive, moment)
        case UInt8(ascii: "e"): return number(civil.day, digits: 2, directive, blank: true)
        case UInt8(ascii: "F"): return composite("%Y-%m-%d", directive, moment)
        case UInt8(ascii: "g"):
            let year = isoWeek(moment).year
            return number(year - floorDivide(year, 100) * 100, digits: 2, directive)
        case UInt8(ascii: "G"): return number(isoWeek(moment).year, digits: 4, directive)
        case UInt8(ascii: "H"): return number(civil.hour, digits: 2, directive)
        case UInt8(ascii: "I"): return number(hour12, digits: 2, directive)
        case UInt8(ascii: "j"): return number(moment.yearDay + 1, digits: 3, directive)
        case UInt8(ascii: "k"): return number(civil.hour, digits: 2, directive, blank: true)
        case UInt8(ascii: "l"): return number(hour12, digits: 2, directive, blank: true)
        case UInt8(ascii: "m"): return number(civil.month, digits: 2, directive)
        case UInt8(ascii: "M"): return number(civil.minute, digits: 2, directive)
        case UInt8(ascii: "n"): return text("\n", directive)
        case UInt8(ascii: "N"): return nanoseconds(moment.time.nanoseconds, directive)
        case UInt8(ascii: "p"): return text(civil.hour < 12 ? "AM" : "PM", directive, otherCaseIsUpper: false)
        case UInt8(ascii: "P"): return text(civil.hour < 12 ? "am" : "pm", directive)
        case UInt8(ascii: "q"): return number((civil.month - 1) / 3 + 1, digits: 1, directive)
        case UInt8(ascii: "r"): return composite("%I:%M:%S %p", directive, moment)
        case UInt8(ascii: "R"): return composite("%H:%M", directive, moment)
        case UInt8(ascii: "s"): return number(Int(moment.time.seconds), digits: 1, directive)
        case UInt8(ascii: "S"): return number(civil.second, digits: 2, directive)
        case UInt8(ascii: "t"): return text("\t", directive)
        case UInt8(ascii: "T"), UInt8(ascii: "X"): return composite("%H:%M:%S", directive, moment)
        case UInt8(ascii: "u"): return number((moment.weekday + 6) % 7 + 1, digits: 1, directive)
        case UInt8(ascii: "U"): return number((moment.yearDay + 7 - moment.weekday) / 7, digits: 2, directive)
        case UInt8(ascii: "V"): return number(isoWeek(moment).week, digits: 2, directive)
        case UInt8(ascii: "w"): return number(moment.weekday, digits: 1, directive)
        case UInt8(ascii: "W"):
            return number((moment.yearDay + 7 - (moment.weekday + 6) % 7) / 7, digits: 2, directive)
        case UInt8(ascii: "y"): return number(civil.year - floorDivide(civil.year, 100) * 100, digits: 2, directive)
        case UInt8(ascii: "Y"): return number(civil.year, digits: 4, directive)
        case UInt8(ascii: "z"): return offset(civil.utcOffset, directive)
        case UInt8(ascii: "Z"): return text(zoneAbbreviation(moment), directive, otherCaseIsUpper: false)
        case percent: return text("%", directive)
        default: return nil
        }
    }

    /// A number at least `digits` wide, padded with zeros (blanks for `%e %k %l`) unless the
    /// directive says otherwise; a width wider than `digits` pads further.
    private static func number(_ value: Int, digits: Int, _ directive: Directive, blank: Bool = false) -> [UInt8] {
        var magnitude = Array(String(value.magnitude).utf8)
        let negative = value < 0
        let padByte: UInt8?
        switch directive.pad {
        case 0x2D: padByte = nil
        case 0x5F: padByte = 0x20
        case 0x30: padByte = 0x30
        default: padByte = blank ? 0x20 : 0x30
        }
        let width = directive.width ?? digits
        guard let padByte else { return (negative ? [0x2D] : []) + magnitude }
        let room = width - magnitude.count - (negative ? 1 : 0)
        if padByte == 0x30 {
            if room > 0 { magnitude = Array(repeating: 0x30, count: room) + magnitude }
            return (negative ? [0x2D] : []) + magnitude
        }
        return Array(repeating: 0x20, count: max(0, room)) + (negative ? [0x2D] : []) + magnitude
    }

    /// Words, in the case the flags ask for, padded with blanks (zeros with `0`) to the width.
    /// `#` turns names upper case and `%p`/`%Z` lower case, as GNU's `#` does.
    private static func text(_ words: String, _ directive: Directive, otherCaseIsUpper: Bool? = nil) -> [UInt8] {
        var bytes = Array(words.utf8)
        if directive.upperCase || (directive.otherCase && otherCaseIsUpper == true) {
            bytes = bytes.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }
        } else if directive.otherCase && otherCaseIsUpper == false {
            bytes = bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        }
        return padded(bytes, directive)
    }

    /// A conversion made of others (`%F` is `%Y-%m-%d`), padded as a whole.
    private static func composite(_ pattern: String, _ directive: Directive, _ moment: Moment) -> [UInt8] {
        var inner = format(Array(pattern.utf8), moment)
        if directive.upperCase { inner = inner.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 } }
        return padded(inner, directive)
    }

    private static func padded(_ bytes: [UInt8], _ directive: Directive) -> [UInt8] {
        guard let width = directive.width, width > bytes.count, directive.pad != 0x2D else { return bytes }
        return Array(repeating: directive.pad == 0x30 ? 0x30 : 0x20, count: width - bytes.count) + bytes
    }

    /// `%N`: the nanoseconds in nine digits, or in as many as the width asks (cut, or followed by zeros).
    private static func nanoseconds(_ value: UInt32, _ directive: Directive) -> [UInt8] {
        let digits = Array(String(value).utf8)
        let nine = Array(repeating: UInt8(0x30), count: 9 - digits.count) + digits
        let width = directive.width ?? 9
        if width <= 9 { return Array(nine.prefix(width)) }
        return nine + Array(repeating: 0x30, count: width - 9)
    }

    /// `%z` (`+0100`), `%:z` (`+01:00`), `%::z` (`+01:00:00`), `%:::z` (`+01`, with minutes only
    /// when there are some).
    private static func offset(_ seconds: Int, _ directive: Directive) -> [UInt8]? {
        let sign = seconds < 0 ? "-" : "+"
        let total = abs(seconds)
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let text: String
        switch directive.colons {
        case 0: text = sign + two(hours) + two(minutes)
        case 1: text = sign + two(hours) + ":" + two(minutes)
        case 2: text = sign + two(hours) + ":" + two(minutes) + ":" + two(rest)
        case 3:
            text = sign + two(hours) + (rest != 0 ? ":\(two(minutes)):\(two(rest))" : minutes != 0 ? ":\(two(minutes))" : "")
        default: return nil
        }
        return padded(Array(text.utf8), directive)
    }

    /// The zone's abbreviation at that moment: `UTC` for the spellings of UTC, else libc's.
    private static func zoneAbbreviation(_ moment: Moment) -> String {
        moment.zone == .utc ? "UTC" : Clock.zoneAbbreviation(moment.time.seconds)
    }

    /// The ISO 8601 week-numbering year and week (`%G`, `%V`): weeks start on Monday, and week 1
    /// is the one holding the year's first Thursday.
    private static func isoWeek(_ moment: Moment) -> (year: Int, week: Int) {
        func weekDays(_ yearDay: Int) -> Int {
            // Days since the Monday starting week 1 (negative: the week belongs to the year before).
            let bigEnoughMultipleOfSeven = 378
            return yearDay - (yearDay - moment.weekday + 4 + bigEnoughMultipleOfSeven) % 7 + 3
        }
        var year = moment.civil.year
        var days = weekDays(moment.yearDay)
        if days < 0 {
            year -= 1
            days = weekDays(moment.yearDay + daysInYear(year))
        } else {
            let next = weekDays(moment.yearDay - daysInYear(year))
            if next >= 0 {
                year += 1
                days = next
            }
        }
        return (year, days / 7 + 1)
    }

    private static func daysInYear(_ year: Int) -> Int {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 366 : 365
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    static func days(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static let percent: UInt8 = 0x25
    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let fullWeekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let fullMonthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
}
