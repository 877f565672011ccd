import PathModel
import Testing

@testable import ShellCore

/// mv's and ln's -t, -T, backups (-b, --backup=CONTROL, -S), mv -u and ln -r against GNU's on
/// twin fixtures: `TransferFixture` with `a` older than `b`, and `empty` as old as `b`.
@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/ln"), "needs GNU coreutils"))
struct MvLnOptionTests {
    static let rows: [(name: String, line: String)] = [
        ("mv -t", "mv -t d a b"),
        ("mv -t, verbose, a directory too", "mv -v -t d a s"),
        ("mv --target-directory=", "mv --target-directory=d a"),
        ("mv -t a missing directory", "mv -t nope a"),
        ("mv -t a file", "mv -t a b"),
        ("mv -T onto an empty directory", "mv -vT s d"),
        ("mv -T onto a full directory", "mv -T s e"),
        ("mv -T a file onto a directory", "mv -T a d"),
        ("mv -T to a new name", "mv -vT a new"),
        ("mv -b", "mv -vb a b"),
        ("mv --backup=numbered, twice", "mv -v --backup=numbered a b && mv -v --backup=numbered empty b"),
        ("mv --backup=existing without numbered ones", "mv -v --backup=existing a b"),
        ("mv --backup=existing with a numbered one", "mv --backup=t a b && mv -v --backup=nil empty b"),
        ("mv --backup=simple over an older backup", "mv -b a b && mv -v --backup=never empty b"),
        ("mv -S implies a backup", "mv -v -S .bak a b"),
        ("mv --suffix with a slash is ~", "mv -v --suffix=x/y -b a b"),
        ("mv --backup=none makes none", "mv -v -b --backup=none a b"),
        ("mv -b with nothing to back up", "mv -vb a b s/t/q d"),
        ("mv -b of a directory over an empty one", "mv -vb s d"),
        ("mv --backup abbreviated", "mv -v --backup=num a b"),
        ("mv -u leaves a newer destination", "mv -vu a b"),
        ("mv -u replaces an older one", "mv -vu b a"),
        ("mv -u leaves one as old", "mv -vu empty b"),
        ("mv -u to a missing destination", "mv -vu a new"),
        ("mv -u into a directory", "mv -vu a b d"),
        ("ln -t", "ln -sv -t d a b"),
        ("ln -t hard links", "ln -t d a b"),
        ("ln -t a missing directory", "ln -t nope a"),
        ("ln -t a file", "ln -t a b"),
        ("ln -T onto a directory", "ln -sT a d"),
        ("ln -T to a new name", "ln -svT a new"),
        ("ln -b", "ln -svb a b"),
        ("ln --backup=numbered, twice", "ln -sv --backup=numbered a b && ln -sv --backup=numbered a b"),
        ("ln -S implies a backup", "ln -sv -S .old a b"),
        ("ln -b with -f", "ln -sbf a b"),
        ("ln -b hard", "ln -vb a b"),
        ("ln -r into a subdirectory", "ln -srv a s/t/la"),
        ("ln -r into a directory", "ln -sr f/s e/"),
        ("ln -r beside", "ln -srv a b2"),
        ("ln -r through a symlinked directory of the link", "ln -srv a ls/x"),
        ("ln -r of a target through a symlink", "ln -srv ls/t/q e/viat"),
        ("ln -r of a missing target", "ln -srv nope/x e/np"),
        ("ln -r of .. in the target", "ln -srv e/../a e/u"),
        ("ln -r of .", "ln -srv . e/dot"),
        ("ln -r with -t", "ln -srv -t s/t a b"),
        ("ln -r with -n", "ln -srn d e/dd"),
    ]

    static func build(in root: File) throws {
        try TransferFixture.build(in: root)
        for (name, seconds) in [("a", 1_000_000_000), ("b", 1_500_000_000), ("empty", 1_500_000_000)] {
            let time = Timestamp(seconds: Int64(seconds), nanoseconds: 0)
            try (root + name).setTimes(access: time, modification: time, followSymlinks: false)
        }
    }

    /// Each entry as its kind and a file's size (a symlink's target the snapshot adds).
    static func describe(_ info: FileInfo) -> String {
        info.kind == .regular ? "file \(info.size)" : info.kind.rawValue
    }

    @Test(arguments: rows)
    func matchesGNU(_ name: String, _ line: String) throws {
        try TwinRun(line, build: Self.build, describe: Self.describe).expectSame(line, name)
    }

    @Test(
        "$VERSION_CONTROL and $SIMPLE_BACKUP_SUFFIX where the options say nothing",
        arguments: [
            ("mv -vb a b", ["VERSION_CONTROL": "numbered"]), ("mv -vb a b", ["VERSION_CONTROL": "none"]),
            ("mv -v --backup=simple a b", ["VERSION_CONTROL": "numbered"]),
            ("ln -svb a b", ["SIMPLE_BACKUP_SUFFIX": ".orig"]),
            ("ln -sv -S .x -b a b", ["SIMPLE_BACKUP_SUFFIX": ".orig"]),
            ("mv -vb a b", ["VERSION_CONTROL": ""]),
        ])
    func environmentMatchesGNU(_ line: String, _ environment: [String: String]) throws {
        try TwinRun(line, environment: environment, build: Self.build, describe: Self.describe)
            .expectSame(line, "\(environment)")
    }

    @Test(arguments: [
        "mv -bn a b", "mv -t d -T a", "mv -T a b c", "mv -T a", "mv --backup=bogus a b", "mv -t d",
        "ln -r a x", "ln -t d -T a", "ln -sT a b c", "ln -T a", "ln --backup=x a b",
    ])
    func usageErrorsMatchGNU(_ line: String) throws {
        try TwinRun(line, build: Self.build, describe: Self.describe).expectSameUsageError(line)
    }

    @Test("An unknown $VERSION_CONTROL is refused in GNU's words")
    func badVersionControl() throws {
        let line = "mv -b a b"
        try TwinRun(
            line, environment: ["VERSION_CONTROL": "bogus"], build: Self.build, describe: Self.describe
        )
        .expectSameUsageError(line)
    }
}
