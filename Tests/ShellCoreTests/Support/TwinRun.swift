import PathModel
import Testing

@testable import ShellCore

/// What a command line did in shelf and in bash with GNU's tools, each on a fresh copy of the
/// same fixture (GNU's on disk whatever volume shelf runs on, shelf's with every change outside
/// its fixture refused): both transcripts, and a snapshot of each tree afterwards.
struct TwinRun {
    var ours: Transcript
    var theirs: Transcript
    var ourTree: [String]
    var theirTree: [String]

    /// Runs `line` on two fixtures that `build` makes, with `environment` added to both;
    /// `describe` gives each entry's line of the snapshots. Bash runs `reference` instead, when
    /// GNU's tools say the same thing in other words (an option of a later coreutils).
    init(
        _ line: String, reference: String? = nil, environment: [String: String] = [:],
        build: (File) throws -> Void, describe: (FileInfo) -> String
    ) throws {
        let mine = TestShell(interactive: false, environment: environment)
        let twin = TemporaryDirectory(onLocalDisk: true)
        defer { twin.remove() }
        try build(mine.directory.file)
        try build(twin.file)
        ours = mine.runConfined(line)
        theirs = try ReferenceTool.run("/bin/bash", ["-c", reference ?? line], in: twin.file, environment: environment)
        ourTree = try Self.snapshot(mine.directory.file, describe)
        theirTree = try Self.snapshot(twin.file, describe)
    }

    /// Every entry below `root` (its own metadata, symlinks not followed) as `path description`
    /// and a symlink's target, sorted by path.
    static func snapshot(_ root: File, _ describe: (FileInfo) -> String) throws -> [String] {
        var lines: [String] = []
        var pending: [(File, String)] = [(root, "")]
        while let (directory, prefix) = pending.popLast() {
            for entry in try directory.entries() {
                let file = try directory.appending(name: entry.name)
                let info = try file.info()
                let name = prefix + Quoting.ifNeeded(entry.name)
                let target = info.kind == .symlink ? " -> " + (try file.linkTarget()).string : ""
                lines.append("\(name) \(describe(info))\(target)")
                if info.kind == .directory { pending.append((file, name + "/")) }
            }
        }
        return lines.sorted()
    }

    /// Expects shelf to have done what GNU did with `line`: the same output (its lines in any
    /// order under `-R`, as GNU goes through each directory in the order the kernel lists it,
    /// shelf in byte order; `anyOrder` says so for other lines, and for their messages too),
    /// messages, status and tree.
    func expectSame(
        _ line: String, _ label: String, anyOrder: Bool = false,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let recursive = anyOrder || line.contains("-R") || line.contains("--recursive")
        let stdout = { (text: String) in recursive ? text.split(separator: "\n").sorted() : [text[...]] }
        #expect(
            stdout(ours.stdout) == stdout(theirs.stdout), "\(label): \(line)", sourceLocation: sourceLocation)
        // With `anyOrder`, messages about entries come in the order of their directories too.
        let stderr = { (text: String) in anyOrder ? text.split(separator: "\n").sorted() : [text[...]] }
        #expect(
            stderr(ours.stderr) == stderr(theirs.stderr), "\(label): \(line)", sourceLocation: sourceLocation)
        #expect(ours.status == theirs.status, "\(label): \(line)", sourceLocation: sourceLocation)
        #expect(ourTree == theirTree, "\(label): \(line)", sourceLocation: sourceLocation)
    }

    /// Expects `line` to be a usage error in both: GNU's first line of messages, then shelf's
    /// pointer to `help` and status 2 where GNU's is 1, and nothing changed.
    func expectSameUsageError(_ line: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let firstLine = { (text: String) in text.split(separator: "\n").first.map(String.init) }
        let name = line.prefix { $0 != " " }
        #expect(firstLine(ours.stderr) == firstLine(theirs.stderr), "\(line)", sourceLocation: sourceLocation)
        #expect(
            ours.stderr.hasSuffix("Try 'help \(name)' for more information.\n"), "\(line)",
            sourceLocation: sourceLocation)
        #expect(theirs.status == .failure, "\(line)", sourceLocation: sourceLocation)
        #expect(ours.status == .usage, "\(line)", sourceLocation: sourceLocation)
        #expect(ourTree == theirTree, "\(line)", sourceLocation: sourceLocation)
    }
}
