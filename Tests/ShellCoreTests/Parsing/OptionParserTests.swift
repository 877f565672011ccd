import Testing

@testable import ShellCore

@Suite struct OptionParserTests {
    static let specs: [OptionSpec<String>] = [
        OptionSpec("a", "all", key: "all", help: ""),
        OptionSpec("l", key: "l", help: ""),
        OptionSpec("L", "max-depth", value: .required, valueName: "N", key: "max-depth", help: ""),
        OptionSpec(nil, "color", value: .optional, valueName: "WHEN", key: "color", help: ""),
        OptionSpec(nil, "classify", key: "classify", help: ""),
    ]

    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        let options: String
        let operands: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "bundle", arguments: ["-la", "x"], options: "l all", operands: ["x"]),
        Row(name: "long flag", arguments: ["--all"], options: "all", operands: []),
        Row(name: "value attached to short", arguments: ["-L2"], options: "max-depth=2", operands: []),
        Row(name: "value after short", arguments: ["-aL", "3", "d"], options: "all max-depth=3", operands: ["d"]),
        Row(name: "long value with =", arguments: ["--max-depth=4"], options: "max-depth=4", operands: []),
        Row(name: "long value separate", arguments: ["--max-depth", "5"], options: "max-depth=5", operands: []),
        Row(name: "unambiguous prefix", arguments: ["--max=1"], options: "max-depth=1", operands: []),
        Row(name: "optional value absent", arguments: ["--color"], options: "color", operands: []),
        Row(name: "optional value given", arguments: ["--color=never"], options: "color=never", operands: []),
        Row(name: "double dash ends options", arguments: ["-a", "--", "-l", "--all"], options: "all", operands: ["-l", "--all"]),
        Row(name: "lone dash is an operand", arguments: ["-", "-a"], options: "all", operands: ["-"]),
        Row(name: "options after operands", arguments: ["x", "-a"], options: "all", operands: ["x"]),
    ]

    @Test(arguments: rows)
    func splits(_ row: Row) throws {
        let parsed = try OptionParser.parse(row.arguments.map(Argument.init), specs: Self.specs)
        let options = parsed.options.map { option in option.value.map { "\(option.key)=\(String(decoding: $0, as: UTF8.self))" } ?? option.key }.joined(separator: " ")
        #expect(options == row.options)
        #expect(parsed.operands.map(\.text) == row.operands)
    }

    struct ErrorRow: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        let message: String
        var testDescription: String { name }
    }

    static let errorRows: [ErrorRow] = [
        ErrorRow(name: "unknown long", arguments: ["--foo"], message: "unrecognized option '--foo'"),
        ErrorRow(name: "unknown short", arguments: ["-z"], message: "invalid option -- 'z'"),
        ErrorRow(name: "short needs value", arguments: ["-L"], message: "option requires an argument -- 'L'"),
        ErrorRow(name: "long needs value", arguments: ["--max-depth"], message: "option '--max-depth' requires an argument"),
        ErrorRow(name: "flag given a value", arguments: ["--all=yes"], message: "option '--all' doesn't allow an argument"),
        ErrorRow(
            name: "ambiguous prefix", arguments: ["--c"],
            message: "option '--c' is ambiguous; possibilities: '--color' '--classify'"),
    ]

    @Test(arguments: errorRows)
    func rejects(_ row: ErrorRow) {
        let error = #expect(throws: UsageError.self) {
            try OptionParser.parse(row.arguments.map(Argument.init), specs: Self.specs)
        }
        #expect(error.map(Diagnostics.render) == row.message)
    }

    @Test func globResultsAreNeverOptions() throws {
        let fromGlob = Argument(bytes: Array("-rf".utf8), fromGlob: true)
        let parsed = try OptionParser.parse([fromGlob], specs: Self.specs)
        #expect(parsed.options.isEmpty)
        #expect(parsed.operands.map(\.text) == ["-rf"])
    }
}
