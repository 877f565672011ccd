/// A command's exit status, with names for the ones shelf uses.
public struct ExitStatus: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The numeric status, 0 ... 255.
    public var code: Int32

    /// A status from its number.
    public init(_ code: Int32) { self.code = code }
    /// A status from an integer literal.
    public init(integerLiteral value: Int32) { code = value }

    /// 0: everything worked.
    public static let success: ExitStatus = 0
    /// 1: something failed.
    public static let failure: ExitStatus = 1
    /// 2: the command was used wrongly (bad option, syntax error).
    public static let usage: ExitStatus = 2
    /// 126: the program was found but cannot be run (not executable, a directory).
    public static let cannotExecute: ExitStatus = 126
    /// 127: no such command.
    public static let notFound: ExitStatus = 127
    /// 130: interrupted by Ctrl-C.
    public static let interrupted: ExitStatus = 130
    /// 131: ended by Ctrl-\ (SIGQUIT).
    public static let quit: ExitStatus = 131
    /// 141: the reader of standard output went away, as for a process killed by SIGPIPE.
    public static let brokenPipe: ExitStatus = 141

    /// Whether the status is 0.
    public var succeeded: Bool { code == 0 }

    /// The number as text.
    public var description: String { String(code) }
}
