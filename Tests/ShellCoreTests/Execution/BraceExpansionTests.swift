import PathModel
import Testing

@testable import ShellCore

/// Brace expansion, line by line beside bash on twin fixtures.
@Suite struct BraceExpansionTests {
    static let besideBash: [NamedLine] = [
        NamedLine(name: "alternatives with a prefix and a suffix", line: "echo a{b,c}d file{,.bak}"),
        NamedLine(name: "several braces multiply", line: "echo {a,b}{1,2} {1..3}{x,y}"),
        NamedLine(name: "nested braces", line: "echo {a,b{1,2},c} {{a,b}} {a,{b}}"),
        NamedLine(name: "empty results are dropped", line: "echo x{,} {,} {,}y"),
        NamedLine(name: "no comma, unmatched or stray braces stay", line: "echo {a} {} {a,b a,b} }{a,b}{"),
        NamedLine(name: "quoted and escaped braces stay", line: #"echo "{a,b}" '{c,d}' \{e,f\} {g\,h} {"i j",k}"#),
        NamedLine(name: "integer sequences", line: "echo {1..5} {5..1} {-2..2} {1..10..3} {10..1..4} {1..3..0}"),
        NamedLine(name: "zero-padded sequences", line: "echo {08..11} {001..3} {-05..5..5} {05..-5..5} {0..2}"),
        NamedLine(name: "letter sequences", line: "echo {a..e} {e..a..2} {W..Z} {x..z..-1} {D..A}"),
        NamedLine(name: "what is no sequence stays", line: "echo {1..a} {1...3} {..} {a..} {1..2..} {aa..c}"),
        NamedLine(name: "each result then expands variables", line: "X=v; echo {${X},w}{1,2} {$X..z}"),
        NamedLine(name: "each result is globbed", line: "echo {*.txt,*.md} {a,b}.txt"),
        NamedLine(name: "the command name is expanded too", line: "{echo,hello} world"),
        NamedLine(name: "a plain assignment keeps its braces", line: "B={1,2}; echo $B"),
        NamedLine(name: "files made from braces", line: "mkdir -p src/{app,lib}/{x,y} && touch src/app/{one,two}.c && ls -R src"),
    ]

    @Test(arguments: besideBash)
    func matchesBash(_ row: NamedLine) throws {
        let (ours, theirs) = try runBesideBash(row.line) { directory in
            for name in ["a.txt", "b.txt", "c.md"] { try (directory + name).write(text: name) }
        }
        #expect(ours.stdout == theirs.stdout, "\(row.line)")
        #expect(ours.stderr == theirs.stderr, "\(row.line)")
        #expect(ours.status == theirs.status, "\(row.line)")
    }

    @Test("A tilde at the start of each result is the home directory")
    func tildesInResults() {
        let shell = TestShell()
        let home = shell.run("echo ~").stdout.dropLast()
        #expect(shell.run("echo {~,/t}/x ~/{a,b}").stdout == "\(home)/x /t/x \(home)/a \(home)/b\n")
    }

    @Test func aRedirectionTargetThatMakesTwoWordsIsAnError() {
        let shell = TestShell()
        let result = shell.run("echo x > {o1,o2}")
        #expect(result.stderr == "shelf: {o1,o2}: ambiguous redirect\n")
        #expect(result.status == 1)
        #expect(!shell.path("o1").exists && !shell.path("{o1,o2}").exists)
    }

    @Test("A word that would make too many words is refused, and nothing runs")
    func tooManyWordsIsAnError() throws {
        let shell = TestShell()
        let result = shell.run("touch f{1..100001}")
        #expect(result.stderr == "shelf: f{1..100001}: brace expansion makes more than 100000 words\n")
        #expect(result.status == 1)
        #expect(try shell.directory.file.entries().isEmpty)
        let product = shell.run("echo {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}")
        #expect(product.stderr.hasSuffix(": brace expansion makes more than 100000 words\n"))
        #expect(shell.run("echo {1..100000} | wc -w").stdout == "100000\n")
    }
}
