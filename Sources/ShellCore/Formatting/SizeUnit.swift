import PathModel

/// The unit sizes are written in, as coreutils' `--block-size=SIZE`, `-h`, `--si` and the
/// `BLOCK_SIZE` variables choose it.
///
///     try SizeUnit(spec: Array("K".utf8)).format(5000)      // "5K": 1024-byte units, lettered
///     try SizeUnit(spec: Array("1K".utf8)).format(5000)     // "5": the same units, bare
///     try SizeUnit(spec: Array("KB".utf8)).format(5000)     // "5kB": 1000-byte units
///     try SizeUnit(spec: Array("si".utf8)).format(5000)     // "5.0k": scaled by powers of 1000
struct SizeUnit: Sendable, Hashable {
    /// The bytes one unit counts (1 when scaled).
    var blockSize: UInt64
    /// Scaled to the largest power that keeps the number below the base (`-h`, `--si`).
    var autoscale = false
    /// The base of the powers: 1024, or 1000 for SI.
    var base: UInt64 = 1024
    /// A power letter after the number (`K`, `k`, `M`).
    var letter = false
    /// `B` after the letter (`iB` after a power of 1024): `KiB`, `kB`.
    var bytes = false

    /// `-h`: powers of 1024, `1.5K`, `12M`.
    static let humanReadable = SizeUnit(blockSize: 1, autoscale: true, base: 1024, letter: true)
    /// `--si`: powers of 1000, `1.5k`, `12M`.
    static let si = SizeUnit(blockSize: 1, autoscale: true, base: 1000, letter: true)

    /// Units of `blockSize` bytes, written as bare numbers.
    init(blockSize: UInt64, autoscale: Bool = false, base: UInt64 = 1024, letter: Bool = false, bytes: Bool = false) {
        self.blockSize = blockSize
        self.autoscale = autoscale
        self.base = base
        self.letter = letter
        self.bytes = bytes
    }

    /// The unit SIZE names: `human-readable` or `si` (or an abbreviation), else a whole number
    /// with an optional unit — `K`, `M`, `G`, `T`, `P`, `E`, `Z`, `Y` (also `k m g t e`) as
    /// powers of 1024, of 1000 when followed by `B` or `D` (`KB`), of 1024 by `iB` (`KiB`) — or a
    /// unit alone, which is then written after each number. A leading `'` (digit grouping) is
    /// accepted and changes nothing: the C locale groups no digits. The number may be written
    /// in octal (`0…`) or hexadecimal (`0x…`), as strtoumax reads it.
    /// - Throws: what is wrong with SIZE, for the option to word.
    init(spec: [UInt8]) throws(SizeUnitError) {
        var text = spec[...]
        if text.first == 0x27 { text = text.dropFirst() }
        let word = String(decoding: text, as: UTF8.self)
        if !word.isEmpty {
            let named = [("human-readable", Self.humanReadable), ("si", Self.si)].filter { $0.0.hasPrefix(word) }
            if named.count == 1 {
                self = named[0].1
                return
            }
        }
        let (number, rest) = try Self.number(text)
        var value = number ?? 1
        var base: UInt64 = 1024
        var unitLength = 0
        if let first = rest.first {
            guard let power = Self.powers[first] else { throw .invalidSuffix }
            unitLength = 1
            let after = rest.dropFirst()
            if after.first == 0x69 && after.dropFirst().first == 0x42 {
                unitLength = 3
            } else if after.first == 0x42 || after.first == 0x44 {
                base = 1000
                unitLength = 2
            }
            guard rest.count == unitLength else { throw .invalidSuffix }
            for _ in 0..<power {
                let (next, overflow) = value.multipliedReportingOverflow(by: base)
                guard !overflow else { throw .tooLarge }
                value = next
            }
        }
        guard value > 0 else { throw .invalid }
        self.init(blockSize: value)
        if number == nil {
            // A unit alone is written after each number, as GNU's human_options does.
            letter = true
            bytes = rest.last == 0x42
            self.base = rest.last != 0x42 || unitLength == 3 ? 1024 : 1000
        }
    }

    /// The unit `--block-size=SIZE` (`-B`) names, as `init(spec:)` reads it.
    /// - Throws: `UsageError.invalid` in GNU's words: `invalid --block-size argument 'x'`.
    init(blockSizeArgument spec: [UInt8]) throws(UsageError) {
        do throws(SizeUnitError) {
            self = try SizeUnit(spec: spec)
        } catch {
            throw .invalid(error.message(option: "--block-size", spec: spec))
        }
    }

    /// The unit of block counts the environment gives, as coreutils reads it: the command's own
    /// `variable` (`DU_BLOCK_SIZE`), else `BLOCK_SIZE`, else `BLOCKSIZE`; 1024-byte blocks when
    /// none is set or its value is no SIZE (512 with `POSIXLY_CORRECT`).
    static func blocks(_ environment: Environment, variable: String) -> SizeUnit {
        let standard = SizeUnit(blockSize: environment["POSIXLY_CORRECT"] == nil ? 1024 : 512)
        guard let spec = environment[variable] ?? environment["BLOCK_SIZE"] ?? environment["BLOCKSIZE"] else {
            return standard
        }
        return (try? SizeUnit(spec: spec)) ?? standard
    }

    /// `count` units of `fromBlockSize` bytes, written in this unit and rounded up.
    func format(_ count: UInt64, fromBlockSize: UInt64 = 1) -> String {
        FileFormat.humanSize(
            count, fromBlockSize: fromBlockSize, toBlockSize: blockSize, autoscale: autoscale, base: base,
            letter: letter, bytes: bytes)
    }

    /// Whether sizes are written as plain numbers of bytes.
    var isBytes: Bool { blockSize == 1 && !autoscale && !letter && !bytes }

    /// The unit letters and the powers they stand for.
    private static let powers: [UInt8: Int] = [
        0x4B: 1, 0x6B: 1, 0x4D: 2, 0x6D: 2, 0x47: 3, 0x67: 3, 0x54: 4, 0x74: 4, 0x50: 5, 0x45: 6, 0x65: 6,
        0x5A: 7, 0x59: 8,
    ]

    /// The number at the start of `text` (nil when there is none, and a unit letter follows) and
    /// what follows it, read as strtoumax reads a number in base 0.
    private static func number(_ text: ArraySlice<UInt8>) throws(SizeUnitError) -> (UInt64?, ArraySlice<UInt8>) {
        var rest = text
        var radix: UInt64 = 10
        if rest.starts(with: [0x30, 0x78]) || rest.starts(with: [0x30, 0x58]),
            let digit = rest.dropFirst(2).first, hexDigit(digit) != nil
        {
            radix = 16
            rest = rest.dropFirst(2)
        } else if rest.first == 0x30 {
            radix = 8
        }
        var value: UInt64 = 0
        var digits = 0
        var overflowed = false
        while let byte = rest.first, let digit = hexDigit(byte), digit < radix {
            let (times, overflow) = value.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            if overflow || overflow2 { overflowed = true } else { value = sum }
            digits += 1
            rest = rest.dropFirst()
        }
        if digits == 0 {
            guard let first = rest.first, powers[first] != nil else { throw .invalid }
            return (nil, rest)
        }
        if overflowed { throw .tooLarge }
        return (value, rest)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt64? {
        switch byte {
        case 0x30...0x39: return UInt64(byte - 0x30)
        case 0x61...0x66: return UInt64(byte - 0x61 + 10)
        case 0x41...0x46: return UInt64(byte - 0x41 + 10)
        default: return nil
        }
    }
}

/// What is wrong with a SIZE, as gnulib's xstrtol tells it apart.
enum SizeUnitError: Error, Sendable, Hashable {
    /// Not a number, or zero.
    case invalid
    /// A number followed by something that is not a unit.
    case invalidSuffix
    /// More than the largest number.
    case tooLarge

    /// GNU's words for the mistake in the argument `spec` of `option` (`--block-size`), which
    /// show the argument as it is, in single quotes, as gnulib's xstrtol_fatal does.
    func message(option: String, spec: [UInt8]) -> String {
        let shown = "'" + String(decoding: spec, as: UTF8.self) + "'"
        switch self {
        case .invalid: return "\(Messages.invalid) \(option) \(Messages.argument) \(shown)"
        case .invalidSuffix: return "\(Messages.invalidSuffix) \(option) \(Messages.argument) \(shown)"
        case .tooLarge: return "\(option) \(Messages.argument) \(shown) \(Messages.tooLarge)"
        }
    }

    private enum Messages {
        static let invalid = "invalid"
        static let invalidSuffix = "invalid suffix in"
        static let argument = "argument"
        static let tooLarge = "too large"
    }
}
