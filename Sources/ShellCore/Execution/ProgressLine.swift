import PathModel

/// One line on standard error that shows how a long copy, move or removal is going (files,
/// bytes, rate, and time left when the total is known), redrawn at most ten times a second once
/// the work has run for a second, and erased when it ends.
///
/// It is drawn only in an interactive shell whose standard error is a terminal: never in
/// scripts, pipes or files.
final class ProgressLine {
    private let output: OutputStream
    private let verb: String
    private let totalBytes: UInt64?
    private let now: () -> Double
    private let started: Double
    private var lastDrawn: Double?
    private var files = 0
    private var bytes: UInt64 = 0

    /// How long the work runs before the line appears, and the least time between redraws.
    static let delay = 1.0
    static let interval = 0.1

    /// A progress line for `context`'s command, or nil when none is to be drawn there.
    /// `totalBytes`, known for a single file, gives the time left, and the line then counts
    /// bytes of it rather than files.
    convenience init?(_ context: CommandContext, totalBytes: UInt64? = nil) {
        guard context.state.isInteractive, context.stderr.isTerminal else { return nil }
        self.init(
            output: context.stderr, verb: context.commandName, totalBytes: totalBytes, now: context.state.monotonicClock)
    }

    /// A progress line written to `output` with the clock `now` (seconds).
    init(output: OutputStream, verb: String, totalBytes: UInt64?, now: @escaping () -> Double) {
        self.output = output
        self.verb = verb
        self.totalBytes = totalBytes
        self.now = now
        started = now()
    }

    /// Counts finished files and moved bytes, and redraws when it is time.
    func add(files: Int = 0, bytes: UInt64 = 0) {
        self.files += files
        self.bytes += bytes
        let time = now()
        guard time - started >= Self.delay else { return }
        if let lastDrawn, time - lastDrawn < Self.interval { return }
        lastDrawn = time
        output.write("\r" + text(elapsed: time - started) + "\u{1B}[K")
        output.flush()
    }

    /// Erases the line, if it was drawn, so that what comes next starts on a clean line.
    func erase() {
        guard lastDrawn != nil else { return }
        lastDrawn = nil
        output.write("\r\u{1B}[K")
        output.flush()
    }

    /// `cp: 1,234 files, 56.7 MiB, 12.3 MiB/s`; for a single file, whose copy is finished only
    /// at its end, `cp: 56.7 MiB of 80.0 MiB, 12.3 MiB/s, 0:02 left`.
    func text(elapsed: Double) -> String {
        let rate = elapsed > 0 ? Double(bytes) / elapsed : 0
        var text = "\(verb): "
        if let totalBytes {
            text += "\(Self.size(Double(bytes))) of \(Self.size(Double(totalBytes)))"
        } else {
            text += "\(Self.grouped(files)) file\(files == 1 ? "" : "s"), \(Self.size(Double(bytes)))"
        }
        if bytes > 0 { text += ", \(Self.size(rate))/s" }
        if let totalBytes, totalBytes > bytes, rate > 0 {
            let left = Int((Double(totalBytes - bytes) / rate).rounded(.up))
            text += ", \(left / 60):" + (left % 60 < 10 ? "0" : "") + "\(left % 60) left"
        }
        return text
    }

    /// 1234567 as `1,234,567`.
    static func grouped(_ value: Int) -> String {
        var digits = Array(String(value))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }

    /// Bytes in binary units with one decimal: `512 B`, `1.5 KiB`, `56.7 MiB`.
    static func size(_ value: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var amount = value
        var unit = 0
        while amount >= 1024 && unit < units.count - 1 {
            amount /= 1024
            unit += 1
        }
        if unit == 0 { return "\(Int(amount)) B" }
        let tenths = Int((amount * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
