/// A failed S3 call, as data: what kind of failure, the HTTP status and the server's own code and
/// message when there was an answer. No sentence is built here; the shell words it.
public struct S3Error: Error, Sendable {
    /// What went wrong, in the terms a user can act on.
    public enum Kind: Sendable, Hashable {
        /// The key does not exist (`NoSuchKey`, or 404 to a HEAD).
        case noSuchKey
        /// The bucket does not exist (`NoSuchBucket`).
        case noSuchBucket
        /// The multipart upload does not exist, or was completed or aborted (`NoSuchUpload`).
        case noSuchUpload
        /// The credentials may not do this (`AccessDenied`, or 403 to a HEAD).
        case accessDenied
        /// The signature does not match: a wrong secret, or a clock far off (`SignatureDoesNotMatch`).
        case signatureDoesNotMatch
        /// The server does not know the access key id (`InvalidAccessKeyId`).
        case invalidAccessKeyID
        /// The server asks to slow down (`SlowDown`, 503).
        case slowDown
        /// The bucket is not empty (`BucketNotEmpty`).
        case bucketNotEmpty
        /// The bucket exists already (`BucketAlreadyExists`, `BucketAlreadyOwnedByYou`).
        case bucketAlreadyExists
        /// The range asked for lies beyond the object (`InvalidRange`, 416).
        case invalidRange
        /// Bytes did not match their checksum: the service refused a body (`BadDigest`,
        /// `XAmzContentSHA256Mismatch`), or a download differs from the checksum stored with
        /// the object.
        case badDigest
        /// A condition of the request did not hold (`PreconditionFailed`, 412).
        case preconditionFailed
        /// The server failed (`InternalError`, any other 5xx).
        case serverFailure
        /// Any other error the server answered with; `code` names it.
        case other
        /// Nothing listens at the endpoint (`ECONNREFUSED`).
        case connectionRefused
        /// The endpoint did not answer in time (connecting or reading).
        case timedOut
        /// The connection closed before the answer was complete.
        case connectionClosed
        /// The endpoint could not be reached for another reason (no route, name not found);
        /// `underlying` is the transport's error.
        case unreachable
        /// No secure connection could be set up with an `https://` endpoint (the TLS handshake
        /// failed: a server that speaks plain HTTP, or a certificate not trusted); `underlying`
        /// is the transport's error.
        case tlsFailure
        /// The server's answer could not be read (not the XML the call expects).
        case malformedResponse
        /// An upload's source gave fewer or more bytes than the length the request announced.
        case sourceLengthMismatch
        /// The request was given up because the user asked to stop (Ctrl-C): the client's
        /// `isInterrupted` said so while it waited on the connection.
        case interrupted
    }

    /// What went wrong.
    public var kind: Kind
    /// The HTTP status of the answer, if there was one.
    public var status: Int?
    /// The server's error code (`NoSuchKey`), if it sent one.
    public var code: String?
    /// The server's message, if it sent one: the server's words, passed on as they are.
    public var message: String?
    /// The transport's own error, for failures below HTTP.
    public var underlying: (any Error & Sendable)?

    /// An error of `kind`, with whatever the answer said.
    public init(
        _ kind: Kind, status: Int? = nil, code: String? = nil, message: String? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.kind = kind
        self.status = status
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The error an `<Error>` element states (its `Code` and `Message`), answered with `status`.
    init(stating element: XMLElement, status: Int) {
        let code = element.string("Code")
        self.init(
            Self.kind(code: code, status: status), status: status, code: code,
            message: element.string("Message"))
    }

    /// The error an S3 error code stands for, given the HTTP status it came with.
    static func kind(code: String?, status: Int) -> Kind {
        switch code {
        case "NoSuchKey": return .noSuchKey
        case "NoSuchBucket": return .noSuchBucket
        case "NoSuchUpload": return .noSuchUpload
        case "AccessDenied": return .accessDenied
        case "SignatureDoesNotMatch": return .signatureDoesNotMatch
        case "InvalidAccessKeyId": return .invalidAccessKeyID
        case "SlowDown": return .slowDown
        case "BucketNotEmpty": return .bucketNotEmpty
        case "BucketAlreadyExists", "BucketAlreadyOwnedByYou": return .bucketAlreadyExists
        case "InvalidRange": return .invalidRange
        case "BadDigest", "XAmzContentSHA256Mismatch": return .badDigest
        case "PreconditionFailed": return .preconditionFailed
        case "InternalError", "ServiceUnavailable": return .serverFailure
        // A call the server does not have (501): asking again would not change that.
        case "NotImplemented": return .other
        case nil:
            switch status {
            case 403: return .accessDenied
            case 412: return .preconditionFailed
            case 416: return .invalidRange
            case 503: return .slowDown
            case 500...599: return .serverFailure
            default: return .other
            }
        default:
            return status >= 500 ? .serverFailure : .other
        }
    }
}
