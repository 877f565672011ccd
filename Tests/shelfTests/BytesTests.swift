import Foundation
import PathModel
import Testing

/// A name that is not UTF-8 reaches the command exactly, whichever way the command line came in:
/// `bad\xfename` is never confused with `bad\u{FFFD}name`, the name a lossy decoding makes of it.
@Suite struct BytesTests {
    /// The operand: `bad`, the byte 0xFE, `name`.
    static let operand: [UInt8] = Array("bad".utf8) + [0xFE] + Array("name".utf8)
    /// What decoding the operand as UTF-8 would give: `bad`, U+FFFD, `name`.
    static let decoy: [UInt8] = Array("bad".utf8) + [0xEF, 0xBF, 0xBD] + Array("name".utf8)
    static let environment = [Array("LC_ALL=C".utf8), Array("PATH=/usr/bin:/bin".utf8)]

    /// A way a command line reaches shelf.
    enum Route: String, CaseIterable, CustomTestStringConvertible {
        case dashC = "-c COMMANDS"
        case scriptFile = "a script file"
        case scriptNamedInBytes = "a script whose own name is not UTF-8"
        case standardInput = "standard input"
        case scriptWord = "a word after SCRIPT, as $1"
        case variable = "a variable from the environment"
        case root = "--root DIR, DIR not UTF-8"

        var testDescription: String { rawValue }

        /// The fixtures' directory below the test's directory: inside the root for `--root`.
        var place: [UInt8] { self == .root ? Array("r".utf8) + [0xFE] : [] }

        /// Runs `line`, in which `@` stands for the operand, in `directory`.
        func run(_ line: String, in directory: File) throws -> RawProcess.Result {
            let operand = BytesTests.operand
            func spelled(_ replacement: [UInt8]) -> [UInt8] {
                Array(line.utf8).split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false)
                    .map(Array.init).joined(separator: replacement).map { $0 }
            }
            var arguments: [[UInt8]] = []
            var environment = BytesTests.environment + [Array("HOME=".utf8) + directory.bytes]
            var input: [UInt8] = []
            switch self {
            case .dashC: arguments = [Array("-c".utf8), spelled(operand)]
            case .scriptFile, .scriptNamedInBytes:
                let name = self == .scriptFile ? Array("s.shelf".utf8) : Array("s".utf8) + [0xFE]
                try (directory + File(bytes: name)).write(bytes: spelled(operand) + [0x0A])
                arguments = [name]
            case .standardInput: input = spelled(operand) + [0x0A]
            case .scriptWord:
                try (directory + "s.shelf").write(bytes: spelled(Array("$1".utf8)) + [0x0A])
                arguments = [Array("s.shelf".utf8), operand]
            case .variable:
                environment.append(Array("NAME=".utf8) + operand)
                arguments = [Array("-c".utf8), spelled(Array("$NAME".utf8))]
            case .root: arguments = [Array("--root".utf8), place, Array("-c".utf8), spelled(operand)]
            }
            return RawProcess.run(
                ScriptTests.binary, arguments, environment: environment, input: input, in: directory.string)
        }
    }

    /// A command given the operand, and what must hold afterwards in the fixtures' directory.
    struct Row: CustomTestStringConvertible, Sendable {
        var line: String
        var check: @Sendable (RawProcess.Result, File) throws -> Bool
        var testDescription: String { line }
    }

    static let rows: [Row] = [
        Row(line: "rm @") { _, place in
            !(place + File(bytes: operand)).exists && (place + File(bytes: decoy)).exists
        },
        Row(line: "cp @ copy") { _, place in try (place + "copy").readBytes() == Array("exact\n".utf8) },
        Row(line: "mv @ moved") { _, place in
            try (place + "moved").readBytes() == Array("exact\n".utf8)
                && !(place + File(bytes: operand)).exists
        },
        Row(line: "cat @") { result, _ in result.stdout == Array("exact\n".utf8) },
        Row(line: "ls @") { result, _ in result.stdout == operand + [0x0A] },
        Row(line: "stat -c %s @") { result, _ in result.stdout == Array("6\n".utf8) },
    ]

    @Test("An operand that is not UTF-8 reaches the command exactly", arguments: Route.allCases, rows)
    func operandReachesTheCommand(_ route: Route, _ row: Row) throws {
        let directory = try PrivateDirectory()
        let place = directory.file + File(bytes: route.place)
        if route == .root { try place.makeDirectory() }
        try (place + File(bytes: Self.operand)).write(bytes: Array("exact\n".utf8))
        try (place + File(bytes: Self.decoy)).write(bytes: Array("decoy!!\n".utf8))
        let result = try route.run(row.line, in: directory.file)
        #expect(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
        #expect(try row.check(result, place))
    }

    @Test("tree -I PATTERN and tree --fromfile FILE take the option's and operand's bytes")
    func treeOptionValuesAreBytes() throws {
        let directory = try PrivateDirectory()
        try (directory.file + File(bytes: Self.operand)).write(bytes: Array("only-in-list\n".utf8))
        try (directory.file + File(bytes: Self.decoy)).write(bytes: [])
        let ignoring = try Route.dashC.run("tree -I @", in: directory.file)
        #expect(ignoring.status == 0)
        // The decoy is the one file left, drawn as it is or with its bytes escaped (LC_ALL=C).
        let shown = String(decoding: ignoring.stdout, as: UTF8.self)
        #expect(shown.hasSuffix("1 directory, 1 file\n"))
        #expect(ignoring.stdout.contains(Self.decoy) || shown.contains("bad\\357\\277\\275name"))
        let listed = try Route.dashC.run("tree --fromfile @", in: directory.file)
        #expect(listed.status == 0)
        #expect(String(decoding: listed.stdout, as: UTF8.self).contains("only-in-list"))
    }

    @Test("A script whose name is not UTF-8 is named shell-escaped in messages, never with U+FFFD")
    func scriptNameInMessages() throws {
        let directory = try PrivateDirectory()
        let name = Array("s".utf8) + [0xFE]
        try (directory.file + File(bytes: name)).write(bytes: Array("cat missing\necho never\n".utf8))
        let result = RawProcess.run(
            ScriptTests.binary, [name], environment: Self.environment, in: directory.file.string)
        #expect(String(decoding: result.stderr, as: UTF8.self) == "cat: missing: No such file or directory\nshelf: stopped at 's'$'\\376':1\n")
        #expect(result.status == 1)
    }

    @Test("History keeps the bytes typed, in `history` and in the history file")
    func historyKeepsBytes() throws {
        let directory = try PrivateDirectory()
        try (directory.file + File(bytes: Self.operand)).write(bytes: Array("exact\n".utf8))
        let line = Array("cat ".utf8) + Self.operand
        let environment =
            Self.environment + [
                Array("HOME=".utf8) + directory.file.bytes,
                Array("XDG_STATE_HOME=".utf8) + directory.file.bytes,
            ]
        let result = RawProcess.run(
            ScriptTests.binary, [Array("-i".utf8)], environment: environment,
            input: line + Array("\nhistory\n".utf8), in: directory.file.string)
        #expect(result.status == 0)
        #expect(result.stdout.contains(Array("    1  ".utf8) + line + [0x0A]))
        #expect(try (directory.file + "shelf/history").readBytes() == line + Array("\nhistory\n".utf8))
    }
}

/// A private temporary directory, removed (whatever bytes its names hold) when the value goes.
private final class PrivateDirectory {
    let file: File

    init() throws { file = File(path: try ScriptTests.makeDirectory().path) }

    deinit { try? file.delete() }
}

extension Array where Element == UInt8 {
    /// Whether `part` occurs in these bytes.
    func contains(_ part: [UInt8]) -> Bool {
        guard part.count <= count else { return false }
        return (0...(count - part.count)).contains { self[$0..<($0 + part.count)].elementsEqual(part) }
    }
}
