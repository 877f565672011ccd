import SystemPackage
import Testing

@testable import PathModel

@Suite("FileError")
struct FileErrorTests {
    @Test("A FileError is data: operation, paths and errno")
    func data() {
        let error = FileError(.copy, "a", .fileExists, destination: "b")
        #expect(error.operation == .copy)
        #expect(error.path == "a")
        #expect(error.destination == "b")
        #expect(error.errno == .fileExists)
        #expect(error != FileError(.copy, "a", .fileExists))
    }
}
