/// glibc's `strverscmp` order of names, which tree(1) sorts `-v` by (ls -v uses `VersionOrder`,
/// coreutils' filevercmp, which differs): names compare byte by byte until they differ; where
/// they differ inside a run of digits, a run without leading zeros is a number (the longer run
/// is the larger: `a2` before `a10`), a run with leading zeros a fraction (`1.01`, `1.010`,
/// `1.1`), and more leading zeros come first (`a001`, `a01`, `a1`).
public enum StringVersionOrder {
    /// Whether `left` comes before `right`.
    public static func precedes(_ left: ArraySlice<UInt8>, _ right: ArraySlice<UInt8>) -> Bool {
        compare(left, right) < 0
    }

    /// Negative, zero or positive as `left` comes before, with or after `right`.
    public static func compare(_ left: ArraySlice<UInt8>, _ right: ArraySlice<UInt8>) -> Int {
        var index = 0
        var state = State.normal
        while true {
            let leftByte = byte(left, index)
            let rightByte = byte(right, index)
            if leftByte != rightByte {
                return decide(state, leftByte, rightByte, left, right, from: index)
            }
            if leftByte == 0 { return 0 }
            state = state.after(leftByte)
            index += 1
        }
    }

    /// Where the common part of the two names ended.
    fileprivate enum State {
        /// Not in a run of digits.
        case normal
        /// In a run of digits that started with 1–9: an integer.
        case integer
        /// In a run of digits after leading zeros: a fraction.
        case fraction
        /// In the leading zeros of a run.
        case zeros

        /// The state once `byte`, common to both names, has been read.
        func after(_ byte: UInt8) -> State {
            switch (self, kind(byte)) {
            case (_, .other): .normal
            case (.normal, .zero): .zeros
            case (.normal, .digit): .integer
            case (.integer, _): .integer
            case (.fraction, _): .fraction
            case (.zeros, .zero): .zeros
            case (.zeros, .digit): .fraction
            }
        }
    }

    fileprivate enum Kind { case other, digit, zero }

    private static func kind(_ byte: UInt8) -> Kind {
        byte == 0x30 ? .zero : isDigit(byte) ? .digit : .other
    }

    /// The order of two names that first differ at `index`, after the common part left `state`.
    private static func decide(
        _ state: State, _ leftByte: UInt8, _ rightByte: UInt8, _ left: ArraySlice<UInt8>,
        _ right: ArraySlice<UInt8>, from index: Int
    ) -> Int {
        let difference = Int(leftByte) - Int(rightByte)
        switch Decision(after: state, kind(leftByte), kind(rightByte)) {
        case .bytes: return difference
        case .lengths: return compareRunLengths(left, right, from: index, difference: difference)
        case .leftFirst: return -1
        case .rightFirst: return 1
        }
    }

    /// Inside an integer, the name whose run of digits goes on longer is the larger; runs of
    /// one length compare by their first differing digit.
    private static func compareRunLengths(
        _ left: ArraySlice<UInt8>, _ right: ArraySlice<UInt8>, from start: Int, difference: Int
    ) -> Int {
        // The differing digits are at `start`; the runs go on after them.
        var index = start + 1
        while isDigit(byte(left, index)) {
            if !isDigit(byte(right, index)) { return 1 }
            index += 1
        }
        return isDigit(byte(right, index)) ? -1 : difference
    }

    /// The byte at `index` of `name`, 0 past its end (as a C string reads).
    private static func byte(_ name: ArraySlice<UInt8>, _ index: Int) -> UInt8 {
        index < name.count ? name[name.startIndex + index] : 0
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
}

extension StringVersionOrder {
    /// What decides between two names where they first differ.
    fileprivate enum Decision {
        case bytes, lengths, leftFirst, rightFirst

        /// The decision when the common part ended in `common` and the first differing bytes
        /// are of kinds `left` and `right`.
        init(after common: State, _ left: Kind, _ right: Kind) {
            switch (common, left, right) {
            // Two digits, neither in a run yet: an integer each, compared by length.
            case (.normal, .digit, .digit): self = .lengths
            case (.normal, _, _): self = .bytes
            // Inside an integer: a name whose digits stop first is the smaller.
            case (.integer, .other, .other): self = .bytes
            case (.integer, .other, _): self = .leftFirst
            case (.integer, _, .other): self = .rightFirst
            case (.integer, _, _): self = .lengths
            case (.fraction, _, _): self = .bytes
            // In leading zeros: more zeros (a zero against a digit or the end) come first.
            case (.zeros, .other, .other): self = .bytes
            case (.zeros, .other, _): self = .rightFirst
            case (.zeros, _, .other): self = .leftFirst
            case (.zeros, _, _): self = .bytes
            }
        }
    }
}
