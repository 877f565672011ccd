import Glibc
import PathModel
import Testing

@testable import ShellCore

/// cat against GNU cat: an operand ending in a slash names a directory, as the kernel reads it;
/// every option on files with tabs, carriage returns, control and high bytes and runs of blank
/// lines, whose state carries from one file to the next.
@Suite(.enabled(if: ReferenceTool.isInstalled("/usr/bin/cat"), "needs GNU coreutils"))
struct CatCommandTests {
    static let rows: [[String]] = [
        ["f"], ["f/"], ["link/"], ["link"], ["d/"], ["dlink/"], ["fifo/"], ["f", "f/", "f"], ["missing/"],
    ]

    @Test(
        .needsLocalFileSystem("GNU cat reads the fixture from disk, and FIFOs are the kernel's"),
        arguments: rows)
    func matchesGNU(_ arguments: [String]) throws {
        let shell = TestShell()
        try shell.write("f", "text\n")
        try shell.path("link").makeSymlink(to: "f")
        try shell.path("d").makeDirectory()
        try shell.path("dlink").makeSymlink(to: "d")
        // Nobody writes to it: `fifo/` must fail at once, as the kernel refuses it, never wait.
        #expect(mkfifo(shell.path("fifo").string, 0o644) == 0)
        let expected = try ReferenceTool.run("/usr/bin/cat", arguments, in: shell.directory.file)
        let result = shell.run(ReferenceTool.commandLine("cat", arguments))
        #expect(result.stdout == expected.stdout, "cat \(arguments)")
        #expect(result.stderr == expected.stderr, "cat \(arguments)")
        #expect(result.status == expected.status, "cat \(arguments)")
    }

    static let optionRows: [(name: String, arguments: [String])] = [
        ("-E marks line ends, and a CR before one as ^M", ["-E", "bytes"]),
        ("-T shows tabs only", ["-T", "bytes"]),
        ("-v shows control and high bytes, not tabs", ["-v", "bytes"]),
        ("-e is -vE", ["-e", "bytes"]),
        ("-t is -vT", ["-t", "bytes"]),
        ("-A is -vET", ["-A", "bytes"]),
        ("long options", ["--show-ends", "--show-tabs", "--show-nonprinting", "bytes"]),
        ("-s squeezes runs of blank lines", ["-s", "blanks"]),
        ("-s keeps a run going from one file to the next", ["-s", "blanks", "blanks"]),
        ("-sn numbers what is left", ["-sn", "blanks", "blanks"]),
        ("-sb numbers only lines with something", ["-sb", "blanks"]),
        ("-b overrides -n, whatever the order", ["-b", "-n", "blanks"]),
        ("-n goes on across files", ["-n", "bytes", "blanks"]),
        ("a line without its end goes on in the next file", ["-n", "nonl", "bytes"]),
        ("-E: a CR ending one file before a newline starting the next", ["-E", "cr", "lf"]),
        ("-E: a CR at the very end", ["-E", "lf", "cr"]),
        ("-vE on CRs", ["-vE", "cr", "lf"]),
        ("-u is ignored", ["-u", "bytes"]),
        ("-ET with a missing file between", ["-ET", "bytes", "missing", "blanks"]),
        ("--squeeze-blank and --number-nonblank", ["--squeeze-blank", "--number-nonblank", "blanks"]),
    ]

    @Test(.needsLocalFileSystem("GNU cat reads the fixture from disk"), arguments: optionRows)
    func optionsMatchGNU(_ name: String, _ arguments: [String]) throws {
        let shell = TestShell()
        try shell.path("bytes").write(bytes: [
            0x61, 0x09, 0x62, 0x0D, 0x0A, 0x01, 0x1B, 0x7F, 0x0D, 0x78, 0x0A, 0x80, 0x89, 0xC3, 0xA9, 0xFF,
            0x0A, 0x0A,
        ])
        try shell.write("blanks", "\n\n\nx\n\n\n\ty\n\n\n")
        try shell.write("nonl", "half")
        try shell.write("cr", "a\r")
        try shell.write("lf", "\nb\n")
        let expected = try ReferenceTool.run("/usr/bin/cat", arguments, in: shell.directory.file)
        let result = shell.run(ReferenceTool.commandLine("cat", arguments))
        #expect(result.stdout == expected.stdout, "\(name): cat \(arguments)")
        #expect(result.stderr == expected.stderr, "\(name): cat \(arguments)")
        #expect(result.status == expected.status, "\(name): cat \(arguments)")
    }
}
