import PathModel
import Testing

@testable import ShellCore

/// A command line of the language with a name for the test list: a pipeline, a redirection.
struct NamedLine: CustomTestStringConvertible, Sendable {
    let name: String
    let line: String
    var testDescription: String { name }
}

/// Runs `line` in a fresh shell and in bash (SIGPIPE at its default, as from a terminal, whatever
/// this test process does with it), each in its own copy of the fixture `build` makes.
func runBesideBash(_ line: String, build: (File) throws -> Void) throws -> (
    ours: Transcript, theirs: Transcript
) {
    let shell = TestShell()
    let twin = TemporaryDirectory(onLocalDisk: true)
    defer { twin.remove() }
    try build(shell.directory.file)
    try build(twin.file)
    let ours = shell.run(line)
    let theirs = try ReferenceTool.run(
        "/usr/bin/env", ["--default-signal=PIPE", "/bin/bash", "-c", line], in: twin.file)
    return (ours, theirs)
}
