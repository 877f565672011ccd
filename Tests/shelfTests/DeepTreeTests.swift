import Foundation
import Glibc
import Testing

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
    /// Runs `shelf -c line` in `directory` with at most 64 open descriptors.
    private func shelf(_ line: String, in directory: URL) throws -> ScriptTests.Result {
        let quoted = "'" + ScriptTests.binary.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let escapedLine = "'" + line.replacingOccurrences(of: "'", with: "'\\''") + "'"
        return try ScriptTests.run(
            "/bin/sh", ["-c", "ulimit -n 64 && exec \(quoted) -c \(escapedLine)"], in: directory)
    }

    @Test func rmRemovesATenThousandLevelTreeWithFewDescriptors() throws {
        let directory = try ScriptTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try makeDeepTree(below: directory.path, depth: 10_000)
        let result = try shelf("rm -r d && ls -A", in: directory)
        #expect(result.stderr == "")
        #expect(result.stdout == "")
        #expect(result.status == 0)
    }
}
