import CRegex

/// A GNU regular expression, matched against whole byte strings, as `find -regex` matches paths.
///
/// The one ShellCore file that asks libc for regular expressions (`re_compile_pattern`,
/// `re_match`, through the CRegex shim); none of these touch the file system.
public final class RegularExpression: @unchecked Sendable {
    // The compiled expression is only read after `init`; libc locks it while it matches.
    private let compiled: UnsafeMutableRawPointer

    /// Whether `name` is a type `-regextype` knows (`findutils-default`, `emacs`, `posix-basic`,
    /// `posix-extended`, `posix-egrep`, `egrep`, `grep`, `awk`, `posix-awk`, `gnu-awk`, `ed`,
    /// `sed`, `posix-minimal-basic`).
    static func knowsType(_ name: String) -> Bool { regex_syntax_named(name) >= 0 }

    /// Compiles `pattern` as the type `type` (one `knowsType` knows) says.
    /// - Throws: `UsageError` with GNU find's message when it is no valid expression of that type.
    init(_ pattern: [UInt8], type: String, ignoringCase: Bool) throws(UsageError) {
        let syntax = regex_syntax_named(type)
        var message: UnsafePointer<CChar>?
        // A NUL after the bytes gives even an empty pattern an address.
        let result = (pattern + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                regex_compile(characters.baseAddress, pattern.count, syntax, ignoringCase ? 1 : 0, &message)
            }
        }
        guard let result else {
            let reason = message.map { String(cString: $0) } ?? ""
            throw .invalid(Messages.cannotCompile(String(decoding: pattern, as: UTF8.self), reason))
        }
        compiled = result
    }

    deinit { regex_free(compiled) }

    /// Whether the whole of `text` matches.
    func matchesWhole(_ text: [UInt8]) -> Bool {
        text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                regex_matches_whole(compiled, $0.baseAddress, $0.count) != 0
            }
        }
    }

    private enum Messages {
        static func cannotCompile(_ pattern: String, _ reason: String) -> String {
            "failed to compile regular expression '\(pattern)': \(reason)"
        }
    }
}
