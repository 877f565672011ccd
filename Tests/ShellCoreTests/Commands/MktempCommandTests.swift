@_spi(FaultInjection) import PathModel
import Testing

@testable import ShellCore

/// mktemp against GNU mktemp on twin fixtures (a directory `sub`, a file `f`): the same messages
/// and status, a printed name of the same shape (the X's become different letters), and the same
/// kinds and modes of what was made.
@Suite(
    .serialized, .enabled(if: ReferenceTool.isInstalled("/usr/bin/mktemp"), "needs GNU coreutils"))
struct MktempCommandTests {
    static let rows: [(name: String, line: String, environment: [String: String])] = [
        ("a file from a template", "mktemp fooXXX", [:]),
        ("a directory", "mktemp -d dXXXXX", [:]),
        ("what follows the X's stays", "mktemp fooXXX.txt", [:]),
        ("--suffix", "mktemp --suffix=.c fooXXX", [:]),
        ("--suffix after a template not ending in X", "mktemp --suffix=.c fooXXXbar", [:]),
        ("--suffix with a slash", "mktemp --suffix=/x aXXX", [:]),
        ("too few X's", "mktemp aXX", [:]),
        ("an empty template", "mktemp ''", [:]),
        ("a missing directory", "mktemp nodir/aXXX", [:]),
        ("-q says nothing of it", "mktemp -q nodir/aXXX", [:]),
        ("-d in a missing directory", "mktemp -d nodir/aXXX", [:]),
        ("below a file", "mktemp f/XXX", [:]),
        ("X's in a directory name are left", "mktemp XXX/aXXX", [:]),
        ("-u makes nothing", "mktemp -u zzXXX", [:]),
        ("-p", "mktemp -p sub pXXX", [:]),
        ("-p a missing directory", "mktemp -p nodir pXXX", [:]),
        ("-p with an absolute template", "mktemp -p sub /abs/XXX", [:]),
        ("-p with a template that has a directory", "mktemp -p . sub/bXXX", [:]),
        ("--tmpdir=DIR", "mktemp --tmpdir=sub gXXX", [:]),
        ("--tmpdir without DIR takes $TMPDIR", "mktemp --tmpdir gXXX", ["TMPDIR": "sub"]),
        ("-t with a slash", "mktemp -t a/tXXX", [:]),
        ("-t in $TMPDIR before -p", "mktemp -p . -t xXXXX", ["TMPDIR": "sub"]),
        ("no template: tmp.XXXXXXXXXX in $TMPDIR", "mktemp", ["TMPDIR": "sub"]),
        ("-d with no template", "mktemp -d", ["TMPDIR": "."]),
    ]

    static func build(in root: File) throws {
        try (root + "sub").makeDirectory()
        try (root + "f").write(text: "x\n")
    }

    /// Whether two names are the same but for letters and digits in the same places (the X's).
    static func sameShape(_ ours: String, _ theirs: String) -> Bool {
        let (a, b) = (Array(ours.utf8), Array(theirs.utf8))
        let isAlphanumeric = { (byte: UInt8) in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        return a.count == b.count
            && zip(a, b).allSatisfy { $0 == $1 || (isAlphanumeric($0) && isAlphanumeric($1)) }
    }

    @Test(arguments: rows)
    func matchesGNU(_ name: String, _ line: String, _ environment: [String: String]) throws {
        let twins = try TwinRun(line, environment: environment, build: Self.build) {
            "\($0.kind) \(String($0.permissions, radix: 8))"
        }
        #expect(Self.sameShape(twins.ours.stdout, twins.theirs.stdout), "\(name): \(twins.ours.stdout)")
        #expect(twins.ours.stderr == twins.theirs.stderr, "\(name): \(line)")
        #expect(twins.ours.status == twins.theirs.status, "\(name): \(line)")
        // The names made differ; what was made, and its mode, must not.
        let made = { (tree: [String]) in
            tree.map { $0.split(separator: " ").dropFirst().joined(separator: " ") }.sorted()
        }
        #expect(made(twins.ourTree) == made(twins.theirTree), "\(name): \(line)")
        #expect(twins.ourTree.count == twins.theirTree.count, "\(name): \(line)")
    }

    @Test("Two templates are a usage error, in GNU's words")
    func tooManyTemplates() {
        let result = TestShell().run("mktemp aXXX bXXX")
        #expect(result.stderr == "mktemp: too many templates\nTry 'help mktemp' for more information.\n")
        #expect(result.status == .usage)
    }

    /// A name that exists is never taken: when creating fails with EEXIST, another name is
    /// tried, and what was there is left as it was.
    @Test(
        .needsLocalFileSystem("faults are injected into syscalls"),
        arguments: ["mktemp aXXX", "mktemp -d aXXX"])
    func anExistingNameIsNeverTaken(_ line: String) throws {
        let shell = TestShell()
        let refusals = Refusals(count: 5)
        let plan = FaultPlan { call, path in
            guard call == .open || call == .mkdir, path?.contains("/a") ?? false else { return nil }
            return refusals.next() ? .fileExists : nil
        }
        let result = FaultPlan.$current.withValue(plan) { shell.run(line) }
        #expect(result.status == .success)
        #expect(refusals.remaining == 0)
        let made = String(result.stdout.dropLast())
        #expect(try shell.directory.file.childNames() == [made])
        #expect(try shell.path(made).info().permissions == (line.contains("-d") ? 0o700 : 0o600))
    }

    /// Counts down the calls a fault plan refuses.
    final class Refusals: @unchecked Sendable {
        private(set) var remaining: Int
        init(count: Int) { remaining = count }
        func next() -> Bool {
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
    }
}
