import Foundation
import SeaweedFixture
import Testing

/// What a session says when its object-storage configuration cannot be used: one line in GNU's
/// shape, naming the path, before any request is sent (no server is needed), or once the first
/// request fails to set up a secure connection. HOME is the test's own empty directory.
@Suite struct ObjectStorageConfigurationTests {
    static let keys = ["AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "secret"]
    static let rows: [(name: String, environment: [String: String], reason: String)] = [
        ("no credentials", [:], "No credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE)"),
        (
            "a profile no file has", keys.merging(["AWS_PROFILE": "nosuch"]) { $1 },
            "No profile nosuch (AWS_PROFILE) in the credentials or config file"
        ),
        (
            "an endpoint that is no URL", keys.merging(["AWS_ENDPOINT_URL": "localhost:9000"]) { $1 },
            "Unusable setting AWS_ENDPOINT_URL=localhost:9000 (an endpoint is http[s]://HOST[:PORT])"
        ),
    ]

    @Test(arguments: rows.map(\.name))
    func aConfigurationThatCannotBeUsedIsSaidInOneLine(_ name: String) throws {
        let row = try #require(Self.rows.first { $0.name == name })
        let result = try ScriptTests.run(ScriptTests.binary, ["-c", "ls s3://b/x"], environment: row.environment)
        #expect(result.stdout == "")
        #expect(result.stderr == "ls: cannot access 's3://b/x': \(row.reason)\n")
        #expect(result.status == 2)
    }

    /// An `https://` endpoint where a plain-HTTP server listens (the test server).
    @Test func aTLSFailureIsSaidInOneLine() throws {
        let server = try SeaweedServer.shared()
        let environment = Self.keys.merging(["AWS_ENDPOINT_URL": "https://127.0.0.1:\(server.port)"]) { $1 }
        let result = try ScriptTests.run(ScriptTests.binary, ["-c", "ls s3://b/x"], environment: environment)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "ls: cannot access 's3://b/x': TLS handshake failed"
                + " (an https:// endpoint that speaks plain HTTP, or a certificate not trusted)\n")
        #expect(result.status == 2)
    }
}
