import Foundation
import Glibc
import PathModel
import Testing

@testable import ShellCore

/// The locale tree(1) is compared in, in which both draw box characters.
private let utf8Locale = ["LC_ALL": "C.UTF-8"]

/// A fixture for tree's field, name, sorting and traversal options:
///
///     d/a.txt (3 bytes, 2024)  d/big (5000)  d/sub/b.txt (6)  d/sub/deep/  d/sub/up -> ..
///     e/huge (1300000)  empty/inner/  run.sh (0755, 2020)  later (a day ahead)  q"uote
///     .hidden  fifo  linkdir -> d  dangling -> nowhere  tolinkdir -> linkdir
private func makeOptionFixture() throws -> TestShell {
    let shell = TestShell(environment: utf8Locale)
    try shell.write("d/a.txt", "hi\n")
    try shell.write("d/big", String(repeating: "x", count: 5000))
    try shell.write("d/sub/b.txt", "hello\n")
    try shell.path("d/sub/deep").makeDirectory()
    try shell.path("d/sub/up").makeSymlink(to: "..")
    try shell.write("e/huge", String(repeating: "y", count: 1_300_000))
    try shell.path("empty/inner").makeDirectory(intermediates: true)
    try shell.write("run.sh", "#!/bin/sh\n")
    try shell.path("run.sh").setPermissions(0o755)
    try shell.write("later", "soon")
    try shell.write("q\"uote")
    try shell.write(".hidden", "h")
    #expect(mkfifo(shell.path("fifo").string, 0o644) == 0)
    try shell.path("linkdir").makeSymlink(to: "d")
    try shell.path("tolinkdir").makeSymlink(to: "linkdir")
    try shell.path("dangling").makeSymlink(to: "nowhere")
    try shell.setTime("d/a.txt", 1_704_164_645)  // 2024-01-02 03:04:05 UTC
    try shell.setTime("run.sh", 1_590_969_600)  // 2020-06-01
    try shell.setTime("later", Int64(Date().timeIntervalSince1970) + 86_400)
    return shell
}

/// tree's options against tree(1) itself on the same fixture: same output, same status.
@Suite(
    .enabled(if: RealTree.isUsable, "needs /usr/bin/tree and the C.UTF-8 locale"),
    .needsLocalFileSystem("tree(1) reads the fixture from disk"))
struct TreeOptionComparisonTests {
    static let argumentLists: [[String]] = [
        // Bracketed fields, alone and together with sizes, as tree orders them.
        ["-p"], ["-u", "-g"], ["-p", "-u", "-g", "-s"], ["-pugh"], ["-D"], ["-D", "-c", "-L", "1"],
        ["--timefmt", "%Y-%m-%d %H:%M:%S"], ["--timefmt=%s", "-p"], ["-p", "-D", "-h", "-L", "1", "-a"],
        ["-p", "linkdir", "run.sh", "missing"],
        // Names.
        ["-Q"], ["-Q", "-f"], ["-N"], ["-F"], ["-F", "-d"], ["-F", "-Q", "-L", "1", "linkdir", "run.sh", "dangling", "e/"],
        ["-F", "-a", "-p", "-L", "1"],
        // Lines.
        ["-i"], ["-i", "-f", "-s"], ["--charset", "ascii"], ["--charset=IBM437"], ["--charset", "utf8"],
        ["--charset", "UTF-8", "-L", "1"], ["--charset", "ISO-8859-1"], ["--charset=koi8-r"],
        ["--charset", "cp850", "-i"], ["--charset", "latin5", "-L", "1"],
        // Order.
        ["-t"], ["-c"], ["-r"], ["-t", "-r"], ["-r", "--dirsfirst", "-L", "1"], ["--sort=size"],
        ["--sort", "size", "-r", "--dirsfirst"], ["--sort=mtime"], ["--sort=ctime", "-L", "1"], ["--sort=NAME"],
        ["-t", "-U"], ["-U", "--sort=size"], ["-U"], ["-U", "-r"],
        // Traversal.
        ["-l"], ["-l", "-d"], ["-l", "-L", "2"], ["-l", "d"], ["-l", "-s", "--dirsfirst"],
        // -P lets a symlink to a directory through with -l, and filters it without.
        ["-P", "*.txt", "-l"], ["-P", "*.txt"], ["-P", "link*", "-l"], ["-l", "-P", "*.sh", "-L", "2"],
        ["--filelimit", "3"], ["--filelimit=2", "-a"], ["--filelimit", "1", "e"], ["--filelimit", "4", "-d"],
        ["--filelimit", "x"],
        // What needs the whole of a directory before its line.
        ["--du"], ["--du", "-h"], ["--du", "-L", "1"], ["--du", "-d"], ["--du", "-a", "-p"], ["--du", "-I", "e"],
        ["--du", "-s", "d", "e"], ["--prune"], ["--prune", "-d"], ["--prune", "-L", "1"], ["--du", "--prune", "-a"],
        ["-P", "*.txt", "--prune"], ["--prune", "-l", "d"], ["--prune", "--filelimit", "4", "-a", "d"],
        // XML.
        ["-X"], ["-X", "-a"], ["-X", "-p", "-u", "-g", "-s"], ["-X", "-D", "-L", "1"], ["-X", "--du", "-h"],
        ["-X", "-i"], ["-X", "-i", "-L", "1", "--noreport"], ["-X", "-f", "-L", "2"], ["-X", "-d"], ["-X", "--noreport"],
        ["-X", "-l"], ["-X", "missing", "run.sh", "d", "linkdir"], ["-X", "--filelimit", "3"], ["-X", "--filelimit", "1", "e"],
        ["-X", "--charset", "IBM437", "-L", "1"], ["-J", "-X", "-L", "1"], ["-X", "-F", "-Q", "-L", "1"],
        ["-X", "-P", "*.txt", "--prune"], ["-X", "--dirsfirst", "-t"],
    ]

    @Test(arguments: argumentLists)
    func matchesTree(_ arguments: [String]) throws {
        let shell = try makeOptionFixture()
        let expected = try RealTree.run(arguments, in: shell.directory.file, locale: utf8Locale)
        let result = shell.run(ReferenceTool.commandLine("tree", arguments))
        #expect(shell.stdout.contents == expected.stdout, "tree \(arguments)")
        #expect(result.status.code == expected.status, "tree \(arguments)")
    }

    @Test(
        "-v and --sort=version order names as tree does (glibc's strverscmp, not ls -v's order)",
        arguments: [["-v"], ["--sort=version"], ["-v", "-r", "-a"], ["--sort", "version", "--dirsfirst"], ["-v", "-U"], ["-U", "-v"]])
    func versionOrderMatchesTree(_ arguments: [String]) throws {
        let shell = TestShell(environment: utf8Locale)
        let names = ["a1", "a01", "a001", "a1.10", "a1.9", "a.tar.gz", "a1.tar.gz", "a10", "a2", "b~", "b", "1.01", "1.1", "1.010", "x-1.0-rc1", "x-1.0", ".a", "v9/", "v10/"]
        for name in names {
            if name.hasSuffix("/") { try shell.path(String(name.dropLast())).makeDirectory() } else { try shell.write(name, "") }
        }
        let expected = try RealTree.run(arguments, in: shell.directory.file, locale: utf8Locale)
        let result = shell.run(ReferenceTool.commandLine("tree", arguments))
        #expect(shell.stdout.contents == expected.stdout, "tree \(arguments)")
        #expect(result.status.code == expected.status, "tree \(arguments)")
    }

    /// Every character set name tree(1) 2.1.0 knows (from its source), some in another case,
    /// and names it does not know, which draw in ASCII.
    static let charsetNames: [String] = [
        "ISO-8859-1", "ISO-8859-1:1987", "ISO_8859-1", "latin1", "l1", "IBM819", "CP819", "csISOLatin1", "ISO-8859-3",
        "ISO_8859-3:1988", "ISO_8859-3", "latin3", "ls", "csISOLatin3", "ISO-8859-7", "ISO_8859-7:1987", "ISO_8859-7",
        "ELOT_928", "ECMA-118", "greek", "greek8", "csISOLatinGreek", "ISO-8859-8", "ISO_8859-8:1988", "iso-ir-138",
        "ISO_8859-8", "hebrew", "csISOLatinHebrew", "ISO-8859-9", "ISO_8859-9:1989", "iso-ir-148", "ISO_8859-9",
        "latin5", "l5", "csISOLatin5", "Shift_JIS", "MS_Kanji", "csShiftJIS", "EUC-JP",
        "Extended_UNIX_Code_Packed_Format_for_Japanese", "csEUCPkdFmtJapanese", "EUC-KR", "csEUCKR", "ISO-2022-JP",
        "csISO2022JP", "ISO-2022-JP-2", "csISO2022JP2", "IBM437", "cp437", "437", "csPC8CodePage437", "IBM852",
        "cp852", "852", "csPCp852", "IBM863", "cp863", "863", "csIBM863", "IBM855", "cp855", "855", "csIBM855",
        "IBM865", "cp865", "865", "csIBM865", "IBM866", "cp866", "866", "csIBM866", "IBM850", "cp850", "850",
        "csPC850Multilingual", "IBM00858", "CCSID00858", "CP00858", "PC-Multilingual-850+euro", "IBM869", "cp869",
        "869", "cp-gr", "csIBM869", "GB2312", "csGB2312", "UTF-8", "utf8", "Big5", "csBig5", "VISCII", "csVISCII",
        "KOI8-R", "csKOI8R", "KOI8-U", "ISO-8859-1-Windows-3.1-Latin-1", "csWindows31Latin1",
        "ISO-8859-2-Windows-Latin-2", "csWindows31Latin2", "windows-1250", "windows-1251", "windows-1253",
        "windows-1254", "windows-1255", "windows-1256", "windows-1257",
        "shift_jis", "EUC-jp", "euc-kr", "iso-2022-jp", "gb2312", "BIG5", "Utf-8",
        "ascii", "US-ASCII", "utf-16",
    ]

    @Test("--charset draws as tree(1) does, byte for byte, for every name it knows", arguments: charsetNames)
    func charsetMatchesTree(_ name: String) throws {
        let shell = try makeOptionFixture()
        for arguments in [["--charset", name, "-L", "3", "d", "e"], ["--charset=" + name, "-i", "-L", "1", "d"]] {
            let expected = try RealTree.run(arguments, in: shell.directory.file, locale: utf8Locale)
            let result = shell.run(ReferenceTool.commandLine("tree", arguments))
            #expect(shell.stdout.contents == expected.stdout, "tree \(arguments)")
            #expect(result.status.code == expected.status, "tree \(arguments)")
        }
    }

    /// `-H` against tree(1)'s page, byte for byte but for what names the program that made it
    /// (the GENERATOR meta line and the VERSION paragraph, where shelf names itself), on the
    /// option fixture with names that HTML and links escape added.
    @Test(arguments: [
        ["-H", "http://example.com/base"], ["-H", "/"], ["-H", "."], ["-H", "x/", "-T", "My <T> & \"title\""],
        ["-H", "b", "--nolinks"], ["-H", "b", "-C"], ["-H", "b", "-C", "--nolinks", "-p", "-L", "1"],
        ["-H", "b", "-s"], ["-H", "b", "-h", "-p", "-u", "-g", "-D"], ["-H", "b", "-f"], ["-H", "b", "-i", "-f", "-L", "2"],
        ["-H", "b", "-F", "-Q", "-N"], ["-H", "b", "--du"], ["-H", "b", "--du", "-h", "-L", "1"],
        ["-H", "b", "-d", "--noreport"], ["-H", "b", "--filelimit", "3"],
        ["-H", "b", "missing", "d", "run.sh", "linkdir"], ["-H", "b", "-l"],
        ["-H", "b", "--charset", "IBM437", "-L", "2"], ["-H", "b", "--charset=ISO-8859-1", "-L", "2"],
        ["-H", "b", "--charset", "nothing-known", "-L", "2"], ["-X", "-H", "b", "-L", "1"], ["-H", "b", "-X", "-L", "1"],
        ["-J", "-H", "b", "-L", "1"], ["-H", "b", "./"], ["-H", "b", "-f", "d/"], ["-H", "b", "-P", "*.txt", "--prune"],
        ["-H", "b", "-a", "-t", "-r"], ["-H", "b", "-o", "page.html"], ["-H", "b", "-H", "c"],
    ])
    func htmlMatchesTree(_ arguments: [String]) throws {
        let shell = try makeOptionFixture()
        for name in ["a <&>\"b", "sp ace", "00Tree.html", "q#%?+[]^\\", "\u{E9}t\u{E9}", "d ir/sub/x y"] {
            try shell.write(name, "")
        }
        try shell.path("d ir/lnk").makeSymlink(to: "sub")
        let expected = try RealTree.run(arguments, in: shell.directory.file, locale: utf8Locale)
        var theirs = expected.stdout
        if arguments.contains("page.html") { theirs = try (shell.path("page.html")).readBytes() }
        let result = shell.run(ReferenceTool.commandLine("tree", arguments))
        let ours = arguments.contains("page.html") ? try shell.path("page.html").readBytes() : shell.stdout.contents
        #expect(Self.withoutMaker(ours) == Self.withoutMaker(theirs), "tree \(arguments)")
        #expect(result.status.code == expected.status, "tree \(arguments)")
        let last = { (option: String) in arguments.lastIndex(of: option) ?? -1 }
        if last("-H") > max(last("-X"), last("-J")) {
            let generator = Array(" <meta name=\"GENERATOR\" content=\"shelf \(ShelfVersion.number)\">".utf8)
            #expect(ours.split(separator: 0x0A).contains { Array($0) == generator }, "tree \(arguments)")
        }
    }

    /// A page's lines, as bytes, without the GENERATOR meta line and the VERSION paragraph's text.
    private static func withoutMaker(_ page: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var inVersion = false
        for line in page.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init) {
            if line.starts(with: Array(" <meta name=\"GENERATOR\"".utf8)) { continue }
            if line == Array("\t</p>".utf8) { inVersion = false }
            if !inVersion { lines.append(line) }
            if line == Array("\t<p class=\"VERSION\">".utf8) { inVersion = true }
        }
        return lines
    }

    /// --matchdirs matches a directory's path below the operand (`src/lib`, not `lib`) to list
    /// all its own entries, and with --prune keeps a directory by its name.
    @Test(arguments: [
        ["--matchdirs", "-P", "lib"], ["--matchdirs", "-P", "src"], ["--matchdirs", "-P", "src/lib"],
        ["--matchdirs", "-P", "lib*"], ["--matchdirs", "-P", "*.c"], ["--matchdirs", "-P", "lib|docs"],
        ["--matchdirs", "-P", "src/**"], ["--matchdirs", "-P", "**/lib"], ["--matchdirs", "-P", "*lib"],
        ["--matchdirs", "-P", "s*/lib"], ["--matchdirs", "-P", "lib/"], ["--matchdirs", "-P", "src", "-I", "b.txt"],
        ["--matchdirs", "-P", "lib", "--prune"], ["--matchdirs", "-P", "src", "--prune"],
        ["--matchdirs", "-P", "empty", "--prune"], ["--matchdirs", "-P", "sub", "--prune"],
        ["--matchdirs", "-P", "lib", "--du"], ["--matchdirs", "-P", "src", "-f", "src"],
        ["--matchdirs", "-P", "lib", "./"], ["--matchdirs", "-P", "lib", "-L", "1"], ["--matchdirs"],
    ])
    func matchDirectoriesMatchesTree(_ arguments: [String]) throws {
        let shell = TestShell(environment: utf8Locale)
        for name in ["src/a.c", "src/b.txt", "src/lib/c.c", "src/lib/d.txt", "src/lib/deep/e.txt", "docs/readme.txt",
            "docs/x/y.txt", "lib/z.txt", "top.txt"]
        {
            try shell.write(name, "")
        }
        try shell.path("empty/sub").makeDirectory(intermediates: true)
        try shell.path("src/up").makeSymlink(to: "../lib")
        let expected = try RealTree.run(arguments, in: shell.directory.file, locale: utf8Locale)
        let result = shell.run(ReferenceTool.commandLine("tree", arguments))
        #expect(shell.stdout.contents == expected.stdout, "tree \(arguments)")
        #expect(result.status.code == expected.status, "tree \(arguments)")
    }

    /// -J with --du: each directory's `size` and the report's total are tree(1)'s (shelf's
    /// objects carry more fields, so only type, name, size and the counts are compared).
    @Test(arguments: [
        ["-J", "--du"], ["-J", "--du", "-L", "2"], ["-J", "--du", "-a", "d", "e"], ["-J", "--du", "-P", "*.txt", "--prune"],
        ["-J", "--du", "-d"], ["-J", "-s"],
    ])
    func jsonSizesMatchTree(_ arguments: [String]) throws {
        let shell = try makeOptionFixture()
        let expected = try RealTree.run(arguments, in: shell.directory.file, locale: utf8Locale)
        let result = shell.run(ReferenceTool.commandLine("tree", arguments))
        #expect(result.status.code == expected.status, "tree \(arguments)")
        /// The type, name and size of each object, and the report's counts, depth first.
        func sizes(_ bytes: [UInt8]) throws -> [String] {
            var lines: [String] = []
            func visit(_ value: Any, _ depth: Int) {
                if let list = value as? [Any] { return list.forEach { visit($0, depth) } }
                guard let object = value as? [String: Any] else { return }
                let fields = ["type", "name", "size", "directories", "files"].compactMap { key in
                    object[key].map { "\(key)=\($0)" }
                }
                lines.append(String(repeating: " ", count: depth) + fields.joined(separator: " "))
                if let contents = object["contents"] { visit(contents, depth + 1) }
            }
            visit(try JSONSerialization.jsonObject(with: Data(bytes)), 0)
            return lines
        }
        #expect(try sizes(Array(shell.stdout.contents)) == sizes(expected.stdout), "tree \(arguments)")
    }

    @Test(arguments: [[String]](arrayLiteral: [], ["-F"], ["-Q"], ["-N"], ["-N", "-Q"]), [["LC_ALL": "C"], utf8Locale])
    func oddNamesMatchTree(_ arguments: [String], _ locale: [String: String]) throws {
        let shell = TestShell(environment: locale)
        for name in [Array("tab\there".utf8), Array("sp ace".utf8), Array("back\\slash".utf8), Array("bad".utf8) + [0xFF]] {
            try shell.directory.file.appending(name: name).createFile()
        }
        try shell.path("lnk").makeSymlink(to: File(bytes: Array("ta\trget".utf8)))
        let expected = try RealTree.run(arguments, in: shell.directory.file, locale: locale)
        let result = shell.run(ReferenceTool.commandLine("tree", arguments))
        #expect(Array(shell.stdout.contents) == expected.stdout, "tree \(arguments) \(locale)")
        #expect(result.status.code == expected.status, "tree \(arguments) \(locale)")
    }

    @Test("TREE_CHARSET chooses the lines when --charset does not", arguments: ["IBM437", "ascii", "utf8"])
    func treeCharsetVariable(_ charset: String) throws {
        let shell = try makeOptionFixture()
        shell.state.environment.set("TREE_CHARSET", charset)
        let expected = try RealTree.run(
            ["-L", "2"], in: shell.directory.file, locale: utf8Locale, environment: ["TREE_CHARSET": charset])
        shell.run("tree -L 2")
        #expect(shell.stdout.contents == expected.stdout)
        let overridden = try RealTree.run(
            ["-L", "1", "--charset", "ascii"], in: shell.directory.file, locale: utf8Locale,
            environment: ["TREE_CHARSET": charset])
        shell.run("tree -L 1 --charset ascii")
        #expect(shell.stdout.contents == overridden.stdout)
    }

    @Test("-o writes the tree to a file made before the walk, so it is listed")
    func outputFile() throws {
        let shell = try makeOptionFixture()
        let expected = try RealTree.run(["-L", "1", "-o", "out.txt"], in: shell.directory.file, locale: utf8Locale)
        let written = try shell.path("out.txt").readBytes()
        try shell.path("out.txt").delete()
        let result = shell.run("tree -L 1 -o out.txt")
        #expect(result.stdout.isEmpty && expected.stdout.isEmpty)
        #expect(result.status.code == expected.status)
        #expect(try shell.path("out.txt").readBytes() == written)
    }

    @Test(
        "errors are worded as tree(1) words them",
        arguments: [["-o", "missing/out.txt"], ["--sort=nam"], ["--sort", "version2"]])
    func errors(_ arguments: [String]) throws {
        let shell = try makeOptionFixture()
        let expected = try ReferenceTool.run("/usr/bin/tree", arguments, in: shell.directory.file)
        let result = shell.run(ReferenceTool.commandLine("tree", arguments))
        #expect(result.status == expected.status)
        // tree(1) writes the list of sort words on standard output after its message; shelf
        // keeps the whole message on standard error.
        #expect(result.stderr == expected.stderr + expected.stdout, "tree \(arguments)")
        #expect(result.stdout.isEmpty)
    }
}

/// The date field without tree(1) to compare with: recent times show the clock time, older and
/// future ones the year.
@Suite struct TreeDateTests {
    @Test func datesShowTheYearOutsideTheLastSixMonths() throws {
        let shell = TestShell(environment: ["LC_ALL": "C", "TZ": "UTC"])
        let now = Int64(Date().timeIntervalSince1970)
        try shell.write("old")
        try shell.write("recent")
        try shell.write("future")
        try shell.setTime("old", 1_590_969_600)
        try shell.setTime("recent", now - 86_400 * 30)
        try shell.setTime("future", now + 86_400 * 30)
        let lines = shell.run("tree -D --noreport").stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasSuffix("[Jun  1  2020]  old") })
        let recent = lines.first { $0.hasSuffix("recent") }.map(String.init) ?? ""
        #expect(recent.range(of: #"\[[A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d\]"#, options: .regularExpression) != nil, "\(recent)")
        let future = lines.first { $0.hasSuffix("future") }.map(String.init) ?? ""
        #expect(future.range(of: #"\[[A-Z][a-z]{2} [ 0-9]\d  \d{4}\]"#, options: .regularExpression) != nil, "\(future)")
    }
}
