extension TreeCommand {
    /// A `-P`/`-I` pattern, matched against one name as tree(1) matches it.
    ///
    /// tree's patterns are not the shell's globs: `*` and `?` also match a leading dot, `?` is one
    /// byte, `[^...]` negates a bracket, `|` separates alternatives, and a pattern ending in `/`
    /// matches directories only. A malformed pattern (an unclosed bracket, an empty first or last
    /// alternative) matches every name, as it does in tree.
    ///
    ///     Pattern("*.o|*.a").matches(name: Array("x.a".utf8), isDirectory: false)   // true
    ///     Pattern("build/").matches(name: Array("build".utf8), isDirectory: false)   // false
    public struct Pattern: Sendable, Hashable {
        /// The pattern as given, byte for byte.
        public let bytes: [UInt8]
        /// The alternatives between `|`s, each NUL-terminated as the matcher expects.
        private let alternatives: [[UInt8]]

        /// A pattern from its bytes.
        public init(bytes: [UInt8]) {
            self.bytes = bytes
            alternatives = bytes.split(separator: 0x7C, omittingEmptySubsequences: false).map { Array($0) + [0] }
        }

        /// A pattern from its text.
        public init(_ text: String) { self.init(bytes: Array(text.utf8)) }

        /// Whether `name` matches; `isDirectory` decides patterns that end in `/`.
        public func matches(name: [UInt8], isDirectory: Bool) -> Bool {
            name.withUnsafeBufferPointer { name in
                // tree splits at the first `|` and recurses on the rest: an empty alternative
                // before a `|`, or an empty last one, is a syntax error, which counts as a match.
                for (index, alternative) in alternatives.enumerated() {
                    let remaining = alternatives.count - index
                    if remaining > 1,
                        alternative.count == 1 || (remaining == 2 && alternatives[index + 1].count == 1)
                    {
                        return true
                    }
                    let result = alternative.withUnsafeBufferPointer { pattern in
                        Pattern.match(Text(name), 0, pattern, 0, isDirectory: isDirectory)
                    }
                    if result != 0 { return true }
                }
                return false
            }
        }

        /// A name read as a C string: past its end every byte is NUL.
        private struct Text {
            let bytes: UnsafeBufferPointer<UInt8>
            init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }
            subscript(index: Int) -> UInt8 { index < bytes.count ? bytes[index] : 0 }
        }

        /// tree's `patmatch`: 1 for a match, 0 for none, -1 for a malformed pattern.
        private static func match(
            _ text: Text, _ start: Int, _ pattern: UnsafeBufferPointer<UInt8>, _ patternStart: Int,
            isDirectory: Bool
        ) -> Int {
            var b = start
            var p = patternStart
            var result = 1
            var previous: UInt8 = 0
            while pattern[p] != 0 && result != 0 {
                switch pattern[p] {
                case 0x5B:  // [
                    if text[b] == 0 { return 0 }
                    p += 1
                    let hit: Int
                    if pattern[p] != 0x5E {
                        hit = 1
                        result = 0
                    } else {
                        p += 1
                        hit = 0
                    }
                    let byte = Int8(bitPattern: text[b])
                    while pattern[p] != 0x5D {
                        if pattern[p] == 0x5C { p += 1 }
                        if pattern[p] == 0 { return -1 }
                        if pattern[p + 1] == 0x2D {
                            let low = Int8(bitPattern: pattern[p])
                            p += 2
                            if pattern[p] == 0x5C { p += 1 }
                            if byte >= low && byte <= Int8(bitPattern: pattern[p]) { result = hit }
                            if pattern[p] == 0 { p -= 1 }
                        } else if text[b] == pattern[p] {
                            result = hit
                        }
                        p += 1
                    }
                    b += 1
                case 0x2A:  // *
                    p += 1
                    if pattern[p] == 0 {
                        return b < text.bytes.count && text.bytes[b...].contains(0x2F) ? 0 : 1
                    }
                    result = 0
                    if pattern[p] == 0x2A {
                        p += 1
                        if pattern[p] == 0 { return 1 }
                        while text[b] != 0 {
                            result = match(text, b, pattern, p, isDirectory: isDirectory)
                            if result != 0 { break }
                            // `**` between two slashes may also match no directory at all.
                            if previous == 0x2F && pattern[p] == 0x2F && pattern[p + 1] != 0 {
                                result = match(text, b, pattern, p + 1, isDirectory: isDirectory)
                                if result != 0 { return result }
                            }
                            b += 1
                            while text[b] != 0 && text[b] != 0x2F { b += 1 }
                        }
                    } else {
                        while text[b] != 0 {
                            result = match(text, b, pattern, p, isDirectory: isDirectory)
                            b += 1
                            if result != 0 || text[b] == 0x2F { break }
                        }
                    }
                    if result == 0 && (text[b] == 0 || text[b] == 0x2F) {
                        result = match(text, b, pattern, p, isDirectory: isDirectory)
                    }
                    return result
                case 0x3F:  // ?
                    if text[b] == 0 { return 0 }
                    b += 1
                case 0x2F:  // /
                    if pattern[p + 1] == 0 && text[b] == 0 { return isDirectory ? 1 : 0 }
                    result = text[b] == 0x2F ? 1 : 0
                    b += 1
                default:
                    if pattern[p] == 0x5C {
                        p += 1
                        // A trailing backslash escapes nothing; tree reads past the pattern there.
                        if pattern[p] == 0 { return 0 }
                    }
                    result = text[b] == pattern[p] ? 1 : 0
                    b += 1
                }
                previous = pattern[p]
                p += 1
                if result < 1 { return result }
            }
            return text[b] == 0 ? result : 0
        }
    }
}
