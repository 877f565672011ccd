import ObjectStorage
import PathModel
import Synchronization

/// Where object storage answers and how to sign for it, read as AWS's own tools read it.
///
/// - Credentials: `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (with `AWS_SESSION_TOKEN`),
///   else the profile's `aws_access_key_id`, `aws_secret_access_key` and `aws_session_token` in
///   `~/.aws/credentials` (`AWS_SHARED_CREDENTIALS_FILE`) or `~/.aws/config` (`AWS_CONFIG_FILE`).
/// - The profile: `AWS_PROFILE`, else `default` (`[default]`/`[NAME]` in the credentials file,
///   `[default]`/`[profile NAME]` in the config file).
/// - The region: `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`, else `us-east-1`.
/// - The endpoint: `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the profile's `endpoint_url`, else
///   AWS's own for the region.
/// - Requests in flight for one transfer, and small files in flight in a copy of a tree: the
///   profile's `max_concurrent_requests` among its nested `s3 =` settings in the config file,
///   as aws cli reads it.
public struct S3Configuration: Sendable, Hashable {
    /// Where requests go.
    public var endpoint: S3Endpoint
    /// The region requests are signed for.
    public var region: String
    /// The keys requests are signed with; nil when none were found.
    public var credentials: Credentials?
    /// How many requests of one transfer, and how many small files of a copy of a tree, may be
    /// in flight at once; nil when not configured.
    public var concurrentRequests: Int?

    /// What went wrong in reading the configuration.
    public enum Problem: Error, Sendable, Hashable {
        /// An endpoint URL that is not `http(s)://host[:port]`: the variable or key, and its value.
        case badEndpoint(setting: String, value: String)
        /// `AWS_PROFILE` names a profile neither file has (as aws cli, shelf does not fall back
        /// to another).
        case unknownProfile(String)
    }

    /// The configuration that `variable` (the environment) and the files below `home` give.
    /// - Throws: `Problem` for a setting that cannot be used.
    public init(variable: (String) -> String?, home: File?) throws(Problem) {
        func nonEmpty(_ name: String) -> String? { variable(name).flatMap { $0.isEmpty ? nil : $0 } }
        // A file the environment names is on the home directory's volume.
        func file(_ name: String) -> File? {
            nonEmpty(name).map { path in home.map { File(path: path).on($0.volume) } ?? File(path: path) }
        }
        let named = nonEmpty("AWS_PROFILE")
        let profile = named ?? "default"
        let credentialsSection = Self.settings(
            of: file("AWS_SHARED_CREDENTIALS_FILE") ?? home.map { $0 + ".aws/credentials" }, section: profile)
        let configSection = Self.settings(
            of: file("AWS_CONFIG_FILE") ?? home.map { $0 + ".aws/config" },
            section: profile == "default" ? "default" : "profile \(profile)")
        if let named, credentialsSection == nil, configSection == nil { throw .unknownProfile(named) }
        let credentialsFile = credentialsSection ?? [:]
        let configFile = configSection ?? [:]
        func profileSetting(_ key: String) -> String? { credentialsFile[key] ?? configFile[key] }

        if let id = nonEmpty("AWS_ACCESS_KEY_ID"), let secret = nonEmpty("AWS_SECRET_ACCESS_KEY") {
            credentials = Credentials(
                accessKeyID: id, secretAccessKey: secret, sessionToken: nonEmpty("AWS_SESSION_TOKEN"))
        } else if let id = profileSetting("aws_access_key_id"),
            let secret = profileSetting("aws_secret_access_key")
        {
            credentials = Credentials(
                accessKeyID: id, secretAccessKey: secret, sessionToken: profileSetting("aws_session_token"))
        } else {
            credentials = nil
        }
        concurrentRequests = configFile["s3.max_concurrent_requests"].flatMap { Int($0) }.map { max(1, $0) }
        region =
            nonEmpty("AWS_REGION") ?? nonEmpty("AWS_DEFAULT_REGION") ?? configFile["region"] ?? "us-east-1"
        let setting: (name: String, value: String)? =
            nonEmpty("AWS_ENDPOINT_URL_S3").map { ("AWS_ENDPOINT_URL_S3", $0) }
            ?? nonEmpty("AWS_ENDPOINT_URL").map { ("AWS_ENDPOINT_URL", $0) }
            ?? configFile["endpoint_url"].map { ("endpoint_url", $0) }
        if let setting {
            guard let endpoint = S3Endpoint(url: setting.value) else {
                throw .badEndpoint(setting: setting.name, value: setting.value)
            }
            self.endpoint = endpoint
        } else {
            endpoint = S3Endpoint(url: "https://s3.\(region).amazonaws.com")!
        }
    }

    /// The `key = value` settings of `[section]` in the INI file at `file`, nil when it cannot
    /// be read or has no such section; the nested settings of a service (`s3 =` and indented
    /// lines below it) as `service.key` (`s3.max_concurrent_requests`).
    static func settings(of file: File?, section: String) -> [String: String]? {
        guard let file, let text = try? file.readText() else { return nil }
        var result: [String: String]?
        var inSection = false
        var service: String?
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
                inSection = trimmed.dropFirst().dropLast().trimmingSpaces == section
                if inSection && result == nil { result = [:] }
                service = nil
                continue
            }
            guard inSection, let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<equals].trimmingSpaces.lowercased()
            let value = trimmed[trimmed.index(after: equals)...].trimmingSpaces
            if line.first == " " || line.first == "\t" {
                if let service, !value.isEmpty { result?[service + "." + key] = value }
            } else {
                service = value.isEmpty ? key : nil
                if !value.isEmpty { result?[key] = value }
            }
        }
        return result
    }
}

extension StringProtocol {
    /// The text without spaces and tabs at either end.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// The buckets of one configuration as volumes, for `s3://BUCKET/…` paths: one client for all
/// of them, made when the first volume is asked for, so that a session that names no bucket
/// makes no connection and reads no file.
public final class S3Volumes: Sendable {
    private let read: @Sendable () -> Result<S3Configuration, S3Configuration.Problem>
    private let state = Mutex<
        (client: S3Client?, problem: FileError.ServiceFailure?, concurrentRequests: Int?, read: Bool)
    >((nil, nil, nil, false))

    /// Buckets reached with the configuration `read` gives when first needed.
    public init(
        configuration read: @escaping @Sendable () -> Result<S3Configuration, S3Configuration.Problem>
    ) {
        self.read = read
    }

    /// The volume of `bucket`, below `prefix` (keys that start with it and `/`; empty for the
    /// whole bucket); one that refuses every call with the reason when there are no
    /// credentials or the configuration cannot be used.
    public func volume(bucket: [UInt8], prefix: [UInt8] = []) -> any Volume {
        guard let name = String(validating: bucket, as: UTF8.self) else {
            return RefusingVolume(.noSuchFileOrDirectory, serviceFailure: .noSuchBucket)
        }
        let made = client()
        guard let client = made.client else {
            return RefusingVolume(.permissionDenied, serviceFailure: made.problem ?? .missingCredentials)
        }
        // A configured number of requests in flight bounds the files at once too.
        return S3Volume(
            client: client, bucket: name, prefix: prefix,
            concurrentRequests: made.concurrentRequests ?? S3Volume.defaultConcurrentRequests,
            filesAtOnce: made.concurrentRequests ?? S3Volume.defaultFilesAtOnce)
    }

    /// The list of the buckets (`s3://`) as a volume, whose buckets are the volumes
    /// `bucketVolume` gives; one that refuses every call with the reason when there are no
    /// credentials or the configuration cannot be used.
    public func buckets(opening bucketVolume: @escaping @Sendable ([UInt8]) -> any Volume) -> any Volume {
        let made = client()
        guard let client = made.client else {
            return RefusingVolume(.permissionDenied, serviceFailure: made.problem ?? .missingCredentials)
        }
        return S3BucketList(client: client, bucketVolume: bucketVolume)
    }

    /// The client, made from the configuration at the first call, or why there is none.
    private func client() -> (client: S3Client?, problem: FileError.ServiceFailure?, concurrentRequests: Int?)
    {
        state.withLock { state in
            if !state.read {
                state.read = true
                switch read() {
                case .success(let configuration):
                    state.concurrentRequests = configuration.concurrentRequests
                    if let credentials = configuration.credentials {
                        // Ctrl-C gives up a request waiting on a silent server, as it stops
                        // a blocked system call (`Interruption`).
                        state.client = S3Client(
                            endpoint: configuration.endpoint, credentials: credentials,
                            region: configuration.region,
                            isInterrupted: { Interruption.isRequested?() == true })
                    } else {
                        state.problem = .missingCredentials
                    }
                case .failure(.badEndpoint(let setting, let value)):
                    state.problem = .badSetting(name: setting, value: value)
                case .failure(.unknownProfile(let name)):
                    state.problem = .unknownProfile(name)
                }
            }
            return (state.client, state.problem, state.concurrentRequests)
        }
    }

    /// Closes the client's connections, if one was made; no volume may be used after.
    public func shutdown() {
        let client = state.withLock { $0.client }
        try? client?.shutdown()
    }
}
