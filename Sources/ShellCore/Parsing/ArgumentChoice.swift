/// The words an option's argument may be, read as GNU's argmatch reads them: a word itself, or
/// an abbreviation that names one value (`--preserve=time` for `timestamps`).
///
///     let when = ArgumentChoice(option: "--sparse", [("never", 0), ("auto", 1), ("always", 2)])
///     try when.value(of: "ne")  // 0
struct ArgumentChoice<Value: Equatable & Sendable>: Sendable {
    /// The option as its messages name it (`--preserve`).
    let option: String
    /// The words in the order GNU lists them; synonyms name the same value.
    let words: [(word: String, value: Value)]

    /// How the words are listed after a mistake, when not one by one (`ls --time-style`'s
    /// `[posix-]full-iso`).
    let listing: [String]?

    /// A choice among `words` for `option`; `listing`, when given, is what the message lists.
    init(option: String, _ words: [(word: String, value: Value)], listing: [String]? = nil) {
        self.option = option
        self.words = words
        self.listing = listing
    }

    /// The value `word` names.
    /// - Throws: `UsageError.invalid` in GNU's words for a word that names nothing
    ///   (`invalid argument 'x' for '--preserve'`) or several values (`ambiguous argument`),
    ///   followed by the list of valid words.
    func value(of word: [UInt8]) throws(UsageError) -> Value {
        let text = String(decoding: word, as: UTF8.self)
        if let exact = words.first(where: { $0.word == text }) { return exact.value }
        // An empty word abbreviates every word, as in argmatch.
        let matches = words.filter { $0.word.hasPrefix(text) }
        if let first = matches.first, matches.allSatisfy({ $0.value == first.value }) { return first.value }
        let problem = matches.isEmpty ? Messages.invalid : Messages.ambiguous
        throw .invalid("\(problem) \(Quoting.always(word)) \(Messages.for) '\(option)'\n\(validArguments)")
    }

    /// `Valid arguments are:` and the words, synonyms on one line, as GNU lists them.
    var validArguments: String {
        if let listing { return ([Messages.validArguments] + listing.map { "  - " + $0 }).joined(separator: "\n") }
        var lines: [[String]] = []
        var values: [Value] = []
        for (word, value) in words {
            if let index = values.firstIndex(of: value) {
                lines[index].append(Quoting.always(word))
            } else {
                values.append(value)
                lines.append([Quoting.always(word)])
            }
        }
        return ([Messages.validArguments] + lines.map { "  - " + $0.joined(separator: ", ") }).joined(
            separator: "\n")
    }
}

private enum Messages {
    static let invalid = "invalid argument"
    static let ambiguous = "ambiguous argument"
    static let `for` = "for"
    static let validArguments = "Valid arguments are:"
}
