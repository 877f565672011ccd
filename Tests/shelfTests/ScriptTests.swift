import Foundation
import Testing

@testable import ShellCore

/// Runs the built `shelf` binary the way scripts use it: `-c`, a script file, standard input.
@Suite struct ScriptTests {
    /// The executable under test: `$SHELF_BIN`, else the debug build next to the package.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["SHELF_BIN"], FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/shelf").path
    }

    struct Result {
        var stdout: String
        var stderr: String
        var status: Int32
    }

    /// Runs shelf with `arguments` in a fresh private directory, feeding `input` on stdin.
    static func shelf(_ arguments: [String], input: String? = nil, in directory: URL? = nil) throws -> Result {
        try run(binary, arguments, input: input, in: directory)
    }

    /// Runs `executable` as `shelf(_:input:in:)` runs shelf, with `environment`'s variables too.
    static func run(
        _ executable: String, _ arguments: [String], input: String? = nil, in directory: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> Result {
        let workDirectory = try directory ?? makeDirectory()
        defer { if directory == nil { try? FileManager.default.removeItem(at: workDirectory) } }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = workDirectory
        process.environment = ["HOME": workDirectory.path, "LC_ALL": "C", "PATH": "/usr/bin:/bin"].merging(
            environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        let inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        // The input is in the pipe and its writer gone before shelf starts, so that shelf, reading
        // ahead after a failure without waiting, always finds the end (the inputs are far smaller
        // than a pipe's buffer).
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        try process.run()
        // Standard error is drained alongside standard output, so that a child filling one pipe
        // never waits on a reader blocked on the other.
        let stderrReader = PipeReader(err)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = stderrReader.wait()
        process.waitUntilExit()
        return Result(
            stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
            status: process.terminationStatus)
    }

    /// `text` single-quoted for /bin/sh.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static func makeDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return url
    }

    @Test(
        "head and tail read standard input for - or no FILE",
        arguments: [
            ("tail -n 2", "3\n4\n"), ("head -n 1 -", "1\n"), ("tail -n +4", "4\n"), ("head -c -4", "1\n2\n"),
            ("tail -v -c 2 -", "==> standard input <==\n4\n"),
        ])
    func headAndTailReadStandardInput(_ line: String, _ expected: String) throws {
        let result = try Self.shelf(["-c", line], input: "1\n2\n3\n4\n")
        #expect(result.stdout == expected)
        #expect(result.status == 0)
    }

    @Test(
        "tree --fromfile reads standard input for . and -",
        arguments: [(".", ".\n`-- x\n    |-- 1\n    `-- 2\n\n2 directories, 2 files\n"), ("-", "-\n`-- x\n    |-- 1\n    `-- 2\n\n2 directories, 2 files\n")])
    func treeFromStandardInput(_ operand: String, _ expected: String) throws {
        let result = try Self.shelf(["-c", "tree --fromfile \(operand)"], input: "x/1\nx/2\n")
        #expect(result.stdout == expected)
    }

    @Test func readOnlyRefusesChangesAndKeepsGoingWithTheRest() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.shelf(["--read-only", "--keep-going", "-c", "mkdir made; echo still"], in: directory)
        #expect(result.stdout == "still\n")
        #expect(result.stderr.hasPrefix("shelf: mkdir: refused"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("made").path))
    }

    @Test func versionAndHelp() throws {
        let version = try Self.shelf(["--version"])
        #expect(version.stdout == "shelf \(ShelfVersion.number)\n" && version.status == 0)
        let help = try Self.shelf(["--help"])
        #expect(help.status == 0)
        let manPage = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/shelf.1"),
            encoding: .utf8)
        // Object storage is named, with the page that tells about it.
        #expect(help.stdout.contains("s3://BUCKET/KEY") && help.stdout.contains("docs/remote.md"))
        #expect(manPage.contains("s3://"))
        for flag in ["-c", "-i", "--keep-going", "--no-history", "--root", "--read-only", "--version", "--help"] {
            #expect(help.stdout.contains(flag), "\(flag) in --help")
            #expect(manPage.contains(flag.replacingOccurrences(of: "-", with: "\\-")), "\(flag) in shelf.1")
        }
    }

    @Test(
        "Bad flags are usage errors (status 2)",
        arguments: [
            (["-x"], "shelf: Unknown option '-x'"), (["-c"], "shelf: Missing value for '-c <COMMANDS>'"),
            (["--no-such"], "shelf: Unknown option '--no-such'"),
        ])
    func badFlags(_ arguments: [String], _ message: String) throws {
        let result = try Self.shelf(arguments)
        #expect(result.stderr == message + "\nTry 'shelf --help' for more information.\n")
        #expect(result.status == 2)
    }

    @Test func wordsAfterTheScriptAreTheScripts() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "echo ran\n".write(to: directory.appendingPathComponent("s.shelf"), atomically: true, encoding: .utf8)
        let result = try Self.shelf(["--keep-going", "s.shelf", "-x", "--help"], in: directory)
        #expect(result.stdout == "ran\n" && result.status == 0)
    }

    /// Command lines shelf reads without the argument parser, each beside the same line with
    /// `--no-history` in front (which only the interactive shell heeds), which the parser reads.
    @Test(
        "The plain command lines mean what the argument parser makes of them",
        arguments: [
            ("-c COMMANDS", ["-c", "echo one; cat missing; echo two"], nil),
            ("-c with a dash-led command", ["-c", "-cat missing; echo went on"], nil),
            ("SCRIPT", ["s.shelf"], nil), ("SCRIPT with words that look like options", ["s.shelf", "-c", "--help"], nil),
            ("a missing SCRIPT", ["missing.shelf"], nil), ("- for standard input", ["-"], "echo from stdin\n"),
            ("no arguments", [], "echo from stdin\ncat missing\n"),
        ] as [(String, [String], String?)])
    func plainCommandLines(_ name: String, _ arguments: [String], _ input: String?) throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "echo ran\ncat missing\n".write(
            to: directory.appendingPathComponent("s.shelf"), atomically: true, encoding: .utf8)
        let plain = try Self.shelf(arguments, input: input, in: directory)
        let parsed = try Self.shelf(["--no-history"] + arguments, input: input, in: directory)
        #expect(plain.stdout == parsed.stdout, "\(name)")
        #expect(plain.stderr == parsed.stderr, "\(name)")
        #expect(plain.status == parsed.status, "\(name)")
        #expect(plain.stdout != "" || plain.stderr != "", "\(name): the line did something")
    }

    @Test("With 2>&1, messages come where they happened, between the output before and after them")
    func messagesKeepTheirPlaceInSharedOutput() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "t\n".write(to: directory.appendingPathComponent("t"), atomically: true, encoding: .utf8)
        let line = "echo a; -cat missing; echo b; -qqqqqqqqqq; -cat t missing t; ls t missing"
        let result = try Self.run(
            "/bin/sh", ["-c", "\(Self.shellQuoted(Self.binary)) -c \(Self.shellQuoted(line)) 2>&1"], in: directory)
        #expect(
            result.stdout == """
                a
                cat: missing: No such file or directory
                b
                shelf: qqqqqqqqqq: command not found
                t
                cat: missing: No such file or directory
                t
                ls: cannot access 'missing': No such file or directory
                t

                """)
    }

    @Test func commandStringRunsAndReportsTheLastStatus() throws {
        let result = try Self.shelf(["-c", "mkdir d; cd d && pwd; echo done"])
        #expect(result.stdout.hasSuffix("/d\ndone\n"))
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }

    @Test func aFailingCommandStopsTheScriptAndSaysWhere() throws {
        let result = try Self.shelf(["-c", "echo one\ncat missing\necho never"])
        #expect(result.stdout == "one\n")
        #expect(result.stderr == "cat: missing: No such file or directory\nshelf: stopped at -c:2\n")
        #expect(result.status == 1)
    }

    @Test(
        "'stopped at' is said only when something after the failing statement was left unrun",
        arguments: [
            ("-c, one statement", ["-c", "cat missing"], ""),
            ("-c, then comments and blank lines", ["-c", "cat missing # here\n\n# the end\n;\n"], ""),
            ("-c, a statement after it on the line", ["-c", "cat missing; echo never"], "shelf: stopped at -c:1\n"),
            ("-c, a line after it", ["-c", "cat missing\n\necho never"], "shelf: stopped at -c:1\n"),
            ("the last line of a script", ["s.shelf"], ""),
            ("a script with more to run", ["t.shelf"], "shelf: stopped at t.shelf:2\n"),
        ] as [(String, [String], String)])
    func stoppedAtOnlyWhenSomethingIsLeft(_ name: String, _ arguments: [String], _ stopped: String) throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "echo ran\ncat missing\n\n# end\n".write(
            to: directory.appendingPathComponent("s.shelf"), atomically: true, encoding: .utf8)
        try "echo ran\ncat missing\necho never\n".write(
            to: directory.appendingPathComponent("t.shelf"), atomically: true, encoding: .utf8)
        let result = try Self.shelf(arguments, in: directory)
        #expect(result.stderr == "cat: missing: No such file or directory\n" + stopped, "\(name)")
        #expect(result.status == 1, "\(name)")
    }

    @Test("Reading ahead on standard input never waits: a writer still there may have more to send")
    func stoppedAtReadsAheadWithoutWaiting() throws {
        for keepOpen in [false, true] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.binary)
            process.currentDirectoryURL = try Self.makeDirectory()
            defer { try? FileManager.default.removeItem(at: process.currentDirectoryURL!) }
            let input = Pipe()
            let errors = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            input.fileHandleForWriting.write(Data("echo ran\ncat missing\n".utf8))
            if !keepOpen { try input.fileHandleForWriting.close() }
            try process.run()
            // With the writer open, shelf must end without waiting for it.
            let stderr = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            if keepOpen { try input.fileHandleForWriting.close() }
            let stopped = keepOpen ? "shelf: stopped at stdin:2\n" : ""
            #expect(String(decoding: stderr, as: UTF8.self) == "cat: missing: No such file or directory\n" + stopped)
            #expect(process.terminationStatus == 1)
        }
    }

    @Test("A UTF-8 byte-order mark at the start of a script is skipped", arguments: ["file", "-c", "stdin"])
    func byteOrderMarkIsSkipped(_ route: String) throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = "\u{FEFF}echo one\necho two\n"
        try script.write(to: directory.appendingPathComponent("bom.shelf"), atomically: true, encoding: .utf8)
        let result =
            switch route {
            case "file": try Self.shelf(["bom.shelf"], in: directory)
            case "-c": try Self.shelf(["-c", script], in: directory)
            default: try Self.shelf([], input: script, in: directory)
            }
        #expect(result.stdout == "one\ntwo\n")
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }

    @Test("Words after SCRIPT (or -c COMMANDS) are $1..., $# counts them, $0 is the script")
    func positionalParameters() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "echo $0 $# $1 \"$2\" ${10} $11\necho ${11:-none}\necho $11x ${11}\n".write(
            to: directory.appendingPathComponent("p.shelf"), atomically: true, encoding: .utf8)
        let words = ["a", "b  c", "3", "4", "5", "6", "7", "8", "9", "ten"]
        let script = try Self.shelf(["p.shelf"] + words, in: directory)
        #expect(script.stdout == "p.shelf 10 a b  c ten a1\nnone\n")
        #expect(script.stderr == "shelf: $11: unset variable\n")
        #expect(script.status == 1)
        let command = try Self.shelf(["-c", "echo $0 $# $1", "x", "y"], in: directory)
        #expect(command.stdout == "shelf 2 x\n")
    }

    @Test("An unset variable fails its statement, which runs nothing, and stops the script")
    func unsetVariableStopsTheScript() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "keep\n".write(to: directory.appendingPathComponent("keep"), atomically: true, encoding: .utf8)
        let result = try Self.shelf(["-c", "mkdir made && rm keep$BUILD; echo never"], in: directory)
        #expect(result.stdout == "")
        #expect(result.stderr == "shelf: BUILD: unset variable\nshelf: stopped at -c:1\n")
        #expect(result.status == 1)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("keep").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("made").path))
    }

    @Test("A variable of the environment that is not UTF-8 expands to its exact bytes")
    func environmentValuesAreBytes() throws {
        let line = "BAD=$(printf 'x\\376') \(Self.shellQuoted(Self.binary)) -c 'touch $BAD' && test -f \"$(printf 'x\\376')\" && echo exact"
        let result = try Self.run("/bin/sh", ["-c", line])
        #expect(result.stdout == "exact\n")
        #expect(result.stderr == "")
    }

    @Test func aLeadingDashIgnoresAFailure() throws {
        let result = try Self.shelf(["-c", "-cat missing\necho went on"])
        #expect(result.stdout == "went on\n")
        #expect(result.status == 0)
    }

    @Test(arguments: [["--keep-going", "-c", "cat missing; echo went on"], ["-c", "set +e; cat missing; echo went on"]])
    func keepGoingPolicies(_ arguments: [String]) throws {
        let result = try Self.shelf(arguments)
        #expect(result.stdout == "went on\n")
        #expect(result.status == 0)
    }

    @Test func standardInputRunsLineByLineAndNamesStdin() throws {
        let result = try Self.shelf([], input: "echo a\necho 'b\nc'\nrmdir nothing\necho z\n")
        #expect(result.stdout == "a\nb\nc\n")
        #expect(result.stderr == "rmdir: failed to remove 'nothing': No such file or directory\nshelf: stopped at stdin:4\n")
        #expect(result.status == 1)
    }

    @Test func scriptFileWithShebangLine() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("backup.shelf")
        try "#!/usr/bin/env shelf\nmkdir out\necho made > out/log\ncat out/log\nexit 4\necho unreachable\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let result = try Self.shelf(["backup.shelf"], in: directory)
        #expect(result.stdout == "made\n")
        #expect(result.status == 4)
    }

    @Test func syntaxErrorRunsNothingAndExitsTwo() throws {
        let result = try Self.shelf(["-c", "mkdir made; echo 'open"])
        #expect(result.status == 2)
        #expect(result.stderr == "shelf: -c:1:18: syntax error: unterminated quote '\nmkdir made; echo 'open\n                 ^\n")
        #expect(result.stdout == "")
    }

    @Test func unknownCommandIs127() throws {
        let result = try Self.shelf(["-c", "frobnicate"])
        #expect(result.status == 127)
        #expect(result.stderr.hasPrefix("shelf: frobnicate: command not found"))
    }

    @Test(
        "When the reader of standard output goes away, shelf stops at once, quietly, with status 141",
        arguments: [
            ("cat", ["-c", "cat big; cat -n big"]), ("the rest of a --keep-going script", ["--keep-going", "-c", "cat big\necho ran > after"]),
            ("tree", ["-c", "tree many; echo ran > after"]), ("ls -R", ["-c", "ls -R many"]), ("find", ["-c", "find many"]),
            ("du -a", ["-c", "du -a many"]),
        ])
    func brokenPipeEndsAtOnce(_ name: String, _ arguments: [String]) throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let big = String(repeating: "line of text\n", count: 200_000)
        try big.write(to: directory.appendingPathComponent("big"), atomically: true, encoding: .utf8)
        // More entries than a pipe holds lines of, so that output outlasts the reader.
        let many = directory.appendingPathComponent("many")
        try FileManager.default.createDirectory(at: many, withIntermediateDirectories: false)
        for index in 0..<6_000 { FileManager.default.createFile(atPath: many.path + "/entry-number-\(index)", contents: nil) }
        let words = ([Self.binary] + arguments).map(Self.shellQuoted).joined(separator: " ")
        let result = try Self.run("/bin/bash", ["-c", "\(words) | head -1 >/dev/null; echo \"status ${PIPESTATUS[0]}\""], in: directory)
        #expect(result.stdout == "status 141\n", "\(name)")
        #expect(result.stderr == "", "\(name)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("after").path), "\(name)")
    }

    @Test func missingScriptFile() throws {
        let result = try Self.shelf(["nope.shelf"])
        #expect(result.stderr == "shelf: nope.shelf: No such file or directory\n")
        #expect(result.status == 127)
    }

    @Test func backslashNewlineContinuesALine() throws {
        let result = try Self.shelf(["-c", "echo a \\\n  b"])
        #expect(result.stdout == "a b\n")
        #expect(result.status == 0)
    }

    @Test func theLastOfSetMinusEAndPlusEWins() throws {
        let result = try Self.shelf(["-c", "set +e -e; cat nope; echo not reached"])
        #expect(result.stdout == "")
        #expect(result.status == 1)
    }

    @Test func aScriptEndingInAnIgnoredFailureSucceeds() throws {
        let result = try Self.shelf(["-c", "-cat missing"])
        #expect(result.status == 0)
    }

    @Test func writeErrorsOnStandardOutputFailTheCommand() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["-c", "echo x; echo y"]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: stderr, as: UTF8.self) == "shelf: write error: No space left on device\nshelf: stopped at -c:1\n")
        #expect(process.terminationStatus == 1)
    }

    @Test func redirectionKeepsDevicesAndHardLinks() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "old\n".write(to: directory.appendingPathComponent("orig"), atomically: true, encoding: .utf8)
        try FileManager.default.linkItem(at: directory.appendingPathComponent("orig"), to: directory.appendingPathComponent("hard"))
        let result = try Self.shelf(["-c", "echo gone > /dev/null; echo new > orig; cat hard"], in: directory)
        #expect(result.stdout == "new\n")
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial)
    }

    @Test func redirectingToStandardOutputKeepsTheCallersFile() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "('\(Self.binary)' -c 'echo one > /dev/stdout'; echo two) >> log"]
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        let log = try String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)
        #expect(log == "one\ntwo\n")
    }

    @Test func pwdNamesTheStartDirectoryAndCdDashGoesToAnInheritedOldpwd() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.run(
            "/usr/bin/env", ["PWD=/etc", "OLDPWD=/usr", Self.binary, "-c", "echo $PWD; cd -; echo $OLDPWD"],
            in: directory)
        #expect(result.stdout == directory.resolvingSymlinksInPath().path + "\n/usr\n" + directory.resolvingSymlinksInPath().path + "\n")
        #expect(result.status == 0)
    }
}

/// Reads a pipe to its end on a queue of its own.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchGroup()

    init(_ pipe: Pipe) {
        DispatchQueue.global().async(group: done) { self.data = pipe.fileHandleForReading.readDataToEndOfFile() }
    }

    /// Everything the pipe held, once its writer has closed it.
    func wait() -> Data {
        done.wait()
        return data
    }
}
