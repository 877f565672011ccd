import PathModel
import SystemPackage
import Testing

@testable import ShellCore

@Suite("Diagnostics")
struct DiagnosticsTests {
    @Test(
        "A FileError is worded as coreutils words it",
        arguments: [
            (FileError(.stat, "x", .noSuchFileOrDirectory), "cannot stat 'x': No such file or directory"),
            (FileError(.stat, "a b", .noSuchFileOrDirectory), "cannot stat 'a b': No such file or directory"),
            (
                FileError(.open, "/etc/shadow", .permissionDenied),
                "cannot open '/etc/shadow': Permission denied"
            ),
            (FileError(.read, "d", .isDirectory), "error reading 'd': Is a directory"),
            (FileError(.write, "f", .noSpace), "error writing 'f': No space left on device"),
            (FileError(.list, "d", .permissionDenied), "cannot open directory 'd': Permission denied"),
            (FileError(.makeDirectory, "d", .fileExists), "cannot create directory 'd': File exists"),
            (FileError(.createFile, "f", .isDirectory), "cannot create regular file 'f': Is a directory"),
            (FileError(.remove, "f", .notPermitted), "cannot remove 'f': Operation not permitted"),
            (
                FileError(.removeDirectory, "d", .directoryNotEmpty),
                "failed to remove 'd': Directory not empty"
            ),
            (FileError(.move, "a", .fileExists, destination: "b"), "cannot move 'a' to 'b': File exists"),
            (
                FileError(.rename, "a", .invalidArgument, destination: "x/y"),
                "cannot move 'a' to 'x/y': Invalid argument"
            ),
            (FileError(.copy, "a", .isDirectory, destination: "b"), "cannot copy 'a' to 'b': Is a directory"),
            (FileError(.makeLink, "l", .fileExists), "cannot create link 'l': File exists"),
            (FileError(.readLink, "l", .invalidArgument), "cannot read symbolic link 'l': Invalid argument"),
            (
                FileError(.setAttributes, "f", .notPermitted),
                "cannot set attributes of 'f': Operation not permitted"
            ),
            (FileError(.sync, "f", .ioError), "cannot sync 'f': Input/output error"),
            (
                FileError(.resolve, ".", .noSuchFileOrDirectory),
                "cannot resolve '.': No such file or directory"
            ),
            (
                FileError(.makeDirectory, "missing/child", .noSuchFileOrDirectory),
                "cannot create directory 'missing/child': No such file or directory"
            ),
            (
                FileError(.list, "it's", .permissionDenied),
                "cannot open directory \"it's\": Permission denied"
            ),
        ] as [(FileError, String)])
    func fileError(_ error: FileError, _ expected: String) {
        #expect(Diagnostics.render(error, phrase: nil) == expected)
    }

    @Test("Every operation has words, and names its path")
    func everyOperation() {
        for operation in FileError.Operation.allCases {
            let text = Diagnostics.render(FileError(operation, "p", .ioError, destination: "q"), phrase: nil)
            #expect(text.contains("'p'"), "\(operation): \(text)")
            #expect(text.hasSuffix(": Input/output error"), "\(operation): \(text)")
        }
    }

    @Test("A command's own phrase replaces the operation's")
    func phrase() {
        let error = FileError(.remove, "a b", .notPermitted)
        #expect(
            Diagnostics.render(error, phrase: "cannot touch") == "cannot touch 'a b': Operation not permitted"
        )
    }

    @Test("reason is strerror's text")
    func reason() {
        #expect(FileError(.copy, "a", .fileExists, destination: "b").reason == "File exists")
        #expect(Diagnostics.reason(.notDirectory) == "Not a directory")
    }

    /// One conflict and GNU's words for it, from cp (or mv when `moving`).
    struct ConflictRow: CustomTestStringConvertible, Sendable {
        var name: String
        var kind: TransferConflict.Kind
        var moving = false
        var expected: String
        var testDescription: String { name }
    }

    @Test(
        "A transfer conflict is worded as cp and mv word it",
        arguments: [
            ConflictRow(name: "same file", kind: .sameFile, expected: "'a' and 'd/b' are the same file"),
            ConflictRow(
                name: "cp into itself", kind: .intoItself,
                expected: "cannot copy a directory, 'a', into itself, 'd/b'"),
            ConflictRow(
                name: "mv into itself", kind: .intoItself, moving: true,
                expected: "cannot move 'a' to a subdirectory of itself, 'd/b'"),
            ConflictRow(
                name: "directory over a file", kind: .directoryOverNonDirectory,
                expected: "cannot overwrite non-directory 'd/b' with directory 'a'"),
            ConflictRow(
                name: "file over a directory", kind: .nonDirectoryOverDirectory,
                expected: "cannot overwrite directory 'd/b' with non-directory"),
            ConflictRow(
                name: "directory cycle", kind: .directoryCycle(ancestorCopy: "d"),
                expected: "will not create hard link 'd/b' to directory 'd'"),
            ConflictRow(
                name: "dangling symlink", kind: .danglingDestinationSymlink,
                expected: "not writing through dangling symlink 'd/b'"),
        ])
    func conflict(_ row: ConflictRow) {
        let conflict = TransferConflict(row.kind, source: "a", destination: "d/b")
        #expect(
            Diagnostics.render(conflict, moving: row.moving, quoted: { Quoting.always($0.bytes) })
                == row.expected)
    }
}
