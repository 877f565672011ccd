import PathModel
import Testing

@testable import ShellCore

/// `ls -k --si --block-size` and the `BLOCK_SIZE` variables, against GNU ls on twin fixtures.
@Suite struct LsSizeTests {
    /// The listing fixture with files large enough for every unit: 1.5 MB, 100 kB, 1 MiB of hole.
    static func makeFixture(_ shell: TestShell) throws {
        try makeListingFixture(shell)
        try shell.write("d/large", String(repeating: "z", count: 1_500_000))
        try shell.write("d/medium", String(repeating: "m", count: 100_000))
        #expect(shell.run("truncate -s 1M d/sparse").status == .success)
        for name in ["d/large", "d/medium", "d/sparse", "d"] { try shell.setTime(name, 1_577_934_245) }
    }

    static let comparisonRows: [(String, [String], [String: String])] = [
        ("--si", ["-ls", "--si", "d"], [:]),
        ("-k", ["-ls", "-k", "d"], [:]),
        ("-k without -l", ["-s", "-k"], [:]),
        ("-h wins over -k", ["-ls", "-h", "-k", "d"], [:]),
        ("-k before -h", ["-ls", "-k", "-h", "d"], [:]),
        ("a unit alone is written", ["-ls", "--block-size=K", "d"], [:]),
        ("a number and a unit is not", ["--block-size=1K", "-ls", "d"], [:]),
        ("KB is 1000", ["-ls", "--block-size=KB", "d"], [:]),
        ("KiB", ["-ls", "--block-size=KiB", "d"], [:]),
        ("kB", ["-ls", "--block-size=kB", "d"], [:]),
        ("M", ["-ls", "--block-size=M", "d"], [:]),
        ("MB", ["-ls", "--block-size=MB", "d"], [:]),
        ("1000", ["-ls", "--block-size=1000", "d"], [:]),
        ("si", ["-ls", "--block-size=si", "d"], [:]),
        ("human-readable", ["-ls", "--block-size=human-readable", "d"], [:]),
        ("an abbreviation", ["-ls", "--block-size=h", "d"], [:]),
        ("a quote for grouping", ["-ls", "--block-size='1", "d"], [:]),
        ("512", ["-s", "--block-size=512", "d"], [:]),
        ("2K", ["-ls", "--block-size=2K", "d"], [:]),
        ("octal", ["-s", "--block-size=010", "d"], [:]),
        ("hexadecimal", ["-s", "--block-size=0x400", "d"], [:]),
        ("-h after --block-size", ["-ls", "--block-size=M", "-h", "d"], [:]),
        ("--block-size after -h", ["-ls", "-h", "--block-size=M", "d"], [:]),
        ("-h after --si", ["-ls", "--si", "-h", "d"], [:]),
        ("--si after -h", ["-ls", "-h", "--si", "d"], [:]),
        ("-k leaves --block-size", ["-ls", "-k", "--block-size=M", "d"], [:]),
        ("columns", ["-C", "-s", "--si", "-w", "30", "d"], [:]),
        ("recursive", ["-lR", "--block-size=K"], [:]),
        ("a device size is not scaled", ["-l", "--block-size=K", "pipe", "a.txt"], [:]),
        ("BLOCK_SIZE", ["-ls", "d"], ["BLOCK_SIZE": "1M"]),
        ("BLOCK_SIZE and -k", ["-ls", "-k", "d"], ["BLOCK_SIZE": "1M"]),
        ("BLOCK_SIZE as a unit", ["-ls", "d"], ["BLOCK_SIZE": "K"]),
        ("BLOCKSIZE counts blocks only", ["-ls", "d"], ["BLOCKSIZE": "1M"]),
        ("a bad BLOCK_SIZE", ["-ls", "d"], ["BLOCK_SIZE": "bogus"]),
        ("an empty BLOCK_SIZE", ["-ls", "d"], ["BLOCK_SIZE": ""]),
        ("POSIXLY_CORRECT", ["-ls", "d"], ["POSIXLY_CORRECT": "1"]),
        ("POSIXLY_CORRECT and -k", ["-ls", "-k", "d"], ["POSIXLY_CORRECT": "1"]),
        ("LS_BLOCK_SIZE", ["-ls", "-k", "d"], ["LS_BLOCK_SIZE": "si"]),
        ("LS_BLOCK_SIZE before BLOCK_SIZE", ["-ls", "d"], ["LS_BLOCK_SIZE": "K", "BLOCK_SIZE": "1M"]),
        ("an option before the variables", ["-ls", "--block-size=KB", "d"], ["BLOCK_SIZE": "1M"]),
    ]

    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: comparisonRows)
    func matchesGNULs(_ name: String, _ arguments: [String], _ environment: [String: String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell(environment: ["TZ": "UTC"].merging(environment) { $1 })
        try Self.makeFixture(shell)
        try shell.expectSameAsGNU("ls", arguments, environment: environment, name)
    }

    static let mistakeRows: [(String, String)] = [
        ("zero", "0"), ("a word", "x"), ("an unknown unit", "1Q"), ("too large", "99999999999999999999"),
        ("negative", "-1"), ("a fraction", "1.5K"), ("empty", ""), ("kb", "1kb"), ("a unit too large", "1000000Y"),
        ("a newline", "1\nK"),
    ]

    /// GNU's message and status; shelf adds its pointer to `help ls`, as after every usage error.
    @Test(.needsLocalFileSystem("GNU ls reads the fixture from disk"), arguments: mistakeRows)
    func reportsMistakesAsGNULs(_ name: String, _ size: String) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = TestShell()
        try shell.write("a")
        let arguments = ["-s", "--block-size=" + size]
        let expected = try ReferenceTool.run("/usr/bin/ls", arguments, in: shell.directory.file)
        let actual = shell.run(ReferenceTool.commandLine("ls", arguments))
        #expect(expected.status == 2, "\(name)")
        #expect(actual.stderr == expected.stderr + "Try 'help ls' for more information.\n", "\(name)")
        #expect(actual.status == expected.status, "\(name)")
    }
}
