import PathModel
import Testing

@testable import ShellCore

/// chmod against GNU chmod: each row runs in a fresh pair of twin fixtures, once in shelf and
/// once in bash with coreutils, then compares output, messages, status and every entry's mode.
///
///     f 0644   g 0600   x 0755   open 0666   n\xff 0644
///     d/ 0755   d/e/ 0755   d/e/h 0644   d/s/ 2755   d/l -> ../f
///     lf -> f   ld -> d   dl -> nowhere
@Suite(
    .serialized, .enabled(if: ReferenceTool.isInstalled("/usr/bin/chmod"), "needs GNU coreutils"))
struct ChmodCommandTests {
    static let rows: [(name: String, line: String)] = [
        ("octal", "chmod -v 700 f"),
        ("octal with set-user-ID", "chmod -v 4755 x"),
        ("four digits keep a directory's set-group-ID", "chmod -v 755 d/s"),
        ("five digits clear it", "chmod -v 00755 d/s"),
        ("u+x", "chmod -v u+x f"),
        ("go-w on two files", "chmod -v go-w open g"),
        ("a=r", "chmod -v a=r f"),
        ("+t", "chmod -v +t d"),
        ("g+s", "chmod -v g+s x"),
        ("u=rwx,go=", "chmod -v u=rwx,go= f"),
        ("X leaves a file without x alone", "chmod -v a+X f"),
        ("X on a file with x", "chmod -v go-x,a+X x"),
        ("X on a directory", "chmod -v a=,a+X d"),
        ("u=g copies the group's bits", "chmod -v u=g open"),
        ("go=u", "chmod -v go=u g"),
        ("o+u-w", "chmod -v o+u-w x"),
        ("several operators in one clause", "chmod -v u+x-w,g=r+w f"),
        ("= alone clears", "chmod -v = f"),
        ("+w without a class keeps to the umask", "chmod -v +w g"),
        ("=755 written symbolically", "chmod -v =755 f"),
        ("-w as an option warns about the umask", "chmod -v -w open"),
        ("-w as an option, no surprise", "chmod -w f"),
        ("two option-like modes", "chmod -w -x x"),
        ("-w after -- is a plain mode", "chmod -- -w open"),
        ("-c reports only changes", "chmod -c 644 f g"),
        ("-v on a dangling symlink", "chmod -v 644 dl"),
        ("a missing file and a good one", "chmod 600 nope f"),
        ("-f silences a missing file", "chmod -f 644 nope"),
        ("-v on a missing file", "chmod -v 644 nope"),
        ("a symlink operand is followed", "chmod -v 600 lf"),
        ("an empty operand", "chmod 644 ''"),
        ("a trailing slash on a file", "chmod 644 f/"),
        ("a trailing slash on a directory", "chmod -v 700 d/"),
        ("--reference", "chmod -v --reference=x f g"),
        ("--reference through a symlink", "chmod --reference=lf x"),
        ("--reference to a missing file", "chmod --reference=nope f"),
        ("-R", "chmod -R go-rwx d"),
        ("-Rv leaves symlinks and what they lead to", "chmod -Rv a+rwX d"),
        ("-Rc", "chmod -Rc u-w d"),
        ("-R through a symlink operand", "chmod -Rv o-r ld"),
        ("-R with doubled trailing slashes", "chmod -Rv 700 d//"),
        ("long options", "chmod --changes --recursive o+w d"),
        ("a name that is not UTF-8", "chmod -v 600 n?"),
    ]

    /// Builds the fixture below `root`, with modes set whatever the umask.
    static func build(in root: File) throws {
        for (path, mode) in [("f", 0o644), ("g", 0o600), ("x", 0o755), ("open", 0o666), ("d/e/h", 0o644)]
            as [(String, UInt32)]
        {
            let file = root + path
            try file.parent.makeDirectory(intermediates: true)
            try file.write(text: "x\n")
            try file.setPermissions(mode)
        }
        let odd = try root.appending(name: [0x6E, 0xFF])
        try odd.write(text: "x\n")
        try odd.setPermissions(0o644)
        try (root + "d/s").makeDirectory()
        try (root + "d/s").setPermissions(0o2755)
        for directory in ["d", "d/e"] { try (root + directory).setPermissions(0o755) }
        try (root + "d/l").makeSymlink(to: "../f")
        try (root + "lf").makeSymlink(to: "f")
        try (root + "ld").makeSymlink(to: "d")
        try (root + "dl").makeSymlink(to: "nowhere")
    }

    /// Runs `line` on twin fixtures, snapshotting each entry's mode bits.
    static func twins(_ line: String) throws -> TwinRun {
        try TwinRun(line, build: build) { String($0.permissions, radix: 8) }
    }

    @Test(arguments: rows)
    func matchesGNU(_ name: String, _ line: String) throws {
        try Self.twins(line).expectSame(line, name)
    }

    static let usageRows: [(name: String, line: String)] = [
        ("no operand", "chmod"),
        ("a mode and no file", "chmod 7"),
        ("an option-like mode and no file", "chmod -w"),
        ("an invalid mode", "chmod xyz f"),
        ("an octal number after a class", "chmod u=755 f"),
        ("an octal number too large", "chmod 17777 f"),
        ("a mode and --reference", "chmod --reference=f -w g"),
    ]

    /// Usage errors say what GNU says on their first line; then shelf points at `help` and
    /// exits 2 (GNU: `chmod --help`, 1).
    @Test(arguments: usageRows)
    func usageErrorsMatchGNU(_ name: String, _ line: String) throws {
        try Self.twins(line).expectSameUsageError(line)
    }

    /// `-R` on `/` is refused unless `--no-preserve-root` is given; GNU chmod's default is the
    /// other way round, so this is not compared (and nothing outside the fixture may change).
    @Test(arguments: [
        ("/", "chmod: it is dangerous to operate recursively on '/'\n"),
        ("/..", "chmod: it is dangerous to operate recursively on '/..' (same as '/')\n"),
        ("--preserve-root /", "chmod: it is dangerous to operate recursively on '/'\n"),
    ])
    func recursiveRootIsRefused(_ operand: String, _ message: String) throws {
        let shell = TestShell(interactive: false)
        let result = shell.runConfined("chmod -R a+r \(operand)")
        #expect(result.stderr == message + "chmod: use --no-preserve-root to override this failsafe\n")
        #expect(result.status == .failure)
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "Mode expressions apply as GNU chmod applies them",
        arguments: [
            ("755", 0o644, false, 0o755),
            ("u+x,go-w", 0o666, false, 0o744),
            ("+w", 0o444, false, 0o644),
            ("a+X", 0o644, true, 0o755),
            ("a+X", 0o644, false, 0o644),
            ("g=u", 0o640, false, 0o660),
            ("u+s,+t", 0o755, false, 0o5755),
            ("=", 0o2755, true, 0o2000),
            ("0755", 0o2755, true, 0o2755),
            ("00755", 0o2755, true, 0o755),
        ] as [(String, UInt32, Bool, UInt32)])
    func modeExpressions(_ text: String, _ mode: UInt32, _ isDirectory: Bool, _ expected: UInt32) throws {
        let expression = try #require(ModeExpression(Array(text.utf8)))
        #expect(expression.applied(to: mode, isDirectory: isDirectory, umask: 0o022) == expected, "\(text)")
    }

    @Test(
        "Texts that are not modes",
        arguments: ["", ",", "u", "u+x,", "ugo", "a+rz", "u=gx", "+8", "10000", "g=7"])
    func notModes(_ text: String) {
        #expect(ModeExpression(Array(text.utf8)) == nil, "\(text)")
    }
}
