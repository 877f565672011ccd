import PathModel

/// What Tab offers for a line: the byte range it replaces and the choices for it.
public struct Completion: Sendable, Hashable {
    /// One choice.
    public struct Candidate: Sendable, Hashable {
        /// The text that replaces the range, quoted so that the line parses back to the name,
        /// ending in `/` for a directory or a space after anything else.
        public var replacement: [UInt8]
        /// How a list of choices shows it: the bare name (with `/` for a directory).
        public var display: [UInt8]
    }

    /// The bytes of the line that a choice replaces: the word under the cursor, up to the cursor.
    public var range: Range<Int>
    /// The choices, sorted by bytes.
    public var candidates: [Candidate]
    /// With several choices, the replacement for the part they share (quoted as they are).
    public var commonPrefix: [UInt8]?

    /// No completion at `cursor`.
    public static func none(at cursor: Int) -> Completion {
        Completion(range: cursor..<cursor, candidates: [], commonPrefix: nil)
    }

    /// `line` with the single candidate (or the common prefix) put in place; nil when there is
    /// nothing to insert.
    public func applied(to line: [UInt8]) -> [UInt8]? {
        let insertion: [UInt8]
        if candidates.count == 1 {
            insertion = candidates[0].replacement
        } else if let commonPrefix {
            insertion = commonPrefix
        } else {
            return nil
        }
        return Array(line[..<range.lowerBound]) + insertion + Array(line[range.upperBound...])
    }
}

/// Completes the word under the cursor: command names in first position, a command's options
/// after `-`, otherwise what the command says its operands are (paths relative to the shell's
/// directory, directories only, command names, or nothing).
///
/// Pure apart from listing one directory: it never changes the process or the line, so it runs
/// without a terminal. The typed text of the word is kept as typed (`~/`, quotes, escapes) and
/// the rest of a name is appended in the quoting in force at the cursor, so that the completed
/// line parses back to exactly the name's bytes.
public enum Completer {
    /// The completion of `line` (bytes) with the cursor at byte offset `cursor`.
    public static func complete(line: [UInt8], cursor: Int, state: ShellState) -> Completion {
        let cursor = max(0, min(cursor, line.count))
        let head = Array(line[..<cursor])
        let partial = Lexer.tokenizePartial(head)
        let start = partial.lastWordStart ?? cursor
        let typed = Array(head[start...])
        // The tokens before the word: a finished last word is among the tokens; drop it.
        var before = partial.tokens
        if partial.lastWordStart != nil, partial.openQuote == nil, let last = before.last,
            case .word = last.kind, last.range.lowerBound == start
        {
            before.removeLast()
        }
        guard let word = TypedWord(typed, openQuote: partial.openQuote, state: state) else {
            return .none(at: cursor)
        }
        let candidates: [Completion.Candidate]
        switch position(after: before) {
        case .commandName where word.value.contains(0x2F):
            // A path to a program (./build.sh, /usr/bin/env).
            candidates = paths(matching: word, directoriesOnly: false, state: state)
        case .commandName:
            candidates = commands(matching: word, aliases: state.aliases) + programs(matching: word, state: state)
        case .argument(let name):
            let type = name.flatMap(Command.type(named:))
            if word.quote == .none, word.value.first == 0x2D, let type {
                candidates = options(of: type, matching: word)
            } else {
                // A redirection's target, or a word of an unknown command, is a file.
                switch type?.operandCompletion ?? .files {
                case .files, .directories:
                    let directoriesOnly = type?.operandCompletion == .directories
                    candidates = places(matching: word, remotes: state.remotes) + paths(matching: word, directoriesOnly: directoriesOnly, state: state)
                case .commands:
                    candidates = commands(matching: word)
                case .nothing:
                    candidates = []
                }
            }
        }
        var completion = Completion(range: start..<cursor, candidates: candidates, commonPrefix: nil)
        if candidates.count > 1 {
            completion.commonPrefix = word.typed + word.quote.escape(commonSuffix(candidates, after: word))
        }
        return completion
    }

    /// Where a word stands in its command.
    private enum Position {
        /// It names the command.
        case commandName
        /// It is an argument (or a redirection's target) of the command with this name.
        case argument(of: String?)
    }

    /// Where a word after `tokens` stands.
    private static func position(after tokens: [Token]) -> Position {
        var first: Word?
        var afterRedirect = false
        for token in tokens {
            switch token.kind {
            case .separator, .newline, .and, .or, .pipe:
                first = nil
                afterRedirect = false
            case .redirect(let kind):
                afterRedirect = !kind.joinsStreams
            case .shellLine:
                // A `!` line is sh's: what follows on it is completed as a file name.
                afterRedirect = true
            case .word(let word):
                if afterRedirect {
                    afterRedirect = false
                } else if first == nil {
                    first = word
                }
            }
        }
        if afterRedirect { return .argument(of: nil) }
        guard let first else { return .commandName }
        return .argument(of: first.literalText.map { String(decoding: $0, as: UTF8.self) })
    }

    /// shelf's command names and, in first position, the session's `aliases`, each once.
    private static func commands(matching word: TypedWord, aliases: Aliases = Aliases()) -> [Completion.Candidate] {
        Set(Command.all.map { Array($0.name.utf8) } + aliases.sorted.map(\.name))
            .filter { $0.starts(with: word.value) }
            .sorted(by: bytesPrecede)
            .map { word.candidate(name: $0, rest: $0[word.value.count...], isDirectory: false) }
    }

    /// The programs in `PATH` whose names start with the word, after the built-ins and without
    /// those a built-in's or an alias's name hides.
    private static func programs(matching word: TypedWord, state: ShellState) -> [Completion.Candidate] {
        ProgramLookup.programNames(startingWith: word.value, in: state)
            .filter { Command.type(named: String(decoding: $0, as: UTF8.self)) == nil && state.aliases[$0] == nil }
            .map { word.candidate(name: $0, rest: $0[word.value.count...], isDirectory: false) }
    }

    private static func options(of type: any ShellCommand.Type, matching word: TypedWord) -> [Completion
        .Candidate]
    {
        var spelled: [[UInt8]] = []
        let specs = type.optionForms + [OptionForm.help]
        if word.value.count < 2 || word.value[1] != 0x2D {
            spelled += specs.compactMap { $0.short.map { Array("-\($0)".utf8) } }
        }
        spelled += specs.compactMap { $0.long.map { Array("--\($0)".utf8) } }
        return spelled.filter { $0.starts(with: word.value) }
            .sorted(by: bytesPrecede)
            .map { word.candidate(name: $0, rest: $0[word.value.count...], isDirectory: false) }
    }

    /// Named places and remotes (`@docs/`, `@backup/`) for an unquoted word that starts with `@`
    /// and has no `/` yet.
    private static func places(matching word: TypedWord, remotes: Remotes) -> [Completion.Candidate] {
        guard word.quote == .none, word.typed.first == 0x40, !word.typed.contains(0x2F) else { return [] }
        return (WellKnownPlaces.names.map { Array("@\($0)".utf8) } + remotes.names.map { [0x40] + $0 })
            .filter { $0.starts(with: word.typed) }
            .map { word.candidate(name: $0, rest: $0[word.typed.count...], isDirectory: true) }
    }

    private static func paths(matching word: TypedWord, directoriesOnly: Bool, state: ShellState)
        -> [Completion.Candidate]
    {
        let value = word.value
        if word.isBareTilde {
            return [Completion.Candidate(replacement: word.typed + [0x2F], display: [0x7E, 0x2F])]
        }
        let slash = value.lastIndex(of: 0x2F)
        let directoryPart = slash.map { Array(value[...$0]) } ?? []
        let prefix = Array(value[(slash.map { $0 + 1 } ?? 0)...])
        let directory = directoryPart.isEmpty ? state.cwd : state.resolve(File(bytes: directoryPart))
        let showHidden = prefix.first == 0x2E
        var matches: [(name: [UInt8], isDirectory: Bool)] = []
        do {
            try directory.forEachEntry(startingWith: prefix) { entry in
                guard entry.name.starts(with: prefix), showHidden || !entry.isHidden else { return }
                var kind = entry.kind
                if kind == nil || kind == .symlink {
                    do {
                        kind = try directory.appending(name: entry.name).info(followSymlinks: true).kind
                    } catch {
                        kind = entry.kind  // a dangling link completes as a file
                    }
                }
                let isDirectory = kind == .directory
                if directoriesOnly && !isDirectory { return }
                matches.append((entry.name, isDirectory))
            }
        } catch {
            return []  // an unreadable or missing directory offers nothing
        }
        matches.sort { bytesPrecede($0.name, $1.name) }
        return matches.compactMap { match in
            word.candidate(
                name: match.name, rest: match.name[prefix.count...], isDirectory: match.isDirectory)
        }
    }

    /// The bytes every candidate adds after what was typed.
    private static func commonSuffix(_ candidates: [Completion.Candidate], after word: TypedWord) -> [UInt8] {
        var common = Array(candidates[0].display.dropLast(candidates[0].display.last == 0x2F ? 1 : 0))
        for candidate in candidates.dropFirst() {
            let name = candidate.display
            var length = 0
            while length < common.count, length < name.count, common[length] == name[length] { length += 1 }
            common.removeSubrange(length...)
        }
        return Array(common.dropFirst(word.prefixLength))
    }
}

/// The word under the cursor as typed, what it means, and the quoting in force at its end.
private struct TypedWord {
    /// The bytes as typed, kept in every replacement.
    let typed: [UInt8]
    /// The word's value: quotes removed, `~` and variables expanded.
    let value: [UInt8]
    /// The quoting in force at the cursor.
    let quote: Quote
    /// How many bytes of the value's last component (the name being completed) were typed.
    let prefixLength: Int
    /// Whether the word is a lone unquoted `~`.
    let isBareTilde: Bool

    init?(_ typed: [UInt8], openQuote: UInt8?, state: ShellState) {
        self.typed = typed
        var source = typed
        switch openQuote {
        case 0x27:
            quote = .single
            source.append(0x27)
        case 0x22:
            if Self.endsInEscape(typed) { return nil }
            quote = .double
            source.append(0x22)
        default:
            if Self.endsInEscape(typed) {
                quote = .afterBackslash
                source.removeLast()
            } else {
                quote = .none
            }
        }
        let word: Word
        do {
            let tokens = try Lexer.tokenize(source)
            guard tokens.count <= 1 else { return nil }
            if let first = tokens.first {
                guard case .word(let parsed) = first.kind else { return nil }
                word = parsed
            } else {
                word = Word(pieces: [], range: 0..<0)
            }
        } catch {
            return nil
        }
        // A word naming an unset variable has no value to complete.
        guard let expanded = try? Expander.expand(word, state: state) else { return nil }
        value = expanded.bytes
        isBareTilde = typed == [0x7E]
        let slash = value.lastIndex(of: 0x2F)
        prefixLength = value.count - (slash.map { $0 + 1 } ?? 0)
    }

    /// Whether the bytes end in an odd run of backslashes (the last one escapes what comes next).
    private static func endsInEscape(_ bytes: [UInt8]) -> Bool {
        var count = 0
        for byte in bytes.reversed() {
            guard byte == 0x5C else { break }
            count += 1
        }
        return count % 2 == 1
    }

    /// A choice for `name`, of which `rest` is the part not yet typed.
    func candidate(name: [UInt8], rest: ArraySlice<UInt8>, isDirectory: Bool) -> Completion.Candidate {
        var replacement: [UInt8] = []
        replacement.reserveCapacity(typed.count + rest.count + 2)
        replacement += typed
        if quote.leavesAsIs(rest) {
            replacement += rest
        } else {
            replacement += quote.escape(Array(rest))
        }
        if isDirectory {
            replacement.append(0x2F)
        } else {
            replacement += quote.closing
            replacement.append(0x20)
        }
        guard isDirectory else { return Completion.Candidate(replacement: replacement, display: name) }
        var display: [UInt8] = []
        display.reserveCapacity(name.count + 1)
        display += name
        display.append(0x2F)
        return Completion.Candidate(replacement: replacement, display: display)
    }
}

/// The quoting in force where a name continues, and how to write bytes in it.
private enum Quote {
    case none, single, double
    /// Unquoted, right after a backslash that escapes the next byte.
    case afterBackslash

    /// What ends the quote after a completed file name.
    var closing: [UInt8] {
        switch self {
        case .single: return [0x27]
        case .double: return [0x22]
        case .none, .afterBackslash: return []
        }
    }

    /// Whether `escape` would give `bytes` back unchanged (the common case, checked fast).
    func leavesAsIs(_ bytes: ArraySlice<UInt8>) -> Bool {
        switch self {
        case .single:
            return !bytes.contains(0x27)
        case .double:
            return !bytes.contains { Quote.doubleQuoteSpecial.contains($0) }
        case .none:
            return Quote.unquotedSpecial.withUnsafeBufferPointer { special in
                bytes.withUnsafeBufferPointer { buffer in
                    for byte in buffer where byte < 0x20 || byte >= 0x7F || special[Int(byte)] { return false }
                    return true
                }
            }
        case .afterBackslash:
            return bytes.isEmpty
        }
    }

    /// `bytes` written so that, continuing the word in this quoting, the lexer reads them back.
    func escape(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .single:
            return bytes.flatMap { $0 == 0x27 ? Array("'\\''".utf8) : [$0] }
        case .double:
            return bytes.flatMap { Quote.doubleQuoteSpecial.contains($0) ? [0x5C, $0] : [$0] }
        case .none:
            return Quote.escapeUnquoted(bytes[...])
        case .afterBackslash:
            // The typed backslash takes the next byte literally (a multi-byte character's lead
            // byte; its other bytes follow as plain text). A newline there would join lines:
            // names with newlines are not completed after a backslash.
            guard !bytes.isEmpty else { return [] }
            let length = Quote.sequenceLength(bytes[...], at: 0)
            return Array(bytes[..<length]) + Quote.escapeUnquoted(bytes[length...])
        }
    }

    private static let doubleQuoteSpecial: Set<UInt8> = [0x22, 0x5C, 0x24, 0x60]
    /// Bytes the lexer treats specially outside quotes (`#` and `~` only at a word's start,
    /// but a completed name may be the whole word).
    private static let unquotedSpecial: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in " \t\r;&|>'\"\\$*?[#~".utf8 { table[Int(byte)] = true }
        return table
    }()

    /// Unquoted text: specials get a backslash; newlines, control characters and bytes that are
    /// not UTF-8 go inside single quotes as they are (the lexer has no `$'\351'`).
    private static func escapeUnquoted(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 8)
        var quoted: [UInt8] = []
        func flushQuoted() {
            guard !quoted.isEmpty else { return }
            result += [0x27] + quoted + [0x27]
            quoted = []
        }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte >= 0x20, byte < 0x7F, quoted.isEmpty {  // the common case: plain ASCII
                if unquotedSpecial[Int(byte)] { result.append(0x5C) }
                result.append(byte)
                index += 1
                continue
            }
            let length = sequenceLength(bytes, at: index)
            if !isPlainSequence(bytes, at: index) {
                quoted.append(byte)
                index += 1
                continue
            }
            flushQuoted()
            if length == 1, unquotedSpecial[Int(byte)] { result.append(0x5C) }
            result += bytes[index..<(index + length)]
            index += length
        }
        flushQuoted()
        return result
    }

    /// Whether the sequence at `index` is printable UTF-8 that may stand outside quotes.
    private static func isPlainSequence(_ bytes: ArraySlice<UInt8>, at index: Int) -> Bool {
        let byte = bytes[index]
        if byte < 0x20 || byte == 0x7F { return false }
        return byte < 0x80 || sequenceLength(bytes, at: index) > 1
    }

    /// The length of the valid UTF-8 sequence at `index`, or 1 when the byte starts none.
    static func sequenceLength(_ bytes: ArraySlice<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 1
        guard length > 1, index + length <= bytes.endIndex,
            String(validating: bytes[index..<(index + length)], as: UTF8.self) != nil
        else { return 1 }
        return length
    }
}
