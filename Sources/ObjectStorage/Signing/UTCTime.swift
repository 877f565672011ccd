#if canImport(Glibc)
    import Glibc
#endif

/// A moment in UTC, to the second or finer: when a request is signed, when an object was last
/// modified.
///
/// It reads and writes the three spellings S3 uses (`20130524T000000Z` in signatures,
/// `2013-05-24T00:00:00.000Z` in XML, `Fri, 24 May 2013 00:00:00 GMT` in headers) without
/// Foundation.
public struct UTCTime: Sendable, Hashable, Comparable {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Int64
    /// Nanoseconds past `secondsSince1970` (0 to 999,999,999).
    public var nanoseconds: Int32

    /// The moment `secondsSince1970` (plus `nanoseconds`) after the epoch.
    public init(secondsSince1970: Int64, nanoseconds: Int32 = 0) {
        self.secondsSince1970 = secondsSince1970
        self.nanoseconds = nanoseconds
    }

    /// The system's wall clock now (`clock_gettime(CLOCK_REALTIME)`).
    public static func now() -> UTCTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return UTCTime(secondsSince1970: Int64(spec.tv_sec), nanoseconds: Int32(spec.tv_nsec))
    }

    /// Orders moments in time.
    public static func < (lhs: UTCTime, rhs: UTCTime) -> Bool {
        (lhs.secondsSince1970, lhs.nanoseconds) < (rhs.secondsSince1970, rhs.nanoseconds)
    }

    /// The calendar date and time of day.
    var fields: (year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = secondsSince1970 >= 0 ? secondsSince1970 / 86_400 : (secondsSince1970 - 86_399) / 86_400
        let secondOfDay = Int(secondsSince1970 - days * 86_400)
        let date = Self.civilDate(daysSince1970: days)
        return (date.year, date.month, date.day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    /// `20130524T000000Z`: the form of `x-amz-date`.
    public var compactTimestamp: String {
        let f = fields
        return Self.digits(f.year, 4) + Self.digits(f.month, 2) + Self.digits(f.day, 2) + "T"
            + Self.digits(f.hour, 2) + Self.digits(f.minute, 2) + Self.digits(f.second, 2) + "Z"
    }

    /// `20130524`: the date in a credential scope.
    public var compactDate: String { String(compactTimestamp.prefix(8)) }

    /// The moment an ISO 8601 timestamp in UTC names (`2013-05-24T00:00:00.000Z`, the form of
    /// `LastModified` in XML), or nil if `text` is not one.
    public init?(iso8601 text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"), bytes[4] == UInt8(ascii: "-"),
            bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"),
            let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
            let day = Self.number(bytes[8..<10]), let hour = Self.number(bytes[11..<13]),
            let minute = Self.number(bytes[14..<16]), let second = Self.number(bytes[17..<19])
        else { return nil }
        var nanoseconds: Int32 = 0
        if bytes.count > 20 {
            guard bytes[19] == UInt8(ascii: "."), bytes.count > 21, bytes.count <= 30,
                let fraction = Self.number(bytes[20..<(bytes.count - 1)])
            else { return nil }
            var scaled = fraction
            for _ in 0..<(9 - (bytes.count - 21)) { scaled *= 10 }
            nanoseconds = Int32(scaled)
        } else if bytes.count != 20 {
            return nil
        }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        self.nanoseconds = nanoseconds
    }

    /// The moment an HTTP date names (`Fri, 24 May 2013 00:00:00 GMT`, RFC 9110's IMF-fixdate,
    /// the form of `Last-Modified`), or nil if `text` is not one.
    public init?(httpDate text: some StringProtocol) {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Self.number(parts[1].utf8),
            let month = Self.monthNames.firstIndex(of: String(parts[2])),
            let year = Self.number(parts[3].utf8)
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Self.number(clock[0].utf8),
            let minute = Self.number(clock[1].utf8),
            let second = Self.number(clock[2].utf8)
        else { return nil }
        self.init(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
    }

    private init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        let days = Self.daysSince1970(year: Int64(year), month: month, day: day)
        self.init(secondsSince1970: days * 86_400 + Int64(hour * 3600 + minute * 60 + second))
    }

    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (eras of 400 years).
    private static func daysSince1970(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (the inverse of `daysSince1970`).
    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthFromMarch + 2) / 5 + 1)
        let month = Int(monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func number(_ digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    private static func digits(_ value: some BinaryInteger, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
