// `s3://BUCKET/KEY` as a path for every command, against a real SeaweedFS: each test's `s3://b/`
// is a prefix of its own in the shared server's bucket, and any other bucket name is asked of the
// server as it is.

import Dispatch
import Foundation
import ObjectStorage
import ObjectVolume
import PathModel
import SeaweedFixture
import ShellCore
import Synchronization
import Testing

@Suite struct ObjectStorageShellTests {
    /// A session step: the lines run, and what they must print and end with.
    struct Step: Sendable, CustomTestStringConvertible {
        let name: String
        let lines: String
        var stdout = ""
        var stderr = ""
        var status: ShellCore.ExitStatus = .success
        var testDescription: String { name }
    }

    /// Runs `body` with a shell whose `s3://b/` is an empty prefix of the shared server's bucket.
    func withShell(_ body: (TestShell) throws -> Void) throws {
        try withShellAndVolume { shell, _ in try body(shell) }
    }

    /// Runs `body` with a shell whose `s3://b/` is `volume`, an empty prefix of the shared
    /// server's bucket.
    func withShellAndVolume(_ body: (TestShell, S3Volume) throws -> Void) throws {
        try SeaweedServer.withVolume(partSize: 5 << 20) { volume in
            let shell = TestShell()
            let client = volume.client
            shell.state.schemes.register(
                VolumeScheme(name: "s3") { bucket in
                    bucket == Array("b".utf8)
                        ? volume : S3Volume(client: client, bucket: String(decoding: bucket, as: UTF8.self))
                })
            try body(shell, volume)
        }
    }

    /// Writes `count` objects of three bytes below `directory` (a path below `s3://b/`) straight
    /// through the client, named `f0`, `f1`…
    static func putFiles(_ count: Int, in directory: String, on volume: S3Volume) throws {
        for index in 0..<count {
            try volume.client.putObject(
                bucket: volume.bucket, key: volume.prefix + Array("\(directory)/f\(index)".utf8),
                bytes: [1, 2, 3])
        }
    }

    /// Runs `steps` in order in one shell and checks each.
    func check(_ steps: [Step], prepare: (TestShell) throws -> Void = { _ in }) throws {
        try withShell { shell in
            try prepare(shell)
            for step in steps {
                let transcript = shell.run(step.lines)
                #expect(transcript.stdout == step.stdout, "\(step.name)")
                #expect(transcript.stderr == step.stderr, "\(step.name)")
                #expect(transcript.status == step.status, "\(step.name)")
            }
        }
    }

    @Test func cdPwdAndRelativePathsInABucket() throws {
        try check([
            Step(name: "mkdir and cd", lines: "mkdir s3://b/d\ncd s3://b/d\npwd", stdout: "s3://b/d\n"),
            Step(name: "a redirection writes an object", lines: "echo hello > x\ncat x", stdout: "hello\n"),
            Step(name: "appending", lines: "echo again >> x\ncat s3://b/d/x", stdout: "hello\nagain\n"),
            Step(name: "ls", lines: "ls\nls s3://b/", stdout: "x\nd\n"),
            Step(name: "up to the top", lines: "cd ..\npwd\ncd ..\npwd", stdout: "s3://b/\ns3://b/\n"),
            Step(name: "absolute paths stay local", lines: "ls -d /", stdout: "/\n"),
            Step(
                name: "a missing directory", lines: "cd s3://b/nothing",
                stderr: "cd: s3://b/nothing: No such file or directory\n", status: .failure),
        ])
    }

    @Test func copiesBetweenTheDiskAndTheBucketAndInside() throws {
        try check(
            [
                Step(name: "up", lines: "cp local.txt s3://b/one\ncat s3://b/one", stdout: "abc\n"),
                Step(name: "down", lines: "cp s3://b/one back.txt\ncat back.txt", stdout: "abc\n"),
                Step(name: "inside", lines: "cp s3://b/one s3://b/two\ncat s3://b/two", stdout: "abc\n"),
                Step(
                    name: "a tree up", lines: "cp -r tree s3://b/\nfind s3://b/tree",
                    stdout: "s3://b/tree\ns3://b/tree/a\ns3://b/tree/sub\ns3://b/tree/sub/b\n"),
                Step(name: "a tree down", lines: "cp -r s3://b/tree copy\ncat copy/sub/b", stdout: "b\n"),
                Step(
                    name: "mv a file", lines: "mv s3://b/two s3://b/three\nls s3://b/",
                    stdout: "one\nthree\ntree\n"),
                Step(
                    name: "mv a directory", lines: "mv s3://b/tree s3://b/moved\nls s3://b/moved/sub",
                    stdout: "b\n"),
                Step(
                    name: "du", lines: "du -a s3://b/moved",
                    stdout: "1\ts3://b/moved/a\n1\ts3://b/moved/sub/b\n1\ts3://b/moved/sub\n1\ts3://b/moved\n"
                ),
                Step(
                    name: "tree", lines: "tree s3://b/moved",
                    stdout: "s3://b/moved\n|-- a\n`-- sub\n    `-- b\n\n2 directories, 2 files\n"),
            ],
            prepare: { shell in
                try shell.write("local.txt", "abc\n")
                try shell.write("tree/a", "a\n")
                try shell.write("tree/sub/b", "b\n")
            })
    }

    @Test func headTailStatTouchAndRemoval() throws {
        try check(
            [
                Step(
                    name: "head and tail",
                    lines: "cp lines s3://b/lines\nhead -n 2 s3://b/lines\ntail -n 1 s3://b/lines",
                    stdout: "1\n2\n5\n"),
                Step(
                    name: "stat", lines: "stat -c '%n %s %F' s3://b/lines",
                    stdout: "s3://b/lines 10 regular file\n"),
                Step(
                    name: "touch makes a file", lines: "touch s3://b/empty\nstat -c %s s3://b/empty",
                    stdout: "0\n"),
                Step(
                    name: "touch of an existing file", lines: "touch s3://b/lines\ncat s3://b/lines",
                    stdout: "1\n2\n3\n4\n5\n"),
                Step(
                    name: "touch -d", lines: "touch -d 2020-01-01 s3://b/lines",
                    stderr: "touch: cannot touch 's3://b/lines': Operation not supported\n", status: .failure),
                Step(name: "rm", lines: "rm s3://b/empty\nls s3://b/", stdout: "lines\n"),
                Step(
                    name: "rmdir of a full directory",
                    lines: "mkdir s3://b/d\ncp lines s3://b/d/\nrmdir s3://b/d",
                    stderr: "rmdir: failed to remove 's3://b/d': Directory not empty\n", status: .failure),
                Step(name: "rm -r", lines: "rm -r s3://b/d\nls s3://b/", stdout: "lines\n"),
            ],
            prepare: { shell in try shell.write("lines", "1\n2\n3\n4\n5\n") })
    }

    /// Object storage keeps no mode nor times: cp -p and cp -a copy the data and say, for each
    /// file and directory, what they could not keep, as GNU cp does; mv says nothing.
    @Test func cpPreservingWhatObjectStorageCannotKeepSaysSo() throws {
        try check(
            [
                Step(
                    name: "cp -p", lines: "cp -p f s3://b/p",
                    stderr: "cp: preserving times for 's3://b/p': Operation not supported\n", status: .failure),
                Step(name: "the data is there", lines: "cat s3://b/p", stdout: "hi\n"),
                Step(
                    name: "--preserve=mode", lines: "cp --preserve=mode f s3://b/m",
                    stderr: "cp: preserving permissions for 's3://b/m': Operation not supported\n",
                    status: .failure),
                Step(
                    name: "cp -a of a tree", lines: "cp -a d s3://b/t",
                    stderr: """
                        cp: preserving times for 's3://b/t/g': Operation not supported
                        cp: preserving times for 's3://b/t': Operation not supported

                        """, status: .failure),
                Step(name: "its data is there", lines: "cat s3://b/t/g", stdout: "x\n"),
                Step(
                    name: "inside the bucket", lines: "cp -p s3://b/p s3://b/q",
                    stderr: "cp: preserving times for 's3://b/q': Operation not supported\n", status: .failure),
                Step(name: "ownership alone is not asked for", lines: "cp --preserve=ownership f s3://b/o"),
                Step(name: "mv says nothing", lines: "mv f s3://b/moved\ncat s3://b/moved", stdout: "hi\n"),
                Step(name: "cp -p down to the disk", lines: "cp -p s3://b/moved back\ncat back", stdout: "hi\n"),
            ],
            prepare: { shell in
                try shell.write("f", "hi\n")
                try shell.write("d/g", "x\n")
            })
    }

    /// truncate sends the object cut or extended (it was opened and never sent: nothing changed).
    @Test func truncateCutsExtendsAndCreatesObjects() throws {
        try check([
            Step(
                name: "cut", lines: "echo 123456789 > s3://b/t\ntruncate -s 3 s3://b/t\ncat s3://b/t", stdout: "123"),
            Step(name: "extend", lines: "truncate -s +2 s3://b/t\nstat -c %s s3://b/t", stdout: "5\n"),
            Step(name: "create", lines: "truncate -s 2 s3://b/new\nstat -c %s s3://b/new", stdout: "2\n"),
            Step(name: "-c creates nothing", lines: "truncate -c -s 1 s3://b/none\nls s3://b", stdout: "new\nt\n"),
            Step(
                name: "past what is held in memory", lines: "truncate -s 1G s3://b/t",
                stderr: "truncate: failed to truncate 's3://b/t' at 1073741824 bytes: File too large\n",
                status: .failure),
            Step(name: "left as it was", lines: "stat -c %s s3://b/t", stdout: "5\n"),
        ])
    }

    /// What names the current directory or a resolved path names it with the URL: `$PWD/x` is
    /// the object, never a file of the same path on the disk.
    @Test func pwdRealpathAndReadlinkGiveTheURL() throws {
        try check(
            [
                Step(name: "PWD", lines: "mkdir s3://b/d\ncd s3://b/d\necho $PWD", stdout: "s3://b/d\n"),
                Step(name: "OLDPWD and cd -", lines: "cd ..\necho $OLDPWD\ncd -", stdout: "s3://b/d\ns3://b/d\n"),
                Step(
                    name: "rm $PWD/x removes the object", lines: "touch x\nrm -v $PWD/x\nls -A",
                    stdout: "removed 's3://b/d/x'\n"),
                Step(
                    name: "realpath and readlink -f",
                    lines: "touch f\nrealpath . f s3://b\nreadlink -f f\nreadlink -m s3://b/d/new/../g",
                    stdout: "s3://b/d\ns3://b/d/f\ns3://b/\ns3://b/d/f\ns3://b/d/g\n"),
                Step(
                    name: "realpath relative to a directory",
                    lines: "realpath --relative-to=s3://b f\nrealpath --relative-to=/ f\nrealpath --relative-base=/ f",
                    stdout: "d/f\ns3://b/d/f\ns3://b/d/f\n"),
            ])
    }

    /// head and tail of a 20 MiB object fetch its start or its end alone, one ranged GET,
    /// where reading it whole takes a request per part and more.
    @Test(arguments: [
        ("head -n 2", "first\nsecond\n"), ("head -c 6", "first\n"), ("tail -n 2", "penultimate\nlast\n"),
        ("tail -c 5", "last\n"), ("tail -c +20971507", "ultimate\nlast\n"),
    ])
    func headAndTailFetchOnlyWhatTheyShow(_ command: String, _ output: String) throws {
        try withShellAndVolume { shell, volume in
            var contents = [UInt8](repeating: 0x61, count: 20 << 20)
            for end in stride(from: 63, to: contents.count, by: 64) { contents[end] = 0x0A }
            contents.replaceSubrange(0..<13, with: "first\nsecond\n".utf8)
            contents.replaceSubrange((contents.count - 18)..., with: "\npenultimate\nlast\n".utf8)
            try volume.file("/big").write(bytes: contents)
            let gets = volume.client.requestsSent(.getObject)
            let transcript = shell.run("\(command) s3://b/big")
            #expect(transcript.stdout == output)
            #expect(transcript.stderr == "")
            #expect(volume.client.requestsSent(.getObject) - gets == 1)
        }
    }

    @Test func whatObjectStorageCannotDoIsRefused() throws {
        try check(
            [
                Step(
                    name: "chmod", lines: "chmod 600 s3://b/f",
                    stderr: "chmod: changing permissions of 's3://b/f': Operation not supported\n",
                    status: .failure),
                Step(
                    name: "ln -s", lines: "ln -s f s3://b/l",
                    stderr: "ln: failed to create symbolic link 's3://b/l': Operation not supported\n",
                    status: .failure),
                Step(
                    name: "no such bucket", lines: "ls s3://no-such-bucket-here/",
                    stderr: "ls: cannot access 's3://no-such-bucket-here/': No such bucket\n", status: .usage),
            ],
            prepare: { shell in shell.run("touch s3://b/f") })
    }

    // MARK: A missing bucket

    /// A command line meeting a missing bucket: `BUCKET` stands for `s3://no-such-bucket-here`.
    /// GNU's tool, given the twin path `no-such-bucket-here` (a missing directory), says what
    /// shelf says with "No such bucket" for "No such file or directory".
    struct MissingBucket: Sendable, CustomTestStringConvertible {
        let name: String
        let tool: String
        let words: [String]
        var testDescription: String { name }
    }

    static let missingBucket = "no-such-bucket-here"

    static let missingBucketCommands: [MissingBucket] = [
        MissingBucket(name: "cp to", tool: "cp", words: ["local", "BUCKET/x"]),
        MissingBucket(name: "cp of two into", tool: "cp", words: ["local", "other", "BUCKET/d"]),
        MissingBucket(name: "cp -t", tool: "cp", words: ["-t", "BUCKET", "local"]),
        MissingBucket(name: "cp from", tool: "cp", words: ["BUCKET/x", "here"]),
        MissingBucket(name: "cp -r from", tool: "cp", words: ["-r", "BUCKET/d", "here"]),
        MissingBucket(name: "ls", tool: "ls", words: ["BUCKET/d"]),
        MissingBucket(name: "ls -l of the top", tool: "ls", words: ["-l", "BUCKET"]),
        MissingBucket(name: "mkdir", tool: "mkdir", words: ["BUCKET/d"]),
        MissingBucket(name: "rm", tool: "rm", words: ["BUCKET/x"]),
        MissingBucket(name: "rm -r", tool: "rm", words: ["-r", "BUCKET/d"]),
        // rm -f says nothing of what is not there, bucket or file, as GNU's of a missing directory.
        MissingBucket(name: "rm -f", tool: "rm", words: ["-f", "BUCKET/x"]),
        MissingBucket(name: "rmdir", tool: "rmdir", words: ["BUCKET/d"]),
        MissingBucket(name: "touch", tool: "touch", words: ["BUCKET/x"]),
        MissingBucket(name: "find", tool: "find", words: ["BUCKET"]),
        MissingBucket(name: "du", tool: "du", words: ["BUCKET/d"]),
        MissingBucket(name: "stat", tool: "stat", words: ["BUCKET/x"]),
        MissingBucket(name: "stat of the top", tool: "stat", words: ["BUCKET"]),
        MissingBucket(name: "cat", tool: "cat", words: ["BUCKET/x"]),
        MissingBucket(name: "head", tool: "head", words: ["BUCKET/x"]),
    ]

    @Test(.needsLocalFileSystem("GNU's tools read the twin fixture"), arguments: missingBucketCommands)
    func aMissingBucketIsSaidAsGNUSaysOfAMissingDirectory(_ row: MissingBucket) throws {
        try withShell { shell in
            try shell.write("local", "x\n")
            try shell.write("other", "y\n")
            let url = "s3://\(Self.missingBucket)"
            let gnu = try ReferenceTool.run(
                "/usr/bin/" + row.tool, row.words.map { $0.replacing("BUCKET", with: Self.missingBucket) },
                in: shell.directory.file)
            let transcript = shell.run(
                ReferenceTool.commandLine(row.tool, row.words.map { $0.replacing("BUCKET", with: url) }))
            // GNU stat built with statx says `cannot statx`; shelf keeps the classic `cannot stat`.
            let expected = gnu.stderr.replacing(Self.missingBucket, with: url)
                .replacing("No such file or directory", with: "No such bucket")
                .replacing("cannot statx", with: "cannot stat")
            #expect(expected.contains("No such bucket") || row.name == "rm -f")
            #expect(transcript.stderr == expected)
            #expect(transcript.stdout == gnu.stdout)
            #expect(transcript.status == gnu.status)
        }
    }

    /// What has no GNU twin: the shell's own commands and words, and tree(1)'s mark.
    @Test func aMissingBucketIsSaidByTheShellAndTree() throws {
        let url = "s3://\(Self.missingBucket)"
        try check(
            [
                Step(name: "cd", lines: "cd \(url)/d", stderr: "cd: \(url)/d: No such bucket\n", status: .failure),
                Step(
                    name: "a redirection", lines: "echo x > \(url)/x", stderr: "shelf: \(url)/x: No such bucket\n",
                    status: .failure),
                Step(
                    name: "a redirection from", lines: "cat < \(url)/x", stderr: "shelf: \(url)/x: No such bucket\n",
                    status: .failure),
                // GNU says `Not a directory` of `cp local missing/`, the slash asking for one.
                Step(
                    name: "cp into the top", lines: "cp local \(url)/",
                    stderr: "cp: cannot create regular file '\(url)/': No such bucket\n", status: .failure),
                Step(
                    name: "mv to", lines: "mv local \(url)/x",
                    stderr: "mv: cannot create regular file '\(url)/x': No such bucket\n", status: .failure),
                // tree(1) marks what it cannot open; the reason is said on standard error.
                Step(
                    name: "tree", lines: "tree \(url)/d", stdout: "\(url)/d  [error opening dir]\n\n0 directories, 0 files\n",
                    stderr: "tree: cannot open directory '\(url)/d': No such bucket\n", status: 2),
            ],
            prepare: { shell in try shell.write("local", "x\n") })
    }

    // MARK: An endpoint down

    /// Commands against an endpoint where nothing listens: each says so in one line, after one
    /// request (what it asks first), not one per step it would have taken.
    static let refusedCommands: [Step] = [
        Step(name: "ls", lines: "ls s3://b/d", stderr: "ls: cannot access 's3://b/d': Connection refused\n", status: .usage),
        Step(name: "cp to", lines: "cp local s3://b/x", stderr: "cp: cannot stat 's3://b/x': Connection refused\n", status: .failure),
        Step(name: "cp into", lines: "cp local local s3://b/d", stderr: "cp: target 's3://b/d': Connection refused\n", status: .failure),
        Step(name: "cp from", lines: "cp s3://b/x here", stderr: "cp: cannot stat 's3://b/x': Connection refused\n", status: .failure),
        Step(name: "mv to", lines: "mv local s3://b/x", stderr: "mv: cannot stat 's3://b/x': Connection refused\n", status: .failure),
        Step(name: "cat", lines: "cat s3://b/x", stderr: "cat: s3://b/x: Connection refused\n", status: .failure),
        Step(name: "cd", lines: "cd s3://b/d", stderr: "cd: s3://b/d: Connection refused\n", status: .failure),
    ]

    @Test(arguments: refusedCommands) func anEndpointWhereNothingListensEndsTheCommandAtOnce(_ step: Step) throws {
        // A port that was free a moment ago: nothing listens there.
        let port = try FreePorts.choose(2).others[0]
        let client = S3Client(
            endpoint: S3Endpoint(url: "http://127.0.0.1:\(port)")!,
            credentials: Credentials(accessKeyID: "k", secretAccessKey: "s"))
        defer { try? client.shutdown() }
        let shell = TestShell()
        shell.state.schemes.register(VolumeScheme(name: "s3") { _ in S3Volume(client: client, bucket: "b") })
        try shell.write("local", "x\n")
        let transcript = shell.run(step.lines)
        #expect(transcript.stdout == step.stdout)
        #expect(transcript.stderr == step.stderr)
        #expect(transcript.status == step.status)
        let sent = S3Client.Operation.allCases.reduce(0) { $0 + client.requestsSent($1) }
        #expect(sent == 1)
    }

    /// Credentials that may only read and list (a second identity of the server): every change
    /// is refused by the service, and each refusal is one line in GNU's shape.
    static let deniedChanges: [Step] = [
        Step(name: "reading goes on", lines: "cat s3://b/f\nls s3://b/", stdout: "in\nd\nf\n"),
        // The object is refused when its bytes go up: the file could not be created, as GNU cp
        // says of a disk that refuses it.
        Step(
            name: "cp", lines: "cp local s3://b/g",
            stderr: "cp: cannot create regular file 's3://b/g': Permission denied\n", status: .failure),
        Step(
            name: "a redirection", lines: "echo x > s3://b/g", stderr: "shelf: s3://b/g: Permission denied\n",
            status: .failure),
        Step(
            name: "rm", lines: "rm s3://b/f", stderr: "rm: cannot remove 's3://b/f': Permission denied\n",
            status: .failure),
        Step(
            name: "mkdir", lines: "mkdir s3://b/new",
            stderr: "mkdir: cannot create directory 's3://b/new': Permission denied\n", status: .failure),
        Step(
            name: "rmdir", lines: "rmdir s3://b/d",
            stderr: "rmdir: failed to remove 's3://b/d': Permission denied\n", status: .failure),
        Step(
            name: "touch", lines: "touch s3://b/t",
            stderr: "touch: cannot touch 's3://b/t': Permission denied\n", status: .failure),
    ]

    @Test(arguments: deniedChanges) func accessDeniedIsTheShellsOneLineMessage(_ step: Step) throws {
        let server = try SeaweedServer.shared()
        try SeaweedServer.withVolume { volume in
            try volume.client.putObject(bucket: volume.bucket, key: volume.prefix + Array("f".utf8), bytes: Array("in\n".utf8))
            try volume.client.putObject(bucket: volume.bucket, key: volume.prefix + Array("d/".utf8), bytes: [])
            let reader = server.readOnlyClient()
            defer { try? reader.shutdown() }
            let readOnly = S3Volume(client: reader, bucket: volume.bucket, prefix: volume.prefix)
            let shell = TestShell()
            shell.state.schemes.register(VolumeScheme(name: "s3") { _ in readOnly })
            try shell.write("local", "x\n")
            let before = try volume.client.listObjects(bucket: volume.bucket, prefix: volume.prefix).objects.map(\.key)
            let transcript = shell.run(step.lines)
            #expect(transcript.stdout == step.stdout)
            #expect(transcript.stderr == step.stderr)
            #expect(transcript.status == step.status)
            #expect(try volume.client.listObjects(bucket: volume.bucket, prefix: volume.prefix).objects.map(\.key) == before)
            #expect(try volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty)
        }
    }

    @Test(arguments: [(FaultyProxy.Fault.slowDown, "SlowDown"), (.internalError, "InternalError")])
    func aServerFailureThatPersistsIsOneLineWithItsCode(_ fault: FaultyProxy.Fault, _ code: String) throws {
        try SeaweedServer.withVolume(throughProxyBreaking: { "GET \($0)" }, with: fault, times: .max) { volume, proxy in
            try volume.client.putObject(bucket: volume.bucket, key: volume.prefix + Array("f".utf8), bytes: [1])
            let shell = TestShell()
            shell.state.schemes.register(VolumeScheme(name: "s3") { _ in volume })
            let transcript = shell.run("cat s3://b/f")
            #expect(transcript.stderr == "cat: s3://b/f: Server error (\(code))\n")
            #expect(transcript.status == .failure)
            // Sent again as the retry policy says, then given up.
            #expect(proxy.faultsMet == volume.client.retryPolicy.maxAttempts)
        }
    }

    @Test func globsInAURLMatchKeysAndDirectories() throws {
        try check(
            [
                Step(name: "files", lines: "ls s3://b/d/*.txt", stdout: "s3://b/d/a.txt\ns3://b/d/b.txt\n"),
                Step(name: "directories", lines: "echo s3://b/d*", stdout: "s3://b/d s3://b/dd\n"),
                Step(name: "directories only", lines: "echo s3://b/*/", stdout: "s3://b/d/ s3://b/dd/\n"),
                Step(
                    name: "a wildcard in the middle", lines: "echo s3://b/*/a.txt", stdout: "s3://b/d/a.txt\n"
                ),
                Step(name: "a quoted star is a name", lines: "echo 's3://b/*'", stdout: "s3://b/*\n"),
                Step(
                    name: "nothing matches", lines: "ls s3://b/d/*.none",
                    stderr: "shelf: no matches found: s3://b/d/*.none\n", status: .failure),
            ],
            prepare: { shell in
                shell.run("mkdir s3://b/d s3://b/dd\ntouch s3://b/d/a.txt s3://b/d/b.txt s3://b/d/c.log")
            })
    }

    @Test func pipelinesReachTheBucketAndKeepAbsolutePathsLocal() throws {
        try check(
            [
                Step(name: "a URL in a pipeline", lines: "cat s3://b/lines | wc -l", stdout: "3\n"),
                Step(name: "writing into a bucket", lines: "cat lines | head -n 2 > s3://b/two\ncat s3://b/two",
                    stdout: "1\n2\n"),
                Step(name: "a listing into a pipeline", lines: "ls s3://b/ | wc -l", stdout: "2\n"),
                Step(
                    name: "an absolute path under cd s3://", lines: "cd s3://b\ncat $LINES | wc -l\ncat two | wc -l",
                    stdout: "3\n2\n"),
            ],
            prepare: { shell in
                try shell.write("lines", "1\n2\n3\n")
                shell.run("cp lines s3://b/lines")
                shell.state.environment["LINES"] = shell.path("lines").bytes
            })
    }

    @Test(.needsLocalFileSystem("a program runs in a directory of the local file system"))
    func aProgramReadsAnObjectThroughARedirection() throws {
        try check(
            [
                Step(name: "sort", lines: "sort -r < s3://b/lines", stdout: "3\n2\n1\n"),
                Step(name: "a program that reads part", lines: "/usr/bin/head -n 1 < s3://b/big", stdout: "0\n"),
                Step(name: "in a pipeline", lines: "od -An -c < s3://b/lines | wc -l", stdout: "1\n"),
                Step(
                    name: "a missing object", lines: "sort < s3://b/none",
                    stderr: "shelf: s3://b/none: No such file or directory\n", status: .failure),
            ],
            prepare: { shell in
                try shell.write("lines", "1\n2\n3\n")
                try shell.write("big", (0..<200_000).map { "\($0)\n" }.joined())
                shell.run("cp lines big s3://b/")
            })
    }

    /// A key `same` and a key `same/inner` (no marker): a file and a directory of one name.
    /// Each entry is described as what the listing says it is, not by its name (which gives
    /// the file).
    @Test func aFileAndADirectoryOfOneNameAreListedAsWhatTheyAre() throws {
        try withShellAndVolume { shell, volume in
            for key in ["same", "same/inner"] {
                try volume.client.putObject(
                    bucket: volume.bucket, key: volume.prefix + Array(key.utf8), bytes: Array("file\n".utf8))
            }
            #expect(shell.run("ls -F s3://b/").stdout == "same\nsame/\n")
            let long = shell.run("ls -l s3://b/").stdout.split(separator: "\n")
            #expect(long.map { $0.first } == ["t", "-", "d"])
            #expect(shell.run("ls --json s3://b/").stdout.contains("\"type\":\"directory\""))
            #expect(shell.run("find s3://b/ -type d").stdout == "s3://b/\ns3://b/same\n")
            #expect(shell.run("cat s3://b/same s3://b/same/inner").stdout == "file\nfile\n")
        }
    }

    /// A key `same` beside `same/inner`, and a key `alone`: a name written with a trailing slash
    /// names the directory, without one the file.
    static let slashedNames: [Step] = [
        Step(name: "ls of the directory", lines: "ls s3://b/same/", stdout: "inner\n"),
        Step(name: "ls of the file", lines: "ls s3://b/same", stdout: "s3://b/same\n"),
        Step(name: "stat of both", lines: "stat -c %F s3://b/same/ s3://b/same", stdout: "directory\nregular file\n"),
        Step(name: "ls -d of the directory", lines: "ls -dF s3://b/same/", stdout: "s3://b/same//\n"),
        Step(
            name: "cd into the directory", lines: "cd s3://b/same/\npwd\nls\ncat inner\nls -d .\ncd ..\npwd",
            stdout: "s3://b/same\ninner\nfile\n.\ns3://b/\n"),
        Step(
            name: "cd to the file", lines: "cd s3://b/same", stderr: "cd: s3://b/same: Not a directory\n",
            status: .failure),
        Step(name: "cp -r of the directory", lines: "cp -r s3://b/same/ copy\nls copy", stdout: "inner\n"),
        Step(name: "cp of the file", lines: "cp s3://b/same copy\ncat copy", stdout: "file\n"),
        Step(name: "find from the directory", lines: "find s3://b/same/", stdout: "s3://b/same/\ns3://b/same/inner\n"),
        Step(
            name: "cat of the directory", lines: "cat s3://b/same/", stderr: "cat: s3://b/same/: Is a directory\n",
            status: .failure),
        Step(
            name: "rm -r of the directory keeps the file", lines: "rm -rv s3://b/same/\nls -F s3://b/",
            stdout: "removed 's3://b/same/inner'\nremoved directory 's3://b/same/'\nalone\nsame\n"),
        Step(
            name: "a file alone, with a slash", lines: "ls s3://b/alone/",
            stderr: "ls: cannot access 's3://b/alone/': Not a directory\n", status: .usage),
    ]

    @Test(arguments: slashedNames) func aTrailingSlashNamesTheDirectoryBesideAFileOfItsName(_ step: Step) throws {
        try withShellAndVolume { shell, volume in
            for key in ["same", "same/inner", "alone"] {
                try volume.client.putObject(
                    bucket: volume.bucket, key: volume.prefix + Array(key.utf8), bytes: Array("file\n".utf8))
            }
            let transcript = shell.run(step.lines)
            #expect(transcript.stdout == step.stdout)
            #expect(transcript.stderr == step.stderr)
            #expect(transcript.status == step.status)
        }
    }

    /// A directory has no times of its own: stat shows `-`, as ls -l does, or its marker's
    /// LastModified when it has one.
    @Test func statShowsADirectorysTimesAsLsDoesOrItsMarkers() throws {
        try withShellAndVolume { shell, volume in
            try Self.putFiles(1, in: "t/bare", on: volume)
            #expect(shell.run("mkdir s3://b/t/marked").status == .success)
            let bare = shell.run("stat s3://b/t/bare").stdout
            #expect(bare.contains("\nAccess: -\nModify: -\nChange: -\n Birth: -\n"), "\(bare)")
            #expect(shell.run("stat -c '%x|%y|%z|%X|%Y|%Z' s3://b/t/bare").stdout == "-|-|-|0|0|0\n")
            let marker = try volume.client.headObject(
                bucket: volume.bucket, key: volume.prefix + Array("t/marked/".utf8))
            let seconds = try #require(marker.lastModified).secondsSince1970
            #expect(shell.run("stat -c %Y s3://b/t/marked").stdout == "\(seconds)\n")
            #expect(!shell.run("ls -ld s3://b/t/marked").stdout.contains(" - s3://"))
        }
    }

    // MARK: What commands cost in requests

    /// A command, and the listings and HEADs it may send.
    struct Cost: Sendable, CustomTestStringConvertible {
        let name: String
        let command: String
        /// ListObjectsV2 requests.
        let listings: Int
        /// HeadObject requests.
        let heads: Int
        var testDescription: String { name }
    }

    /// Over the tree `t` (ten files, and the directories `x` and `y` of ten files each, none
    /// with a marker), the operand itself is examined once (a HEAD that misses, then a listing
    /// of one key that finds the directory); below it, the walk reads every key in one listing
    /// without a delimiter (30 keys: one page) and describes each entry from it, never a HEAD
    /// per key.
    /// `ls -l` goes no deeper than the operand's entries: one listing with a delimiter.
    static let walkCosts: [Cost] = [
        Cost(name: "du -s", command: "du -s s3://b/t", listings: 1 + 1, heads: 1),
        Cost(name: "du -a", command: "du -a s3://b/t", listings: 1 + 1, heads: 1),
        Cost(name: "find -size", command: "find s3://b/t -size -1k", listings: 1 + 1, heads: 1),
        Cost(name: "ls -lR", command: "ls -lR s3://b/t", listings: 1 + 1, heads: 1),
        // tree examines its operand twice.
        Cost(name: "tree", command: "tree s3://b/t", listings: 2 + 1, heads: 2),
        Cost(name: "ls -l", command: "ls -l s3://b/t", listings: 1 + 1, heads: 1),
    ]

    @Test(arguments: walkCosts) func aWalkListsEachDirectoryOnceAndHeadsNoKey(_ cost: Cost) throws {
        try withShellAndVolume { shell, volume in
            for directory in ["t", "t/x", "t/y"] { try Self.putFiles(10, in: directory, on: volume) }
            Self.expect(cost, in: shell, on: volume)
        }
    }

    /// Runs `cost`'s command in `shell` and expects it to succeed, sending the listings and
    /// HEADs it says to `volume`.
    static func expect(_ cost: Cost, in shell: TestShell, on volume: S3Volume) {
        let listings = volume.client.requestsSent(.listObjects)
        let heads = volume.client.requestsSent(.headObject)
        let transcript = shell.run(cost.command)
        #expect(transcript.stderr == "")
        #expect(transcript.status == .success)
        #expect(volume.client.requestsSent(.listObjects) - listings == cost.listings)
        #expect(volume.client.requestsSent(.headObject) - heads == cost.heads)
    }

    /// Deep commands over 2,100 keys in 100 directories of 21 files, and the listings they take
    /// to examine the operand (tree examines it twice).
    static let deepWalks: [(command: String, examining: Int)] = [
        ("du -s s3://b/t", 1), ("find s3://b/t -type f", 1), ("ls -R s3://b/t", 1), ("tree s3://b/t", 2),
    ]

    /// The walk reads the 2,100 keys in three listings of 1,000, and lists the top, which has
    /// more keys below it than one listing holds, with a delimiter (100 directories: one
    /// request): four listings and the operand's, not one per directory. (One tree for every
    /// row: writing it is most of the test's time.)
    @Test func aDeepWalkListsAThousandKeysARequestNotEachDirectory() throws {
        try withShellAndVolume { shell, volume in
            try Self.put((0..<2_100).map { "t/d\($0 / 21)/f\($0 % 21)" }, on: volume)
            for (command, examining) in Self.deepWalks {
                let listings = volume.client.requestsSent(.listObjects)
                let transcript = shell.run(command)
                #expect(transcript.stderr == "", "\(command)")
                #expect(transcript.status == .success, "\(command)")
                #expect(volume.client.requestsSent(.listObjects) - listings == examining + 3 + 1, "\(command)")
            }
        }
    }

    @Test func aLongListingShowsNoOwnersLinksOrDirectoryTimes() throws {
        try withShellAndVolume { shell, volume in
            try Self.putFiles(1, in: "t/d", on: volume)
            try volume.client.putObject(
                bucket: volume.bucket, key: volume.prefix + Array("t/f".utf8), bytes: [1, 2, 3])
            let lines = shell.run("ls -l s3://b/t").stdout.split(
                separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 4)
            guard lines.count == 4 else { return }
            #expect(lines[0] == "total 1")
            #expect(lines[1] == "drwxr-xr-x - - - 0            - d")
            // A file's time is its LastModified.
            #expect(lines[2].hasPrefix("-rw-r--r-- - - - 3 "))
            #expect(lines[2].hasSuffix(" f") && !lines[2].hasSuffix(" - f"))
            #expect(shell.run("ls -ld s3://b/t/").stdout == "drwxr-xr-x - - - 0            - s3://b/t/\n")
        }
    }

    // MARK: Completion

    /// A line typed in a directory, and what one Tab makes of it (nil: nothing to insert).
    struct Tab: Sendable, CustomTestStringConvertible {
        let name: String
        var directory = "s3://b/"
        let line: String
        let completed: String?
        var testDescription: String { name }
    }

    static let tabs: [Tab] = [
        Tab(name: "a key", line: "cat s3://b/t/be", completed: "cat s3://b/t/beta "),
        Tab(name: "a prefix, as a directory", line: "cd s3://b/t/alp", completed: "cd s3://b/t/alps/"),
        Tab(name: "cd offers directories only", line: "cd s3://b/t/al", completed: "cd s3://b/t/alps/"),
        Tab(name: "what two names share", line: "cat s3://b/t/al", completed: "cat s3://b/t/alp"),
        Tab(name: "a key below a prefix", line: "cat s3://b/t/alps/", completed: "cat s3://b/t/alps/x "),
        Tab(name: "relative to a directory in the bucket", directory: "s3://b/t", line: "cat be", completed: "cat beta "),
        Tab(name: "nothing matches", line: "cat s3://b/t/zz", completed: nil),
        Tab(name: "a missing directory offers nothing", line: "cat s3://b/nope/a", completed: nil),
    ]

    /// `t` also holds 1,005 other keys: completing asks for the matching keys alone, in one
    /// listing (and what examining the directory takes when nothing matches).
    @Test func completionOffersKeysAndPrefixesThatStartWithTheWord() throws {
        try withShellAndVolume { shell, volume in
            let keys = ["t/alpha", "t/alps/x", "t/beta"] + (0..<1_005).map { "t/f\($0)" }
            try Self.put(keys, on: volume)
            for tab in Self.tabs {
                shell.run("cd \(tab.directory)")
                let line = Array(tab.line.utf8)
                let listings = volume.client.requestsSent(.listObjects)
                let completion = Completer.complete(line: line, cursor: line.count, state: shell.state)
                let completed = completion.applied(to: line).map { String(decoding: $0, as: UTF8.self) }
                #expect(completed == tab.completed, "\(tab.name)")
                let sent = volume.client.requestsSent(.listObjects) - listings
                #expect(tab.completed == nil ? sent <= 3 : sent == 1, "\(tab.name): \(sent) listings")
            }
        }
    }

    /// Writes `keys` (paths below `s3://b/`) of one byte each, four at a time.
    static func put(_ keys: [String], on volume: S3Volume) throws {
        let failures = Mutex<[any Error]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for index in keys.indices where index % 4 == lane {
                do {
                    try volume.client.putObject(
                        bucket: volume.bucket, key: volume.prefix + Array(keys[index].utf8), bytes: [1])
                } catch {
                    failures.withLock { $0.append(error) }
                }
            }
        }
        if let failure = failures.withLock({ $0.first }) { throw failure }
    }

    // MARK: Named remotes

    @Test func aNamedRemoteIsAPlaceForEveryCommand() throws {
        try check(
            [
                Step(name: "defined", lines: "remote backup s3://b/backups"),
                Step(name: "written to and listed", lines: "touch @backup/f; ls @backup s3://b/backups/", stdout: "s3://b/backups:\nf\n\ns3://b/backups/:\nf\n"),
                Step(name: "a directory to go to", lines: "cd @backup; pwd; cd @backup/..; pwd", stdout: "s3://b/backups\ns3://b/\n"),
                Step(name: "listed as it reads back", lines: "remote", stdout: "remote backup 's3://b/backups'\n"),
                Step(name: "quoted, a name", lines: "ls '@backup'", stderr: "ls: cannot access '@backup': No such file or directory\n", status: .usage),
                Step(
                    name: "not a URL", lines: "remote x backups",
                    stderr: "shelf: remote: 'backups': not a URL (s3://BUCKET/PREFIX)\n", status: .failure),
            ],
            prepare: { shell in shell.run("mkdir s3://b/backups") })
    }

    @Test func aNamedRemoteCompletes() throws {
        try withShell { shell in
            shell.run("remote backup s3://b/backups; mkdir s3://b/backups; touch s3://b/backups/file")
            for (line, completed) in [("cat @ba", "cat @backup/"), ("cat @backup/fi", "cat @backup/file ")] {
                let bytes = Array(line.utf8)
                let completion = Completer.complete(line: bytes, cursor: bytes.count, state: shell.state)
                #expect(completion.applied(to: bytes).map { String(decoding: $0, as: UTF8.self) } == completed, "\(line)")
            }
        }
    }

    // MARK: JSON

    /// Where each command learns of the file: a listing with a delimiter, one without, a HEAD.
    static let jsonCommands = ["ls --json s3://b/t", "find s3://b/t --json", "stat --json s3://b/t/f s3://b/t/d"]

    @Test(arguments: jsonCommands) func jsonRecordsOfObjectsCarryTheirEntityTagAndStorageClass(_ command: String) throws {
        try withShellAndVolume { shell, volume in
            try Self.putFiles(1, in: "t/d", on: volume)
            try volume.client.putObject(
                bucket: volume.bucket, key: volume.prefix + Array("t/f".utf8), bytes: Array("contents".utf8))
            let head = try volume.client.headObject(bucket: volume.bucket, key: volume.prefix + Array("t/f".utf8))
            let tag = try #require(head.eTag).filter { $0 != "\"" }
            let transcript = shell.run(command)
            #expect(transcript.stderr == "")
            // Every record but the last ends its line with the comma before the next.
            let lines = transcript.stdout.split(separator: "\n").map { String($0.hasSuffix(",") ? $0.dropLast() : $0) }
            let file = try #require(lines.first { $0.contains("\"name\":\"f\"") })
            #expect(file.hasSuffix(",\"etag\":\"\(tag)\",\"storage_class\":\"STANDARD\"}"))
            let directory = try #require(lines.first { $0.contains("\"name\":\"d\"") })
            #expect(!directory.contains("etag") && !directory.contains("storage_class"))
        }
    }

    /// A JSON command over the tree `t`, run on `s3://b/t` and on the disk's `t`: the records it
    /// writes (paths with the operand spelled `t`), each with whether it has times on `s3://`.
    struct RecordsOfATree: Sendable, CustomTestStringConvertible {
        let name: String
        /// The command line, with `T` for the operand.
        let command: String
        /// The paths of the records on `s3://`, each with whether its record has times.
        let timedOnObjectStorage: [String: Bool]
        var testDescription: String { name }
    }

    /// `t` holds an object `f`, a directory `bare` that is only the prefix of `bare/f0`, and a
    /// directory `marked` that mkdir made (with a marker); `t` itself has no marker. Only an
    /// operand's HEAD reads a marker: listings and walks describe a directory by its prefix.
    static let recordsOfATree: [RecordsOfATree] = [
        RecordsOfATree(name: "find --json", command: "find T --json", timedOnObjectStorage: walkedTree),
        RecordsOfATree(name: "du --json -a", command: "du --json -a T", timedOnObjectStorage: walkedTree),
        RecordsOfATree(name: "tree -J", command: "tree -J T", timedOnObjectStorage: walkedTree),
        RecordsOfATree(
            name: "ls -l --json", command: "ls -l --json T",
            timedOnObjectStorage: ["t/f": true, "t/bare": false, "t/marked": false]),
        RecordsOfATree(
            name: "stat --json", command: "stat --json T/f T/bare T/marked",
            timedOnObjectStorage: ["t/f": true, "t/bare": false, "t/marked": true]),
        RecordsOfATree(
            name: "find --json of the directories", command: "find T/marked T/bare --json",
            timedOnObjectStorage: ["t/marked": true, "t/bare": false, "t/bare/f0": true]),
    ]

    /// What a walk of `t` writes: its directories have no times, as their prefixes have none.
    static let walkedTree = ["t": false, "t/f": true, "t/bare": false, "t/bare/f0": true, "t/marked": false]

    /// Object storage keeps no owners and a prefix keeps no times: a record leaves those keys
    /// out rather than making values up; on the disk every record has them all.
    @Test(arguments: recordsOfATree)
    func jsonRecordsLeaveOutWhatTheVolumeDoesNotKeep(_ row: RecordsOfATree) throws {
        try withShellAndVolume { shell, volume in
            try volume.client.putObject(
                bucket: volume.bucket, key: volume.prefix + Array("t/f".utf8), bytes: [1, 2, 3])
            try Self.putFiles(1, in: "t/bare", on: volume)
            try shell.write("t/f", "abc")
            try shell.write("t/bare/f0", "abc")
            for operand in ["s3://b/t", "t"] {
                #expect(shell.run("mkdir \(operand)/marked").status == .success)
                let transcript = shell.run(row.command.replacing("T", with: operand))
                #expect(transcript.stderr == "", "\(operand)")
                let records = try Self.records(in: transcript.stdout, operand: operand)
                #expect(Set(records.keys) == Set(row.timedOnObjectStorage.keys), "\(operand)")
                for (path, fields) in records {
                    let onDisk = operand == "t"
                    let timed = onDisk || row.timedOnObjectStorage[path] == true
                    #expect((fields["owner"] != nil) == onDisk, "\(operand): \(path)")
                    #expect((fields["group"] != nil) == onDisk, "\(operand): \(path)")
                    for time in ["modified", "accessed", "changed"] {
                        #expect((fields[time] != nil) == timed, "\(operand): \(path) \(time)")
                        let madeUp = (fields[time] as? String)?.hasPrefix("1970-") == true
                        #expect(!madeUp, "\(operand): \(path) \(time)")
                    }
                }
            }
        }
    }

    /// The fields of every record in JSON `text` (tree's nested in `contents`), by path with
    /// `operand` spelled `t`; a key written as `null` is there, holding `NSNull`.
    static func records(in text: String, operand: String) throws -> [String: [String: Any]] {
        var records: [String: [String: Any]] = [:]
        func collect(_ value: Any) {
            if let array = value as? [Any] { return array.forEach(collect) }
            guard let object = value as? [String: Any] else { return }
            if let path = object["path"] as? String {
                records["t" + path.dropFirst(operand.count)] = object
            }
            object["contents"].map(collect)
        }
        collect(try JSONSerialization.jsonObject(with: Data(text.utf8)))
        return records
    }

    // MARK: Removing trees

    @Test func rmRemovesEachDirectorysFilesInBatchesAndSaysSoInOrder() throws {
        try withShellAndVolume { shell, volume in
            try Self.putFiles(2, in: "t", on: volume)
            try Self.putFiles(1, in: "t/sub", on: volume)
            try volume.client.putObject(
                bucket: volume.bucket, key: volume.prefix + Array("t/sub/".utf8), bytes: [])
            let batches = volume.client.requestsSent(.deleteObjects)
            let heads = volume.client.requestsSent(.headObject)
            let transcript = shell.run("rm -rv s3://b/t")
            #expect(
                transcript.stdout
                    == "removed 's3://b/t/f0'\nremoved 's3://b/t/f1'\nremoved 's3://b/t/sub/f0'\n"
                    + "removed directory 's3://b/t/sub'\nremoved directory 's3://b/t'\n")
            #expect(transcript.stderr == "")
            #expect(transcript.status == .success)
            // One batch for the files, one for the directory below. HEADs go to the operand alone (rm examines
            // it, the walk starts from it, and the emptied top, without a marker, is checked to
            // have been a directory), however many files there are.
            #expect(volume.client.requestsSent(.deleteObjects) - batches == 2)
            #expect(volume.client.requestsSent(.headObject) - heads == 3)
            #expect(
                try volume.client.listObjects(bucket: volume.bucket, prefix: volume.prefix).objects.isEmpty)
        }
    }

    @Test func rmRemovesDirectoriesWithTheKeysNotOneRequestEach() throws {
        try withShellAndVolume { shell, volume in
            for directory in 0..<30 { try Self.putFiles(3, in: "t/d\(directory)", on: volume) }
            try Self.putFiles(2, in: "t/d0/deeper", on: volume)
            try volume.client.putObject(
                bucket: volume.bucket, key: volume.prefix + Array("t/d1/".utf8), bytes: [])
            let batches = volume.client.requestsSent(.deleteObjects)
            let single = volume.client.requestsSent(.deleteObject)
            let transcript = shell.run("rm -rv s3://b/t")
            #expect(transcript.stderr == "")
            #expect(transcript.status == .success)
            // The 92 files in one request, then the directories deepest first: `d0/deeper`,
            // then the 30 `dN`; the top alone, as the walk's operand.
            #expect(volume.client.requestsSent(.deleteObjects) - batches == 3)
            #expect(volume.client.requestsSent(.deleteObject) - single == 1)
            let lines = transcript.stdout.split(separator: "\n")
            #expect(lines.count == 92 + 31 + 1)
            #expect(
                lines.prefix(6) == [
                    "removed 's3://b/t/d0/f0'", "removed 's3://b/t/d0/f1'", "removed 's3://b/t/d0/f2'",
                    "removed 's3://b/t/d0/deeper/f0'", "removed 's3://b/t/d0/deeper/f1'",
                    "removed directory 's3://b/t/d0/deeper'",
                ])
            #expect(lines.last == "removed directory 's3://b/t'")
            #expect(
                try volume.client.listObjects(bucket: volume.bucket, prefix: volume.prefix).objects.isEmpty)
            #expect(shell.run("ls s3://b/").stdout == "")
        }
    }

    @Test func rmRemovesAThousandKeysARequest() throws {
        try withShellAndVolume { shell, volume in
            try Self.putFiles(1_005, in: "many", on: volume)
            let batches = volume.client.requestsSent(.deleteObjects)
            let single = volume.client.requestsSent(.deleteObject)
            let transcript = shell.run("rm -r s3://b/many")
            #expect(transcript.stderr == "")
            #expect(transcript.status == .success)
            #expect(volume.client.requestsSent(.deleteObjects) - batches == 2)
            // Only the directory's marker, which it never had.
            #expect(volume.client.requestsSent(.deleteObject) - single == 1)
            #expect(
                try volume.client.listObjects(bucket: volume.bucket, prefix: volume.prefix).objects.isEmpty)
        }
    }

    // MARK: Files in parallel

    /// A transfer of a tree, run once with files in parallel and once one at a time.
    struct ParallelCopy: Sendable, CustomTestStringConvertible {
        let name: String
        /// The lines, `DEST` standing for a place of their own on s3 (`s3://b/par` in parallel,
        /// `s3://s/ser` one at a time) and `HOME` for one on the disk.
        let lines: String
        /// Whether the tree is on s3 (at `DEST/src`) before the lines run, rather than on the disk.
        var fromBucket = false
        /// How many files the copy holds in the end.
        var files = 25
        var testDescription: String { name }
    }

    static let parallelCopies = [
        ParallelCopy(name: "up", lines: "cp -rv src DEST/up"),
        ParallelCopy(name: "up into an existing directory", lines: "mkdir DEST/up\ncp -rv src DEST/up"),
        ParallelCopy(name: "down", lines: "cp -rv DEST/src HOME", fromBucket: true),
        ParallelCopy(name: "inside the bucket", lines: "cp -rv DEST/src DEST/copy", fromBucket: true),
        // mv removes what it copied when a file could not be.
        ParallelCopy(name: "mv up", lines: "mv -v src DEST/up", files: 0),
        ParallelCopy(name: "mv down", lines: "mv -v DEST/src HOME", fromBucket: true),
    ]

    /// Writes `src`: files large enough that copied at once they end out of order (the first
    /// ones largest), a directory below, and a name S3 cannot hold among them.
    static func writeTree(in shell: TestShell) throws {
        for index in 0..<24 {
            let size = index < 3 ? 3 << 20 : 100 + index
            try shell.write(
                "src/f\(index / 10)\(index % 10)", String(repeating: "x", count: size) + "\(index)")
        }
        try shell.write("src/sub/g", "g\n")
        try (shell.path("src") + File(bytes: [0x6D, 0xFF])).write(bytes: [1])
    }

    /// The files below `directory` (a directory of the disk or a place of s3) and their bytes.
    static func contents(of directory: File) throws -> [String: [UInt8]] {
        guard directory.exists else { return [:] }
        var found: [String: [UInt8]] = [:]
        for result in directory.walk(WalkOptions(kinds: [.regular])) {
            let entry = try result.get()
            found[String(decoding: entry.file.bytes.dropFirst(directory.bytes.count), as: UTF8.self)] =
                try entry.file.readBytes()
        }
        return found
    }

    @Test(arguments: parallelCopies)
    func filesInParallelSayWhatOneAtATimeSays(_ copy: ParallelCopy) throws {
        try withShellAndVolume { shell, volume in
            // The same place of the bucket, through a volume that copies one file at a time.
            let serial = S3Volume(
                client: volume.client, bucket: volume.bucket, prefix: volume.prefix,
                partSize: volume.partSize,
                concurrentRequests: 1)
            shell.state.schemes.register(
                VolumeScheme(name: "s3") { bucket in bucket == Array("s".utf8) ? serial : volume })
            var results: [(transcript: Transcript, tree: [String: [UInt8]])] = []
            for (destination, home) in [("s3://s/ser", "ser"), ("s3://b/par", "par")] {
                try Self.writeTree(in: shell)
                #expect(shell.run("mkdir \(destination)").status == .success)
                if copy.fromBucket {
                    // Up one at a time, without the name S3 refuses.
                    try (shell.path("src") + File(bytes: [0x6D, 0xFF])).removeFile()
                    #expect(shell.run("cp -r src \(destination)/src\nrm -r src").status == .success)
                }
                let lines = copy.lines.replacing("DEST", with: destination).replacing("HOME", with: home)
                let transcript = shell.run(lines)
                // The copy is the last word: `DEST/…` or `HOME`.
                let made = String(copy.lines.split(whereSeparator: { $0 == " " || $0 == "\n" }).last!)
                let target =
                    made == "HOME"
                    ? shell.path(home)
                    : (home == "ser" ? serial : volume).file(made.replacing("DEST", with: "/" + home))
                results.append((transcript, try Self.contents(of: target)))
                _ = shell.run("rm -rf src")
            }
            let (one, parallel) = (results[0], results[1])
            /// The transcript's text with the one-at-a-time places spelled as the parallel ones.
            func respelled(_ text: String) -> String {
                text.replacing("s3://s/ser", with: "s3://b/par").replacing("'ser", with: "'par")
            }
            #expect(parallel.transcript.stdout == respelled(one.transcript.stdout))
            #expect(parallel.transcript.stderr == respelled(one.transcript.stderr))
            #expect(parallel.transcript.status == one.transcript.status)
            #expect(parallel.tree == one.tree)
            #expect(parallel.tree.count == copy.files)
            #expect(try volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty)
        }
    }

    @Test func aCopyStoppedMidwayLeavesNoPartialObjectAndNoUpload() throws {
        try withShellAndVolume { shell, volume in
            try Self.writeTree(in: shell)
            try (shell.path("src") + File(bytes: [0x6D, 0xFF])).removeFile()
            // Stopped after the copy has asked a few dozen times, with files in flight.
            CancelAfter(polls: 40).install(in: shell)
            let transcript = shell.run("cp -r src s3://b/up")
            #expect(transcript.status != .success)
            let written = try Self.contents(of: shell.state.resolve(File(bytes: Array("s3://b/up".utf8))))
            let source = try Self.contents(of: shell.path("src"))
            #expect(written.count < source.count)
            for (name, bytes) in written { #expect(bytes == source[name], "\(name)") }
            #expect(try volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty)
        }
    }

    /// cp looks at each operand once (the copy itself does not ask again) and the volume at
    /// what it is about to write: the key (a HEAD, and a listing for a directory of its name
    /// when no object is there) and, for a new key, its parent. A path where nothing is costs
    /// the look at its parent too (which part of the path is missing). `t/f0` and `t/f1` are
    /// there; `local` is a file of the disk. Before, each path was looked at several times: 10
    /// HEADs and 10 listings up to a new key, 6 HEADs onto one, 2 down, 11 and 9 across to a
    /// new key, 8 and 1 onto one. The copy must have been made all the same.
    static let copyCosts: [Cost] = [
        // cp: t/new, t (2 + 2); the volume: t/new, t (2 + 2).
        Cost(name: "up to a new key", command: "cp local s3://b/t/new", listings: 4, heads: 4),
        // cp: t/f1; whether t/f1 may be written over (its kind, its access); the volume: t/f1.
        Cost(name: "up onto a key", command: "cp local s3://b/t/f1", listings: 0, heads: 4),
        // cp: t/f0.
        Cost(name: "down", command: "cp s3://b/t/f0 down", listings: 0, heads: 1),
        // cp: t/f0, t/new, t (3 + 2); the copy on the server: its parent t (1 + 1).
        Cost(name: "across to a new key", command: "cp s3://b/t/f0 s3://b/t/new", listings: 3, heads: 4),
        // cp: t/f0, t/f1; whether t/f1 may be written over (2); the copy on the server: t (1 + 1).
        Cost(name: "across onto a key", command: "cp s3://b/t/f0 s3://b/t/f1", listings: 1, heads: 5),
    ]

    @Test(arguments: copyCosts) func aCopyLooksAtEachPathOnceAndTheVolumeChecksOnce(_ cost: Cost) throws {
        try withShellAndVolume { shell, volume in
            try Self.putFiles(2, in: "t", on: volume)
            try shell.write("local", "x\n")
            Self.expect(cost, in: shell, on: volume)
            // `cp SOURCE DEST`: DEST holds SOURCE's bytes.
            let operands = cost.command.split(separator: " ").dropFirst()
            let copied = shell.run("cat \(operands.first!)")
            #expect(copied.status == .success)
            #expect(shell.run("cat \(operands.last!)").stdout == copied.stdout)
        }
    }

    // MARK: Copies inside the service

    /// cp, cp -r and mv to a place in the same bucket or in another bucket of the server: every
    /// file is copied by the server (CopyObject), none comes down.
    @Test(arguments: ["inside the bucket", "to another bucket"])
    func cpAndMvCopyOnTheServer(_ destination: String) throws {
        try withShellAndVolume { shell, volume in
            try SeaweedServer.shared().withBucket { _, other in
                let toOtherBucket = destination == "to another bucket"
                let target = toOtherBucket ? S3Volume(client: volume.client, bucket: other) : volume
                let top = "s3://" + (toOtherBucket ? other : "b")
                try Self.putFiles(2, in: "d", on: volume)
                let gets = volume.client.requestsSent(.getObject)
                let puts = volume.client.requestsSent(.putObject)
                let copies = volume.client.requestsSent(.copyObject)
                let transcript = shell.run(
                    "cp s3://b/d/f0 \(top)/copy\ncp -r s3://b/d \(top)/e\nmv s3://b/d/f1 \(top)/moved")
                #expect(transcript.stderr == "")
                #expect(transcript.status == .success)
                #expect(volume.client.requestsSent(.copyObject) - copies == 4)
                #expect(volume.client.requestsSent(.getObject) == gets)
                // Only the marker of the directory cp -r makes.
                #expect(volume.client.requestsSent(.putObject) - puts == 1)
                for path in ["/copy", "/e/f0", "/e/f1", "/moved"] {
                    #expect(try target.file(path).readBytes() == [1, 2, 3], "\(path)")
                }
                #expect(!volume.file("/d/f1").exists)
            }
        }
    }

    // MARK: The multipart threshold

    /// cp of a file on the disk, which the volume reads in pieces as its parts go (PieceTaker)
    /// when it is larger than a part.
    @Test(
        .needsLocalFileSystem("a file of the disk is read in pieces as its parts go"),
        arguments: SizeAroundAPart.rows)
    func cpOfAFileGoesUpInPartsOnlyAboveTheDefaultPartSize(_ row: SizeAroundAPart) throws {
        try SeaweedServer.withVolume { direct in
            // S3Volume's own default, not the fixture's.
            let volume = S3Volume(client: direct.client, bucket: direct.bucket, prefix: direct.prefix)
            let shell = TestShell()
            shell.state.schemes.register(VolumeScheme(name: "s3") { _ in volume })
            let contents = (0..<row.size).map { UInt8(truncatingIfNeeded: $0 &* 23 &+ $0 >> 12) }
            try shell.path("big").write(bytes: contents)
            let transcript = shell.run("cp big s3://b/big")
            #expect(transcript.stderr == "")
            #expect(transcript.status == .success)
            if row.parts > 0 { #expect(volume.partBytesHeld.peak == 0, "read in pieces, no part held in memory") }
            row.expectRequests(sentBy: volume.client)
            #expect(try volume.file("/big").readBytes() == contents)
        }
    }

    // MARK: No credentials

    static let noCredentials = "No credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE)"

    /// Commands of a shell with no credentials: each says so in one line, in GNU's shape,
    /// naming the path, and fails.
    static let withoutCredentials: [Step] = [
        Step(
            name: "ls of a bucket", lines: "ls s3://b",
            stderr: "ls: cannot access 's3://b': \(noCredentials)\n", status: .usage),
        Step(
            name: "ls of the buckets", lines: "ls s3://",
            stderr: "ls: cannot access 's3://': \(noCredentials)\n", status: .usage),
        Step(name: "cat", lines: "cat s3://b/x", stderr: "cat: s3://b/x: \(noCredentials)\n", status: .failure),
        Step(
            name: "cp to", lines: "cp local s3://b/x",
            stderr: "cp: cannot stat 's3://b/x': \(noCredentials)\n", status: .failure),
        Step(name: "cd", lines: "cd s3://b", stderr: "cd: s3://b: \(noCredentials)\n", status: .failure),
    ]

    /// `s3://` wired as shelf wires it (Sources/shelf/main.swift), to the configuration of an
    /// empty environment and a home without `~/.aws`.
    @Test(arguments: withoutCredentials) func withoutCredentialsEachCommandSaysSoInOneLine(_ step: Step) throws {
        let home = MemoryVolume().file("/home/u")
        try home.makeDirectory(intermediates: true)
        let objectStorage = S3Volumes {
            Result { () throws(S3Configuration.Problem) in try S3Configuration(variable: { _ in nil }, home: home) }
        }
        defer { objectStorage.shutdown() }
        let shell = TestShell()
        shell.state.schemes.register(
            VolumeScheme(
                name: "s3", open: { objectStorage.volume(bucket: $0) },
                authorities: { objectStorage.buckets(opening: $0) }))
        try shell.write("local", "x\n")
        let transcript = shell.run(step.lines)
        #expect(transcript.stdout == step.stdout)
        #expect(transcript.stderr == step.stderr)
        #expect(transcript.status == step.status)
    }
}
