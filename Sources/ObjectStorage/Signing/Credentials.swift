/// The keys a request is signed with: an access key id and its secret, and for temporary
/// credentials the session token that goes with them.
public struct Credentials: Sendable, Hashable {
    /// The public half (`AKIAIOSFODNN7EXAMPLE`), sent in every request's Authorization header.
    public var accessKeyID: String
    /// The secret half, which never leaves this process: it only derives signing keys.
    public var secretAccessKey: String
    /// The session token of temporary credentials, sent as `x-amz-security-token`.
    public var sessionToken: String?

    /// Credentials from their parts.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}
