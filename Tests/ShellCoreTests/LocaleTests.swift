import Foundation
import PathModel
import Testing

@testable import ShellCore

/// The locale variables decide the character set, as setlocale(3) reads them for `LC_CTYPE`.
@Suite struct CharacterEncodingTests {
    @Test(
        arguments: [
            ("nothing set", [:], .ascii),
            ("C", ["LC_ALL": "C"], .ascii),
            ("POSIX", ["LANG": "POSIX"], .ascii),
            ("C.UTF-8", ["LC_ALL": "C.UTF-8"], .utf8),
            ("codeset in lower case without the dash", ["LANG": "en_US.utf8"], .utf8),
            ("a modifier after the codeset", ["LANG": "de_DE.UTF-8@euro"], .utf8),
            ("another codeset", ["LANG": "de_DE.ISO-8859-1"], .ascii),
            ("no codeset", ["LANG": "UTF-8"], .ascii),
            ("LC_CTYPE before LANG", ["LC_CTYPE": "C.UTF-8", "LANG": "C"], .utf8),
            ("LC_ALL before LC_CTYPE", ["LC_ALL": "C", "LC_CTYPE": "C.UTF-8"], .ascii),
            ("an empty LC_ALL counts as unset", ["LC_ALL": "", "LANG": "C.UTF-8"], .utf8),
        ] as [(String, [String: String], CharacterEncoding)])
    func localeVariablesNameTheCharacterSet(
        _ label: String, _ variables: [String: String], _ expected: CharacterEncoding
    ) {
        #expect(CharacterEncoding { variables[$0] } == expected, "\(label)")
    }
}

/// ls, stat and messages quote names as GNU's tools do in the same locale: in `C`, every byte
/// outside printable ASCII is escaped (`''$'\303\251'`); in `C.UTF-8`, `é` is shown as it is.
@Suite struct LocaleQuotingTests {
    static let locales = ["C", "C.UTF-8"]

    /// `é  日本語  a b  bad\xfename  diré/inner  linké -> é`, with fixed times.
    private func makeFixture(_ locale: String) throws -> TestShell {
        let shell = TestShell(environment: ["LC_ALL": locale, "TZ": "UTC"])
        for name in ["é", "日本語", "a b", "diré/inner"] { try shell.write(name, "x") }
        let notUTF8 = try shell.directory.file.appending(name: Array("bad".utf8) + [0xFE] + Array("name".utf8))
        try notUTF8.createFile()
        try shell.path("linké").makeSymlink(to: "é")
        let time = Timestamp(seconds: 1_577_934_245)
        try notUTF8.setTimes(access: time, modification: time, followSymlinks: false)
        for name in ["é", "日本語", "a b", "diré/inner", "diré", "linké", "."] {
            try shell.setTime(name, time.seconds)
        }
        return shell
    }

    @Test(
        .needsLocalFileSystem("GNU tools read the fixture from disk"),
        arguments: locales, [["-1"], ["-C"], ["-l"], ["-C", "-R"], ["-C", "-d", "diré", "é"]])
    func lsOnATerminalQuotesAsGNULs(_ locale: String, _ arguments: [String]) throws {
        let gnuOptions = ["--quoting-style=shell-escape", "-w", "60"]
        try expectGNUOutput("ls", arguments, locale: locale, gnuOptions: gnuOptions)
    }

    @Test(
        .needsLocalFileSystem("GNU tools read the fixture from disk"),
        arguments: locales, [["-1"], ["-l"], ["-R"], ["-C", "-w", "30"]])
    func lsOnAPipeWritesNamesAsGNULs(_ locale: String, _ arguments: [String]) throws {
        try expectGNUOutput("ls", arguments, locale: locale)
    }

    @Test(
        .needsLocalFileSystem("GNU tools read the fixture from disk"),
        arguments: locales,
        [["-c", "%n|%N", "é", "日本語", "linké", "a b", "diré"], ["-c", "%N", "-L", "linké"]])
    func statQuotesAsGNUStat(_ locale: String, _ arguments: [String]) throws {
        try expectGNUOutput("stat", arguments, locale: locale)
    }

    @Test(
        .needsLocalFileSystem("GNU tools read the fixture from disk"),
        arguments: locales, ["rm", "ls", "stat", "cat"])
    func messagesQuoteAsGNUDoes(_ locale: String, _ tool: String) throws {
        try expectGNUOutput(tool, ["missé", "日本語/x", "ok\u{7}"], locale: locale)
    }

    /// Expects shelf's `tool` to print and exit as GNU's does with `gnuOptions` added, both in
    /// `locale`; with options, shelf's output poses as a terminal 60 columns wide. GNU stat built
    /// with statx says `cannot statx`, where shelf keeps the classic `cannot stat`.
    private func expectGNUOutput(
        _ tool: String, _ arguments: [String], locale: String, gnuOptions: [String] = []
    ) throws {
        guard ReferenceTool.isInstalled("/usr/bin/\(tool)") else { return }
        let shell = try makeFixture(locale)
        let expected = try ReferenceTool.run(
            "/usr/bin/\(tool)", gnuOptions + arguments, in: shell.directory.file,
            environment: ["LC_ALL": locale])
        let line = ReferenceTool.commandLine(tool, arguments)
        let actual = gnuOptions.isEmpty ? shell.run(line) : shell.runOnTerminal(line, width: 60)
        #expect(actual.stdout == expected.stdout, "LC_ALL=\(locale) \(tool) \(arguments)")
        let messages = expected.stderr.replacingOccurrences(of: "cannot statx", with: "cannot stat")
        #expect(actual.stderr == messages, "LC_ALL=\(locale) \(tool) \(arguments)")
        #expect(actual.status == expected.status, "LC_ALL=\(locale) \(tool) \(arguments)")
    }

    /// On a terminal shelf's stat escapes a name the locale cannot show (GNU's writes it as it is).
    @Test(arguments: [("C", "''$'\\303\\251'"), ("C.UTF-8", "é")])
    func statOnATerminalEscapesWhatTheLocaleCannotShow(_ locale: String, _ shown: String) throws {
        let shell = try makeFixture(locale)
        #expect(shell.runOnTerminal("stat -c %n é").stdout == shown + "\n", "LC_ALL=\(locale)")
    }
}
