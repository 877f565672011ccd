import Foundation
import Glibc
import ObjectStorage
import ObjectVolume
import SeaweedFixture
import Testing

/// A real signal to a `shelf -c 'cp BIG s3://…'` process in the middle of its multipart upload:
/// the process ends as a shell does (128 + the signal), and no upload is left behind on the
/// server (ListMultipartUploads is empty), nor the object. Ctrl-C in the middle of a copy of
/// many files stops it silently.
@Suite(.timeLimit(.minutes(1))) struct ObjectStorageInterruptTests {
    /// What a shelf that ran `line` in `directory`, against `server`, ended with after `signal`,
    /// sent once `begun` said so (asked every 10 ms, up to 10 s, while shelf runs).
    private static func signalled(
        _ signal: Int32, running line: String, in directory: URL, server: SeaweedServer, once begun: () throws -> Bool
    ) throws -> (begun: Bool, reason: Process.TerminationReason, status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ScriptTests.binary)
        process.arguments = ["-c", line]
        process.currentDirectoryURL = directory
        process.environment = [
            "HOME": directory.path, "LC_ALL": "C", "PATH": "/usr/bin:/bin",
            "AWS_ACCESS_KEY_ID": server.credentials.accessKeyID,
            "AWS_SECRET_ACCESS_KEY": server.credentials.secretAccessKey,
            "AWS_ENDPOINT_URL": "http://127.0.0.1:\(server.port)", "AWS_REGION": "us-east-1",
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var started = false
        for _ in 0..<1_000 where !started && process.isRunning {
            started = try begun()
            if !started { usleep(10_000) }
        }
        kill(process.processIdentifier, signal)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (started, process.terminationReason, process.terminationStatus, stderr)
    }

    /// Ctrl-C while the files of a tree go up, many at once: the script stops with 130 and says
    /// only that (not "Interrupted system call" for each file in flight, nor, for mv, that a
    /// destination never made cannot be removed); mv keeps its source whole.
    @Test(arguments: ["cp -r", "mv"])
    func ctrlCDuringACopyOfManyFilesIsSilent(_ command: String) throws {
        let server = try SeaweedServer.shared()
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tree = directory.appendingPathComponent("tree")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: false)
        let count = 5_000
        for index in 0..<count {
            try Data("\(index)\n".utf8).write(to: tree.appendingPathComponent("f\(index)"))
        }
        try SeaweedServer.withVolume { volume in
            try volume.client.putObject(bucket: volume.bucket, key: volume.prefix + Array("other".utf8), bytes: [1])
            let url = "s3://\(volume.bucket)/" + String(decoding: volume.prefix, as: UTF8.self) + "tree"
            // The signal comes once files are going up: the server lists one.
            let (begun, _, status, stderr) = try Self.signalled(
                SIGINT, running: "\(command) tree \(url); echo never > out", in: directory, server: server
            ) {
                try !volume.client.listObjects(
                    bucket: volume.bucket, prefix: volume.prefix + Array("tree/".utf8), maxKeys: 1
                ).objects.isEmpty
            }
            #expect(begun, "\(command): the copy began")
            #expect(status == 130, "\(command)")
            #expect(stderr == "shelf: stopped at -c:1\n", "\(command)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: tree.path).count == count, "\(command)")
        }
    }

    @Test(
        "A signal during a multipart upload aborts it and ends shelf with 128 + the signal",
        arguments: [("SIGINT", SIGINT, 130), ("SIGTERM", SIGTERM, 143)])
    func signalDuringAMultipartUpload(_ name: String, _ signal: Int32, _ expected: Int32) throws {
        let server = try SeaweedServer.shared()
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 8 GiB of holes: nothing on disk, but every byte goes up, which takes far longer than
        // the test waits.
        let big = open(directory.appendingPathComponent("big").path, O_WRONLY | O_CREAT, 0o644)
        #expect(big >= 0 && ftruncate(big, 1 << 33) == 0)
        close(big)
        try SeaweedServer.withVolume { volume in
            // The volume's prefix is a directory once a key is below it.
            try volume.client.putObject(bucket: volume.bucket, key: volume.prefix + Array("other".utf8), bytes: [1])
            let url = "s3://\(volume.bucket)/" + String(decoding: volume.prefix, as: UTF8.self) + "big"
            // The signal comes once the upload is begun: the server lists it.
            let (begun, reason, status, stderr) = try Self.signalled(
                signal, running: "cp big \(url); echo never > out", in: directory, server: server
            ) {
                try !volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty
            }
            #expect(begun, "\(name): the upload began")
            #expect(reason == .exit, "\(name)")
            #expect(status == expected, "\(name): \(stderr)")
            #expect(
                try volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty,
                "\(name): the upload was aborted")
            let missing = #expect(throws: S3Error.self) {
                try volume.client.headObject(bucket: volume.bucket, key: volume.prefix + Array("big".utf8))
            }
            #expect(missing?.kind == .noSuchKey, "\(name)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["big"], "\(name)")
        }
    }
}
