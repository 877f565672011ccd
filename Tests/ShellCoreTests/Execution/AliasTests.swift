import PathModel
import Testing

@testable import ShellCore

/// `alias` and `unalias`, and where an alias is expanded: in command position only, once, its
/// value read as shell text.
@Suite struct AliasTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let lines: String
        var stdout = ""
        var stderr = ""
        var status: ShellCore.ExitStatus = .success
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "an alias stands for its value", lines: "alias say='echo said'\nsay it", stdout: "said it\n"),
        Row(
            name: "only in command position", lines: "alias say='echo said'\necho say; say say | say",
            stdout: "say\nsaid\n"),
        Row(
            name: "after ;, &&, || and |, and after assignments",
            lines: "alias say='echo said'\nsay a; say b && say c || say d; X=1 say e",
            stdout: "said a\nsaid b\nsaid c\nsaid e\n"),
        Row(
            name: "a quoted or escaped name is not expanded",
            lines: "alias echo='echo aliased'\n\\echo a; 'echo' b; echo c", stdout: "a\nb\naliased c\n"),
        Row(
            name: "expanded once: an alias of its own name works",
            lines: "alias echo='echo -n'\necho a; echo b", stdout: "ab"),
        Row(
            name: "the value is shell text: quotes, pipes and ;",
            lines: "alias two='echo \"a  b\" | cat; echo c'\ntwo", stdout: "a  b\nc\n"),
        Row(
            name: "an alias defined on a line is used from the next",
            lines: "alias say='echo said'; say now", stderr: "shelf: say: command not found; did you mean 'cat'?\n",
            status: .notFound),
        Row(
            name: "alias lists, sorted and quoted to be read back",
            lines: "alias b='x' a='echo \"it'\\''s\"'\nalias; alias b",
            stdout: "alias a='echo \"it'\\''s\"'\nalias b='x'\nalias b='x'\n"),
        Row(
            name: "alias NAME of an unknown alias", lines: "alias nope",
            stderr: "shelf: alias: nope: not found\n", status: .failure),
        Row(
            name: "an invalid name", lines: "alias 'a/b=x'",
            stderr: "shelf: alias: 'a/b': invalid alias name\n", status: .failure),
        Row(
            name: "a value that is not whole shell text", lines: "alias x=\"'\"",
            stderr: "shelf: alias: x: unterminated quote '\n", status: .failure),
        Row(
            name: "unalias removes one", lines: "alias say='echo said'\nunalias say\nsay",
            stderr: "shelf: say: command not found; did you mean 'cat'?\n", status: .notFound),
        Row(
            name: "unalias of an unknown alias", lines: "unalias x",
            stderr: "shelf: unalias: x: not found\n", status: .failure),
        Row(name: "unalias -a removes all", lines: "alias a=b c=d\nunalias -a\nalias", stdout: ""),
    ]

    @Test(arguments: rows)
    func aliases(_ row: Row) {
        let shell = TestShell(interactive: false)
        let result = shell.run(row.lines)
        #expect(result.stdout == row.stdout)
        #expect(result.stderr == row.stderr)
        #expect(result.status == row.status)
    }

    @Test("Expansion replaces command-position words with the value's tokens, spanning the alias's word")
    func expandsTokens() throws {
        var aliases = Aliases()
        aliases[Array("ll".utf8)] = Array("ls -l".utf8)
        let source = Array("ll ll | ll".utf8)
        let statements = try Parser.parse(source, aliases: aliases)
        let words = statements[0].pipelines.map { $0.commands.map { $0.words.map { $0.literalText.map { String(decoding: $0, as: UTF8.self) } } } }
        #expect(words == [[["ls", "-l", "ll"], ["ls", "-l"]]])
        #expect(statements[0].first.commands[1].offset == 8)
    }
}
