import Foundation
import Glibc
import ObjectStorage
import ObjectVolume
import SeaweedFixture
import Testing

/// A real signal to a `shelf -c 'cp BIG s3://…'` process in the middle of its multipart upload:
/// the process ends as a shell does (128 + the signal), and no upload is left behind on the
/// server (ListMultipartUploads is empty), nor the object.
@Suite(.timeLimit(.minutes(1))) struct ObjectStorageInterruptTests {
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
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ScriptTests.binary)
            process.arguments = ["-c", "cp big \(url); echo never > out"]
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
            // The signal comes once the upload is begun: the server lists it.
            var begun = false
            for _ in 0..<1_000 where !begun && process.isRunning {
                begun = try !volume.client.listMultipartUploads(bucket: volume.bucket, prefix: volume.prefix).isEmpty
                if !begun { usleep(20_000) }
            }
            kill(process.processIdentifier, signal)
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(begun, "\(name): the upload began")
            #expect(process.terminationReason == .exit, "\(name)")
            #expect(process.terminationStatus == expected, "\(name): \(stderr)")
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
