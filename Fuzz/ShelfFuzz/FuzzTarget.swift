import CShelfFuzz
import Glibc
import PathModel
import ShellCore

/// The directory globs and completions run against, made (or found again) once per process under
/// the temporary directory: a few names, some of them hostile (a newline, an escape sequence, a
/// byte that is not UTF-8, a leading dash). It stays for the next run, since libFuzzer ends the
/// process without running exit handlers when it finds something.
private let fixture: File = {
    let directory = File.temporary + "shelf-fuzz-fixture"
    let names: [[UInt8]] = [
        Array("a.txt".utf8), Array("b c".utf8), Array("-rf".utf8), Array("new\nline".utf8),
        [0x1B, 0x5B, 0x33, 0x31, 0x6D, 0x72, 0x65, 0x64], [0x6C, 0x61, 0x74, 0x69, 0x6E, 0xE9],
    ]
    do {
        _ = try (directory + "sub/deeper").makeDirectory(intermediates: true)
        for name in names { try (directory + File(bytes: name)).createFile() }
        try (directory + "sub/x.swift").createFile()
    } catch {
        fatalError("cannot make the fuzz fixture: \(error)")
    }
    return directory
}()

/// The fuzzer: libFuzzer's driver, reading its options (`-max_total_time=600`, corpus
/// directories) from the command line.
@main enum ShelfFuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(shelf_fuzz_run(&argc, &argv, fuzzOneInput))
    }
}

/// Runs one input through everything that reads a command line without running it: the lexer
/// (whole and partial), the parser, word expansion, glob expansion inside the fixture, and
/// completion at every eighth byte. A crash, a trap or a sanitizer report is a finding.
private func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    let state = ShellState(cwd: fixture, environment: ["HOME": fixture.string, "A": "*.txt", "EMPTY": ""])
    _ = Lexer.tokenizePartial(input)
    _ = try? Lexer.tokenize(input)
    _ = Parser.needsMoreInput(input)
    if let statements = try? Parser.parse(input) {
        for statement in statements {
            for command in statement.pipelines.flatMap(\.commands) {
                for word in command.words + command.redirections.compactMap(\.target) {
                    let argument = Expander.expand(word, state: state)
                    if staysInFixture(argument.bytes) { _ = try? Expander.expandGlob(argument, state: state) }
                }
            }
        }
    }
    if input.count <= 256 {
        for cursor in stride(from: 0, through: input.count, by: 8) {
            let completion = Completer.complete(line: input, cursor: cursor, state: state)
            _ = completion.applied(to: input)
        }
    }
    return 0
}

/// Whether a pattern can only match inside the fixture (no absolute path, no `..`), so that a
/// glob never walks the rest of the machine.
private func staysInFixture(_ bytes: [UInt8]) -> Bool {
    bytes.first != 0x2F && !bytes.indices.dropLast().contains { bytes[$0] == 0x2E && bytes[$0 + 1] == 0x2E }
}
