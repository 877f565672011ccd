import Foundation
import Glibc
import Testing

/// A directory mounted inside itself (`mount --bind x x/sub/mnt`) is a cycle: every command that
/// walks a tree notices it by (device, inode), says so once, goes on, and fails. The mount lives
/// in a mount namespace of its own (`unshare -m`), so it goes when the command ends; that takes
/// root, as CI has, and a kernel that lets it make a mount namespace and bind-mount in it.
@Suite(.enabled(if: canBindMount, "bind mounts need root and mount namespaces"), .timeLimit(.minutes(1)))
struct CycleTests {
    @Test(
        "A directory mounted inside itself is walked once",
        arguments: [
            (
                "ls -R x", "ls: x/sub/mnt: not listing already-listed directory", 2,
                "x:\nf\nsub\n\nx/sub:\nmnt\n"
            ),
            (
                "find x",
                "find: File system loop detected; 'x/sub/mnt' is part of the same file system loop as 'x'.",
                1, "x\nx/f\nx/sub\n"
            ),
            (
                "du x",
                "du: File system loop detected; 'x/sub/mnt' is part of the same file system loop as 'x'.", 1,
                "4\tx/sub\n12\tx\n"
            ),
            ("tree --noreport x", "", 1, "x\n|-- f\n`-- sub\n    `-- mnt  [recursive, not followed]\n"),
            ("cp -r x y && echo copied", "cp: will not create hard link 'y/sub/mnt' to directory 'y'", 1, ""),
        ] as [(String, String, Int32, String)])
    func walkedOnce(_ line: String, _ message: String, _ status: Int32, _ output: String) throws {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("x/sub/mnt"), withIntermediateDirectories: true)
        try "f\n".write(to: directory.appendingPathComponent("x/f"), atomically: true, encoding: .utf8)
        let command =
            "mount --bind x x/sub/mnt && exec \(ScriptTests.shellQuoted(ScriptTests.binary)) -c \(ScriptTests.shellQuoted(line))"
        let result = try ScriptTests.run(
            "/usr/bin/timeout", ["30", "/usr/bin/unshare", "-m", "/bin/sh", "-c", command], in: directory)
        #expect(result.stderr.split(separator: "\n").first.map(String.init) ?? "" == message, "\(line)")
        #expect(result.status == status, "\(line)")
        if line.hasPrefix("du") {
            // Block counts depend on the file system: the shape is what counts.
            #expect(
                result.stdout.split(separator: "\n").map { $0.split(separator: "\t").last ?? "" } == [
                    "x/sub", "x",
                ])
        } else if line.hasPrefix("tree") {
            #expect(result.stdout.hasSuffix("mnt  [recursive, not followed]\n"), "\(line)")
        } else {
            #expect(result.stdout == output, "\(line)")
        }
        if line.hasPrefix("cp") {
            let copied = FileManager.default.fileExists(atPath: directory.appendingPathComponent("y/f").path)
            let cycled = FileManager.default.fileExists(
                atPath: directory.appendingPathComponent("y/sub/mnt").path)
            #expect(copied && !cycled)
        }
    }
}

/// Whether this process may bind-mount a directory inside a mount namespace of its own.
private let canBindMount: Bool = {
    guard getuid() == 0, let directory = try? ScriptTests.makeDirectory() else { return false }
    defer { try? FileManager.default.removeItem(at: directory) }
    let probe = "mkdir -p a/b && mount --bind a a/b"
    let result = try? ScriptTests.run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", probe], in: directory)
    return result?.status == 0
}()
