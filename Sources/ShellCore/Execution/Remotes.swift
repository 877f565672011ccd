import PathModel

/// The session's named remotes: `@NAME` at the start of an unquoted word stands for a URL
/// (`remote backup s3://bucket/backups`, then `@backup/2024` is `s3://bucket/backups/2024`), as
/// the named places (`@docs`) stand for directories.
public struct Remotes: Sendable, Hashable {
    private var urls: [[UInt8]: [UInt8]] = [:]

    /// No remotes.
    public init() {}

    /// The URL of the remote `name`, nil when there is none; setting nil forgets it.
    public subscript(name: [UInt8]) -> [UInt8]? {
        get { urls[name] }
        set { urls[name] = newValue }
    }

    /// Every remote, sorted by the bytes of its name.
    public var sorted: [(name: [UInt8], url: [UInt8])] {
        urls.map { (name: $0.key, url: $0.value) }.sorted { $0.name.lexicographicallyPrecedes($1.name) }
    }

    /// The names, sorted by bytes.
    public var names: [[UInt8]] { sorted.map(\.name) }

    /// Whether `name` may name a remote: ASCII letters, digits, `-` and `_`, and not the name of
    /// a named place (`docs`).
    public static func isName(_ name: [UInt8]) -> Bool {
        !name.isEmpty && name.allSatisfy { isNameByte($0) }
            && !WellKnownPlaces.names.contains(String(decoding: name, as: UTF8.self))
    }

    /// Whether `url` is `SCHEME://AUTHORITY…`: a scheme of letters and digits, and something
    /// after `://`.
    public static func isURL(_ url: [UInt8]) -> Bool {
        guard let colon = url.firstIndex(of: 0x3A), colon > 0,
            url[..<colon].allSatisfy({ isNameByte($0) && $0 != 0x2D && $0 != 0x5F }),
            url[colon...].starts(with: [0x3A, 0x2F, 0x2F]), url.count > colon + 3
        else { return false }
        return true
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
            || byte == 0x5F
    }
}
