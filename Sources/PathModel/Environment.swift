/// Environment variables, names and values as bytes, exactly as a process environment holds them:
/// a value that is not UTF-8 keeps its own bytes.
///
/// ```swift
/// var environment: Environment = ["HOME": "/home/ann"]
/// environment["HOME"]          // Array("/home/ann".utf8)
/// environment["TMPDIR"] = [0x2F, 0xFE]
/// environment.text("TMPDIR")   // "/\u{FFFD}"
/// ```
public struct Environment: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    private var values: [[UInt8]: [UInt8]]

    /// The variables `values` holds, by name.
    public init(_ values: [[UInt8]: [UInt8]] = [:]) { self.values = values }

    /// Variables from text names and values: `["HOME": "/home/ann"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        values = Dictionary(elements.map { (Array($0.0.utf8), Array($0.1.utf8)) }) { $1 }
    }

    /// The value of the variable `name`, nil when it is not set; setting nil unsets it.
    public subscript(name: String) -> [UInt8]? {
        get { values[Array(name.utf8)] }
        set { values[Array(name.utf8)] = newValue }
    }

    /// The value of `name` as text, for variables whose value is read as text (`TERM`, `TZ`,
    /// `LS_COLORS`): bytes that are not UTF-8 become U+FFFD.
    public func text(_ name: String) -> String? {
        self[name].map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every variable, sorted by the bytes of its name.
    public var sorted: [(name: [UInt8], value: [UInt8])] {
        values.map { (name: $0.key, value: $0.value) }.sorted { $0.name.lexicographicallyPrecedes($1.name) }
    }
}
