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
        try body(Self.shell(reaching: client), client)
    }

    /// A shell whose `s3://` is the buckets `client` reaches.
    static func shell(reaching client: S3Client) -> TestShell {
        let shell = TestShell()
        shell.state.schemes.register(
            VolumeScheme(
                name: "s3", open: { S3Volume(client: client, bucket: String(decoding: $0, as: UTF8.self)) },
                authorities: { S3BucketList(client: client, bucketVolume: $0) }))
        return shell
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
        Step(name: ".. at a bucket's top is s3://", lines: "cd s3://alpha\ncd ..\npwd\ncd ../..\npwd", stdout: "s3://\ns3://\n"),
        Step(
            name: ".. across buckets", lines: "cd s3://alpha\ncd ../gamma-3\npwd\nls -d s3://alpha/../beta.two",
            stdout: "s3://gamma-3/\ns3://alpha/../beta.two\n"),
        Step(
            name: "stat of a bucket", lines: "stat -c %F s3://alpha s3://", stdout: "directory\ndirectory\n"),
        Step(
            name: "a name that is no bucket", lines: "cd s3://\nls -d nope",
            stderr: "ls: cannot access 'nope': No such bucket\n", status: .usage),
        Step(
            name: "the list's own top", lines: "rmdir s3://\nmkdir s3://",
            stderr: "rmdir: failed to remove 's3://': Device or resource busy\nmkdir: cannot create directory 's3://': File exists\n",
            status: .failure),
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

    /// Walks from `s3://` go into every bucket, each listed as its own volume lists a tree.
    static let walks: [Step] = [
        Step(
            name: "find", lines: "find s3://",
            stdout: "s3://\ns3://alpha\ns3://alpha/f\ns3://beta.two\ns3://gamma-3\ns3://gamma-3/deep\n"
                + "s3://gamma-3/deep/er\ns3://gamma-3/deep/er/x\n"),
        Step(
            name: "find with a test", lines: "find s3:// -type f", stdout: "s3://alpha/f\ns3://gamma-3/deep/er/x\n"),
        Step(
            name: "ls -R", lines: "ls -R s3://",
            stdout: "s3://:\nalpha\nbeta.two\ngamma-3\n\ns3://alpha:\nf\n\ns3://beta.two:\n\ns3://gamma-3:\ndeep\n\n"
                + "s3://gamma-3/deep:\ner\n\ns3://gamma-3/deep/er:\nx\n"),
        Step(
            name: "du", lines: "du s3://",
            stdout: "0\ts3://alpha\n0\ts3://beta.two\n1\ts3://gamma-3/deep/er\n1\ts3://gamma-3/deep\n"
                + "1\ts3://gamma-3\n1\ts3://\n"),
        Step(name: "du -s", lines: "du -s s3://", stdout: "1\ts3://\n"),
        Step(
            name: "tree", lines: "tree s3://",
            stdout: "s3://\n|-- alpha\n|   `-- f\n|-- beta.two\n`-- gamma-3\n    `-- deep\n        `-- er\n"
                + "            `-- x\n\n6 directories, 2 files\n"),
        Step(
            name: "from s3:// with cd", lines: "cd s3://\nfind . -name x\ndu -a gamma-3/deep",
            stdout: "./gamma-3/deep/er/x\n1\tgamma-3/deep/er/x\n1\tgamma-3/deep/er\n1\tgamma-3/deep\n"),
        Step(
            name: "a walk from a bucket's parent names it as typed", lines: "find s3://alpha/.. -name f",
            stdout: "s3://alpha/../alpha/f\n"),
    ]

    @Test(arguments: walks) func aWalkFromS3GoesIntoTheBuckets(_ step: Step) throws {
        try withShell { shell, client in
            try client.putObject(bucket: "alpha", key: Array("f".utf8), bytes: [])
            try client.putObject(bucket: "gamma-3", key: Array("deep/er/x".utf8), bytes: [1, 2, 3])
            let transcript = shell.run(step.lines)
            #expect(transcript.stdout == step.stdout)
            #expect(transcript.stderr == step.stderr)
            #expect(transcript.status == step.status)
        }
    }

    /// Where a record names the list's top, and a bucket: `s3://` is named as written, as `/`
    /// names itself (not `s3:`, the last name of its path); a bucket by its name.
    static let recordNames: [(command: String, name: String)] = [
        ("ls -ld --json s3://", "s3://"), ("stat --json s3://", "s3://"), ("find s3:// -maxdepth 0 --json", "s3://"),
        ("ls -ld --json s3:///", "s3:///"), ("ls -ld --json s3://alpha", "alpha"), ("stat --json s3://alpha/", "alpha"),
    ]

    @Test(arguments: recordNames.map(\.command)) func recordsNameTheListAsWrittenAndABucketByItsName(_ command: String) throws {
        let name = try #require(Self.recordNames.first { $0.command == command }).name
        try withShell { shell, _ in
            let transcript = shell.run(command)
            #expect(transcript.stderr == "")
            #expect(transcript.stdout.contains("\"name\":\"\(name)\""), "\(transcript.stdout)")
            #expect(!transcript.stdout.contains("\"name\":\"s3:\""))
        }
    }

    @Test func theListAndABucketAreNamedAsWrittenInText() throws {
        try withShell { shell, _ in
            #expect(shell.run("stat -c %n s3:// s3://alpha").stdout == "s3://\ns3://alpha\n")
            #expect(shell.run("ls -ld s3://").stdout == "drwxr-xr-x - - - 0            - s3://\n")
            #expect(shell.run("ls -ld s3://alpha").stdout.hasSuffix(" s3://alpha\n"))
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

/// `mkdir s3://NEW` makes a bucket and `rmdir s3://NEW` removes an empty one, against a SeaweedFS
/// of the suite's own, so that no other test sees the buckets come and go.
@Suite(.seaweedServer, .serialized) struct BucketMakingShellTests {
    typealias Step = ObjectStorageShellTests.Step

    /// Runs `body` with a shell whose `s3://` is the suite's server.
    func withShell(_ body: (TestShell, S3Client) throws -> Void) throws {
        let server = try SeaweedServer.required()
        let client = server.client()
        defer { try? client.shutdown() }
        try body(BucketListShellTests.shell(reaching: client), client)
    }

    /// Steps run in order in one shell.
    static let steps: [Step] = [
        Step(name: "mkdir makes a bucket", lines: "mkdir s3://made\nls s3://", stdout: "made\n"),
        Step(
            name: "one that exists", lines: "mkdir s3://made",
            stderr: "mkdir: cannot create directory 's3://made': File exists\n", status: .failure),
        Step(name: "mkdir -p accepts it", lines: "mkdir -p s3://made"),
        Step(
            name: "rmdir refuses one with keys", lines: "touch s3://made/f\nrmdir s3://made\nls s3://made",
            stdout: "f\n", stderr: "rmdir: failed to remove 's3://made': Directory not empty\n"),
        Step(name: "rmdir removes an empty one", lines: "rm s3://made/f\nrmdir s3://made\nls s3://"),
        Step(
            name: "one that is not there", lines: "rmdir s3://made",
            stderr: "rmdir: failed to remove 's3://made': No such bucket\n", status: .failure),
        Step(
            name: "mkdir -p makes the bucket and what is below", lines: "mkdir -p s3://deep/a/b\nfind s3://deep",
            stdout: "s3://deep\ns3://deep/a\ns3://deep/a/b\n"),
        Step(
            name: "rm -r of a bucket is refused as rm -r / is",
            lines: "mkdir s3://kept\ntouch s3://kept/f\nrm -r s3://kept\nls s3://kept",
            stdout: "f\n",
            stderr: "rm: it is dangerous to operate recursively on 's3://kept' (same as '/')\n"
                + "rm: use --no-preserve-root to override this failsafe\n"),
        Step(name: "unless told", lines: "rm -r --no-preserve-root s3://kept\nls s3://", stdout: "deep\n"),
        Step(
            name: "relative under s3://", lines: "rm -r s3://deep/a\ncd s3://\nmkdir rel\nls\nrmdir rel deep\nls",
            stdout: "deep\nrel\n"),
    ]

    @Test func mkdirMakesABucketAndRmdirRemovesAnEmptyOne() throws {
        try withShell { shell, client in
            for step in Self.steps {
                let transcript = shell.run(step.lines)
                #expect(transcript.stdout == step.stdout, "\(step.name)")
                #expect(transcript.stderr == step.stderr, "\(step.name)")
                #expect(transcript.status == step.status, "\(step.name)")
            }
            let left = try client.listBuckets()
            #expect(left.isEmpty)
        }
    }

    @Test func aReadOnlySessionMakesAndRemovesNoBucket() throws {
        try withShell { shell, client in
            try client.createBucket("kept")
            defer { try? client.deleteBucket("kept") }
            shell.state.isReadOnly = true
            for (command, line) in [("mkdir", "mkdir s3://other"), ("rmdir", "rmdir s3://kept")] {
                let transcript = shell.run(line)
                #expect(
                    transcript.stderr
                        == "shelf: \(command): refused: it changes the disk, and this shell is read-only (--read-only)\n")
                #expect(transcript.status == .failure)
            }
            #expect(try client.listBuckets().map(\.name) == ["kept"])
        }
    }
}
