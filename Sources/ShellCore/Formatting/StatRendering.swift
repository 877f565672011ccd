import PathModel

/// A `stat` format filled in for one file, with printf-style flags, width and precision on each
/// directive as GNU stat applies them.
struct StatRendering {
    /// The operand as written (`%n`).
    let name: [UInt8]
    let info: FileInfo
    /// What the file, a symlink not followed, holds (`%N`).
    let linkTarget: [UInt8]?
    let zone: Clock.Zone
    /// Quote `%N` names as the shell would (`'a b' -> 'c'`); else show them as they are.
    let quoteNames: Bool
    /// Write a name with control characters or invalid UTF-8 in shell-escape quoting
    /// (`'a'$'\n''b'`) wherever it appears, as a terminal needs.
    let escapeNames: Bool
    /// Where `%U` and `%G` look names up.
    let names: OwnerNames

    /// A `%%` or a lone `%` with flags or width: GNU stat stops there.
    struct InvalidDirective: Error {
        /// What was written before the bad directive.
        var written: [UInt8]
        /// The directive as spelled (`%5%`).
        var directive: [UInt8]
    }

    /// One directive's printf flags, width and precision.
    struct Spec {
        var flags = Flags()
        var width: Int?
        /// The number after a `.`; nil without a dot, 0 for a bare dot.
        var precision: Int?
        /// Whether a `.` came, and whether digits followed it.
        var hasDot = false
        var hasPrecisionDigits = false

        func has(_ flag: Character) -> Bool { flags.contains(flag.asciiValue!) }
    }

    /// The printf flags `'-+ #0I` of one directive, as bits.
    struct Flags {
        private var bits: UInt8 = 0

        private static func bit(_ flag: UInt8) -> UInt8? {
            switch flag {
            case UInt8(ascii: "'"): return 1
            case UInt8(ascii: "-"): return 1 << 1
            case UInt8(ascii: "+"): return 1 << 2
            case UInt8(ascii: " "): return 1 << 3
            case UInt8(ascii: "#"): return 1 << 4
            case UInt8(ascii: "0"): return 1 << 5
            case UInt8(ascii: "I"): return 1 << 6
            default: return nil
            }
        }

        /// Whether `byte` is one of the flag characters.
        static func isFlag(_ byte: UInt8) -> Bool { bit(byte) != nil }

        /// Whether the flag is set.
        func contains(_ flag: UInt8) -> Bool { Self.bit(flag).map { bits & $0 != 0 } ?? false }

        /// Sets a flag (a byte that is not a flag character is ignored).
        mutating func insert(_ flag: UInt8) { bits |= Self.bit(flag) ?? 0 }

        /// Clears a flag; the flag when it was set, else nil.
        mutating func remove(_ flag: UInt8) -> UInt8? {
            guard contains(flag), let bit = Self.bit(flag) else { return nil }
            bits &= ~bit
            return flag
        }
    }

    /// The format with every directive replaced.
    /// - Parameters:
    ///   - escapes: read backslash escapes too (`--printf`).
    ///   - warn: told GNU's warning for an escape that is none.
    func render(_ format: [UInt8], escapes: Bool = false, warn: (String) -> Void = { _ in }) -> Result<
        [UInt8], InvalidDirective
    > {
        Self.fill(format, escapes: escapes, deviceHalves: true, warn: warn) { letter, modifier, spec, hadDigits in
            directive(letter, modifier: modifier, spec: spec, hadDigitsBeforeDot: hadDigits)
        }
    }

    /// `format` with each directive replaced by what `directive` gives for its letter, the
    /// `H`/`L` before `d` or `r` (with `deviceHalves`), its spec and whether digits came before
    /// a dot; with `escapes`, the backslash escapes of `--printf` read as GNU stat reads them
    /// (`\n`, `\t`, `\e`, `\"`, `\\`, `\ooo`, `\xHH`; another is its letter, with a warning).
    static func fill(
        _ format: [UInt8], escapes: Bool, deviceHalves: Bool, warn: (String) -> Void,
        directive: (_ letter: UInt8, _ modifier: UInt8?, _ spec: Spec, _ hadDigitsBeforeDot: Bool) -> [UInt8]
    ) -> Result<[UInt8], InvalidDirective> {
        var output: [UInt8] = []
        var index = 0
        while index < format.count {
            let byte = format[index]
            if escapes && byte == 0x5C {
                index = escape(in: format, at: index, into: &output, warn: warn)
                continue
            }
            guard byte == 0x25 else {
                output.append(byte)
                index += 1
                continue
            }
            let start = index
            index += 1
            var spec = Spec()
            while index < format.count, Flags.isFlag(format[index]) {
                spec.flags.insert(format[index])
                index += 1
            }
            var digits = 0
            var sawDigits = false
            while index < format.count, let digit = Self.digit(format[index]) {
                digits = min(digits * 10 + digit, Int(Int32.max))
                sawDigits = true
                index += 1
            }
            // A 0 flag right before the width digits counts for the width too ("%010.3Y").
            if sawDigits { spec.width = digits }
            if index < format.count, format[index] == 0x2E {
                spec.hasDot = true
                index += 1
                var precision = 0
                while index < format.count, let digit = Self.digit(format[index]) {
                    precision = min(precision * 10 + digit, Int(Int32.max))
                    spec.hasPrecisionDigits = true
                    index += 1
                }
                spec.precision = precision
            }
            let directiveLength = index - start
            guard index < format.count, format[index] != 0x25 else {
                if directiveLength > 1 {
                    let end = min(index + 1, format.count)
                    return .failure(InvalidDirective(written: output, directive: Array(format[start..<end])))
                }
                output.append(0x25)
                index += 1
                continue
            }
            var conversion = format[index]
            var modifier: UInt8?
            if deviceHalves, conversion == 0x48 || conversion == 0x4C, index + 1 < format.count,
                format[index + 1] == 0x64 || format[index + 1] == 0x72
            {
                modifier = conversion
                index += 1
                conversion = format[index]
            }
            index += 1
            output += directive(conversion, modifier, spec, sawDigits)
        }
        return .success(output)
    }

    /// Reads the escape whose backslash is at `index`, appends what it stands for, and returns
    /// the index after it.
    private static func escape(in format: [UInt8], at index: Int, into output: inout [UInt8], warn: (String) -> Void)
        -> Int
    {
        var next = index + 1
        guard next < format.count else {
            warn(Messages.backslashAtEnd)
            output.append(0x5C)
            return next
        }
        let letter = format[next]
        next += 1
        if let first = octalDigit(letter) {
            var value = first
            var count = 1
            while count < 3, next < format.count, let digit = octalDigit(format[next]) {
                value = value * 8 + digit
                count += 1
                next += 1
            }
            output.append(UInt8(truncatingIfNeeded: value))
            return next
        }
        if letter == UInt8(ascii: "x"), next < format.count, let high = hexDigit(format[next]) {
            var value = high
            next += 1
            if next < format.count, let low = hexDigit(format[next]) {
                value = value * 16 + low
                next += 1
            }
            output.append(UInt8(value))
            return next
        }
        let named: [UInt8: UInt8] = [
            UInt8(ascii: "a"): 0x07, UInt8(ascii: "b"): 0x08, UInt8(ascii: "e"): 0x1B, UInt8(ascii: "f"): 0x0C,
            UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09, UInt8(ascii: "v"): 0x0B,
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C,
        ]
        if let value = named[letter] {
            output.append(value)
        } else {
            warn("\(Messages.unrecognizedEscape) '\\\(String(decoding: [letter], as: UTF8.self))'")
            output.append(letter)
        }
        return next
    }

    private static func octalDigit(_ byte: UInt8) -> Int? { byte >= 0x30 && byte <= 0x37 ? Int(byte - 0x30) : nil }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: return Int(byte - 0x30)
        case 0x41...0x46: return Int(byte - 0x41 + 10)
        case 0x61...0x66: return Int(byte - 0x61 + 10)
        default: return nil
        }
    }

    private static func digit(_ byte: UInt8) -> Int? { byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil }

    /// `time` as `%x`, `%y` and `%z` show it; `-` when the volume keeps no times (an object
    /// storage directory without a marker), as `%w` shows an unknown birth. `%X`, `%Y` and `%Z`
    /// then show 0, as `%W` does.
    private func shownTime(_ time: Timestamp) -> String {
        info.absent.contains(.times) ? "-" : FileFormat.preciseTime(time, zone: zone)
    }

    /// The text for one directive letter.
    private func directive(_ letter: UInt8, modifier: UInt8?, spec: Spec, hadDigitsBeforeDot: Bool) -> [UInt8]
    {
        switch letter {
        case UInt8(ascii: "n"): return Self.string(escapeNames ? Self.escaped(name) : name, spec)
        case UInt8(ascii: "N"): return quotedName(spec)
        case UInt8(ascii: "d"): return Self.unsigned(Self.part(of: info.device, modifier), spec)
        case UInt8(ascii: "D"): return Self.unsigned(info.device, spec, base: 16)
        case UInt8(ascii: "r"): return Self.unsigned(Self.part(of: info.representedDevice, modifier), spec)
        case UInt8(ascii: "R"): return Self.unsigned(info.representedDevice, spec, base: 16)
        case UInt8(ascii: "t"): return Self.unsigned(FileFormat.major(info.representedDevice), spec, base: 16)
        case UInt8(ascii: "T"): return Self.unsigned(FileFormat.minor(info.representedDevice), spec, base: 16)
        case UInt8(ascii: "i"): return Self.unsigned(info.inode, spec)
        case UInt8(ascii: "a"): return Self.unsigned(UInt64(info.permissions), spec, base: 8)
        case UInt8(ascii: "A"): return Self.string(FileFormat.modeBytes(info.mode), spec)
        case UInt8(ascii: "f"): return Self.unsigned(UInt64(info.mode), spec, base: 16)
        case UInt8(ascii: "F"): return Self.string(Array(FileFormat.typeName(info.kind, size: info.size).utf8), spec)
        case UInt8(ascii: "h"): return Self.unsigned(UInt64(info.linkCount), spec)
        case UInt8(ascii: "u"): return Self.unsigned(UInt64(info.userID), spec)
        case UInt8(ascii: "U"): return Self.string(Array((names.owner(of: info) ?? "UNKNOWN").utf8), spec)
        case UInt8(ascii: "g"): return Self.unsigned(UInt64(info.groupID), spec)
        case UInt8(ascii: "G"): return Self.string(Array((names.group(of: info) ?? "UNKNOWN").utf8), spec)
        case UInt8(ascii: "s"): return Self.signed(Int64(clamping: info.size), spec)
        case UInt8(ascii: "b"): return Self.unsigned(info.blocks, spec)
        case UInt8(ascii: "B"): return Self.unsigned(512, spec)
        case UInt8(ascii: "o"): return Self.unsigned(UInt64(info.blockSize), spec)
        case UInt8(ascii: "x"): return Self.string(Array(shownTime(info.accessTime).utf8), spec)
        case UInt8(ascii: "y"): return Self.string(Array(shownTime(info.modificationTime).utf8), spec)
        case UInt8(ascii: "z"): return Self.string(Array(shownTime(info.changeTime).utf8), spec)
        case UInt8(ascii: "w"):
            let birth = info.creationTime.map { FileFormat.preciseTime($0, zone: zone) } ?? "-"
            return Self.string(Array(birth.utf8), spec)
        case UInt8(ascii: "X"): return Self.seconds(info.accessTime, spec, hadDigitsBeforeDot: hadDigitsBeforeDot)
        case UInt8(ascii: "Y"): return Self.seconds(info.modificationTime, spec, hadDigitsBeforeDot: hadDigitsBeforeDot)
        case UInt8(ascii: "Z"): return Self.seconds(info.changeTime, spec, hadDigitsBeforeDot: hadDigitsBeforeDot)
        case UInt8(ascii: "W"):
            let birth = info.creationTime ?? Timestamp(seconds: 0)
            return Self.seconds(birth, spec, hadDigitsBeforeDot: hadDigitsBeforeDot)
        default: return [0x3F]
        }
    }

    /// A device number, or with `%H…`/`%L…` its major or minor half.
    private static func part(of device: UInt64, _ modifier: UInt8?) -> UInt64 {
        switch modifier {
        case 0x48: return FileFormat.major(device)
        case 0x4C: return FileFormat.minor(device)
        default: return device
        }
    }

    /// `%N`: the name, and for a symlink ` -> ` and its target, each formatted with `spec`.
    private func quotedName(_ spec: Spec) -> [UInt8] {
        func shown(_ bytes: [UInt8]) -> [UInt8] {
            quoteNames ? Array(Quoting.always(bytes).utf8) : escapeNames ? Self.escaped(bytes) : bytes
        }
        var result = Self.string(shown(name), spec)
        if info.kind == .symlink, let linkTarget {
            result += Array(" -> ".utf8) + Self.string(shown(linkTarget), spec)
        }
        return result
    }

    /// `bytes` as they are when printable, else in shell-escape quoting.
    private static func escaped(_ bytes: [UInt8]) -> [UInt8] {
        Quoting.isPrintable(bytes) ? bytes : Array(Quoting.ifNeeded(bytes).utf8)
    }

    // MARK: printf conversions

    /// `%s`: precision truncates, width pads (left with `-`).
    static func string(_ bytes: [UInt8], _ spec: Spec) -> [UInt8] {
        var text = bytes
        if let precision = spec.precision, precision < text.count { text = Array(text.prefix(precision)) }
        return padded(text, spec.width, left: spec.has("-"))
    }

    /// `%jd` with the flags `'-+ 0`.
    static func signed(_ value: Int64, _ spec: Spec) -> [UInt8] {
        let sign: [UInt8] = value < 0 ? [0x2D] : spec.has("+") ? [0x2B] : spec.has(" ") ? [0x20] : []
        return integer(sign: sign, prefix: [], digits: digits(value.magnitude, base: 10, spec), spec)
    }

    /// `%ju`, `%jo` or `%jx` with the flags `'-0`, plus `#` for octal and hex.
    static func unsigned(_ value: UInt64, _ spec: Spec, base: UInt64 = 10) -> [UInt8] {
        var digits = digits(value, base: base, spec)
        var prefix: [UInt8] = []
        if spec.has("#") && base == 8 && digits.first != 0x30 { digits.insert(0x30, at: 0) }
        if spec.has("#") && base == 16 && value != 0 { prefix = [0x30, 0x78] }
        return integer(sign: [], prefix: prefix, digits: digits, spec)
    }

    private static func digits(_ value: UInt64, base: UInt64, _ spec: Spec) -> [UInt8] {
        var digits: [UInt8] =
            value == 0 && spec.precision == 0 ? [] : Array(String(value, radix: Int(base)).utf8)
        if let precision = spec.precision, digits.count < precision {
            digits.insert(contentsOf: repeatElement(0x30, count: precision - digits.count), at: 0)
        }
        return digits
    }

    private static func integer(sign: [UInt8], prefix: [UInt8], digits: [UInt8], _ spec: Spec) -> [UInt8] {
        let body = sign + prefix + digits
        guard let width = spec.width, width > body.count else { return body }
        if spec.has("-") { return body + repeatElement(0x20, count: width - body.count) }
        if spec.has("0") && spec.precision == nil {
            return sign + prefix + repeatElement(0x30, count: width - body.count) + digits
        }
        return repeatElement(0x20, count: width - body.count) + body
    }

    private static func padded(_ text: [UInt8], _ width: Int?, left: Bool) -> [UInt8] {
        guard let width, width > text.count else { return text }
        let blanks = repeatElement(UInt8(0x20), count: width - text.count)
        return left ? text + blanks : blanks + text
    }

    /// `%X`, `%Y`, `%Z`, `%W`: seconds since the epoch, with a precision giving that many digits
    /// of the fraction (9 for a bare dot), as GNU stat's `out_epoch_sec` writes them.
    static func seconds(_ time: Timestamp, _ spec: Spec, hadDigitsBeforeDot: Bool) -> [UInt8] {
        var secondsSpec = spec
        secondsSpec.precision = nil
        secondsSpec.hasDot = false
        var precision = 0
        var width = 0
        var fractionLeft = false
        if spec.hasDot {
            precision = spec.hasPrecisionDigits ? spec.precision ?? 0 : 9
            if precision > 0 && hadDigitsBeforeDot {
                width = spec.width ?? 0
                if width > 1 {
                    secondsSpec.width = nil
                    let beforeFraction = width - 1
                    if beforeFraction > 1 {
                        let secondsWidth = beforeFraction - precision
                        if secondsWidth > 1 {
                            fractionLeft = secondsSpec.flags.remove(0x2D) != nil
                            secondsSpec.width = fractionLeft ? nil : secondsWidth
                        }
                    }
                }
            }
        }
        var divisor: Int64 = 1
        for _ in min(precision, 9)..<9 { divisor *= 10 }
        var fraction = Int64(time.nanoseconds) / divisor
        var seconds = time.seconds
        var integerPart: [UInt8]
        if seconds < 0 && time.nanoseconds != 0 {
            let modulus = 1_000_000_000 / divisor
            fraction = modulus - fraction - (Int64(time.nanoseconds) % divisor != 0 ? 1 : 0)
            if fraction != 0 { seconds += 1 }
            integerPart =
                seconds == 0
                ? integer(sign: [0x2D], prefix: [], digits: [0x30], secondsSpec)
                : signed(seconds, secondsSpec)
        } else {
            integerPart = signed(seconds, secondsSpec)
        }
        guard precision > 0 else { return integerPart }
        let shownDigits = min(precision, 9)
        var fractionDigits = Array(String(fraction).utf8)
        fractionDigits.insert(
            contentsOf: repeatElement(0x30, count: max(0, shownDigits - fractionDigits.count)), at: 0)
        integerPart.append(0x2E)
        integerPart += fractionDigits
        var trailing = [UInt8](repeating: 0x30, count: precision - shownDigits)
        let length = integerPart.count - 1 - shownDigits
        if length < width && 1 < width - length {
            let trailingWidth = width - length - 1 - shownDigits
            if trailing.count < trailingWidth {
                trailing += repeatElement(0x20, count: trailingWidth - trailing.count)
            }
        }
        return integerPart + trailing
    }
}

private enum Messages {
    static let backslashAtEnd = "warning: backslash at end of format"
    static let unrecognizedEscape = "warning: unrecognized escape"
}
