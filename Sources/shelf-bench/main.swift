import Glibc
import PathModel
import ShellCore

/// `shelf-bench DIRECTORY LINE ROUNDS`: times the completer in-process for `LINE` typed in
/// `DIRECTORY` with the cursor at its end, and prints each round's time in milliseconds.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3, let rounds = Int(arguments[2]), rounds > 0 else {
    ProcessEnvironment.fail("usage: shelf-bench DIRECTORY LINE ROUNDS")
}
let state = ShellState(cwd: File(path: arguments[0]), environment: ProcessEnvironment.current())
let line = Array(arguments[1].utf8)
var output = ""
for _ in 0..<rounds {
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    let completion = Completer.complete(line: line, cursor: line.count, state: state)
    clock_gettime(CLOCK_MONOTONIC, &end)
    if completion.candidates.isEmpty {
        ProcessEnvironment.fail("shelf-bench: no candidates for '\(arguments[1])'")
    }
    let nanoseconds = (end.tv_sec - start.tv_sec) * 1_000_000_000 + (end.tv_nsec - start.tv_nsec)
    output += "\(Double(nanoseconds) / 1_000_000)\n"
}
print(output, terminator: "")
