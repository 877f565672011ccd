import SystemPackage
import Testing

@testable import PathModel

@Suite("FileError")
struct FileErrorTests {
    @Test(
        "description follows coreutils' wording",
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
                FileError(.copyIntoItself, "a", .invalidArgument, destination: "a/b"),
                "cannot copy a directory, 'a', into itself, 'a/b'"
            ),
            (
                FileError(.sameFile, "a", .invalidArgument, destination: "./a"),
                "'a' and './a' are the same file"
            ),
        ] as [(FileError, String)])
    func description(_ error: FileError, _ expected: String) {
        #expect(error.description == expected)
    }

    @Test("Every operation has a description")
    func everyOperation() {
        for operation in FileError.Operation.allCases {
            let text = FileError(operation, "p", .ioError, destination: "q").description
            #expect(text.contains("'p'"), "\(operation): \(text)")
        }
    }

    @Test("reason is strerror's text; the data stays apart from it")
    func reasonAndData() {
        let error = FileError(.copy, "a", .fileExists, destination: "b")
        #expect(error.reason == "File exists")
        #expect(error.operation == .copy)
        #expect(error.path == "a")
        #expect(error.destination == "b")
        #expect(error.errno == .fileExists)
        #expect(error != FileError(.copy, "a", .fileExists))
    }
}
