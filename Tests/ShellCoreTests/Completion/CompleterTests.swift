import PathModel
import Testing

@testable import ShellCore

/// A shell whose directory holds names that need every kind of quoting.
private func fixture() throws -> TestShell {
    // No program in PATH: a command name completes to the built-ins alone.
    let shell = TestShell(environment: ["PATH": "no-programs-here"])
    for name in [
        "my file.txt", "my dir/inner", "alpha", ".hidden", "日本語.txt", "cost$5", "a*b?[c]", "it's",
        "say \"hi\"", "back\\slash", "src/main.swift", "sub dir/inner",
    ] {
        try shell.write(name)
    }
    return shell
}

/// What one Tab does to `line` (cursor at the end): the single choice or the common prefix put in
/// place; nil when there is nothing to insert.
private func afterTab(_ line: String, in shell: TestShell) -> String? {
    let bytes = Array(line.utf8)
    let completion = Completer.complete(line: bytes, cursor: bytes.count, state: shell.state)
    return completion.applied(to: bytes).map { String(decoding: $0, as: UTF8.self) }
}

/// The names a list of choices shows for `line`.
private func choices(_ line: String, in shell: TestShell) -> [String] {
    let bytes = Array(line.utf8)
    return Completer.complete(line: bytes, cursor: bytes.count, state: shell.state).candidates.map {
        String(decoding: $0.display, as: UTF8.self)
    }
}

@Suite struct CompleterTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let line: String
        let expected: String?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "a space is escaped", line: "cat my\\ f", expected: "cat my\\ file.txt "),
        Row(
            name: "the common prefix is inserted even when it needs quoting", line: "cat my",
            expected: "cat my\\ "),
        Row(
            name: "inside an open single quote, closed after a file", line: "cat 'my f",
            expected: "cat 'my file.txt' "),
        Row(
            name: "inside an open double quote, closed after a file", line: "cat \"my f",
            expected: "cat \"my file.txt\" "),
        Row(
            name: "a directory keeps the quote open and ends in a slash", line: "cat 'my d",
            expected: "cat 'my dir/"),
        Row(name: "Japanese needs no quoting", line: "cat 日", expected: "cat 日本語.txt "),
        Row(name: "a dollar is escaped", line: "cat co", expected: "cat cost\\$5 "),
        Row(name: "glob characters are escaped", line: "cat a\\*", expected: "cat a\\*b\\?\\[c] "),
        Row(name: "a single quote is escaped", line: "cat it", expected: "cat it\\'s "),
        Row(name: "a single quote inside single quotes", line: "cat 'it", expected: "cat 'it'\\''s' "),
        Row(
            name: "double quotes inside double quotes", line: "cat \"say", expected: "cat \"say \\\"hi\\\"\" "
        ),
        Row(name: "a backslash is escaped", line: "cat ba", expected: "cat back\\\\slash "),
        Row(name: "cd offers directories only", line: "cd m", expected: "cd my\\ dir/"),
        Row(name: "~/ is kept as typed", line: "cat ~/al", expected: "cat ~/alpha "),
        Row(name: "a variable is kept as typed", line: "cat $HOME/al", expected: "cat $HOME/alpha "),
        Row(name: "a lone ~ becomes ~/", line: "cat ~", expected: "cat ~/"),
        Row(name: "a dotfile when the word starts with a dot", line: "cat .h", expected: "cat .hidden "),
        Row(name: "a command name first", line: "mkd", expected: "mkdir "),
        Row(name: "a long option", line: "mkdir --pa", expected: "mkdir --parents "),
        Row(name: "a path below a directory", line: "cat src/m", expected: "cat src/main.swift "),
        Row(name: "below a directory with a space", line: "cat sub\\ dir/", expected: "cat sub\\ dir/inner "),
        Row(name: "a redirection target is a path", line: "echo hi > al", expected: "echo hi > alpha "),
        Row(name: "a command name after ;", line: "cat x; ca", expected: "cat x; cat "),
        Row(name: "a command name after &&", line: "pwd && ec", expected: "pwd && echo "),
        Row(name: "nothing matches", line: "cat zzz", expected: nil),
        Row(name: "no such command", line: "zz", expected: nil),
    ]

    @Test(arguments: rows)
    func oneTab(_ row: Row) throws {
        let shell = try fixture()
        #expect(afterTab(row.line, in: shell) == row.expected)
    }

    @Test func dotfilesAreHiddenUnlessAsked() throws {
        let shell = try fixture()
        #expect(!choices("cat ", in: shell).contains(".hidden"))
        #expect(choices("cat .", in: shell) == [".hidden"])
    }

    @Test func choicesShowBareNamesSortedByBytes() throws {
        let shell = try fixture()
        #expect(
            choices("cat ", in: shell) == [
                "a*b?[c]", "alpha", "back\\slash", "cost$5", "it's", "my dir/", "my file.txt", "say \"hi\"",
                "src/",
                "sub dir/", "日本語.txt",
            ])
    }

    @Test func directoriesOnlyForCdAndRmdir() throws {
        let shell = try fixture()
        #expect(choices("cd ", in: shell) == ["my dir/", "src/", "sub dir/"])
        #expect(choices("rmdir s", in: shell) == ["src/", "sub dir/"])
        #expect(choices("cat s", in: shell) == ["say \"hi\"", "src/", "sub dir/"])
    }

    @Test func eachCommandSaysWhatItsOperandsAre() throws {
        let shell = try fixture()
        #expect(choices("help c", in: shell) == ["cat", "cd", "chgrp", "chmod", "chown", "command", "cp"])
        #expect(choices("help rm", in: shell) == ["rm", "rmdir"])
        #expect(choices("pwd ", in: shell) == [])
        #expect(choices("exit ", in: shell) == [])
        #expect(choices("history s", in: shell) == [])
        #expect(choices("echo s", in: shell) == ["say \"hi\"", "src/", "sub dir/"])
        #expect(choices("pwd > s", in: shell) == ["say \"hi\"", "src/", "sub dir/"])
        #expect(choices("nosuchcommand s", in: shell) == ["say \"hi\"", "src/", "sub dir/"])
    }

    @Test func optionsOfTheCommand() throws {
        let shell = try fixture()
        #expect(choices("mkdir -", in: shell).contains("-p"))
        #expect(choices("mkdir -", in: shell).contains("--parents"))
        #expect(choices("mkdir --", in: shell).allSatisfy { $0.hasPrefix("--") })
        #expect(choices("mkdir --", in: shell).contains("--help"))
    }

    @Test(
        "Programs in PATH come after the built-ins, each once, executable ones only",
        .needsLocalFileSystem("whether a file is executable is the kernel's to say"))
    func programNames() throws {
        let shell = TestShell(environment: ["PATH": "bin:more"])
        for (file, executable) in [
            ("bin/catalog", true), ("more/catalog", true), ("bin/cat", true), ("bin/caterpillar", false),
            ("more/cave", true),
        ] {
            try shell.write(file, "#!/bin/sh\n")
            if executable { try shell.path(file).setPermissions(0o755) }
        }
        #expect(choices("ca", in: shell) == ["cat", "catalog", "cave"])
        #expect(choices("./bi", in: shell) == ["bin/"])
        shell.state.programRefusal = .noPrograms
        #expect(choices("ca", in: shell) == ["cat"])
    }

    @Test func commandNames() throws {
        let shell = try fixture()
        #expect(choices("", in: shell) == Command.all.map { $0.name }.sorted())
        #expect(choices("c", in: shell) == ["cat", "cd", "chgrp", "chmod", "chown", "command", "cp"])
        #expect(choices("mk", in: shell) == ["mkdir", "mktemp"])
    }

    @Test("Aliases are offered with the command names, each name once, in first position only")
    func aliasNames() throws {
        let shell = try fixture()
        shell.run("alias mkd='mkdir -p' mkdir='mkdir -v'")
        #expect(choices("mk", in: shell) == ["mkd", "mkdir", "mktemp"])
        #expect(!choices("help mk", in: shell).contains("mkd"))
    }

    @Test func pathsAreRelativeToTheShellsDirectory() throws {
        let shell = try fixture()
        shell.run("cd src")
        #expect(afterTab("cat m", in: shell) == "cat main.swift ")
        #expect(afterTab("cat ../al", in: shell) == "cat ../alpha ")
    }

    @Test func theRangeIsTheWordUpToTheCursor() throws {
        let shell = try fixture()
        let line = Array("cat alp | more".utf8)
        let completion = Completer.complete(line: line, cursor: 7, state: shell.state)
        #expect(completion.range == 4..<7)
        #expect(completion.candidates.map(\.replacement) == [Array("alpha ".utf8)])
    }

    static let awkwardNames: [[UInt8]] = [
        Array("my file".utf8), Array("it's".utf8), Array("say \"hi\"".utf8), Array("cost$5".utf8),
        Array("$HOME".utf8), Array("a*b?[c]".utf8), Array("back\\slash".utf8), Array("日本語".utf8),
        [0x66, 0xE9, 0x65], [0xFF], Array("new\nline".utf8), Array("tab\there".utf8), Array("#hash".utf8),
        Array("~tilde".utf8), Array("semi;colon".utf8), Array("amp&and".utf8), Array("pipe|".utf8),
        Array("gt>".utf8), Array("trailing\\".utf8), Array("ctrl\u{1}a".utf8),
    ]

    /// Completing a name and parsing the line gives back the name's exact bytes, whatever
    /// quoting the user opened.
    @Test(arguments: awkwardNames, ["", "'", "\""])
    func completedNamesParseBackToTheirBytes(_ name: [UInt8], _ opening: String) throws {
        let shell = TestShell()
        try shell.path("").appending(name: name).write(bytes: [])
        let line = Array(("cat " + opening).utf8)
        let completion = Completer.complete(line: line, cursor: line.count, state: shell.state)
        try #require(completion.candidates.count == 1)
        let completed = try #require(completion.applied(to: line))
        let statements = try Parser.parse(completed)
        let words = try #require(statements.first?.first.commands[0].words)
        try #require(words.count == 2)
        #expect(try Expander.expand(words[1], state: shell.state).bytes == name)
        #expect(completed.last == 0x20)
    }

    /// The same with part of the name typed, unquoted.
    @Test(arguments: awkwardNames)
    func completingAfterATypedPrefix(_ name: [UInt8]) throws {
        let shell = TestShell()
        try shell.path("").appending(name: name).write(bytes: [])
        let first = try #require(
            Completer.complete(line: Array("cat ".utf8), cursor: 4, state: shell.state).candidates.first)
        // Type the first half of the quoted replacement, then complete again.
        let typed = Array("cat ".utf8) + first.replacement.prefix(first.replacement.count / 2)
        let completion = Completer.complete(line: typed, cursor: typed.count, state: shell.state)
        if completion.candidates.isEmpty { return }  // cut inside an escape: nothing to do
        let completed = try #require(completion.applied(to: typed))
        let words = try #require(try Parser.parse(completed).first?.first.commands[0].words)
        #expect(try Expander.expand(words[1], state: shell.state).bytes == name)
    }

    /// A directory of 100,000 entries completes whole; how fast is `make bench`'s completer rows'
    /// business, not a unit test's.
    @Test func aHugeDirectory() throws {
        let shell = TestShell()
        let directory = shell.path("big")
        _ = try directory.makeDirectory()
        for index in 0..<100_000 {
            try directory.appending(name: Array("file-\(index)".utf8)).open(.truncate).close()
        }
        let line = Array("cat big/file-9999".utf8)
        let completion = Completer.complete(line: line, cursor: line.count, state: shell.state)
        #expect(completion.candidates.count == 11)
        let everything = Array("cat big/".utf8)
        let all = Completer.complete(line: everything, cursor: everything.count, state: shell.state)
        #expect(all.candidates.count == 100_000)
    }
}
