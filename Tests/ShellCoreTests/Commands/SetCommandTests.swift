import Testing

@testable import ShellCore

/// `set`: -e and +e, and the options of sh's usual preamble that shelf's behaviour already has.
struct SetCommandTests {
    static let parsingRows: [(String, [String], Bool?)] = [
        ("-e", ["-e"], true),
        ("+e", ["+e"], false),
        ("the last one wins", ["-e", "+e"], false),
        ("the preamble", ["-euo", "pipefail"], true),
        ("-u alone changes nothing", ["-u"], nil),
        ("-o errexit is -e", ["-o", "errexit"], true),
        ("+o errexit is +e", ["+o", "errexit"], false),
        ("-o nounset and -o pipefail", ["-o", "nounset", "-o", "pipefail"], nil),
        ("letters grouped", ["-ue"], true),
    ]

    @Test(arguments: parsingRows)
    func parses(_ name: String, _ arguments: [String], _ stopOnError: Bool?) throws {
        let command = try SetCommand.parse(arguments.map(Argument.init))
        #expect(command.stopOnError == stopOnError, "\(name)")
    }

    static let errorRows: [(String, [String], String)] = [
        ("tracing", ["-x"], "-x: invalid option (shelf's set takes -e, +e, -u and -o)"),
        ("a letter after good ones", ["-eux"], "-x: invalid option (shelf's set takes -e, +e, -u and -o)"),
        ("-o without a name", ["-o"], "-o: option name required"),
        ("+u", ["+u"], "nounset cannot be turned off in shelf"),
        ("+o pipefail", ["+o", "pipefail"], "pipefail cannot be turned off in shelf"),
        ("an unknown name", ["-o", "vi"], "vi: invalid option name (shelf's set -o takes errexit, nounset and pipefail)"),
        ("a word", ["x"], "invalid argument 'x'"),
        ("a lone dash", ["-"], "invalid argument '-'"),
    ]

    @Test(arguments: errorRows)
    func refuses(_ name: String, _ arguments: [String], _ message: String) {
        let error = #expect(throws: UsageError.self, "\(name)") { try SetCommand.parse(arguments.map(Argument.init)) }
        #expect(error.map(Diagnostics.render) == message, "\(name)")
    }

    @Test("sh's preamble runs, and the script still stops at the first failure")
    func preamble() {
        let shell = TestShell()
        let result = shell.run("set -euo pipefail; cat missing | cat; echo not reached")
        #expect(result.stdout == "")
        #expect(result.status.code == 1)
    }
}
