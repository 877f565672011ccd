import Foundation
import ObjectStorage
import ObjectVolume
import SeaweedFixture
import Testing

/// `shelf --root s3://BUCKET/PREFIX` and `--read-only` on object storage, through the binary
/// against a real SeaweedFS: the prefix is `/` for every path, and no command line reads or
/// changes a key outside it; a read-only session changes no key.
@Suite struct ObjectStorageRootTests {
    /// A session step: the line, and what it must print and end with.
    struct Step: Sendable, CustomTestStringConvertible {
        let name: String
        let line: String
        var stdout = ""
        var stderr = ""
        var status: Int32 = 0
        var testDescription: String { name }
    }

    /// Runs shelf with `arguments`, configured for `volume`'s server; `URL` in the arguments
    /// stands for `s3://BUCKET/PREFIX` of the volume (without the final `/`).
    static func shelf(_ arguments: [String], on volume: S3Volume) throws -> ScriptTests.Result {
        let server = try SeaweedServer.shared()
        let url = "s3://\(volume.bucket)/" + String(decoding: volume.prefix.dropLast(), as: UTF8.self)
        return try ScriptTests.run(
            ScriptTests.binary, arguments.map { $0.replacingOccurrences(of: "URL", with: url) },
            environment: [
                "AWS_ACCESS_KEY_ID": server.credentials.accessKeyID,
                "AWS_SECRET_ACCESS_KEY": server.credentials.secretAccessKey,
                "AWS_ENDPOINT_URL": "http://127.0.0.1:\(server.port)", "AWS_REGION": "us-east-1",
            ])
    }

    /// Puts `top/f`, `top/d/g` and, outside the root `top`, `secret`.
    static func putFixture(on volume: S3Volume) throws {
        for (key, contents) in [("top/f", "in\n"), ("top/d/g", "deep\n"), ("secret", "TOP-SECRET\n")] {
            try volume.client.putObject(
                bucket: volume.bucket, key: volume.prefix + Array(key.utf8), bytes: Array(contents.utf8))
        }
    }

    /// Every key of the volume with its contents.
    static func snapshot(of volume: S3Volume) throws -> [String] {
        try volume.client.listObjects(bucket: volume.bucket, prefix: volume.prefix).objects.map { object in
            String(decoding: object.key.dropFirst(volume.prefix.count), as: UTF8.self) + " \(object.size)"
        }
    }

    static let confined: [Step] = [
        Step(name: "the prefix is /, and .. stays at it", line: "pwd; cd ..; pwd; cd /../..; pwd; ls / ..", stdout: "/\n/\n/\n..:\nd\nf\n\n/:\nd\nf\n"),
        Step(name: "paths above the top are the top", line: "cat /f ../f /../f d/../../f", stdout: "in\nin\nin\nin\n"),
        Step(name: "a walk of the top sees the prefix alone", line: "find /..; du -a .. | wc -l", stdout: "/..\n/../f\n/../d\n/../d/g\n4\n"),
        Step(
            name: "a URL is no way out: it is a name inside", line: "cat URL/secret",
            stderr: "cat: URL/secret: No such file or directory\n", status: 1),
        Step(name: "removing above the top removes inside it", line: "rm -rf /../d ../f; ls -A /", stdout: ""),
    ]

    @Test(arguments: confined) func aRootPrefixConfinesTheSession(_ step: Step) throws {
        try SeaweedServer.withVolume { volume in
            try Self.putFixture(on: volume)
            let result = try Self.shelf(["--root", "URL/top", "-c", step.line], on: volume)
            let url = "s3://\(volume.bucket)/" + String(decoding: volume.prefix.dropLast(), as: UTF8.self)
            #expect(result.stdout == step.stdout)
            #expect(result.stderr == step.stderr.replacingOccurrences(of: "URL", with: url))
            #expect(result.status == step.status)
            // The key outside the root is where it was, untouched.
            let keys = try Self.snapshot(of: volume)
            #expect(keys.contains("secret 11"))
        }
    }

    /// A root inside the bucket, what `shelf --root` says of it (nothing: it is a directory),
    /// as of a `--root DIR` on the disk, and what `ls` lists there. `.` and `..` are taken as
    /// `cd` takes them.
    static let prefixRoots: [(root: String, listing: String, stderr: String)] = [
        ("URL/top", "d\nf\n", ""),
        ("URL/top/d", "g\n", ""),
        ("URL/marked", "", ""),
        ("URL/./top/d/.", "g\n", ""),
        ("URL/top/d/..", "d\nf\n", ""),
        ("URL/marked/../top//d", "g\n", ""),
        ("URL/missing", "", "shelf: --root: URL/missing: No such file or directory\n"),
        ("URL/top/f", "", "shelf: --root: URL/top/f: Not a directory\n"),
        ("URL/top/f/below", "", "shelf: --root: URL/top/f/below: Not a directory\n"),
        ("s3://", "", "shelf: --root: s3://: names no bucket (s3://BUCKET[/PREFIX])\n"),
        ("URL/../..", "", "shelf: --root: URL/../..: names no bucket (s3://BUCKET[/PREFIX])\n"),
    ]

    @Test(arguments: prefixRoots.map(\.root)) func aRootPrefixMustBeADirectory(_ root: String) throws {
        let row = try #require(Self.prefixRoots.first { $0.root == root })
        try SeaweedServer.withVolume { volume in
            try Self.putFixture(on: volume)
            try volume.client.putObject(bucket: volume.bucket, key: volume.prefix + Array("marked/".utf8), bytes: [])
            let url = "s3://\(volume.bucket)/" + String(decoding: volume.prefix.dropLast(), as: UTF8.self)
            let result = try Self.shelf(["--root", root, "-c", "pwd; ls"], on: volume)
            #expect(result.stderr == row.stderr.replacingOccurrences(of: "URL", with: url))
            #expect(result.stdout == (row.stderr.isEmpty ? "/\n" + row.listing : ""))
            #expect(result.status == (row.stderr.isEmpty ? 0 : 2))
        }
    }

    @Test func aMissingBucketAsRootIsAnError() throws {
        try SeaweedServer.withVolume { volume in
            let result = try Self.shelf(["--root", "s3://no-such-bucket-here/x", "-c", "pwd"], on: volume)
            #expect(result.stdout == "")
            #expect(result.stderr == "shelf: --root: s3://no-such-bucket-here/x: No such bucket\n")
            #expect(result.status == 2)
        }
    }

    @Test func aLocalRootReachesNoBucket() throws {
        try SeaweedServer.withVolume { volume in
            try Self.putFixture(on: volume)
            let result = try Self.shelf(["--root", ".", "-c", "cat URL/secret"], on: volume)
            #expect(result.stdout == "")
            #expect(result.stderr.hasPrefix("cat: "))
            #expect(result.stderr.hasSuffix(": No such file or directory\n"))
            #expect(result.status == 1)
        }
    }

    static let readOnly: [Step] = [
        Step(
            name: "rm is refused", line: "rm -r URL/top",
            stderr: "shelf: rm: refused: it changes the disk, and this shell is read-only (--read-only)\n", status: 1),
        Step(
            name: "cp into the bucket is refused", line: "cp URL/top/f URL/top/copy",
            stderr: "shelf: cp: refused: it changes the disk, and this shell is read-only (--read-only)\n", status: 1),
        Step(
            name: "a redirection into the bucket is refused", line: "echo x > URL/top/new",
            stderr: "shelf: refused: >, >>, 2>, 2>> and &> write files, and this shell is read-only (--read-only)\n",
            status: 1),
        Step(name: "reading goes on", line: "cat URL/top/f; ls URL/top", stdout: "in\nd\nf\n"),
    ]

    @Test(arguments: readOnly) func aReadOnlySessionChangesNoKey(_ step: Step) throws {
        try SeaweedServer.withVolume { volume in
            try Self.putFixture(on: volume)
            let before = try Self.snapshot(of: volume)
            for arguments in [["--read-only", "-c", step.line], ["--read-only", "--root", "URL", "-c", step.line]] {
                let url = "s3://\(volume.bucket)/" + String(decoding: volume.prefix.dropLast(), as: UTF8.self)
                // Inside the root, the same paths from its top.
                let line = arguments.contains("--root") ? step.line.replacingOccurrences(of: "URL", with: "") : step.line
                let result = try Self.shelf(Array(arguments.dropLast()) + [line], on: volume)
                #expect(result.stdout == step.stdout, "\(arguments)")
                #expect(result.stderr == step.stderr.replacingOccurrences(of: "URL", with: url), "\(arguments)")
                #expect(result.status == step.status, "\(arguments)")
            }
            #expect(try Self.snapshot(of: volume) == before)
        }
    }

    /// What shelf says of object storage when nothing configures it: no AWS variable in its
    /// environment (`run` gives it only HOME, LC_ALL and PATH) and a HOME without `~/.aws`.
    static let withoutCredentials: [([String], String)] = [
        (["-c", "ls s3://b"], "ls: cannot access 's3://b': "),
        (["--root", "s3://b/p", "-c", "pwd"], "shelf: --root: s3://b/p: "),
    ]

    @Test(arguments: withoutCredentials)
    func withoutCredentialsShelfSaysSoInOneLine(_ arguments: [String], _ stderr: String) throws {
        let result = try ScriptTests.run(ScriptTests.binary, arguments)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == stderr + "No credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE)\n")
        #expect(result.status == 2)
    }
}
