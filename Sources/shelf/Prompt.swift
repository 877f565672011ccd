import PathModel
import ShellCore

/// The interactive prompts: `shelf:~/src$ `, with the last status when it is not zero
/// (`shelf:~ [1]$ `), and `> ` while a statement is unfinished.
struct Prompt {
    /// Whether to colour the prompt (not with `NO_COLOR` set or `TERM=dumb`).
    let colored: Bool

    /// Colour unless the environment asks for none.
    init(environment: Environment) {
        colored = environment["NO_COLOR"] == nil && environment["TERM"] != Array("dumb".utf8)
    }

    /// The prompt for a new statement.
    func primary(_ state: ShellState) -> [UInt8] {
        var result =
            paint("shelf", Style.name) + Array(":".utf8)
            + paint(escaped(abbreviated(state.spelling(of: state.cwd), home: state.home)), Style.directory)
        if !state.lastStatus.succeeded {
            result += Array(" ".utf8) + paint(Array("[\(state.lastStatus.code)]".utf8), Style.failure)
        }
        return result + Array("$ ".utf8)
    }

    /// The prompt for a continuation line.
    var continuation: [UInt8] { Array("> ".utf8) }

    /// `path` with the home directory written as `~`.
    func abbreviated(_ path: [UInt8], home: File) -> [UInt8] {
        let homeBytes = home.normalized.bytes
        guard homeBytes != [0x2F], path.starts(with: homeBytes) else { return path }
        let rest = path[homeBytes.count...]
        if rest.isEmpty { return [0x7E] }
        guard rest.first == 0x2F else { return path }
        return [0x7E] + rest
    }

    /// `path` as it can be shown on a terminal: as it is when printable, else with the part after a
    /// leading `~/` in shell-escape quoting (`~/'new'$'\n''line'`), so that no name in the path can
    /// move the cursor, change colours or break the line.
    func escaped(_ path: [UInt8]) -> [UInt8] {
        guard !Quoting.isPrintable(path) else { return path }
        let home: [UInt8] = path.starts(with: [0x7E, 0x2F]) ? [0x7E, 0x2F] : []
        return home + Array(Quoting.ifNeeded(Array(path.dropFirst(home.count))).utf8)
    }

    /// `text` in `style`, the escapes wrapped in \001 \002 so readline knows they take no room.
    private func paint(_ text: String, _ style: String) -> [UInt8] { paint(Array(text.utf8), style) }

    private func paint(_ text: [UInt8], _ style: String) -> [UInt8] {
        guard colored else { return text }
        return Array("\u{1}\u{1B}[\(style)m\u{2}".utf8) + text + Array("\u{1}\u{1B}[0m\u{2}".utf8)
    }

    private enum Style {
        static let name = "1;32"
        static let directory = "1;34"
        static let failure = "1;31"
    }
}
