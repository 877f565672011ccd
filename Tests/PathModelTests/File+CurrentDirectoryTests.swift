import PathModel
import SystemPackage
import Testing

@Suite struct FileCurrentDirectoryTests {
    /// Entering the directory the process is already in changes nothing and succeeds.
    /// (Moving elsewhere would disturb tests running in parallel in this process.)
    @Test func enteringTheCurrentDirectorySucceeds() throws {
        let here = try File.currentDirectory()
        try here.makeCurrentDirectory()
        #expect(try File.currentDirectory() == here)
    }

    @Test(arguments: [
        ("missing directory", "/nonexistent-shelf-test/dir", Errno.noSuchFileOrDirectory),
        ("a file, not a directory", "/etc/passwd", Errno.notDirectory),
    ])
    func failuresCarryTheErrno(_ name: String, _ path: String, _ expected: Errno) {
        #expect(throws: FileError(.resolve, File(path: path), expected)) {
            try File(path: path).makeCurrentDirectory()
        }
    }
}
