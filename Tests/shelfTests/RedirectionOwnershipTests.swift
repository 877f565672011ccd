import Foundation
import Testing

/// `>` onto an existing file changes its contents alone, as bash's does: a file the user may not
/// write is refused, and the file keeps its owner, group and mode, written in place where a
/// replacement renamed over it could not keep them. Runs shelf as root and, through setpriv, as
/// the unprivileged user 65534, in a private directory.
@Suite(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv"))
struct RedirectionOwnershipTests {
    /// A file of the fixture: where, with what owner, group and mode.
    struct Fixture: Sendable {
        var path: String
        var user: UInt32
        var group: UInt32
        var mode: Int
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        /// Whether shelf runs as user and group 65534 rather than as root.
        var unprivileged: Bool
        /// A directory made first, with its mode (the others are 0777).
        var directory: (path: String, mode: Int)?
        var file: Fixture
        var line: String
        var stderr: String
        var status: Int32
        var contents: String
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "a file the user may not write is refused and kept", unprivileged: true,
            file: Fixture(path: "ro", user: 0, group: 0, mode: 0o444), line: "echo new > ro",
            stderr: "shelf: ro: Permission denied\n", status: 1, contents: "old\n"),
        Row(
            name: "a file the user may write in a directory they may not is written in place",
            unprivileged: true, directory: ("locked", 0o555),
            file: Fixture(path: "locked/w", user: 65534, group: 65534, mode: 0o644), line: "echo new > locked/w",
            stderr: "", status: 0, contents: "new\n"),
        Row(
            name: "a file of another owner, writable through its group, is written in place", unprivileged: true,
            file: Fixture(path: "shared", user: 0, group: 65534, mode: 0o664), line: "echo new > shared",
            stderr: "", status: 0, contents: "new\n"),
        Row(
            name: "root replacing another user's file gives the new file that owner and group",
            unprivileged: false,
            file: Fixture(path: "theirs", user: 65534, group: 65534, mode: 0o640), line: "echo new > theirs",
            stderr: "", status: 0, contents: "new\n"),
        Row(
            name: "root keeps a set-user-ID bit on a file it gives back to its owner", unprivileged: false,
            file: Fixture(path: "tool", user: 65534, group: 65534, mode: 0o4755), line: "echo new > tool",
            stderr: "", status: 0, contents: "new\n"),
    ]

    @Test(arguments: rows)
    func keepsTheFile(_ row: Row) throws {
        let directory = try ScriptTests.makeDirectory()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
            if let locked = row.directory {
                try? FileManager.default.setAttributes(
                    [.posixPermissions: 0o777], ofItemAtPath: directory.appendingPathComponent(locked.path).path)
            }
            try? FileManager.default.removeItem(at: directory)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
        let file = directory.appendingPathComponent(row.file.path).path
        if let locked = row.directory {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(locked.path), withIntermediateDirectories: false)
        }
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(chown(file, row.file.user, row.file.group) == 0)
        #expect(chmod(file, mode_t(row.file.mode)) == 0)
        if let locked = row.directory {
            #expect(chmod(directory.appendingPathComponent(locked.path).path, mode_t(locked.mode)) == 0)
        }
        let result =
            row.unprivileged
            ? try ScriptTests.run(
                "/usr/bin/setpriv",
                ["--reuid=65534", "--regid=65534", "--clear-groups", ScriptTests.binary, "-c", row.line],
                in: directory)
            : try ScriptTests.shelf(["-c", row.line], in: directory)
        #expect(result.stderr == row.stderr)
        #expect(result.status == row.status)
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self) == row.contents)
        var info = stat()
        #expect(stat(file, &info) == 0)
        #expect(info.st_uid == row.file.user)
        #expect(info.st_gid == row.file.group)
        #expect(Int(info.st_mode & 0o7777) == row.file.mode)
        // Nothing is left beside it: no temporary file.
        let parent = URL(fileURLWithPath: file).deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent).allSatisfy { !$0.hasSuffix(".shelf-tmp") })
    }
}
