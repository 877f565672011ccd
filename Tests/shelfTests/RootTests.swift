import Foundation
import Testing

/// `shelf --root DIR`: the session runs as if DIR were `/`, and nothing outside it is read or
/// changed, whatever a command line tries.
@Suite struct RootTests {
    /// The content of the file outside the root; no command may print it.
    static let secret = "TOP-SECRET"

    /// A fresh directory holding `outside/` (a secret file and a directory) and `root/`, which
    /// holds `inside/file`, `victim`, and symlinks that lead out if anything follows them blindly.
    static func makeFixture() throws -> URL {
        let directory = try ScriptTests.makeDirectory()
        let manager = FileManager.default
        let outside = directory.appendingPathComponent("outside")
        let root = directory.appendingPathComponent("root")
        try manager.createDirectory(at: outside.appendingPathComponent("dir"), withIntermediateDirectories: true)
        try Data(secret.utf8).write(to: outside.appendingPathComponent("secret"))
        try Data(secret.utf8).write(to: outside.appendingPathComponent("dir/deep"))
        try manager.createDirectory(at: root.appendingPathComponent("inside"), withIntermediateDirectories: true)
        try Data("inside\n".utf8).write(to: root.appendingPathComponent("inside/file"))
        try Data("victim\n".utf8).write(to: root.appendingPathComponent("victim"))
        for (name, target) in [
            ("up", "../outside"), ("abs", outside.path), ("top", "/"), ("chain", "up"),
            ("magic", "/proc/self/root" + outside.path),
        ] {
            try manager.createSymbolicLink(
                atPath: root.appendingPathComponent(name).path, withDestinationPath: target)
        }
        return directory
    }

    /// Every entry under `outside/` with its size, permissions, modification time and content.
    static func snapshot(of directory: URL) throws -> [String] {
        let outside = directory.appendingPathComponent("outside").path
        let manager = FileManager.default
        var lines: [String] = []
        for relative in try manager.subpathsOfDirectory(atPath: outside).sorted() {
            let path = outside + "/" + relative
            let attributes = try manager.attributesOfItem(atPath: path)
            let content = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            lines.append(
                "\(relative) \(attributes[.size] ?? "") \(attributes[.posixPermissions] ?? "") "
                    + "\(attributes[.modificationDate] ?? "") \(content)")
        }
        return lines
    }

    @Test(
        "Command lines that try to get out of the root neither read nor change anything outside",
        arguments: [
            "cat /../outside/secret", "cat ../../outside/secret", "cat /up/secret", "cat /abs/secret",
            "cat /chain/secret", "cat /magic/secret", "cat /top/../outside/secret", "cat /../*/secret",
            "head /up/secret", "tail /abs/secret", "ls -R /up /abs /.. /up/", "ls -laR /", "stat /abs/secret",
            "stat -L /up", "tree -l /", "tree /up/", "find /up/ /abs/", "find / -name secret", "du -a /up/",
            "cp /up/secret /stolen && cat /stolen", "cp -r /up/ /copy && ls -R /copy", "cp /inside/file /up/secret",
            "cp -r /inside /abs/", "cp -f /victim /abs/secret", "mv /victim /up/secret", "mv /up/secret /taken",
            "mv /abs/dir /taken", "rm -rf /up/", "rm -rf /abs/*", "rm -rf /..", "rm -rf /up/dir /chain/secret",
            "rm /up/secret", "rmdir /abs/dir", "mkdir -p /up/new/dir /abs/new", "touch /up/secret /abs/new",
            "ln /up/secret /hard", "ln -sf /inside /up/secret", "echo x > /up/secret", "echo x >> /abs/secret",
            "echo x > /magic/secret", "cd /up && ls", "cd /.. && ls -R", "realpath /up/secret",
            "cat < /up/secret", "wc < /abs/secret", "cat < /magic/secret | cat", "cat /nope 2> /up/secret",
            "cat /nope 2>> /abs/secret", "ls /nope &> /up/secret", "cat OUTSIDE/secret &> /stolen; cat /stolen",
            "cat < OUTSIDE/secret",
            // OUTSIDE is replaced by the outside directory's real path.
            "cat OUTSIDE/secret", "ls -R OUTSIDE", "rm -rf OUTSIDE", "cp /victim OUTSIDE/secret",
            "echo x > OUTSIDE/secret", "mv OUTSIDE/secret /taken", "cd OUTSIDE && cat secret", "cat OUTSIDE/*",
        ])
    func nothingOutsideIsTouched(_ line: String) throws {
        let directory = try Self.makeFixture()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try Self.snapshot(of: directory)
        let outside = directory.appendingPathComponent("outside").path
        let command = line.replacingOccurrences(of: "OUTSIDE", with: outside)
        let result = try ScriptTests.shelf(["--root", "root", "-c", command], in: directory)
        #expect(!result.stdout.contains(Self.secret), "\(result.stdout)")
        #expect(!result.stderr.contains(Self.secret), "\(result.stderr)")
        #expect(try Self.snapshot(of: directory) == before)
    }

    @Test(
        "Inside the root, / is its top and paths are spelled from there",
        arguments: [
            ("pwd", "/\n", "", 0),
            ("cd /inside && pwd && cat file", "/inside\ninside\n", "", 0),
            ("cd inside; cd ..; cd ..; cd ../..; pwd", "/\n", "", 0),
            ("cat /nope", "", "cat: /nope: No such file or directory\n", 1),
            ("cat /up/secret", "", "cat: /up/secret: No such file or directory\n", 1),
            ("ls /top/inside /../inside", "/../inside:\nfile\n\n/top/inside:\nfile\n", "", 0),
            ("realpath /chain /top/top/inside", "/outside\n/inside\n", "", 0),
            ("mkdir /made && cp /inside/file /made/copy && cat /made/copy", "inside\n", "", 0),
            ("rm -rf /", "", "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n", 1),
        ])
    func insideTheRoot(_ line: String, _ stdout: String, _ stderr: String, _ status: Int32) throws {
        let directory = try Self.makeFixture()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ScriptTests.shelf(["--root", "root", "-c", line], in: directory)
        #expect(result.stdout == stdout)
        #expect(result.stderr == stderr)
        #expect(result.status == status)
    }

    @Test(
        "--root needs an existing directory",
        arguments: [
            ("", "shelf: --root: '': No such file or directory\n"),
            ("root/victim", "shelf: --root: root/victim: Not a directory\n"),
            ("missing", "shelf: --root: missing: No such file or directory\n"),
        ])
    func badRoot(_ root: String, _ message: String) throws {
        let directory = try Self.makeFixture()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ScriptTests.shelf(["--root", root, "-c", "pwd"], in: directory)
        #expect(result.stdout == "")
        #expect(result.stderr == message)
        #expect(result.status == 2)
    }

    @Test("--read-only with --root refuses changes inside the root too")
    func readOnlyRoot() throws {
        let directory = try Self.makeFixture()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try ScriptTests.shelf(["--root", "root", "--read-only", "-c", "cat /inside/file; touch /new"], in: directory)
        #expect(result.stdout == "inside\n")
        #expect(result.stderr.contains("touch"))
        #expect(result.status == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("root/new").path))
    }
}
