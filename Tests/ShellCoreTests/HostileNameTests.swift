import PathModel
import Testing

@testable import ShellCore

/// Names a hostile directory can hold: each could move the cursor, recolour the terminal, break a
/// line or fail to decode if it were written to a terminal as it is.
let hostileNames: [(label: String, bytes: [UInt8])] = [
    ("newline", Array("new\nline".utf8)),
    ("escape sequence", Array("\u{1B}[31mred\u{1B}[0m".utf8)),
    ("tab and bell", Array("tab\there\u{07}".utf8)),
    ("carriage return", Array("over\rwrite".utf8)),
    ("invalid UTF-8", Array("lat".utf8) + [0xE9, 0xFF]),
    ("C1 control", Array("c1".utf8) + [0xC2, 0x9B] + Array("2J".utf8)),
    ("delete", Array("del".utf8) + [0x7F]),
    ("dash", Array("-rf".utf8)),
    ("plain", Array("plain.txt".utf8)),
]

/// A fresh shell whose directory holds one file of each hostile name, each containing its name.
private func hostileShell(environment: [String: String] = [:]) throws -> TestShell {
    let shell = TestShell(environment: ["TZ": "UTC"].merging(environment) { $1 })
    for (_, name) in hostileNames {
        try shell.directory.file.appending(name: name).write(bytes: name)
    }
    return shell
}

/// Names with control characters or invalid UTF-8 reach a terminal only escaped, in GNU's
/// shell-escape quoting; file contents pass through untouched.
@Suite struct HostileNameTests {
    @Test(
        .needsLocalFileSystem("GNU ls reads the fixture from disk"),
        arguments: [["-C"], ["-1"], ["-l"], ["-lF"]])
    func lsOnATerminalQuotesAsGNULsShellEscape(_ arguments: [String]) throws {
        guard ReferenceTool.isInstalled("/usr/bin/ls") else { return }
        let shell = try hostileShell()
        let gnu = ["--quoting-style=shell-escape", "-w", "60"] + arguments
        let expected = try ReferenceTool.run("/usr/bin/ls", gnu, in: shell.directory.file)
        let actual = shell.runOnTerminal(ReferenceTool.commandLine("ls", arguments), width: 60)
        #expect(actual.stdout == expected.stdout)
        #expect(!actual.stdout.contains("\u{1B}") && !actual.stdout.contains("\r"))
    }

    @Test(.needsLocalFileSystem("tree(1) reads the fixture from disk"), arguments: ["C", "C.UTF-8"])
    func treeEscapesAsTreeDoes(_ locale: String) throws {
        guard ReferenceTool.isInstalled("/usr/bin/tree") else { return }
        let shell = try hostileShell(environment: ["LC_ALL": locale])
        // As tree in each locale: in UTF-8 code points of valid UTF-8 and bytes of the rest; in C bytes.
        let expected = try ReferenceTool.run(
            "/usr/bin/tree", ["--noreport"], in: shell.directory.file, environment: ["LC_ALL": locale])
        let actual = shell.runOnTerminal("tree --noreport")
        #expect(actual.stdout == expected.stdout)
        #expect(!actual.stdout.contains("\u{1B}") && !actual.stdout.contains("\r"))
    }

    /// Each name is reached through a glob (`one/*`), as a command line cannot spell invalid UTF-8.
    @Test(arguments: hostileNames.filter { !Quoting.isPrintable($0.bytes) })
    func statOnATerminalEscapesTheName(_ label: String, _ name: [UInt8]) throws {
        let shell = TestShell()
        try shell.path("one").makeDirectory()
        try shell.path("one").appending(name: name).createFile()
        let escaped = Quoting.ifNeeded(Array("one/".utf8) + name)
        let result = shell.runOnTerminal("stat one/* && stat -c '[%n]' one/*")
        #expect(result.stdout.hasPrefix("  File: \(escaped)\n"), "\(label)")
        #expect(result.stdout.hasSuffix("[\(escaped)]\n"), "\(label)")
        // On a pipe the name is written as it is, as GNU stat writes it.
        #expect(shell.run("stat -c %n one/* > out").status == .success)
        #expect(try shell.path("out").readBytes() == Array("one/".utf8) + name + [0x0A], "\(label)")
    }

    @Test(.needsLocalFileSystem("GNU tools read the fixture from disk"), arguments: ["rm", "cat", "ls"])
    func errorMessagesQuoteTheNameAsGNUDoes(_ tool: String) throws {
        guard ReferenceTool.isInstalled("/usr/bin/\(tool)") else { return }
        let shell = TestShell()
        let missing = ["gone\nnow", "\u{1B}]0;title\u{07}", "\u{1B}[2J"]
        let expected = try ReferenceTool.run("/usr/bin/\(tool)", missing, in: shell.directory.file)
        let actual = shell.run(ReferenceTool.commandLine(tool, missing))
        #expect(actual.stderr == expected.stderr)
        #expect(!actual.stderr.contains("\u{1B}"))
        #expect(actual.status == expected.status)
    }

    @Test func catWritesTheBytesAsTheyAre() throws {
        let shell = TestShell()
        let contents = Array("\u{1B}[31mred\r\n".utf8) + [0xFF, 0x00, 0x07]
        try shell.path("one").makeDirectory()
        try shell.path("one").appending(name: Array("\u{1B}[31m".utf8) + [0xFF]).write(bytes: contents)
        #expect(shell.run("cat one/* > out").status == .success)
        #expect(try shell.path("out").readBytes() == contents)
    }

    @Test func globbedNamesReachCommandsAsTheirBytes() throws {
        let shell = try hostileShell()
        #expect(shell.run("mkdir keep && cp * keep").status == .failure)  // keep/ is omitted without -r
        for (label, name) in hostileNames {
            let copy = try shell.directory.file.appending(name: Array("keep".utf8)).appending(name: name)
            #expect(try copy.readBytes() == name, "\(label)")
        }
        // `-rf` from the glob is a name, not options: keep/ is a directory rm leaves alone.
        #expect(shell.run("rm *").stderr == "rm: cannot remove 'keep': Is a directory\n")
        #expect(try shell.directory.file.entries().map(\.name) == [Array("keep".utf8)])
    }
}

/// Shell-escape quoting, row by row, as GNU `ls --quoting-style=shell-escape` and
/// `shell-escape-always` (error messages) print the same names.
@Suite struct QuotingTests {
    @Test(
        arguments: [
            ("plain", Array("a.txt".utf8), "a.txt", "'a.txt'"),
            ("space", Array("a b".utf8), "'a b'", "'a b'"),
            ("quote", Array("it's".utf8), "\"it's\"", "\"it's\""),
            ("newline inside", Array("a\nb".utf8), "'a'$'\\n''b'", "'a'$'\\n''b'"),
            ("escape first", Array("\u{1B}x".utf8), "''$'\\033''x'", "''$'\\033''x'"),
            ("only a control", [0x01], "''$'\\001'", "''$'\\001'"),
            ("invalid first", [0xE9, 0x61], "''$'\\351''a'", "''$'\\351''a'"),
            ("escape last", Array("x\u{07}".utf8), "'x'$'\\a'", "'x'$'\\a'"),
            ("C1 control", [0xC2, 0x9B], "''$'\\302\\233'", "''$'\\302\\233'"),
            ("printable UTF-8", Array("café".utf8), "café", "'café'"),
        ] as [(String, [UInt8], String, String)])
    func quotesAsGNUShellEscape(_ label: String, _ name: [UInt8], _ ifNeeded: String, _ always: String) {
        #expect(Quoting.ifNeeded(name) == ifNeeded, "\(label)")
        #expect(Quoting.always(name) == always, "\(label)")
    }

    /// In the C locale every byte outside printable ASCII is escaped, UTF-8 or not.
    @Test(
        arguments: [
            ("plain", Array("a b".utf8), "'a b'", "'a b'"),
            ("é alone", Array("é".utf8), "''$'\\303\\251'", "''$'\\303\\251'"),
            ("é inside", Array("café.txt".utf8), "'caf'$'\\303\\251''.txt'", "'caf'$'\\303\\251''.txt'"),
            ("Japanese", Array("日".utf8), "''$'\\346\\227\\245'", "''$'\\346\\227\\245'"),
        ] as [(String, [UInt8], String, String)])
    func quotesAsGNUShellEscapeInTheCLocale(_ label: String, _ name: [UInt8], _ ifNeeded: String, _ always: String) {
        CharacterEncoding.$current.withValue(.ascii) {
            #expect(Quoting.ifNeeded(name) == ifNeeded, "\(label)")
            #expect(Quoting.always(name) == always, "\(label)")
        }
    }
}
