import PathModel

/// The order of names as versions, as GNU's `filevercmp` gives it (`ls -v`, `sort -V`), on bytes:
/// runs of digits compare as numbers (`a2` before `a10`), letters before other bytes, `~` before
/// everything, even the end of a name (`1.0~rc1` before `1.0`), and a file suffix such as
/// `.tar.gz` is set aside first and compared only when the rest is equal.
///
/// ```
/// VersionOrder.compare(Array("a2".utf8), Array("a10".utf8))       // < 0
/// VersionOrder.compare(Array("a1.5".utf8), Array("a1.10".utf8))   // < 0
/// VersionOrder.compare(Array("a01".utf8), Array("a1".utf8))       // 0: ask `precedes` for the tie
/// ```
public enum VersionOrder {
    /// Whether `a` comes before `b`: by `compare`, and names it finds equal (`a01`, `a1`) by
    /// their bytes, as `ls -v` breaks the tie.
    public static func precedes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        let order = compare(a, b)
        return order != 0 ? order < 0 : bytesPrecede(a, b)
    }

    /// `precedes(_:_:)` for whole arrays.
    public static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool { precedes(a[...], b[...]) }

    /// Negative when `a` comes before `b` as a version, positive when after, zero when they are
    /// equal as versions (which names differing in leading zeros can be).
    public static func compare(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in compare(a, b) } }
    }

    /// `compare(_:_:)` for whole arrays.
    public static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int { compare(a[...], b[...]) }

    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        // An empty name first; then `.`, `..` and other names starting with a dot, in that order,
        // before all the rest.
        if a.isEmpty || b.isEmpty { return (a.isEmpty ? 0 : 1) - (b.isEmpty ? 0 : 1) }
        let dot: UInt8 = 0x2E
        if a[0] == dot || b[0] == dot {
            if a[0] != dot { return 1 }
            if b[0] != dot { return -1 }
            if a.count == 1 || b.count == 1 { return (a.count == 1 ? 0 : 1) - (b.count == 1 ? 0 : 1) }
            let aDots = a.count == 2 && a[1] == dot
            let bDots = b.count == 2 && b[1] == dot
            if aDots || bDots { return (aDots ? 0 : 1) - (bDots ? 0 : 1) }
        }
        let aStem = stemLength(a)
        let bStem = stemLength(b)
        let first = compareVersions(a, aStem, b, bStem)
        if first != 0 || (aStem == a.count && bStem == b.count) { return first }
        return compareVersions(a, a.count, b, b.count)
    }

    /// The length of `name` without its file suffix: the longest run at its end of `.` followed
    /// by a letter or `~` and then letters, digits or `~` (`.tar.gz`, `.txt`). A name may be all
    /// suffix (`.gz`, `.bashrc`: nothing is left), as in GNU coreutils 9.1.
    private static func stemLength(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        while true {
            let stem = index
            while index + 1 < name.count && name[index] == 0x2E
                && (isLetter(name[index + 1]) || name[index + 1] == tilde)
            {
                index += 2
                while index < name.count && (isLetter(name[index]) || isDigit(name[index]) || name[index] == tilde) {
                    index += 1
                }
            }
            if index >= name.count { return stem }
            index += 1
        }
    }

    /// Debian's comparison of version strings on the first `aCount` bytes of `a` and `bCount` of
    /// `b`: alternately a run of non-digits, compared byte by byte in `weight` order, and a run
    /// of digits, compared as a number.
    private static func compareVersions(
        _ a: UnsafeBufferPointer<UInt8>, _ aCount: Int, _ b: UnsafeBufferPointer<UInt8>, _ bCount: Int
    ) -> Int {
        var i = 0
        var j = 0
        while i < aCount || j < bCount {
            while (i < aCount && !isDigit(a[i])) || (j < bCount && !isDigit(b[j])) {
                let aWeight = weight(a, i, aCount)
                let bWeight = weight(b, j, bCount)
                if aWeight != bWeight { return aWeight - bWeight }
                i += 1
                j += 1
            }
            while i < aCount && a[i] == 0x30 { i += 1 }
            while j < bCount && b[j] == 0x30 { j += 1 }
            var firstDifference = 0
            while i < aCount && j < bCount && isDigit(a[i]) && isDigit(b[j]) {
                if firstDifference == 0 { firstDifference = Int(a[i]) - Int(b[j]) }
                i += 1
                j += 1
            }
            // The longer number (without leading zeros) is the larger.
            if i < aCount && isDigit(a[i]) { return 1 }
            if j < bCount && isDigit(b[j]) { return -1 }
            if firstDifference != 0 { return firstDifference }
        }
        return 0
    }

    /// The place of the byte at `index` among non-digits: `~` first, then the end of the name,
    /// then a digit (where the other name has a non-digit), letters by their code, and every
    /// other byte after all letters.
    private static func weight(_ name: UnsafeBufferPointer<UInt8>, _ index: Int, _ count: Int) -> Int {
        if index >= count { return -1 }
        let byte = name[index]
        if isDigit(byte) { return 0 }
        if isLetter(byte) { return Int(byte) }
        if byte == tilde { return -2 }
        return Int(byte) + 256
    }

    private static let tilde: UInt8 = 0x7E

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// An ASCII letter: the C locale's, whatever the locale, as GNU's comparison has it.
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }
}
