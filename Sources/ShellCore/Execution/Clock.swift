import Glibc
import PathModel

/// The wall clock and the calendar, for commands that show times (`ls -l`, `stat`).
///
/// The one ShellCore file that asks libc for the time (`clock_gettime`), to wait (`nanosleep`)
/// and for calendar breakdowns (`localtime_r`/`gmtime_r`, and back: `mktime`/`timegm`); none
/// of these touch the file system.
public enum Clock {
    /// Which calendar rules turn a timestamp into a date and a time of day.
    public enum Zone: Sendable, Hashable {
        /// Coordinated Universal Time.
        case utc
        /// The process's local zone (`TZ` as the process started, else `/etc/localtime`).
        case local

        /// The zone the shell's `TZ` variable names: UTC for the spellings of UTC (and for an
        /// empty `TZ`, as glibc reads it), else the process's local zone.
        ///
        /// Other zones are taken from the process, not the shell variable: libc keeps one zone
        /// per process, and changing it under commands running side by side is not safe.
        public init(environment: Environment) {
            guard let value = environment.text("TZ") else {
                self = .local
                return
            }
            let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
            let utcNames: Set<String> = [
                "", "UTC", "UTC0", "UTC+0", "UTC-0", "GMT", "GMT0", "UCT", "Etc/UTC", "Etc/GMT",
                "Etc/UCT", "Universal", "Zulu", "Etc/Universal", "Etc/Zulu",
            ]
            self = utcNames.contains(name) ? .utc : .local
        }
    }

    /// A moment broken down into calendar fields.
    public struct CivilTime: Sendable, Hashable {
        /// The year, e.g. 2026.
        public var year: Int
        /// The month, 1 ... 12.
        public var month: Int
        /// The day of the month, 1 ... 31.
        public var day: Int
        /// The hour, 0 ... 23.
        public var hour: Int
        /// The minute, 0 ... 59.
        public var minute: Int
        /// The second, 0 ... 60.
        public var second: Int
        /// Seconds east of UTC in force at that moment (`-18000` for New York in winter).
        public var utcOffset: Int

        /// A breakdown from its fields.
        public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, utcOffset: Int = 0)
        {
            self.year = year
            self.month = month
            self.day = day
            self.hour = hour
            self.minute = minute
            self.second = second
            self.utcOffset = utcOffset
        }
    }

    /// Waits `seconds`, or less when `isCancelled` turns true (checked every 50 ms).
    /// Corresponds to `nanosleep(2)`.
    public static func sleep(seconds: Double, unless isCancelled: () -> Bool) {
        let end = monotonicSeconds() + seconds
        while !isCancelled() {
            let left = end - monotonicSeconds()
            if left <= 0 { return }
            let slice = min(left, 0.05)
            var request = timespec(tv_sec: Int(slice), tv_nsec: Int((slice - Double(Int(slice))) * 1e9))
            _ = nanosleep(&request, nil)
        }
    }

    /// Seconds on a clock that never goes back, for measuring how long something takes.
    /// Corresponds to `clock_gettime(3)` with `CLOCK_MONOTONIC`.
    public static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The current time. Corresponds to `clock_gettime(3)` with `CLOCK_REALTIME`.
    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(seconds: Int64(spec.tv_sec), nanoseconds: UInt32(spec.tv_nsec))
    }

    /// `seconds` since the epoch as calendar fields in `zone`, or nil when the year does not
    /// fit libc's calendar. Corresponds to `localtime_r(3)` or `gmtime_r(3)`.
    public static func civil(_ seconds: Int64, in zone: Zone) -> CivilTime? {
        var time = time_t(seconds)
        var fields = tm()
        let converted = zone == .utc ? gmtime_r(&time, &fields) : localtime_r(&time, &fields)
        guard converted != nil else { return nil }
        return CivilTime(
            year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
            hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec),
            utcOffset: zone == .utc ? 0 : Int(fields.tm_gmtoff))
    }

    /// The abbreviation of the process's local zone at `seconds` since the epoch (`CET`, `EST`),
    /// empty when libc has none. Corresponds to `localtime_r(3)`'s `tm_zone`.
    public static func zoneAbbreviation(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var fields = tm()
        guard localtime_r(&time, &fields) != nil, let zone = fields.tm_zone else { return "" }
        return String(cString: zone)
    }

    /// The seconds since the epoch of the calendar fields `civil` in `zone` (its `utcOffset` is
    /// ignored), or nil when they name no moment: a field out of range (February 30th, hour
    /// 25), or a local time that a change of clocks skips. Corresponds to `timegm(3)` or
    /// `mktime(3)`.
    public static func seconds(of civil: CivilTime, in zone: Zone) -> Int64? {
        var fields = tm()
        fields.tm_year = Int32(clamping: civil.year - 1900)
        fields.tm_mon = Int32(clamping: civil.month - 1)
        fields.tm_mday = Int32(clamping: civil.day)
        fields.tm_hour = Int32(clamping: civil.hour)
        fields.tm_min = Int32(clamping: civil.minute)
        fields.tm_sec = Int32(clamping: civil.second)
        fields.tm_isdst = -1
        // libc fills in the day of the week only when it found a moment.
        fields.tm_wday = -1
        let seconds = zone == .utc ? timegm(&fields) : mktime(&fields)
        // libc normalises fields out of range (month 13 becomes January); such input names nothing.
        guard fields.tm_wday != -1, Int(fields.tm_year) + 1900 == civil.year,
            Int(fields.tm_mon) + 1 == civil.month,
            Int(fields.tm_mday) == civil.day, Int(fields.tm_hour) == civil.hour,
            Int(fields.tm_min) == civil.minute,
            Int(fields.tm_sec) == civil.second
        else { return nil }
        return Int64(seconds)
    }
}
