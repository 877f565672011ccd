/// A shell glob pattern: `*`, `?`, `[...]` (with `!`/`^` negation and ranges) and `**`.
///
/// Patterns are matched against names and paths as bytes; a valid UTF-8 sequence counts as one
/// character for `?` and brackets, and any other byte as one character of its own. A backslash
/// makes the next character literal. A `*`, `?` or bracket never matches a leading dot: a name
/// starting with `.` is matched only by a segment that starts with a literal `.`.
///
///     Glob("*.txt").matches(name: "a.txt")               // true
///     Glob("src/**/*.swift").matches(path: "src/a/b/c.swift")  // true
public struct Glob: Sendable, Hashable, CustomStringConvertible {
    /// The pattern's bytes.
    public let pattern: [UInt8]
    private let segments: [Segment]

    /// One `/`-separated piece of a pattern.
    fileprivate enum Segment: Sendable, Hashable {
        case literal([UInt8])
        case wildcard([Unit], startsWithDot: Bool)
        case anyDepth
    }

    /// One character of a compiled pattern.
    fileprivate enum Unit: Sendable, Hashable {
        case character(UInt32)
        case any
        case anySequence
        case bracket(negated: Bool, ranges: [ClosedRange<UInt32>])
    }

    /// A pattern from text.
    public init(_ pattern: String) { self.init(bytes: Array(pattern.utf8)) }

    /// A pattern from bytes.
    public init(bytes: [UInt8]) {
        pattern = bytes
        segments = bytes.split(separator: 0x2F, omittingEmptySubsequences: true).map(Glob.compile)
    }

    /// The pattern as text.
    public var description: String { String(decoding: pattern, as: UTF8.self) }

    /// Whether the pattern starts at the root.
    public var isAbsolute: Bool { pattern.first == 0x2F }

    /// Whether the pattern ends with `/` (`*/`, `src/**/`): then it matches directories only,
    /// and symlinks that lead to one, as a shell's does.
    public var matchesDirectoriesOnly: Bool { pattern.count > 1 && pattern.last == 0x2F }

    /// Whether `bytes` holds any unescaped glob character (`*`, `?`, or a `[` closed by a later `]`).
    /// Inlinable so that callers get a copy for their own collection type: a generic call across
    /// modules looks up the collection's iterator at run time, a full scan of the program's
    /// conformances the first time, which start-up paid for the first word of every session.
    @inlinable
    public static func hasWildcards<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var escaped = false
        var openBracket = false
        for byte in bytes {
            if escaped { escaped = false; continue }
            switch byte {
            case 0x5C: escaped = true
            case 0x2A, 0x3F: return true
            case 0x5B: openBracket = true
            case 0x5D where openBracket: return true
            default: continue
            }
        }
        return false
    }

    /// Whether the whole of a single name matches a pattern that has no `/`.
    public func matches(name: String) -> Bool { matches(name: Array(name.utf8)) }

    /// Whether the whole of a single name (bytes) matches a pattern that has no `/`.
    public func matches<C: Collection>(name: C) -> Bool where C.Element == UInt8 {
        guard segments.count == 1 else { return false }
        return Glob.matches(segments[0], name: Array(name))
    }

    /// Whether a single name matches as `fnmatch(3)` without `FNM_PERIOD` matches it, the way
    /// `find -name` does: wildcards match a leading dot too, and a pattern with `/` matches nothing.
    public func matchesIncludingLeadingDot<C: Collection>(name: C) -> Bool where C.Element == UInt8 {
        guard segments.count == 1 else { return false }
        switch segments[0] {
        case .literal(let literal): return literal.elementsEqual(name)
        case .anyDepth: return true
        case .wildcard(let units, _): return Glob.matchUnits(units[...], Glob.decode(Array(name))[...])
        }
    }

    /// Whether a whole path matches, segment by segment; `**` matches any number of segments.
    public func matches(path: File) -> Bool {
        let names = path.componentBytes.map { Array($0) }
        return Glob.matches(segments[...], names[...])
    }

    /// The paths on disk that match, sorted by bytes, in the pattern's own spelling.
    ///
    /// The pattern is resolved in `base`'s sandbox, if it has one, and the results are in that
    /// sandbox too. A relative pattern is resolved against `base`, and its results stay relative
    /// (`*.txt` gives `a.txt`, not `/home/ann/a.txt`): join them to `base` to reach the files.
    /// Directories that cannot be read match nothing, as in a shell. `**` does not enter hidden
    /// directories or follow symlinks. A pattern with a NUL byte matches nothing. A pattern
    /// that `matchesDirectoriesOnly` gives directories alone (the paths have no trailing slash:
    /// `File` keeps none).
    /// Corresponds to `getdents64(2)` and `lstat(2)`.
    public func expand(relativeTo base: File) -> [File] {
        // No name holds a NUL byte, so such a pattern matches nothing.
        if pattern.contains(0) { return [] }
        var current: [File] = [(isAbsolute ? File.root : File(path: "")).on(base.volume)]
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            var next: [File] = []
            for prefix in current {
                let onDisk = prefix.isAbsolute ? prefix : (prefix.byteCount == 0 ? base : base + prefix)
                switch segment {
                case .literal(let name):
                    let candidate = prefix.appending(entryName: name)
                    if isLast {
                        if (onDisk.appending(entryName: name)).exists { next.append(candidate) }
                    } else {
                        next.append(candidate)
                    }
                case .wildcard:
                    for entry in Glob.readable(onDisk) where Glob.matches(segment, name: entry.name) {
                        next.append(prefix.appending(entryName: entry.name))
                    }
                case .anyDepth:
                    next.append(prefix)
                    next.append(contentsOf: Glob.directoriesBelow(prefix, onDisk: onDisk))
                }
            }
            current = next
        }
        if segments.last == .anyDepth {
            current.removeAll { $0.byteCount == 0 }
        }
        if matchesDirectoriesOnly {
            current.removeAll { match in !(match.isAbsolute ? match : base + match).isDirectory }
        }
        var seen = Set<File>()
        return current.filter { seen.insert($0).inserted }.sorted()
    }

    private static func readable(_ directory: File) -> [DirectoryEntry] {
        do { return try directory.entries() } catch { return [] }
    }

    /// Every non-hidden directory below `prefix`, not following symlinks, in the pattern's spelling.
    private static func directoriesBelow(_ prefix: File, onDisk: File) -> [File] {
        var result: [File] = []
        for case .success(let entry) in onDisk.walk(WalkOptions(includeHidden: false, kinds: [.directory])) {
            guard let relative = entry.file.relative(to: onDisk) else { continue }
            result.append(prefix + relative)
        }
        return result
    }

    private static func matches(_ segments: ArraySlice<Segment>, _ names: ArraySlice<[UInt8]>) -> Bool {
        guard let first = segments.first else { return names.isEmpty }
        if first == .anyDepth {
            let rest = segments.dropFirst()
            for skip in 0...names.count {
                if skip > 0, names[names.startIndex + skip - 1].first == 0x2E { break }
                if matches(rest, names.dropFirst(skip)) { return true }
            }
            return false
        }
        guard let name = names.first, matches(first, name: name) else { return false }
        return matches(segments.dropFirst(), names.dropFirst())
    }

    private static func matches(_ segment: Segment, name: [UInt8]) -> Bool {
        switch segment {
        case .literal(let literal): return literal == name
        case .anyDepth: return name.first != 0x2E
        case .wildcard(let units, let startsWithDot):
            if name.first == 0x2E && !startsWithDot { return false }
            return matchUnits(units[...], decode(name)[...])
        }
    }

    /// Matches with backtracking over the last `*` only: linear for typical patterns.
    fileprivate static func matchUnits(_ pattern: ArraySlice<Unit>, _ text: ArraySlice<UInt32>) -> Bool {
        var p = pattern.startIndex
        var t = text.startIndex
        var starP: Int?
        var starT = t
        while t < text.endIndex {
            if p < pattern.endIndex {
                switch pattern[p] {
                case .anySequence:
                    starP = p
                    starT = t
                    p += 1
                    continue
                case .any:
                    p += 1
                    t += 1
                    continue
                case .character(let c) where c == text[t]:
                    p += 1
                    t += 1
                    continue
                case .bracket(let negated, let ranges) where ranges.contains { $0.contains(text[t]) } != negated:
                    p += 1
                    t += 1
                    continue
                default:
                    break
                }
            }
            guard let star = starP else { return false }
            p = star + 1
            starT += 1
            t = starT
        }
        while p < pattern.endIndex, pattern[p] == .anySequence { p += 1 }
        return p == pattern.endIndex
    }

    /// Characters of a name: scalars for valid UTF-8, `0x110000 + byte` for any other byte.
    fileprivate static func decode(_ bytes: [UInt8]) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let (scalar, length) = decodeOne(bytes, at: index)
            result.append(scalar)
            index += length
        }
        return result
    }

    private static func decodeOne(_ bytes: [UInt8], at index: Int) -> (UInt32, Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
        if length > 0, index + length <= bytes.count,
            let scalar = String(validating: bytes[index..<(index + length)], as: UTF8.self)?.unicodeScalars.first
        {
            return (scalar.value, length)
        }
        return (0x110000 + UInt32(lead), 1)
    }

    fileprivate static func compile(_ bytes: ArraySlice<UInt8>) -> Segment {
        if bytes.elementsEqual([0x2A, 0x2A]) { return .anyDepth }
        let raw = Array(bytes)
        guard hasWildcards(raw) else {
            return .literal(unescape(raw))
        }
        var units: [Unit] = []
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            switch byte {
            case 0x5C where index + 1 < raw.count:
                let (scalar, length) = decodeOne(raw, at: index + 1)
                units.append(.character(scalar))
                index += 1 + length
            case 0x2A:
                if units.last != .anySequence { units.append(.anySequence) }
                index += 1
            case 0x3F:
                units.append(.any)
                index += 1
            case 0x5B:
                if let (unit, next) = compileBracket(raw, from: index) {
                    units.append(unit)
                    index = next
                } else {
                    units.append(.character(0x5B))
                    index += 1
                }
            default:
                let (scalar, length) = decodeOne(raw, at: index)
                units.append(.character(scalar))
                index += length
            }
        }
        return .wildcard(units, startsWithDot: raw.first == 0x2E)
    }

    /// Compiles `[...]` starting at `start`; nil when it is not closed (then `[` is literal).
    private static func compileBracket(_ raw: [UInt8], from start: Int) -> (Unit, Int)? {
        var index = start + 1
        var negated = false
        if index < raw.count, raw[index] == 0x21 || raw[index] == 0x5E {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while index < raw.count {
            if raw[index] == 0x5D && !first {
                return (.bracket(negated: negated, ranges: ranges), index + 1)
            }
            first = false
            if raw[index] == 0x5C, index + 1 < raw.count { index += 1 }
            let (low, length) = decodeOne(raw, at: index)
            index += length
            if index + 1 < raw.count, raw[index] == 0x2D, raw[index + 1] != 0x5D {
                var highIndex = index + 1
                if raw[highIndex] == 0x5C, highIndex + 1 < raw.count { highIndex += 1 }
                let (high, highLength) = decodeOne(raw, at: highIndex)
                if low <= high { ranges.append(low...high) }
                index = highIndex + highLength
            } else {
                ranges.append(low...low)
            }
        }
        return nil
    }

    private static func unescape(_ raw: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var escaped = false
        for byte in raw {
            if byte == 0x5C && !escaped {
                escaped = true
                continue
            }
            escaped = false
            result.append(byte)
        }
        return result
    }
}

/// A glob matched against a whole text as `fnmatch(3)` without flags matches it, the way
/// `find -path` does: `/` is an ordinary character, and `*`, `?` and brackets match it and a
/// leading dot like any other.
public struct WholeTextGlob: Sendable, Hashable {
    /// The pattern's bytes.
    public let pattern: [UInt8]
    private let segment: Glob.Segment

    /// A pattern from bytes.
    public init(bytes: [UInt8]) {
        pattern = bytes
        let compiled = Glob.compile(bytes[...])
        segment = compiled == .anyDepth ? .wildcard([.anySequence], startsWithDot: false) : compiled
    }

    /// Whether the whole of `text` matches.
    public func matches<C: Collection>(_ text: C) -> Bool where C.Element == UInt8 {
        switch segment {
        case .literal(let literal): return literal.elementsEqual(text)
        case .anyDepth: return true
        case .wildcard(let units, _): return Glob.matchUnits(units[...], Glob.decode(Array(text))[...])
        }
    }
}
