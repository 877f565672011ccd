import Foundation
@_spi(FaultInjection) import PathModel
import Testing

@testable import ShellCore

/// The fixture the cp, mv and rm tests share: files, directories, symlinks of each kind.
///
///     a            "a\n"            la    -> a
///     b            "b\n"            ls    -> s
///     empty        ""               dang  -> nowhere
///     s/t/q        "q\n"            s/l   -> t
///     d/           (empty)          f/s   "f/s\n"
///     e/s/x        "x\n"
enum TransferFixture {
    /// Builds the fixture below `root`.
    static func build(in root: File) throws {
        for (path, text) in [
            ("a", "a\n"), ("b", "b\n"), ("empty", ""), ("s/t/q", "q\n"), ("f/s", "f/s\n"), ("e/s/x", "x\n"),
        ] {
            let file = root + path
            try file.parent.makeDirectory(intermediates: true)
            try file.write(text: text)
        }
        try (root + "d").makeDirectory()
        try (root + "la").makeSymlink(to: "a")
        try (root + "ls").makeSymlink(to: "s")
        try (root + "dang").makeSymlink(to: "nowhere")
        try (root + "s/l").makeSymlink(to: "t")
    }
}

/// Everything below a directory, as lines: `path/` for a directory, `path -> target` for a
/// symlink, `path = contents` for a file (bytes escaped), sorted by bytes.
func treeSnapshot(_ root: File) throws -> [String] {
    var lines: [String] = []
    var pending: [(File, String)] = [(root, "")]
    while let (directory, prefix) = pending.popLast() {
        for entry in try directory.entries() {
            let file = try directory.appending(name: entry.name)
            let name = prefix + Quoting.ifNeeded(entry.name)
            let info = try file.info()
            switch info.kind {
            case .directory:
                lines.append(name + "/")
                pending.append((file, name + "/"))
            case .symlink:
                lines.append(name + " -> " + ((try? file.linkTarget())?.string ?? "?"))
            case .regular:
                lines.append(
                    name + " = " + String(reflecting: String(decoding: try file.readBytes(), as: UTF8.self)))
            default:
                lines.append(name + " (" + info.kind.rawValue + ")")
            }
        }
    }
    return lines.sorted { bytesPrecede(Array($0.utf8), Array($1.utf8)) }
}

/// Makes a FIFO or a socket (one nobody listens on) at `file`, as mknod(1) would.
func makeNode(_ file: File, _ kind: FileKind) throws {
    precondition(kind == .fifo || kind == .socket, "only FIFOs and sockets need no privilege")
    let type = kind == .fifo ? S_IFIFO : S_IFSOCK
    guard mknod(file.string, type | 0o644, 0) == 0 else {
        throw NodeError(description: "mknod \(file): \(String(cString: strerror(errno)))")
    }
}

/// A FIFO or socket the fixture could not make.
struct NodeError: Error, CustomStringConvertible {
    var description: String
}

/// What a GNU coreutils tool did: its output, messages and status.
struct ToolRun: Equatable {
    var stdout: String
    var stderr: String
    var status: Int32
}

/// Runs `line` with /bin/sh in `directory`, as the real coreutils would run it (LC_ALL=C, TZ=UTC,
/// standard input from /dev/null, so that nothing can be asked).
func runCoreutils(_ line: String, in directory: File) throws -> ToolRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", line]
    process.currentDirectoryURL = URL(fileURLWithPath: directory.string)
    process.environment = ["LC_ALL": "C", "TZ": "UTC", "PATH": "/usr/bin:/bin", "HOME": directory.string]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ToolRun(
        stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
        status: process.terminationStatus)
}

/// Whether the GNU tool `name` is installed at /usr/bin (the comparison tests need it).
func coreutilsInstalled(_ name: String) -> Bool { File(path: "/usr/bin/" + name).isFile }

/// Answers the shell's yes/no questions by their wording (no to any other) and remembers what
/// was asked, in order.
final class ScriptedAnswers: @unchecked Sendable {
    private(set) var questions: [String] = []
    private let answers: [String: Bool]

    init(_ answers: [String: Bool]) { self.answers = answers }

    /// Installs itself as the shell's asker.
    func install(in shell: TestShell) {
        shell.state.asker = { question in
            self.questions.append(question)
            return self.answers[question] ?? false
        }
    }
}

/// A Ctrl-C that arrives after a number of polls of `isCancelled`.
final class CancelAfter: @unchecked Sendable {
    private var remaining: Int
    /// How many times it was polled.
    private(set) var polls = 0

    init(polls: Int) { remaining = polls }

    /// Installs itself as the shell's cancellation flag.
    func install(in shell: TestShell) {
        shell.state.isCancelled = {
            self.polls += 1
            if self.remaining > 0 { self.remaining -= 1 }
            return self.remaining == 0
        }
    }
}

/// Every file below `root` whose name marks a PathModel temporary (`.name.XXXXXXXX.shelf-tmp`).
func temporaryLeftovers(in root: File) throws -> [File] {
    var found: [File] = []
    var pending = [root]
    while let directory = pending.popLast() {
        for entry in try directory.entries() {
            let file = try directory.appending(name: entry.name)
            if entry.nameString.hasSuffix(".shelf-tmp") { found.append(file) }
            if try file.info().kind == .directory { pending.append(file) }
        }
    }
    return found
}

/// One command line run on a fresh `TransferFixture`, with what it must print and return.
struct FixtureRow: CustomTestStringConvertible, Sendable {
    /// How GNU's tool compares on the same fixture.
    enum Coreutils: Sendable {
        /// Same output, messages, status and resulting tree.
        case same
        /// The same, except that GNU writes its output lines in directory order.
        case sameInAnyOrder
        /// Same messages and status; the trees differ (the reason says how).
        case sameMessages(String)
        /// Not compared (the reason says why).
        case differs(String)
    }

    var name: String
    var line: String
    var stdout = ""
    var stderr = ""
    var status: ShellCore.ExitStatus = .success
    var coreutils: Coreutils = .same
    /// Symlinks to add to the fixture for this row: name and target.
    var links: [String: String] = [:]
    /// FIFOs and sockets to add to the fixture for this row: name and kind.
    var nodes: [String: FileKind] = [:]

    var testDescription: String { name }

    /// Whether the row needs FIFOs, sockets or devices, which only the kernel has.
    var needsSpecialFiles: Bool { !nodes.isEmpty || links.values.contains { $0.hasPrefix("/dev/") } }

    /// Builds the fixture and this row's extra links and nodes below `root`.
    private func build(in root: File) throws {
        try TransferFixture.build(in: root)
        for (name, target) in links { try (root + name).makeSymlink(to: File(path: target)) }
        for (name, kind) in nodes { try makeNode(root + name, kind) }
    }

    /// Output lines sorted, for tools that write them in directory order.
    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).sorted()
    }

    /// Runs the row in shelf and checks the expectations; returns the shell for further checks.
    @discardableResult
    func check() throws -> TestShell {
        let shell = TestShell()
        try build(in: shell.directory.file)
        let result = shell.runConfined(line)
        if case .sameInAnyOrder = coreutils {
            #expect(Self.lines(result.stdout) == Self.lines(stdout), "stdout of \(line)")
        } else {
            #expect(result.stdout == stdout, "stdout of \(line)")
        }
        #expect(result.stderr == stderr, "stderr of \(line)")
        #expect(result.status == status, "status of \(line)")
        return shell
    }

    /// Runs the row in shelf and in GNU's tool on twin fixtures (GNU's on disk, shelf's on the
    /// volume the tests run on) and compares what they did.
    func compareWithCoreutils(tool: String) throws {
        guard coreutilsInstalled(tool) else { return }
        let shell = TestShell()
        try build(in: shell.directory.file)
        let ours = shell.runConfined(line)
        let twin = TemporaryDirectory(onLocalDisk: true)
        defer { twin.remove() }
        try build(in: twin.file)
        let theirs = try runCoreutils(line, in: twin.file)
        switch coreutils {
        case .differs:
            return
        case .same, .sameInAnyOrder, .sameMessages:
            if case .sameInAnyOrder = coreutils {
                #expect(Self.lines(ours.stdout) == Self.lines(theirs.stdout), "stdout of \(line)")
            } else {
                #expect(ours.stdout == theirs.stdout, "stdout of \(line)")
            }
            #expect(ours.stderr == theirs.stderr, "stderr of \(line)")
            #expect(ours.status.code == theirs.status, "status of \(line)")
            if case .sameMessages = coreutils { return }
            #expect(try treeSnapshot(shell.directory.file) == treeSnapshot(twin.file), "tree after \(line)")
        }
    }
}

extension TestShell {
    /// Runs `source` with every change to the file system outside this shell's directory (and
    /// outside test directories in /dev/shm) refused with `EPERM`: a safety net for tests of
    /// `rm -r /` and friends, which run as root. Names relative to an open directory pass; that
    /// directory was opened by absolute path, and checked then.
    @discardableResult
    func runConfined(_ source: String) -> Transcript {
        let inside = directory.file.string + "/"
        let guarded: Set<SyscallName> = [
            .open, .opendir, .unlink, .rmdir, .rename, .mkdir, .symlink, .link, .chmod, .chown, .utimens,
        ]
        let plan = FaultPlan { call, path in
            guard guarded.contains(call), let path, path.hasPrefix("/") else { return nil }
            if (path + "/").hasPrefix(inside) || path.hasPrefix("/dev/shm/shelf-test-") { return nil }
            return .notPermitted
        }
        return FaultPlan.$current.withValue(plan) { run(source) }
    }
}
