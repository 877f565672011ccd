import SystemPackage
import Testing

@_spi(FaultInjection) @testable import PathModel

@Suite("Glob")
struct GlobTests {
    struct NameMatch: Sendable, CustomTestStringConvertible {
        let pattern: String
        let name: String
        let matches: Bool
        var testDescription: String {
            "\(pattern) \(matches ? "matches" : "does not match") \(name.debugDescription)"
        }
    }

    @Test(
        "Name matches",
        arguments: [
            NameMatch(pattern: "*.txt", name: "a.txt", matches: true),
            NameMatch(pattern: "*.txt", name: "a.txt.bak", matches: false),
            NameMatch(pattern: "*", name: "", matches: true),
            NameMatch(pattern: "a*b*c", name: "aXXbYYc", matches: true),
            NameMatch(pattern: "a*b*c", name: "aXXbYY", matches: false),
            NameMatch(pattern: "*a*", name: "banana", matches: true),
            NameMatch(pattern: "?", name: "a", matches: true),
            NameMatch(pattern: "?", name: "ab", matches: false),
            NameMatch(pattern: "?", name: "", matches: false),
            NameMatch(pattern: "a?c", name: "abc", matches: true),
            NameMatch(pattern: "[a-c]x", name: "bx", matches: true),
            NameMatch(pattern: "[a-c]x", name: "dx", matches: false),
            NameMatch(pattern: "[abc]", name: "c", matches: true),
            NameMatch(pattern: "[!x]", name: "y", matches: true),
            NameMatch(pattern: "[!x]", name: "x", matches: false),
            NameMatch(pattern: "[^x]", name: "x", matches: false),
            NameMatch(pattern: "[]]", name: "]", matches: true),
            NameMatch(pattern: "[a-]", name: "-", matches: true),
            NameMatch(pattern: "[", name: "[", matches: true),
            NameMatch(pattern: "[ab", name: "[ab", matches: true),
            NameMatch(pattern: #"\*"#, name: "*", matches: true),
            NameMatch(pattern: #"\*"#, name: "a", matches: false),
            NameMatch(pattern: #"a\?*"#, name: "a?b", matches: true),
            NameMatch(pattern: #"a\?*"#, name: "ab", matches: false),
            NameMatch(pattern: "*", name: ".bashrc", matches: false),
            NameMatch(pattern: "?bashrc", name: ".bashrc", matches: false),
            NameMatch(pattern: "[.]bashrc", name: ".bashrc", matches: false),
            NameMatch(pattern: ".*", name: ".bashrc", matches: true),
            NameMatch(pattern: ".b*", name: ".bashrc", matches: true),
            NameMatch(pattern: "a*", name: "a.b", matches: true),
            NameMatch(pattern: "?.txt", name: "日.txt", matches: true),
            NameMatch(pattern: "???.txt", name: "日本語.txt", matches: true),
            NameMatch(pattern: "??.txt", name: "日本語.txt", matches: false),
            NameMatch(pattern: "[日月].txt", name: "月.txt", matches: true),
            NameMatch(pattern: "caf?", name: "caf\u{E9}", matches: true),
            NameMatch(pattern: "caf?", name: "cafe\u{301}", matches: false),
            NameMatch(pattern: "caf??", name: "cafe\u{301}", matches: true),
            NameMatch(pattern: "a.txt", name: "a.txt", matches: true),
            NameMatch(pattern: "a.txt", name: "b.txt", matches: false),
            NameMatch(pattern: "a/*", name: "a/b", matches: false),
        ])
    func nameMatches(_ row: NameMatch) {
        #expect(Glob(row.pattern).matches(name: row.name) == row.matches)
    }

    /// Found by the fuzzer: the NUL cut the path a system call saw short, so every directory
    /// under `**` seemed to hold the base again, and the walk never ended.
    @Test("A pattern with a NUL byte matches nothing, and ** after one ends")
    func nulInPattern() throws {
        try withScratch { dir in
            try (dir + "sub").makeDirectory()
            let pattern = Glob(bytes: [0x3B, 0, 0, 0x13, 0x2F, 0x2B, 0x2F, 0, 0x13, 0x2F, 0x2B, 0x2F, 0x2A, 0x2A])
            #expect(pattern.expand(relativeTo: dir).isEmpty)
            #expect(Glob(bytes: [0x73, 0x75, 0x62, 0]).expand(relativeTo: dir).isEmpty)
        }
    }

    @Test("? matches one byte of a name that is not UTF-8")
    func nonUTF8Name() {
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9]
        #expect(Glob("caf?").matches(name: latin1))
        #expect(Glob("c*").matches(name: latin1))
        #expect(!Glob("caf??").matches(name: latin1))
        #expect(Glob(bytes: [0x2A, 0xE9]).matches(name: latin1))
    }

    @Test(
        "Path matches, with ** for any depth",
        arguments: [
            ("src/**/*.swift", "src/a/b/c.swift", true),
            ("src/**/*.swift", "src/c.swift", true),
            ("src/**/*.swift", "src/a/c.txt", false),
            ("src/**/*.swift", "src/.build/c.swift", false),
            ("src/**/*.swift", "other/c.swift", false),
            ("**", "a/b/c", true),
            ("**/*.txt", "a.txt", true),
            ("**/*.txt", "x/y/a.txt", true),
            ("*/b", "a/b", true),
            ("*/b", "a/x/b", false),
            ("a/*/c", "a/b/c", true),
            ("a/*", "a", false),
            ("/etc/*.conf", "/etc/x.conf", true),
        ] as [(String, File, Bool)])
    func pathMatches(_ pattern: String, _ path: File, _ expected: Bool) {
        #expect(Glob(pattern).matches(path: path) == expected)
    }

    @Test(
        "hasWildcards ignores escaped characters",
        arguments: [
            ("a*", true), ("a?", true), ("[ab]", true), (#"a\*"#, false), ("plain", false), (#"\\*"#, true),
        ])
    func hasWildcards(_ text: String, _ expected: Bool) {
        #expect(Glob.hasWildcards(Array(text.utf8)) == expected)
    }

    @Test("description and isAbsolute")
    func descriptionAndAbsolute() {
        #expect(Glob("/a/*.txt").description == "/a/*.txt")
        #expect(Glob("/a/*.txt").isAbsolute)
        #expect(!Glob("a/*.txt").isAbsolute)
    }

    /// base/
    ///   a.txt  b.txt  c.md  .hidden.txt
    ///   sub/  sub/c.txt  sub/deeper/d.txt
    ///   .git/  .git/e.txt
    ///   日本語.txt
    static func populate(_ base: File) throws {
        for name in ["a.txt", "b.txt", "c.md", ".hidden.txt", "日本語.txt"] {
            try (base + name).write(text: name)
        }
        try (base + "sub/deeper").makeDirectory(intermediates: true)
        try (base + "sub/c.txt").write(text: "")
        try (base + "sub/deeper/d.txt").write(text: "")
        try (base + ".git").makeDirectory()
        try (base + ".git/e.txt").write(text: "")
    }

    @Test(
        "expand(relativeTo:) on a real tree keeps the pattern's spelling",
        arguments: [
            ("*.txt", ["a.txt", "b.txt", "日本語.txt"]),
            ("?.txt", ["a.txt", "b.txt"]),
            ("???.txt", ["日本語.txt"]),
            (".*", [".git", ".hidden.txt"]),
            (".*.txt", [".hidden.txt"]),
            ("*", ["a.txt", "b.txt", "c.md", "sub", "日本語.txt"]),
            ("sub/*.txt", ["sub/c.txt"]),
            ("*/c.txt", ["sub/c.txt"]),
            ("*/*/*.txt", ["sub/deeper/d.txt"]),
            ("**/*.txt", ["a.txt", "b.txt", "sub/c.txt", "sub/deeper/d.txt", "日本語.txt"]),
            ("sub/**/*.txt", ["sub/c.txt", "sub/deeper/d.txt"]),
            ("**", ["sub", "sub/deeper"]),
            ("a.txt", ["a.txt"]),
            ("missing.txt", []),
            ("nope/*.txt", []),
            ("[ab].txt", ["a.txt", "b.txt"]),
            ("[!a].txt", ["b.txt"]),
            ("*.md", ["c.md"]),
            ("a.txt/*", []),
            ("*/", ["sub"]),
            (".*/", [".git"]),
            ("*/*/", ["sub/deeper"]),
            ("**/", ["sub", "sub/deeper"]),
            ("a*/", []),
            ("sub/", ["sub"]),
        ] as [(String, [File])])
    func expand(_ pattern: String, _ expected: [File]) throws {
        try withScratch { base in
            try Self.populate(base)
            #expect(Glob(pattern).expand(relativeTo: base) == expected)
        }
    }

    @Test("An absolute pattern gives absolute results, sorted by bytes")
    func expandAbsolute() throws {
        try withScratch { base in
            try Self.populate(base)
            let results = Glob(base.string + "/*.txt").expand(relativeTo: "/nonexistent")
            #expect(results == [base + "a.txt", base + "b.txt", base + "日本語.txt"])
        }
    }

    @Test("A name that is not UTF-8 expands byte for byte")
    func expandNonUTF8() throws {
        try withScratch { base in
            let name: [UInt8] = [0x63, 0x61, 0x66, 0xE9]
            try rawCreate(base.bytes + [0x2F] + name)
            #expect(Glob("caf?").expand(relativeTo: base) == [File(bytes: name)])
            #expect(Glob("*").expand(relativeTo: base).map(\.bytes) == [name])
        }
    }

    @Test("An unreadable directory matches nothing")
    func expandUnreadable() throws {
        try withScratch { base in
            try Self.populate(base)
            let plan = failing(.open, with: .permissionDenied, where: { $0 == (base + "sub").string })
            let results = injecting(plan) { Glob("sub/*.txt").expand(relativeTo: base) }
            #expect(results.isEmpty)
        }
    }

    @Test(
        "matchesIncludingLeadingDot: fnmatch without FNM_PERIOD, as find -name",
        arguments: [
            ("*", ".hidden", true), (".*", ".hidden", true), ("?hidden", ".hidden", true),
            ("[.]h*", ".hidden", true), ("*.c", "a.c", true), ("*.c", "a.h", false), ("a", "a", true),
            ("**", ".x", true), ("a/b", "a/b", false), ("", "", false),
        ])
    func matchesIncludingLeadingDot(_ pattern: String, _ name: String, _ expected: Bool) {
        #expect(Glob(pattern).matchesIncludingLeadingDot(name: Array(name.utf8)) == expected)
    }

    @Test("A wildcard skips a leading dot in matches(name:) but not in matchesIncludingLeadingDot")
    func leadingDotRuleDiffers() {
        #expect(!Glob("*").matches(name: ".hidden"))
        #expect(Glob("*").matchesIncludingLeadingDot(name: Array(".hidden".utf8)))
    }
}
