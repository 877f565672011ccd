import Crypto

/// What a request's body adds to its signature: its SHA-256, or nothing (`UNSIGNED-PAYLOAD`,
/// for a body streamed from a source that cannot be read twice).
public enum PayloadHash: Sendable, Hashable {
    /// The body is not signed; the `x-amz-content-sha256` header says `UNSIGNED-PAYLOAD`.
    case unsigned
    /// The lowercase hex SHA-256 of the body.
    case sha256(String)

    /// The hash of an empty body (a GET, a HEAD, a DELETE).
    public static let empty = PayloadHash.of([])

    /// The hash of `body`.
    public static func of(_ body: [UInt8]) -> PayloadHash {
        .sha256(BinaryText.hex(SHA256.hash(data: body)))
    }

    /// The value the canonical request and the `x-amz-content-sha256` header carry.
    public var value: String {
        switch self {
        case .unsigned: return "UNSIGNED-PAYLOAD"
        case .sha256(let hex): return hex
        }
    }
}

/// One name and value of a query string, as bytes (a prefix or a marker is a key).
public struct QueryItem: Sendable, Hashable {
    /// The parameter's name (`prefix`, `list-type`, `uploads`).
    public var name: String
    /// Its value; empty for a parameter that has none (`?uploads`, signed as `uploads=`).
    public var value: [UInt8]

    /// A query item.
    public init(_ name: String, _ value: [UInt8] = []) {
        self.name = name
        self.value = value
    }

    /// A query item whose value is text.
    public init(_ name: String, _ value: String) {
        self.init(name, Array(value.utf8))
    }
}

/// A request to sign: everything SigV4 covers, before the signer adds its own headers.
public struct SignableRequest: Sendable {
    /// The HTTP method (`GET`, `PUT`…).
    public var method: String
    /// The canonical URI: the path, already percent-encoded (see `URIEncoding`).
    public var path: String
    /// The query parameters in any order; the signer sorts them.
    public var query: [QueryItem]
    /// The headers to sign, `Host` among them, with their names in any case.
    public var headers: [(name: String, value: String)]
    /// The body's hash, or `.unsigned`.
    public var payload: PayloadHash

    /// A request to sign.
    public init(
        method: String, path: String, query: [QueryItem] = [], headers: [(name: String, value: String)],
        payload: PayloadHash
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.payload = payload
    }
}

/// A signed request: the headers to send and the intermediate texts, which tests compare with
/// the published examples.
public struct SignedRequest: Sendable {
    /// Every header to send: the request's own, then `x-amz-date`, `x-amz-content-sha256` (S3),
    /// `x-amz-security-token` (temporary credentials) and `Authorization`.
    public var headers: [(name: String, value: String)]
    /// The query string to send, exactly as signed: `max-keys=2&prefix=J`.
    public var queryString: String
    /// The canonical request (method, path, query, headers, signed header names, payload hash).
    public var canonicalRequest: String
    /// The string to sign (algorithm, time, scope, hash of the canonical request).
    public var stringToSign: String
    /// The signature, lowercase hex.
    public var signature: String
    /// The value of the Authorization header.
    public var authorization: String
}

/// AWS Signature Version 4 with HMAC-SHA256, for one set of credentials, region and service.
///
/// A pure value: signing reads no clock and no environment, so the published worked examples
/// test it exactly.
public struct SignatureV4: Sendable {
    /// The keys to sign with.
    public var credentials: Credentials
    /// The region in the credential scope (`us-east-1`).
    public var region: String
    /// The service in the credential scope (`s3`).
    public var service: String

    /// A signer for `credentials` in `region` for `service`.
    public init(credentials: Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// Signs `request` as made at `time`.
    ///
    /// For S3 the signer adds `x-amz-content-sha256` (the payload hash), as S3 requires; every
    /// service gets `x-amz-date` and, with a session token, `x-amz-security-token`.
    public func sign(_ request: SignableRequest, at time: UTCTime) -> SignedRequest {
        sign(request, at: time, signingKey: signingKey(date: time.compactDate))
    }

    /// Signs `request` as made at `time` with `key`, the `signingKey(date:)` of `time`'s date,
    /// which a client that signs many requests a day derives once.
    public func sign(_ request: SignableRequest, at time: UTCTime, signingKey key: SymmetricKey) -> SignedRequest {
        var headers = request.headers
        headers.append((name: "x-amz-date", value: time.compactTimestamp))
        if service == "s3" {
            headers.append((name: "x-amz-content-sha256", value: request.payload.value))
        }
        if let token = credentials.sessionToken {
            headers.append((name: "x-amz-security-token", value: token))
        }
        let canonical = Self.canonicalHeaders(headers)
        let queryString = Self.canonicalQuery(request.query)
        let canonicalRequest = [
            request.method, request.path, queryString, canonical.lines, canonical.signedNames,
            request.payload.value,
        ].joined(separator: "\n")
        let scope = "\(time.compactDate)/\(region)/\(service)/aws4_request"
        let stringToSign = [
            Self.algorithm, time.compactTimestamp, scope,
            BinaryText.hex(SHA256.hash(data: Array(canonicalRequest.utf8))),
        ].joined(separator: "\n")
        let signature = BinaryText.hex(
            HMAC<SHA256>.authenticationCode(
                for: Array(stringToSign.utf8), using: key))
        let authorization =
            "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope), "
            + "SignedHeaders=\(canonical.signedNames), Signature=\(signature)"
        headers.append((name: "Authorization", value: authorization))
        return SignedRequest(
            headers: headers, queryString: queryString, canonicalRequest: canonicalRequest,
            stringToSign: stringToSign, signature: signature, authorization: authorization)
    }

    /// The key for one day: HMACs of the date, region, service and `aws4_request`, starting from
    /// `AWS4` and the secret.
    public func signingKey(date: String) -> SymmetricKey {
        var key = SymmetricKey(data: Array(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [date, region, service, "aws4_request"] {
            key = SymmetricKey(
                data: Array(HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key)))
        }
        return key
    }

    /// The query in canonical form: names and values URI-encoded, sorted by name, then value.
    static func canonicalQuery(_ items: [QueryItem]) -> String {
        items.map {
            (
                URIEncoding.encode($0.name.utf8, keepingSlashes: false),
                URIEncoding.encode($0.value, keepingSlashes: false)
            )
        }
        .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        .map { "\($0.0)=\($0.1)" }
        .joined(separator: "&")
    }

    /// The canonical header lines (lowercase names, sorted; values trimmed with runs of spaces
    /// folded; repeated names joined by commas) and the signed names joined by `;`.
    static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> (
        lines: String, signedNames: String
    ) {
        var values: [String: [String]] = [:]
        for header in headers {
            values[header.name.lowercased(), default: []].append(foldSpaces(header.value))
        }
        let names = values.keys.sorted()
        let lines = names.map { "\($0):\(values[$0]!.joined(separator: ","))\n" }.joined()
        return (lines, names.joined(separator: ";"))
    }

    private static func foldSpaces(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    private static let algorithm = "AWS4-HMAC-SHA256"
}
