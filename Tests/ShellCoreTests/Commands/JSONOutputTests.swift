import Foundation
import PathModel
import Testing

@testable import ShellCore

/// The JSON of ls, stat, find, du and tree, read back with Foundation's decoder into the one
/// `FileRecord` type, so that the writer and the schema cannot drift apart.
@Suite struct JSONOutputTests {
    static let oddName: [UInt8] = Array("odd-".utf8) + [0xFF, 0x22, 0x0A, 0x5C]

    /// A directory with a file, a quoted name, a name that is not UTF-8, a symlink and a subdirectory.
    private func makeFixture() throws -> TestShell {
        let shell = TestShell()
        try shell.write("plain.txt", "12345")
        try shell.write("say \"hi\"\ttab", "")
        try shell.write("sub/inner", "x")
        try shell.directory.file.appending(name: Self.oddName).createFile()
        try shell.path("link").makeSymlink(to: "plain.txt")
        try shell.setTime("plain.txt", 1_700_000_000)
        return shell
    }

    private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    @Test("ls --json: one record per entry, every field as the disk says")
    func lsRecords() throws {
        let shell = try makeFixture()
        let result = shell.run("ls --json")
        #expect(result.status == .success)
        let records = try decode([FileRecord].self, result.stdout)
        #expect(records.map(\.name).contains("plain.txt"))
        let plain = try #require(records.first { $0.name == "plain.txt" })
        let info = try shell.path("plain.txt").info()
        #expect(plain.path == "plain.txt")
        // Other tests may change the process's umask meanwhile: the mode is compared with the disk's.
        let octal = String(info.permissions, radix: 8)
        #expect(plain.type == "file" && plain.size == 5)
        #expect(plain.mode == String(repeating: "0", count: 4 - octal.count) + octal)
        #expect(plain.modified == "2023-11-14T22:13:20.000000000Z")
        #expect(plain.owner == (info.owner ?? String(info.userID)))
        let link = try #require(records.first { $0.name == "link" })
        #expect(link.type == "link" && link.target == "plain.txt")
        let odd = try #require(records.first { $0.nameBase64 != nil })
        #expect(Data(base64Encoded: odd.nameBase64!) == Data(Self.oddName))
        #expect(records.contains { $0.name == "say \"hi\"\ttab" })
        #expect(records.first { $0.name == "sub" }?.type == "directory")
    }

    @Test("ls --json DIR gives paths below DIR; an error operand leaves valid JSON")
    func lsPathsAndErrors() throws {
        let shell = try makeFixture()
        let result = shell.run("ls --json sub missing")
        #expect(result.status.code == 2)
        #expect(result.stderr == "ls: cannot access 'missing': No such file or directory\n")
        #expect(try decode([FileRecord].self, result.stdout).map(\.path) == ["sub/inner"])
        #expect(shell.run("ls --json missing").stdout == "[]\n")
    }

    @Test("stat --json, and --json with -c is refused")
    func statRecords() throws {
        let shell = try makeFixture()
        let result = shell.run("stat --json plain.txt link")
        let records = try decode([FileRecord].self, result.stdout)
        #expect(records.map(\.name) == ["plain.txt", "link"])
        #expect(records[1].target == "plain.txt")
        let refused = shell.run("stat --json -c %n plain.txt")
        #expect(refused.status == .usage)
    }

    @Test("find --json selects as find does; du --json adds disk_usage")
    func findAndDuRecords() throws {
        let shell = try makeFixture()
        let found = try decode([FileRecord].self, shell.run("find . --json -type f -name 'p*'").stdout)
        #expect(found.map(\.path) == ["./plain.txt"])
        let usage = try decode([FileRecord].self, shell.run("du --json -a sub").stdout)
        #expect(usage.map(\.path) == ["sub/inner", "sub"])
        let lines = shell.run("du -a sub").stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] }
        #expect(usage.map { String(($0.diskUsage! + 1023) / 1024) } == lines.map(String.init))
        #expect(shell.run("find --json -print").status == .usage)
    }

    /// tree(1)'s JSON shape, with the record's fields beside it.
    struct TreeNode: Decodable, Equatable {
        var type: String
        var name: String?
        var contents: [TreeNode]?
        var directories: Int?
        var files: Int?
        var target: String?
    }

    @Test(
        "tree -J has tree(1)'s shape: type, name, contents, a closing report",
        .needsLocalFileSystem("tree(1) reads the fixture from disk"),
        .enabled(if: RealTree.isUsable, "needs /usr/bin/tree"), arguments: [[], ["-a"], ["-d"], ["-L", "1"]])
    func treeShape(_ arguments: [String]) throws {
        let shell = try makeFixture()
        try (shell.directory.file.appending(name: Self.oddName)).removeFile()
        let mine = try decode([TreeNode].self, shell.run(ReferenceTool.commandLine("tree", ["-J"] + arguments)).stdout)
        let theirs = try decode(
            [TreeNode].self,
            String(decoding: try RealTree.run(["-J"] + arguments, in: shell.directory.file).stdout, as: UTF8.self))
        #expect(mine == theirs, "tree -J \(arguments)")
        let records = try decode([FileRecord].self, "[" + shell.run("tree -J -L 1").stdout.split(separator: "\n")
            .filter { $0.hasPrefix("{\"type\":\"file\"") }.map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }
            .joined(separator: ",") + "]")
        #expect(records.contains { $0.path == "./plain.txt" && $0.size == 5 })
    }

    @Test(
        "tree -J --fromfile has tree(1)'s shape, each name with its path",
        .needsLocalFileSystem("tree(1) reads the listing from disk"),
        .enabled(if: RealTree.isUsable, "needs /usr/bin/tree"),
        arguments: [
            ["--fromfile", "list.txt"], ["-d", "--fromfile", "list.txt"], ["-L", "1", "--fromfile", "list.txt"],
            ["--dirsfirst", "--fromfile", "list.txt", "empty.txt"],
        ])
    func treeFromFileShape(_ arguments: [String]) throws {
        let shell = TestShell()
        try shell.write("list.txt", "a/b/c.txt\na/d.txt\ne\na/b/\nz/y\n日本/語\n")
        try shell.write("empty.txt", "")
        let mine = shell.run(ReferenceTool.commandLine("tree", ["-J"] + arguments))
        #expect(mine.stderr.isEmpty)
        let theirs = try decode(
            [TreeNode].self,
            String(decoding: try RealTree.run(["-J"] + arguments, in: shell.directory.file).stdout, as: UTF8.self))
        #expect(try decode([TreeNode].self, mine.stdout) == theirs, "tree -J \(arguments)")
    }

    @Test("tree -J --fromfile: paths below the list's name, base64 for bytes that are not UTF-8, an unreadable list")
    func treeFromFilePaths() throws {
        let shell = TestShell()
        try shell.directory.file.appending(name: Array("list".utf8)).write(bytes: Array("x/y\n".utf8) + [0xFF, 0x0A])
        struct Listed: Decodable, Equatable {
            var type: String
            var name: String?
            var path: String?
            var name_base64: String?
            var path_base64: String?
            var error: String?
            var contents: [Listed]?
        }
        let result = shell.run("tree -J --fromfile list missing")
        #expect(result.status.code == 2)
        #expect(result.stderr.isEmpty)
        let top = try decode([Listed].self, result.stdout)
        #expect(top.count == 3)
        #expect(top[0].path == "list")
        #expect(top[0].contents?.map(\.path) == ["list/x", "list/\u{FFFD}"])
        #expect(top[0].contents?[1].name_base64 == "/w==")
        #expect(top[0].contents?[1].path_base64 == "bGlzdC//")
        #expect(top[0].contents?[0].contents?.map(\.path) == ["list/x/y"])
        #expect(top[1] == Listed(type: "error", name: "missing", error: "No such file or directory"))
        #expect(top[2].type == "report")
    }
}
