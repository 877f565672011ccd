import PathModel
import Testing

@testable import ShellCore

/// readlink against GNU readlink on twin fixtures: the same line runs in shelf and in bash, in
/// a directory with a file, links to it written oddly, a dangling link, a loop and names that
/// are not UTF-8.
@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/readlink"), "needs GNU coreutils"))
struct ReadlinkCommandTests {
    static let lines: [(name: String, line: String)] = [
        ("a target is printed as written", "readlink odd"),
        ("a link to a directory", "readlink l"),
        ("a dangling link", "readlink dangling"),
        ("a link to itself", "readlink loop"),
        ("a file is silently not a link", "readlink d/f"),
        ("-v reports a directory as not a link", "readlink -v d"),
        ("-v reports a missing file", "readlink -v nope"),
        ("-v reports an empty operand", "readlink -v ''"),
        ("a trailing slash follows the link", "readlink -v l/"),
        ("a trailing slash on a loop", "readlink -v loop/"),
        ("a trailing slash on a dangling link", "readlink -v dangling/"),
        ("a trailing slash on a file", "readlink -v d/f/"),
        ("-q after -v silences", "readlink -v -q d"),
        ("-v after -s reports", "readlink -s -v d"),
        ("several operands, one failing", "readlink -v l d dangling"),
        ("-n with one operand", "readlink -n l"),
        ("-n with two operands is ignored, with a warning", "readlink -n l dangling"),
        ("-n with -z", "readlink -n -z l"),
        ("-z ends each with NUL", "readlink -z l dangling"),
        ("long options", "readlink --canonicalize-existing --verbose --zero l dangling"),
        ("-f through a link", "readlink -f l/x"),
        ("-f an oddly written link", "readlink -f odd"),
        ("-f a dangling link", "readlink -v -f dangling"),
        ("-f a loop", "readlink -v -f loop"),
        ("-f below a file", "readlink -v -f d/f/x"),
        ("-f a file with a trailing slash", "readlink -v -f d/f/"),
        ("-f a directory with a trailing slash", "readlink -f l/"),
        ("-f an empty operand", "readlink -v -f ''"),
        ("-e a link", "readlink -e l"),
        ("-e a missing last component", "readlink -v -e l/x"),
        ("-m with missing components and ..", "readlink -m l/x/../y"),
        ("-m below a file", "readlink -m d/f/x"),
        ("the last of -f, -e, -m wins", "readlink -e -m l/x/y"),
        ("-n is ignored for two resolved paths", "readlink -fn l l"),
        ("a name that is not UTF-8", "readlink raw?"),
        ("-v quotes a name that is not UTF-8", "readlink -v file?"),
        ("-m a name that is not UTF-8", "readlink -m raw?"),
        ("-f a name that is not UTF-8", "readlink -v -f raw?"),
    ]

    /// The fixture, made with GNU ln so that targets keep bytes a path would normalise away.
    static func fixture() throws -> TestShell {
        let shell = TestShell()
        try shell.write("d/f", "x\n")
        let made = try ReferenceTool.run(
            "/bin/bash",
            [
                "-c",
                "ln -s d l && ln -s ./d//../d/f odd && ln -s nowhere/x dangling && ln -s loop loop"
                    + " && ln -s $'to\\xfe//x/' $'raw\\xff' && touch $'file\\xfe'",
            ], in: shell.directory.file)
        #expect(made.status == .success, "\(made.stderr)")
        return shell
    }

    @Test(.needsLocalFileSystem("GNU readlink reads the fixture from disk"), arguments: lines)
    func matchesGNU(_ name: String, _ line: String) throws {
        let shell = try Self.fixture()
        let expected = try ReferenceTool.run("/bin/bash", ["-c", line], in: shell.directory.file)
        let result = shell.run(line)
        #expect(result.stdout == expected.stdout, "\(name): \(line)")
        #expect(result.stderr == expected.stderr, "\(name): \(line)")
        #expect(result.status == expected.status, "\(name): \(line)")
    }

    @Test(
        "A target that is not UTF-8 is printed byte for byte",
        .needsLocalFileSystem("GNU ln makes the fixture on disk"))
    func targetBytes() throws {
        let shell = try Self.fixture()
        shell.run("readlink raw? odd")
        #expect(shell.stdout.contents == Array("to".utf8) + [0xFE] + Array("//x/\n./d//../d/f\n".utf8))
    }

    @Test("No operand is a usage error, in GNU's words")
    func missingOperand() {
        let result = TestShell().run("readlink -f")
        #expect(result.stderr == "readlink: missing operand\nTry 'help readlink' for more information.\n")
        #expect(result.status == .usage)
    }
}
