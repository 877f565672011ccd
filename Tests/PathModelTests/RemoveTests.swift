import SystemPackage
import Testing

@testable import PathModel

@Suite("Single removals")
struct RemoveTests {
    @Test("removeEmptyDirectory removes an empty directory only")
    func removeEmptyDirectory() throws {
        try withScratch { dir in
            let empty = dir + "empty"
            try empty.makeDirectory()
            try empty.removeEmptyDirectory()
            #expect(!rawExists(empty))

            let full = dir + "full"
            try (full + "x").makeDirectory(intermediates: true)
            #expect(throws: FileError(.removeDirectory, full, .directoryNotEmpty)) {
                try full.removeEmptyDirectory()
            }
            let file = dir + "file"
            try file.write(text: "")
            #expect(throws: FileError(.removeDirectory, file, .notDirectory)) {
                try file.removeEmptyDirectory()
            }
            #expect(full.isDirectory)
            #expect(file.isFile)
        }
    }

    @Test("removeFile removes a file or a symlink itself, and refuses a directory")
    func removeFile() throws {
        try withScratch { dir in
            let target = dir + "target"
            try target.write(text: "keep")
            let link = dir + "link"
            try link.makeSymlink(to: "target")
            try link.removeFile()
            #expect(!rawExists(link))
            #expect(try target.readText() == "keep")
            try target.removeFile()
            #expect(rawNames(dir).isEmpty)

            let sub = dir + "sub"
            try sub.makeDirectory()
            #expect(throws: FileError(.remove, sub, .isDirectory)) { try sub.removeFile() }
            let missing = dir + "missing"
            #expect(throws: FileError(.remove, missing, .noSuchFileOrDirectory)) { try missing.removeFile() }
        }
    }
}
