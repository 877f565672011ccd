import Foundation
import Glibc
import PathModel
import Testing

/// Removes a test's directory however deep it goes: FileManager gives up at `PATH_MAX` and
/// leaves the tree behind.
private func removeDirectory(_ path: String) {
    do {
        try File(path: path).delete()
    } catch {
        Issue.record("could not remove \(path): \(error)")
    }
}

/// Makes `depth` nested directories named `d` below `root` (a path far longer than PATH_MAX at
/// this depth, so it is built by descriptor), with a file `f` in the deepest.
private func makeDeepTree(below root: String, depth: Int) throws {
    var dir = open(root, O_RDONLY | O_DIRECTORY)
    try #require(dir >= 0)
    for _ in 0..<depth {
        try #require(mkdirat(dir, "d", 0o755) == 0)
        let child = openat(dir, "d", O_RDONLY | O_DIRECTORY)
        close(dir)
        try #require(child >= 0)
        dir = child
    }
    let file = openat(dir, "f", O_WRONLY | O_CREAT, 0o644)
    close(dir)
    try #require(file >= 0)
    close(file)
}

/// Trees deeper than any path can spell are walked with a bounded number of open descriptors.
@Suite(.timeLimit(.minutes(2))) struct DeepTreeTests {
    /// Runs `shelf -c line` in `directory` with at most `descriptors` open descriptors.
    private func shelf(_ line: String, in directory: URL, descriptors: Int = 64) throws -> ScriptTests.Result {
        let command = "exec \(ScriptTests.shellQuoted(ScriptTests.binary)) -c \(ScriptTests.shellQuoted(line))"
        return try ScriptTests.run("/bin/sh", ["-c", "ulimit -n \(descriptors) && \(command)"], in: directory)
    }

    @Test func rmRemovesATenThousandLevelTreeWithFewDescriptors() throws {
        let directory = try ScriptTests.makeDirectory()
        defer { removeDirectory(directory.path) }
        try makeDeepTree(below: directory.path, depth: 10_000)
        let result = try shelf("rm -r d && ls -A", in: directory)
        #expect(result.stderr == "")
        #expect(result.stdout == "")
        #expect(result.status == 0)
    }

    /// The path of `f` in a tree `makeDeepTree` built, its top directory `d` now named `top`.
    private func deepestFile(below top: String, depth: Int) -> String {
        top + String(repeating: "/d", count: depth - 1) + "/f"
    }

    @Test func everyWalkGoesThroughATenThousandLevelTree() throws {
        let directory = try ScriptTests.makeDirectory()
        defer { removeDirectory(directory.path) }
        try makeDeepTree(below: directory.path, depth: 10_000)
        let deepest = deepestFile(below: "d", depth: 10_000)
        let cases: [(line: String, last: String)] = [
            ("ls -R d", "\(deepest.dropLast(2)):\nf\n"),
            ("tree --noreport d", "`-- f\n"),
            ("tree d", "\n10000 directories, 1 file\n"),
            ("find d -name f", deepest + "\n"),
            ("du -a d", "\td\n"),
        ]
        for (line, last) in cases {
            // These walks keep one descriptor per 64 levels or so (ls -R one per 1,000).
            let result = try shelf(line, in: directory, descriptors: 256)
            #expect(result.stderr == "", "\(line)")
            #expect(result.stdout.hasSuffix(last), "\(line): \(result.stdout.suffix(80))")
            #expect(result.status == 0, "\(line)")
        }
    }

    @Test func cpAndMvCopyATenThousandLevelTree() throws {
        let directory = try ScriptTests.makeDirectory()
        defer { removeDirectory(directory.path) }
        try makeDeepTree(below: directory.path, depth: 10_000)
        // /dev/shm is another file system where it is a tmpfs: then mv copies and removes.
        let elsewhere = "/dev/shm/shelf-deep-\(UUID().uuidString)"
        defer { removeDirectory(elsewhere) }
        let copied = try shelf("cp -r d e && mv e \(elsewhere) && ls", in: directory)
        #expect(copied.stderr == "")
        #expect(copied.stdout == "d\n")
        #expect(copied.status == 0)
        // The file at the bottom made it through both copies.
        let found = try shelf("find \(elsewhere) -name f", in: directory, descriptors: 256)
        #expect(found.stdout == deepestFile(below: elsewhere, depth: 10_000) + "\n")
    }
}
