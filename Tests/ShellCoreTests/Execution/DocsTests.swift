import Foundation
import PathModel
import Testing

@testable import ShellCore

/// The command pages in docs/commands are the one source of `help COMMAND`'s text and of the
/// man page; these tests keep the generated files and the commands in step with them.
@Suite struct DocsTests {
    static let root = File(path: #filePath).parent.parent.parent.parent

    @Test("The generated help texts and man page match the pages (make docs)")
    func generatedFilesAreFresh() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", (Self.root + "scripts/generate-docs").string, "--check"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(message)")
    }

    @Test("Every command has a page, and help shows its description", arguments: Command.all.map { $0.name })
    func everyCommandHasAPage(_ name: String) throws {
        #expect((Self.root + "docs/commands/\(name).md").isFile)
        let description = try #require(CommandDocs.descriptions[name])
        let shown = TestShell().run("help \(name)").stdout
        #expect(shown.hasPrefix("Usage: \(name)"))
        #expect(shown.hasSuffix("\n" + description + "\n"))
    }

    @Test(
        "The man page renders without warnings",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "needs groff"))
    func manPageRenders() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        process.arguments = ["-man", "-Tutf8", "-ww", "-z", (Self.root + "docs/shelf.1").string]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0 && warnings.isEmpty, "\(warnings)")
        let page = try (Self.root + "docs/shelf.1").readText()
        for type in Command.all { #expect(page.contains(".B \(type.name)"), "\(type.name) in the man page") }
    }
}
