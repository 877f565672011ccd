/// How `ls` writes names, link targets and directory headers: in a quoting style, with `-q`'s
/// question marks for what is not printable, settled once per run.
struct NameQuoting {
    /// The style (`--quoting-style`, `-b`, `-N`, `-Q`, `QUOTING_STYLE`; on a terminal
    /// `shell-escape`, else `literal`).
    var style: QuotingStyle = .literal
    /// `-q`: a `?` for each character that is not printable, after quoting, in the styles that
    /// leave such characters as they are (`literal`, `shell`, `shell-always`).
    var hidesControlCharacters = false
    /// Bytes quoted in names and targets besides the style's own: a space in the `escape` style,
    /// and with `--file-type` or `-F` the indicators (`*=>@|` and `=>@|`, as GNU ls has them).
    var alsoQuoting: Set<UInt8> = []

    /// Quoting for a listing with `indicators`, in `style`.
    init(style: QuotingStyle, hidesControlCharacters: Bool, indicators: LsCommand.IndicatorStyle) {
        self.style = style
        self.hidesControlCharacters = hidesControlCharacters
        if style == .escape { alsoQuoting.insert(0x20) }
        switch indicators {
        case .fileType: alsoQuoting.formUnion("*=>@|".utf8)
        case .classify: alsoQuoting.formUnion("=>@|".utf8)
        case .none, .slash: break
        }
    }

    /// Whether every name is written as its bytes.
    var isLiteral: Bool { style == .literal && !hidesControlCharacters }

    /// Whether names that need no quotes get a blank before them when others of their listing
    /// are quoted, in the layouts that line names up: the styles that quote only some names.
    var alignsQuotes: Bool { style == .shell || style == .shellEscape || style == .cMaybe }

    /// A name as written, and whether quoting changed it (which `-q`'s marks do not count).
    func name(_ bytes: [UInt8]) -> (shown: [UInt8], quoted: Bool) {
        let quoted = Quoting.quote(bytes, style: style, alsoQuoting: alsoQuoting)
        return (marked(quoted), quoted != bytes)
    }

    /// A symbolic link's target as a long listing writes it after `->`.
    func target(_ bytes: [UInt8]) -> [UInt8] { marked(Quoting.quote(bytes, style: style, alsoQuoting: alsoQuoting)) }

    /// A directory's name above its listing: a `:` in it is quoted too, the extra bytes of names
    /// are not.
    func header(_ bytes: [UInt8]) -> [UInt8] { marked(Quoting.quote(bytes, style: style, alsoQuoting: [0x3A])) }

    private func marked(_ bytes: [UInt8]) -> [UInt8] {
        guard hidesControlCharacters && (style == .literal || style == .shell || style == .shellAlways) else {
            return bytes
        }
        return Quoting.hidingControlCharacters(bytes)
    }
}
