import PathModel

/// How `mv` and `ln` keep a destination they are about to replace (`-b`, `--backup[=CONTROL]`,
/// `-S SUFFIX`), as GNU's commands do: renamed to `NAME~` (simple) or `NAME.~N~` (numbered).
struct Backup: Sendable, Hashable {
    /// Which name a backup gets.
    enum Control: Sendable, Hashable {
        /// `NAME` and the suffix (`simple`, `never`).
        case simple
        /// `NAME.~N~`, one more than the highest N there is (`numbered`, `t`).
        case numbered
        /// Numbered when a numbered backup of NAME exists, else simple (`existing`, `nil`).
        case existing
    }

    /// The control asked for; nil takes `$VERSION_CONTROL`, or `existing` without it.
    var control: Control?
    /// The suffix asked for (`-S`); nil takes `$SIMPLE_BACKUP_SUFFIX`, or `~` without it.
    var suffix: [UInt8]?

    /// The backup the options ask for, or nil for none: `--backup=CONTROL` or `-b`, and `-S`,
    /// which asks for a backup by itself.
    /// - Parameters:
    ///   - requested: whether `-b`, `--backup` or `-S` was given.
    ///   - control: the word given to `--backup`, if any.
    ///   - suffix: the suffix given to `-S`, if any.
    /// - Throws: `UsageError` for a word that is no control, in GNU's words.
    static func parse(requested: Bool, control word: [UInt8]?, suffix: [UInt8]?) throws(UsageError) -> Backup?
    {
        guard requested else { return nil }
        var control: Control?
        if let word {
            guard let chosen = Self.control(named: word) else {
                throw .invalid(Self.invalidControl(word, for: Messages.backupType))
            }
            guard let chosen else { return nil }  // `none`, `off`
            control = chosen
        }
        return Backup(control: control, suffix: suffix)
    }

    /// The control a word names (an unambiguous prefix will do): nil for none (`none`, `off`);
    /// nil outside for a word that names nothing.
    private static func control(named word: [UInt8]) -> Control?? {
        let text = String(decoding: word, as: UTF8.self)
        if let exact = Self.words.first(where: { $0.word == text }) { return .some(exact.control) }
        let matches = Self.words.filter { !text.isEmpty && $0.word.hasPrefix(text) }
        guard let first = matches.first, matches.allSatisfy({ $0.control == first.control }) else {
            return nil
        }
        return .some(first.control)
    }

    private static let words: [(word: String, control: Control?)] = [
        ("none", nil), ("off", nil), ("simple", .simple), ("never", .simple), ("existing", .existing),
        ("nil", .existing), ("numbered", .numbered), ("t", .numbered),
    ]

    /// GNU's message for a word that names no control.
    private static func invalidControl(_ word: [UInt8], for what: String) -> String {
        "\(Messages.invalidArgument) \(Quoting.always(word)) \(Messages.for) \(Quoting.always(Array(what.utf8)))\n"
            + Messages.validArguments
    }

    /// This backup with what the environment gives where the options gave nothing:
    /// `$VERSION_CONTROL` (else `existing`) and `$SIMPLE_BACKUP_SUFFIX` (else `~`); a suffix that
    /// is empty or holds a `/` is `~`, as in GNU. Nil when `$VERSION_CONTROL` asks for none.
    /// - Throws: `UsageError` for a `$VERSION_CONTROL` that names nothing, in GNU's words.
    func resolved(in environment: Environment) throws(UsageError) -> Backup? {
        var result = self
        if control == nil, let word = environment["VERSION_CONTROL"], !word.isEmpty {
            guard let named = Self.control(named: word) else {
                throw .invalid(Self.invalidControl(word, for: Messages.versionControl))
            }
            guard let named else { return nil }
            result.control = named
        }
        if result.control == nil { result.control = .existing }
        var suffix = suffix ?? environment["SIMPLE_BACKUP_SUFFIX"] ?? [0x7E]
        if suffix.isEmpty || suffix.contains(0x2F) { suffix = [0x7E] }
        result.suffix = suffix
        return result
    }

    /// The path `destination` is to be renamed to before it is replaced (on a backup that was
    /// `resolved(in:)`).
    /// - Throws: `FileError` when the directory cannot be listed for a numbered backup.
    func path(for destination: File) throws(FileError) -> File {
        let name = Array(destination.nameBytes)
        let simple = destination.parent + File(bytes: name + (suffix ?? [0x7E]))
        if control == .simple { return simple }
        let highest = try Self.highestNumber(of: name, in: destination.parent)
        if control == .existing && highest == 0 { return simple }
        return destination.parent + File(bytes: name + Array(".~\(highest + 1)~".utf8))
    }

    /// The highest N of the entries `NAME.~N~` in `directory`, or 0.
    private static func highestNumber(of name: [UInt8], in directory: File) throws(FileError) -> Int {
        let prefix = name + Array(".~".utf8)
        var highest = 0
        try directory.volume.forEachEntry(of: directory, limit: nil) { entry in
            let bytes = Array(entry.name)
            guard bytes.count > prefix.count + 1, bytes.starts(with: prefix), bytes.last == 0x7E else {
                return
            }
            let digits = bytes[prefix.count..<(bytes.count - 1)]
            guard digits.first != 0x30, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                let number = Int(String(decoding: digits, as: UTF8.self))
            else { return }
            highest = max(highest, number)
        }
        return highest
    }

    private enum Messages {
        static let invalidArgument = "invalid argument"
        static let `for` = "for"
        static let backupType = "backup type"
        static let versionControl = "$VERSION_CONTROL"
        static let validArguments = """
            Valid arguments are:
              - 'none', 'off'
              - 'simple', 'never'
              - 'existing', 'nil'
              - 'numbered', 't'
            """
    }
}
