// Reading the configuration as AWS's tools do: the environment first, then the profile in
// ~/.aws/credentials and ~/.aws/config. HOME is an in-memory volume: the tests never read the
// real one.

import ObjectStorage
import ObjectVolume
import PathModel
import Testing

@Suite struct S3ConfigurationTests {
    /// A case: the environment, the two files, and what must come of them.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        var environment: [String: String] = [:]
        var credentialsFile = ""
        var configFile = ""
        var endpoint: String
        var region = "us-east-1"
        var credentials: Credentials?
        var concurrentRequests: Int?
        var testDescription: String { name }
    }

    static let files = """
        [default]
        aws_access_key_id = DEFAULTID
        aws_secret_access_key = defaultsecret

        [work]
        aws_access_key_id=WORKID
        aws_secret_access_key=worksecret
        aws_session_token = worktoken
        """
    static let config = """
        # comments are read past; nested settings count only for their service
        [default]
        region = eu-west-1
        [profile work]
        region = ap-south-1
        endpoint_url = http://127.0.0.1:9000
        s3 =
          endpoint_url = http://elsewhere:1
          max_concurrent_requests = 4
        """

    static let rows: [Row] = [
        Row(
            name: "the environment alone",
            environment: ["AWS_ACCESS_KEY_ID": "ID", "AWS_SECRET_ACCESS_KEY": "secret"],
            endpoint: "https://s3.us-east-1.amazonaws.com",
            credentials: Credentials(accessKeyID: "ID", secretAccessKey: "secret")),
        Row(
            name: "the environment wins over the files, with its session token and region",
            environment: [
                "AWS_ACCESS_KEY_ID": "ID", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "token",
                "AWS_REGION": "eu-central-1",
            ],
            credentialsFile: files, configFile: config, endpoint: "https://s3.eu-central-1.amazonaws.com",
            region: "eu-central-1",
            credentials: Credentials(accessKeyID: "ID", secretAccessKey: "secret", sessionToken: "token")),
        Row(
            name: "the default profile", credentialsFile: files, configFile: config,
            endpoint: "https://s3.eu-west-1.amazonaws.com", region: "eu-west-1",
            credentials: Credentials(accessKeyID: "DEFAULTID", secretAccessKey: "defaultsecret")),
        Row(
            name: "AWS_PROFILE names a profile, with its endpoint_url and nested s3 settings",
            environment: ["AWS_PROFILE": "work"],
            credentialsFile: files, configFile: config, endpoint: "http://127.0.0.1:9000",
            region: "ap-south-1",
            credentials: Credentials(
                accessKeyID: "WORKID", secretAccessKey: "worksecret", sessionToken: "worktoken"),
            concurrentRequests: 4),
        Row(
            name: "AWS_ENDPOINT_URL_S3 before AWS_ENDPOINT_URL before the profile's",
            environment: [
                "AWS_PROFILE": "work", "AWS_ENDPOINT_URL": "http://127.0.0.1:1",
                "AWS_ENDPOINT_URL_S3": "http://[::1]:2",
            ],
            credentialsFile: files, configFile: config, endpoint: "http://[::1]:2", region: "ap-south-1",
            credentials: Credentials(
                accessKeyID: "WORKID", secretAccessKey: "worksecret", sessionToken: "worktoken"),
            concurrentRequests: 4),
        Row(
            name: "AWS_DEFAULT_REGION when AWS_REGION is not set",
            environment: ["AWS_DEFAULT_REGION": "sa-east-1"],
            endpoint: "https://s3.sa-east-1.amazonaws.com", region: "sa-east-1"),
        Row(
            name: "no credentials anywhere", configFile: config,
            endpoint: "https://s3.eu-west-1.amazonaws.com", region: "eu-west-1"),
        Row(
            name: "a profile only the config file has", environment: ["AWS_PROFILE": "work"], configFile: config,
            endpoint: "http://127.0.0.1:9000", region: "ap-south-1", concurrentRequests: 4),
    ]

    /// A home directory in memory holding `.aws/credentials` and `.aws/config` when given.
    static func home(credentials: String, config: String) throws -> File {
        let home = MemoryVolume().file("/home/u")
        try (home + ".aws").makeDirectory(intermediates: true)
        if !credentials.isEmpty { try (home + ".aws/credentials").write(text: credentials) }
        if !config.isEmpty { try (home + ".aws/config").write(text: config) }
        return home
    }

    @Test(arguments: rows)
    func reads(_ row: Row) throws {
        let home = try Self.home(credentials: row.credentialsFile, config: row.configFile)
        let configuration = try S3Configuration(variable: { row.environment[$0] }, home: home)
        #expect(configuration.endpoint == S3Endpoint(url: row.endpoint))
        #expect(configuration.region == row.region)
        #expect(configuration.credentials == row.credentials)
        #expect(configuration.concurrentRequests == row.concurrentRequests)
    }

    @Test func filesNamedByTheEnvironmentAreRead() throws {
        let home = try Self.home(credentials: "", config: "")
        try (home + "creds").write(text: Self.files)
        try (home + "conf").write(text: Self.config)
        let environment = [
            "AWS_SHARED_CREDENTIALS_FILE": (home + "creds").string, "AWS_CONFIG_FILE": (home + "conf").string,
        ]
        let configuration = try S3Configuration(variable: { environment[$0] }, home: home)
        #expect(
            configuration.credentials
                == Credentials(accessKeyID: "DEFAULTID", secretAccessKey: "defaultsecret"))
        #expect(configuration.region == "eu-west-1")
        // Not where AWS's tools look by default: without the variables, nothing is found.
        #expect(try S3Configuration(variable: { _ in nil }, home: home).credentials == nil)
    }

    /// As aws cli, a profile named that neither file has is an error, not another profile's
    /// settings or none.
    @Test(arguments: [["AWS_PROFILE": "other"], ["AWS_PROFILE": "default"]])
    func aProfileNoFileHasIsRefused(_ environment: [String: String]) throws {
        let home = try Self.home(
            credentials: environment["AWS_PROFILE"] == "default" ? "" : Self.files,
            config: environment["AWS_PROFILE"] == "default" ? "" : Self.config)
        let error = #expect(throws: S3Configuration.Problem.self) {
            try S3Configuration(variable: { environment[$0] }, home: home)
        }
        #expect(error == .unknownProfile(environment["AWS_PROFILE"]!))
    }

    @Test func anEndpointThatIsNotAURLIsRefused() throws {
        let error = #expect(throws: S3Configuration.Problem.self) {
            try S3Configuration(variable: { $0 == "AWS_ENDPOINT_URL" ? "localhost:9000" : nil }, home: nil)
        }
        #expect(error == .badEndpoint(setting: "AWS_ENDPOINT_URL", value: "localhost:9000"))
    }

    @Test func withoutCredentialsEveryBucketRefusesWithTheReason() throws {
        let volumes = S3Volumes {
            Result { () throws(S3Configuration.Problem) in
                try S3Configuration(variable: { _ in nil }, home: nil)
            }
        }
        defer { volumes.shutdown() }
        let volume = volumes.volume(bucket: Array("photos".utf8))
        let error = #expect(throws: FileError.self) { try volume.file("/x").info() }
        #expect(error?.serviceFailure == .missingCredentials)
        #expect(error?.path == volume.file("/x"))
    }

    /// The requests of one transfer and the small files of a copy of a tree in flight: 10 and 32
    /// unless the profile's `max_concurrent_requests` says how many requests at once, which
    /// then bounds both.
    @Test(arguments: [("default", 10, 32), ("work", 4, 4)])
    func aVolumeMovesAsManyFilesAtOnceAsConfigured(_ profile: String, _ requests: Int, _ files: Int) throws {
        let home = try Self.home(credentials: Self.files, config: Self.config)
        let volumes = S3Volumes {
            Result { () throws(S3Configuration.Problem) in
                try S3Configuration(variable: { $0 == "AWS_PROFILE" ? profile : nil }, home: home)
            }
        }
        defer { volumes.shutdown() }
        let volume = try #require(volumes.volume(bucket: Array("photos".utf8)) as? S3Volume)
        #expect(volume.concurrentRequests == requests)
        #expect(volume.filesAtOnce == files)
        #expect(volume.parallelFiles.count == files)
        #expect(volume.parallelFiles.bytesAtOnce == UInt64(requests * volume.partSize))
    }
}
