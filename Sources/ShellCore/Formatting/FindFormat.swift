import PathModel

/// A `find -printf` format: text, backslash escapes and `%` directives, as GNU find reads it.
///
/// Every directive's value is text, as in GNU find: a `-` flag, a width and a precision apply
/// to it as to a string (the precision cuts it), and other flags are accepted and have no effect.
public struct FindFormat: Sendable {
    /// One piece of the format.
    enum Piece: Sendable {
        /// Bytes written as they are (escapes already decoded).
        case text([UInt8])
        /// A `%` directive.
        case directive(Directive)
        /// `\c`: nothing more of the format is written.
        case stop
    }

    /// A `%` directive with its flags, width and precision.
    struct Directive: Sendable {
        var leftAligned = false
        var width = 0
        var precision: Int?
        /// The directive's letter (`p`, `s`, `T`…).
        var letter: UInt8
        /// For `%A`, `%C`, `%T`: the time field's letter (`@`, `Y`, `+`…).
        var timeLetter: UInt8 = 0
    }

    let pieces: [Piece]
    /// Whether a directive needs the file's metadata (all but the names, the depth and `%y`,
    /// `%l` and `%Y` do).
    let needsInfo: Bool
    /// Whether `%l` is used: a symlink's target is read only then.
    let needsLinkTarget: Bool
    /// Whether `%Y` is used: what a symlink leads to is examined only then.
    let needsFollowedType: Bool

    /// The letters that stand alone.
    private static let letters = Array("%pfhPHdskbmMnilugUGyYDatc".utf8)
    /// The letters that may follow `%A`, `%C` and `%T`.
    private static let timeLetters = Array("@aAbBcdDeFhHIjklmMpqrSTUwWxXyYz+".utf8)

    /// Parses FORMAT.
    /// - Throws: `UsageError` for a directive GNU find does not know or one cut short.
    public init(_ format: [UInt8]) throws(UsageError) {
        var pieces: [Piece] = []
        var text: [UInt8] = []
        var index = 0
        func flushText() {
            if !text.isEmpty { pieces.append(.text(text)) }
            text = []
        }
        while index < format.count {
            let byte = format[index]
            index += 1
            if byte == 0x5C, index < format.count {
                let escape = format[index]
                index += 1
                switch escape {
                case 0x61: text.append(0x07)
                case 0x62: text.append(0x08)
                case 0x66: text.append(0x0C)
                case 0x6E: text.append(0x0A)
                case 0x72: text.append(0x0D)
                case 0x74: text.append(0x09)
                case 0x76: text.append(0x0B)
                case 0x5C: text.append(0x5C)
                case 0x63:
                    flushText()
                    pieces.append(.stop)
                case 0x30...0x37:
                    var value = UInt32(escape - 0x30)
                    var digits = 1
                    while digits < 3, index < format.count, (0x30...0x37).contains(format[index]) {
                        value = value * 8 + UInt32(format[index] - 0x30)
                        index += 1
                        digits += 1
                    }
                    text.append(UInt8(truncatingIfNeeded: value))
                default:
                    text += [0x5C, escape]
                }
                continue
            }
            guard byte == 0x25 else {
                text.append(byte)
                continue
            }
            var directive = Directive(letter: 0)
            let start = index - 1
            while index < format.count, Array("-+ #0".utf8).contains(format[index]) {
                if format[index] == 0x2D { directive.leftAligned = true }
                index += 1
            }
            while index < format.count, (0x30...0x39).contains(format[index]) {
                directive.width = directive.width * 10 + Int(format[index] - 0x30)
                index += 1
            }
            if index < format.count, format[index] == 0x2E {
                index += 1
                var precision = 0
                while index < format.count, (0x30...0x39).contains(format[index]) {
                    precision = precision * 10 + Int(format[index] - 0x30)
                    index += 1
                }
                directive.precision = precision
            }
            guard index < format.count, Self.letters.contains(format[index]) || Array("ACT".utf8).contains(format[index])
            else {
                let shown = String(decoding: format[start..<min(index + 1, format.count)], as: UTF8.self)
                throw .invalid(Messages.unknownDirective(shown))
            }
            directive.letter = format[index]
            index += 1
            if Array("ACT".utf8).contains(directive.letter) {
                guard index < format.count, Self.timeLetters.contains(format[index]) else {
                    let shown = String(decoding: format[start..<min(index + 1, format.count)], as: UTF8.self)
                    throw .invalid(Messages.unknownDirective(shown))
                }
                directive.timeLetter = format[index]
                index += 1
            }
            if directive.letter == 0x25 {
                text.append(0x25)
                continue
            }
            flushText()
            pieces.append(.directive(directive))
        }
        flushText()
        self.pieces = pieces
        let letters = pieces.compactMap { piece -> UInt8? in
            if case .directive(let directive) = piece { return directive.letter }
            return nil
        }
        needsInfo = letters.contains { !Array("pfhPHdylY".utf8).contains($0) }
        needsLinkTarget = letters.contains(UInt8(ascii: "l"))
        needsFollowedType = letters.contains(UInt8(ascii: "Y"))
    }

    /// Writes the format for `entry`.
    func write(_ entry: FindEntry, to output: OutputStream) {
        for piece in pieces {
            switch piece {
            case .text(let bytes):
                output.write(bytes: bytes)
            case .stop:
                return
            case .directive(let directive):
                var value = Self.value(of: directive, entry)
                if let precision = directive.precision, value.count > precision { value.removeLast(value.count - precision) }
                let padding = [UInt8](repeating: 0x20, count: max(0, directive.width - value.count))
                output.write(bytes: directive.leftAligned ? value + padding : padding + value)
            }
        }
    }

    private static func value(of directive: Directive, _ entry: FindEntry) -> [UInt8] {
        func number<N: BinaryInteger>(_ value: N?) -> [UInt8] { value.map { Array(String($0).utf8) } ?? [] }
        let info = entry.info
        switch directive.letter {
        case UInt8(ascii: "p"): return entry.path
        case UInt8(ascii: "f"): return entry.name
        case UInt8(ascii: "h"): return entry.directoryPart
        case UInt8(ascii: "P"): return entry.pathBelowStart
        case UInt8(ascii: "H"): return entry.start
        case UInt8(ascii: "d"): return number(entry.depth)
        case UInt8(ascii: "s"): return number(info?.size)
        case UInt8(ascii: "k"): return number(info.map { ($0.blocks + 1) / 2 })
        case UInt8(ascii: "b"): return number(info?.blocks)
        case UInt8(ascii: "m"): return info.map { Array(String($0.permissions, radix: 8).utf8) } ?? []
        case UInt8(ascii: "M"): return info.map { FileFormat.modeBytes($0.mode) } ?? []
        case UInt8(ascii: "n"): return number(info?.linkCount)
        case UInt8(ascii: "i"): return number(info?.inode)
        case UInt8(ascii: "D"): return number(info?.device)
        case UInt8(ascii: "u"):
            guard let info else { return [] }
            return Array((entry.names.owner(of: info) ?? String(info.userID)).utf8)
        case UInt8(ascii: "g"):
            guard let info else { return [] }
            return Array((entry.names.group(of: info) ?? String(info.groupID)).utf8)
        case UInt8(ascii: "U"): return number(info?.userID)
        case UInt8(ascii: "G"): return number(info?.groupID)
        case UInt8(ascii: "l"): return entry.linkTarget ?? []
        case UInt8(ascii: "y"): return entry.kind.map { [Self.typeLetter($0)] } ?? [UInt8(ascii: "U")]
        case UInt8(ascii: "Y"): return [entry.followedTypeLetter]
        case UInt8(ascii: "a"): return info.map { Self.ctimeText($0.accessTime, entry.zone) } ?? []
        case UInt8(ascii: "c"): return info.map { Self.ctimeText($0.changeTime, entry.zone) } ?? []
        case UInt8(ascii: "t"): return info.map { Self.ctimeText($0.modificationTime, entry.zone) } ?? []
        case UInt8(ascii: "A"): return info.map { Self.timeField(directive.timeLetter, $0.accessTime, entry.zone) } ?? []
        case UInt8(ascii: "C"): return info.map { Self.timeField(directive.timeLetter, $0.changeTime, entry.zone) } ?? []
        default: return info.map { Self.timeField(directive.timeLetter, $0.modificationTime, entry.zone) } ?? []
        }
    }

    /// `-type`'s letter for a kind (`f`, `d`, `l`…; `U` for one find has no letter for).
    static func typeLetter(_ kind: FileKind) -> UInt8 {
        switch kind {
        case .regular: return UInt8(ascii: "f")
        case .directory: return UInt8(ascii: "d")
        case .symlink: return UInt8(ascii: "l")
        case .fifo: return UInt8(ascii: "p")
        case .socket: return UInt8(ascii: "s")
        case .blockDevice: return UInt8(ascii: "b")
        case .characterDevice: return UInt8(ascii: "c")
        case .unknown: return UInt8(ascii: "U")
        }
    }

    /// `Fri Nov 20 10:00:01.5000000000 2026`, as GNU find's `%t` writes a time.
    private static func ctimeText(_ time: Timestamp, _ zone: Clock.Zone) -> [UInt8] {
        guard Clock.civil(time.seconds, in: zone) != nil else { return Array(String(time.seconds).utf8) }
        return TimeFormat.format(Array("%a %b %e %H:%M:%S".utf8), time, zone: zone) + Array(".\(fraction(time)) ".utf8)
            + TimeFormat.format(Array("%Y".utf8), time, zone: zone)
    }

    /// One field of a time, `%T` and its letter: strftime's conversion of that letter, but with
    /// the seconds' fraction after the seconds (`S`, `T`, `X`), and find's own `@` and `+`.
    private static func timeField(_ letter: UInt8, _ time: Timestamp, _ zone: Clock.Zone) -> [UInt8] {
        if letter == UInt8(ascii: "@") { return Array("\(time.seconds).\(fraction(time))".utf8) }
        guard Clock.civil(time.seconds, in: zone) != nil else { return Array(String(time.seconds).utf8) }
        let fraction = Array(".\(fraction(time))".utf8)
        switch letter {
        case UInt8(ascii: "S"): return TimeFormat.format(Array("%S".utf8), time, zone: zone) + fraction
        case UInt8(ascii: "T"), UInt8(ascii: "X"):
            return TimeFormat.format(Array("%H:%M:%S".utf8), time, zone: zone) + fraction
        case UInt8(ascii: "+"): return TimeFormat.format(Array("%Y-%m-%d+%H:%M:%S".utf8), time, zone: zone) + fraction
        default: return TimeFormat.format([0x25, letter], time, zone: zone)
        }
    }

    /// Nanoseconds as GNU find writes them after the seconds: nine digits and a `0`.
    private static func fraction(_ time: Timestamp) -> String {
        let digits = String(time.nanoseconds)
        return String(repeating: "0", count: 9 - digits.count) + digits + "0"
    }

    private enum Messages {
        static func unknownDirective(_ directive: String) -> String { "unrecognized format directive `\(directive)'" }
    }
}

/// What `-printf` and `-ls` show of one entry of a `find` walk.
struct FindEntry {
    /// The path as find prints it.
    var path: [UInt8]
    /// How the starting point was written (`%H`).
    var start: [UInt8]
    /// How deep below the starting point (`%d`).
    var depth: Int
    /// The entry's type, when known.
    var kind: FileKind?
    /// The metadata, when it was needed and could be read.
    var info: FileInfo?
    /// A symlink's target, when it was needed and could be read.
    var linkTarget: [UInt8]?
    /// `%Y`: the type of what a symlink leads to (`N` when nothing, `L` for a loop), when needed.
    var followedTypeLetter: UInt8
    /// Owner and group names, looked up once per id.
    var names: OwnerNames
    /// The zone times are shown in.
    var zone: Clock.Zone

    /// The last component (`%f`), with one slash when slashes end it (`find dir//` shows `dir/`).
    var name: [UInt8] {
        var end = path.endIndex
        while end > 1, path[end - 1] == 0x2F { end -= 1 }
        guard end > 1 || path.first != 0x2F else { return [0x2F] }
        let begin = path[..<end].lastIndex(of: 0x2F).map { $0 + 1 } ?? 0
        return Array(path[begin..<end]) + (end < path.endIndex ? [0x2F] : [])
    }

    /// Everything before the last component (`%h`); `.` when there is nothing before it.
    var directoryPart: [UInt8] {
        if path == [0x2F] { return [] }
        var trimmed = path[...]
        while trimmed.count > 1, trimmed.last == 0x2F { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: 0x2F) else { return [0x2E] }
        return slash == trimmed.startIndex ? [0x2F] : Array(trimmed[..<slash])
    }

    /// The path below the starting point (`%P`): empty for the starting point itself.
    var pathBelowStart: [UInt8] {
        guard depth > 0, path.count > start.count else { return [] }
        var rest = path[start.count...]
        while rest.first == 0x2F { rest.removeFirst() }
        return Array(rest)
    }
}
