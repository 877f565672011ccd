/// The words for errors in what was typed: syntax errors and usage errors.
extension Diagnostics {
    /// A syntax error's message, without position (`unterminated quote '`).
    public static func render(_ error: SyntaxError) -> String {
        switch error.problem {
        case .lexical(.unterminatedQuote(let quote)):
            return "unterminated quote \(quote == 0x27 ? "'" : "\"")"
        case .lexical(.unterminatedVariable): return "unterminated ${"
        case .lexical(.trailingBackslash): return "backslash at end of input"
        case .lexical(.unsupportedOperator(let spelled)): return "'\(spelled)' is not supported"
        case .missingCommand(let connector): return "expected a command after '\(spelled(connector))'"
        case .unexpected(let connector): return "unexpected '\(spelled(connector))'"
        case .missingTarget(let spelled): return "expected a file name after '\(spelled)'"
        case .missingCommandBeforeRedirection(let spelled): return "expected a command before '\(spelled)'"
        case .missingCommandAfterPipe: return "expected a command after '|'"
        case .unexpectedPipe: return "unexpected '|'"
        }
    }

    /// The lines a syntax error prints: `shelf: [ORIGIN:LINE:COLUMN: ]syntax error: …`, the
    /// source line, and a caret under the column.
    /// - Parameters:
    ///   - source: the source the error's offset points into.
    ///   - origin: names the source (`-c`, a script's path); nil in an interactive shell, which
    ///     says no position.
    ///   - firstLine: the line number of the source's first line within its origin.
    static func syntaxReport(_ error: SyntaxError, source: [UInt8], origin: String?, firstLine: Int)
        -> [[UInt8]]
    {
        let location = error.location
        let line = Array(source[SourceMap(source).bytes(ofLine: location.line)])
        let position = origin.map { "\($0):\(firstLine + location.line - 1):\(location.column + 1): " } ?? ""
        let (text, column) = excerpt(of: line, around: location.column)
        let caret = text.prefix(column).map { $0 == 0x09 ? "\t" : " " }.joined() + "^"
        return [Array("shelf: \(position)syntax error: \(render(error))".utf8), text, Array(caret.utf8)]
    }

    /// The part of a source line shown under a syntax error, and the column within it: at most
    /// `excerptReach` bytes either side of `column` (`...` marks a cut), with control characters and
    /// bytes of invalid UTF-8 shown as `?` so that the line cannot drive the terminal.
    static func excerpt(of line: [UInt8], around column: Int) -> (text: [UInt8], column: Int) {
        let start = max(0, column - excerptReach)
        let end = min(line.count, column + excerptReach)
        var text = Array(line[start..<end])
        if !Quoting.isPrintable(text) {
            let valid = String(validating: text, as: UTF8.self) != nil
            text = text.map { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F && (valid || $0 < 0x80)) ? $0 : 0x3F }
        }
        let dots: [UInt8] = [0x2E, 0x2E, 0x2E]
        return (
            (start > 0 ? dots : []) + text + (end < line.count ? dots : []),
            column - start + (start > 0 ? 3 : 0)
        )
    }

    private static let excerptReach = 100

    /// A usage error's message, as GNU's getopt words its own (`invalid option -- 'z'`).
    public static func render(_ error: UsageError) -> String {
        switch error {
        case .invalidOption(let byte): return "invalid option -- '\(String(decoding: [byte], as: UTF8.self))'"
        case .unrecognizedOption(let spelled): return "unrecognized option '\(spelled)'"
        case .ambiguousOption(let spelled, let candidates):
            let list = candidates.map { "'--\($0)'" }.joined(separator: " ")
            return "option '\(spelled)' is ambiguous; possibilities: \(list)"
        case .missingShortValue(let letter): return "option requires an argument -- '\(letter)'"
        case .missingLongValue(let long): return "option '--\(long)' requires an argument"
        case .unexpectedValue(let long): return "option '--\(long)' doesn't allow an argument"
        case .invalid(let message): return message
        }
    }

    private static func spelled(_ connector: Connector) -> String { connector == .and ? "&&" : "||" }
}
