/// Where an S3-compatible service answers: `http://127.0.0.1:8333`, `https://s3.eu-west-1.amazonaws.com`.
/// Buckets are addressed in the path (`/bucket/key`), which every S3-compatible server accepts.
public struct S3Endpoint: Sendable, Hashable {
    /// `http` or `https`.
    public var scheme: String
    /// The host name or address, without brackets for IPv6.
    public var host: String
    /// The TCP port.
    public var port: Int

    /// The endpoint a URL names, or nil if it is not `http://` or `https://` with a host (an
    /// optional port; no path, query or user part).
    public init?(url: String) {
        let scheme: String
        var rest: Substring
        if url.hasPrefix("http://") {
            scheme = "http"
            rest = url.dropFirst(7)
        } else if url.hasPrefix("https://") {
            scheme = "https"
            rest = url.dropFirst(8)
        } else {
            return nil
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("@"), !rest.contains("?") else { return nil }
        var host = rest
        var port = scheme == "https" ? 443 : 80
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let number = Int(rest[rest.index(after: colon)...]) else { return nil }
            port = number
        }
        guard !host.isEmpty, (1...65535).contains(port) else { return nil }
        self.scheme = scheme
        self.host = String(host)
        self.port = port
    }

    /// The `Host` header: the host, and the port unless it is the scheme's own.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        let isDefaultPort = (scheme == "http" && port == 80) || (scheme == "https" && port == 443)
        return isDefaultPort ? name : "\(name):\(port)"
    }

    /// `scheme://host[:port]`, to which a request's path and query are appended.
    var origin: String { "\(scheme)://\(hostHeader)" }
}
