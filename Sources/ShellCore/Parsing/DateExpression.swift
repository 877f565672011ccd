import PathModel

/// The dates `touch -d` and `touch -t` take, read as GNU touch reads them, for the forms shelf
/// knows: `@SECONDS[.FRACTION]`; `YYYY-MM-DD`; `YYYY-MM-DD HH:MM[:SS[.FRACTION]]` (or with `T`
/// between), then optionally `Z`, `UTC`, `GMT` or an offset (`+0100`, `-05:30`); and POSIX stamps
/// `[[CC]YY]MMDDhhmm[.ss]`. A time without a zone is in the shell's zone (`TZ`).
///
///     DateExpression.parse(Array("2024-01-02 03:04:05".utf8), in: .utc)   // 1704164645 s
///     DateExpression.parse(Array("@1700000000.5".utf8), in: .utc)         // 1700000000.5 s
enum DateExpression {
    /// The moment a `-d` date names; nil when it is not one of the forms above.
    static func parse(_ text: [UInt8], in zone: Clock.Zone) -> Timestamp? {
        var scanner = Scanner(text.drop { isSpace($0) })
        scanner.trimTrailingSpace()
        if scanner.take(UInt8(ascii: "@")) { return epoch(&scanner) }
        guard let year = scanner.number(digits: 4...4), scanner.take(UInt8(ascii: "-")),
            let month = scanner.number(digits: 1...2), scanner.take(UInt8(ascii: "-")),
            let day = scanner.number(digits: 1...2)
        else { return nil }
        var civil = Clock.CivilTime(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var nanoseconds: UInt32 = 0
        if scanner.take(UInt8(ascii: "T")) || scanner.skipSpace() {
            guard let hour = scanner.number(digits: 1...2), scanner.take(UInt8(ascii: ":")),
                let minute = scanner.number(digits: 1...2)
            else { return nil }
            civil.hour = hour
            civil.minute = minute
            if scanner.take(UInt8(ascii: ":")) {
                guard let second = scanner.number(digits: 1...2) else { return nil }
                civil.second = second
                if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
                    guard let fraction = scanner.fraction() else { return nil }
                    nanoseconds = fraction
                }
            }
        }
        _ = scanner.skipSpace()
        var seconds: Int64
        if scanner.isAtEnd {
            guard let local = Clock.seconds(of: civil, in: zone) else { return nil }
            seconds = local
        } else {
            guard let offset = scanner.zoneOffset(), scanner.isAtEnd,
                let utc = Clock.seconds(of: civil, in: .utc)
            else { return nil }
            seconds = utc - Int64(offset)
        }
        return Timestamp(seconds: seconds, nanoseconds: nanoseconds)
    }

    /// The moment a `-t` stamp `[[CC]YY]MMDDhhmm[.ss]` names, in `zone`; a stamp without a year
    /// is in the year of `now`. Two-digit years 69 to 99 are 1969 to 1999, 00 to 68 2000 to 2068.
    static func parseStamp(_ text: [UInt8], in zone: Clock.Zone, now: Timestamp) -> Timestamp? {
        let dot = text.firstIndex(of: UInt8(ascii: "."))
        let main = Array(text[..<(dot ?? text.endIndex)])
        guard [8, 10, 12].contains(main.count), main.allSatisfy(isDigit) else { return nil }
        var second = 0
        if let dot {
            let rest = Array(text[(dot + 1)...])
            guard rest.count == 2, rest.allSatisfy(isDigit) else { return nil }
            second = value(rest[...])
        }
        var fields = main[...]
        let year: Int
        switch main.count {
        case 12:
            year = value(fields.prefix(4))
            fields = fields.dropFirst(4)
        case 10:
            let short = value(fields.prefix(2))
            year = short >= 69 ? 1900 + short : 2000 + short
            fields = fields.dropFirst(2)
        default:
            guard let current = Clock.civil(now.seconds, in: zone) else { return nil }
            year = current.year
        }
        let numbers = stride(from: fields.startIndex, to: fields.endIndex, by: 2).map {
            value(fields[$0..<$0 + 2])
        }
        let civil = Clock.CivilTime(
            year: year, month: numbers[0], day: numbers[1], hour: numbers[2], minute: numbers[3],
            second: second)
        guard second < 60, let seconds = Clock.seconds(of: civil, in: zone) else { return nil }
        return Timestamp(seconds: seconds, nanoseconds: 0)
    }

    /// `@` has been read: a signed count of seconds with an optional fraction.
    private static func epoch(_ scanner: inout Scanner) -> Timestamp? {
        let negative = scanner.take(UInt8(ascii: "-"))
        if !negative { _ = scanner.take(UInt8(ascii: "+")) }
        guard let whole = scanner.number(digits: 1...18) else { return nil }
        var nanoseconds: UInt32 = 0
        if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
            guard let fraction = scanner.fraction() else { return nil }
            nanoseconds = fraction
        }
        guard scanner.isAtEnd else { return nil }
        var seconds = Int64(whole)
        if negative {
            seconds = -seconds
            // -1.25 s is 1.75 s before -1: whole seconds go down, the fraction counts up again.
            if nanoseconds > 0 {
                seconds -= 1
                nanoseconds = 1_000_000_000 - nanoseconds
            }
        }
        return Timestamp(seconds: seconds, nanoseconds: nanoseconds)
    }

    /// The decimal value of ASCII digits.
    private static func value(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// Reads a date from left to right.
    private struct Scanner {
        private var rest: ArraySlice<UInt8>

        init(_ text: ArraySlice<UInt8>) { rest = text }

        var isAtEnd: Bool { rest.isEmpty }

        mutating func trimTrailingSpace() {
            while let last = rest.last, isSpace(last) { rest.removeLast() }
        }

        /// Consumes `byte` if it comes next.
        mutating func take(_ byte: UInt8) -> Bool {
            guard rest.first == byte else { return false }
            rest.removeFirst()
            return true
        }

        /// Consumes white space; whether there was any.
        mutating func skipSpace() -> Bool {
            let before = rest.count
            rest = rest.drop { isSpace($0) }
            return rest.count < before
        }

        /// Consumes a run of digits whose length is in `digits`.
        mutating func number(digits: ClosedRange<Int>) -> Int? {
            let run = rest.prefix { isDigit($0) }
            guard digits.contains(run.count) else { return nil }
            rest = rest.dropFirst(run.count)
            return value(run)
        }

        /// Consumes the digits after a decimal point as nanoseconds (past nine digits, dropped).
        mutating func fraction() -> UInt32? {
            let run = rest.prefix { isDigit($0) }
            guard !run.isEmpty else { return nil }
            rest = rest.dropFirst(run.count)
            let nine =
                Array(run.prefix(9)) + [UInt8](repeating: UInt8(ascii: "0"), count: max(0, 9 - run.count))
            return UInt32(value(nine[...]))
        }

        /// Consumes a zone: `Z`, `UTC`, `GMT` (offset 0), or `+HH`, `+HHMM`, `+HH:MM` (and `-`);
        /// the offset in seconds east of UTC.
        mutating func zoneOffset() -> Int? {
            for name in ["Z", "UTC", "GMT"] where rest.elementsEqual(name.utf8) {
                rest = []
                return 0
            }
            guard let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
                return nil
            }
            rest.removeFirst()
            guard let hours = number(digits: 1...4) else { return nil }
            var minutes = 0
            var wholeHours = hours
            if hours >= 100 {
                wholeHours = hours / 100
                minutes = hours % 100
            } else if take(UInt8(ascii: ":")) {
                guard let written = number(digits: 2...2) else { return nil }
                minutes = written
            }
            guard wholeHours <= 24, minutes < 60 else { return nil }
            let offset = (wholeHours * 60 + minutes) * 60
            return sign == UInt8(ascii: "-") ? -offset : offset
        }
    }
}
