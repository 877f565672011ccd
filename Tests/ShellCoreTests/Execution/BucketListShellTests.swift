// `s3://` alone: the buckets as directories (ListBuckets), against a SeaweedFS of the suite's own,
// so that no other test's bucket shows.

import ObjectStorage
import ObjectVolume
import PathModel
import SeaweedFixture
import ShellCore
import Testing

@Suite(.seaweedServer) struct BucketListShellTests {
    /// The buckets every test finds (each test makes those not made yet).
    static let buckets = ["alpha", "beta.two", "gamma-3"]

    typealias Step = ObjectStorageShellTests.Step

    /// Runs `body` with a shell whose `s3://` is the suite's server, reached by `client` (the
    /// server's own with the right secret when nil), after making `buckets`.
    func withShell(client: S3Client? = nil, _ body: (TestShell, S3Client) throws -> Void) throws {
        let server = try SeaweedServer.required()
        let owner = server.client()
        defer { try? owner.shutdown() }
        for bucket in Self.buckets {
            do {
                try owner.createBucket(bucket)
            } catch let error as S3Error where error.code == "BucketAlreadyOwnedByYou" {}
        }
        let client = client ?? owner
        let shell = TestShell()
        shell.state.schemes.register(
            VolumeScheme(
                name: "s3", open: { S3Volume(client: client, bucket: String(decoding: $0, as: UTF8.self)) },
                authorities: { S3BucketList(client: client) }))
        try body(shell, client)
    }

    static let steps: [Step] = [
        Step(name: "ls lists the buckets", lines: "ls s3://", stdout: "alpha\nbeta.two\ngamma-3\n"),
        Step(name: "more slashes name the same", lines: "ls s3:///", stdout: "alpha\nbeta.two\ngamma-3\n"),
        Step(name: "ls -d names the list itself", lines: "ls -d s3://", stdout: "s3://\n"),
        Step(
            name: "ls -F marks them directories", lines: "ls -F s3://",
            stdout: "alpha/\nbeta.two/\ngamma-3/\n"),
        Step(name: "a glob under s3://", lines: "cd s3://\necho *a*", stdout: "alpha beta.two gamma-3\n"),
        Step(
            name: "a glob of bucket names", lines: "echo s3://*a*",
            stdout: "s3://alpha s3://beta.two s3://gamma-3\n"),
        Step(name: "cd and pwd", lines: "cd s3://\npwd\nls", stdout: "s3://\nalpha\nbeta.two\ngamma-3\n"),
        Step(
            name: "a relative name under s3:// is a bucket",
            lines: "cd s3://\ntouch alpha/f\nls alpha\ncd beta.two\npwd\ncd s3://\ncd alpha\npwd\nls",
            stdout: "f\ns3://beta.two/\ns3://alpha/\nf\n"),
        Step(name: ".. under s3:// stays there", lines: "cd s3://\ncd ..\npwd", stdout: "s3://\n"),
        Step(
            name: "stat of a bucket", lines: "stat -c %F s3://alpha s3://", stdout: "directory\ndirectory\n"),
        Step(
            name: "a name that is no bucket", lines: "cd s3://\nls -d nope",
            stderr: "ls: cannot access 'nope': No such bucket\n", status: .usage),
        Step(
            name: "a bucket is the top of its own volume", lines: "rmdir s3://alpha",
            stderr: "rmdir: failed to remove 's3://alpha': Device or resource busy\n", status: .failure),
        Step(
            name: "a name there is a bucket, not a file", lines: "cd s3://\necho x > f",
            stderr: "shelf: f: Is a directory\n", status: .failure),
    ]

    @Test(arguments: steps) func theBucketsAreTheDirectoriesOfS3(_ step: Step) throws {
        try withShell { shell, _ in
            let transcript = shell.run(step.lines)
            #expect(transcript.stdout == step.stdout)
            #expect(transcript.stderr == step.stderr)
            #expect(transcript.status == step.status)
        }
    }

    @Test func aLongListingShowsEachBucketsCreationDate() throws {
        try withShell { shell, _ in
            let lines = shell.run("ls -l s3://").stdout.split(separator: "\n")
            #expect(lines.count == 1 + Self.buckets.count)
            guard lines.count == 1 + Self.buckets.count else { return }
            #expect(lines[0] == "total 0")
            for (line, bucket) in zip(lines.dropFirst(), Self.buckets) {
                #expect(line.hasPrefix("drwxr-xr-x - - - 0 "), "\(line)")
                #expect(line.hasSuffix(" \(bucket)") && !line.hasSuffix(" - \(bucket)"), "\(line)")
            }
        }
    }

    /// A line, and what one Tab makes of it (nil: nothing to offer), with the choices shown.
    struct Tab: Sendable, CustomTestStringConvertible {
        let name: String
        var directory = "/"
        let line: String
        let completed: String?
        var choices: [String] = []
        var testDescription: String { name }
    }

    static let tabs: [Tab] = [
        Tab(
            name: "after s3:// every bucket", line: "ls s3://", completed: "ls s3://",
            choices: ["alpha/", "beta.two/", "gamma-3/"]),
        Tab(name: "a bucket's first letters", line: "ls s3://be", completed: "ls s3://beta.two/"),
        Tab(name: "no bucket starts so", line: "ls s3://x", completed: nil),
        Tab(name: "a bare name under s3://", directory: "s3://", line: "cd g", completed: "cd gamma-3/"),
    ]

    @Test(arguments: tabs) func completionAfterS3OffersTheBuckets(_ tab: Tab) throws {
        try withShell { shell, client in
            shell.run("cd \(tab.directory)")
            let line = Array(tab.line.utf8)
            let completion = Completer.complete(line: line, cursor: line.count, state: shell.state)
            let completed = completion.applied(to: line).map { String(decoding: $0, as: UTF8.self) }
            #expect(completed == tab.completed)
            if !tab.choices.isEmpty {
                #expect(
                    completion.candidates.map { String(decoding: $0.display, as: UTF8.self) } == tab.choices)
            }
        }
    }

    /// What a user reads when the buckets cannot be listed: one line, GNU's shape.
    @Test func aListingThatFailsSaysWhy() throws {
        let server = try SeaweedServer.required()
        let wrongSecret = server.client(secret: "not-the-secret")
        defer { try? wrongSecret.shutdown() }
        try withShell(client: wrongSecret) { shell, _ in
            let transcript = shell.run("ls s3://")
            #expect(
                transcript.stderr
                    == "ls: cannot open directory 's3://': Signature does not match (wrong secret access key?)\n"
            )
            #expect(transcript.status == .usage)
        }
        let nowhere = S3Client(
            endpoint: S3Endpoint(url: "http://127.0.0.1:\(try FreePorts.choose(2).others[0])")!,
            credentials: server.credentials)
        defer { try? nowhere.shutdown() }
        try withShell(client: nowhere) { shell, _ in
            let transcript = shell.run("ls s3://")
            #expect(transcript.stderr == "ls: cannot open directory 's3://': Connection refused\n")
            #expect(transcript.status == .usage)
        }
    }
}
