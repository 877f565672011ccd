import Foundation
import Glibc
import SeaweedFixture
import Testing

/// The test fixture itself: a server that checks signatures, and leaves nothing behind.
@Suite struct SeaweedServerTests {
    @Test func aServerAnswersRefusesUnsignedRequestsAndLeavesNothingWhenStopped() throws {
        let server = try SeaweedServer.start()
        let pid = server.processIdentifier
        #expect(kill(pid, 0) == 0)
        #expect(server.statusLine() == "HTTP/1.1 403 Forbidden")
        let permissions = try FileManager.default.attributesOfItem(atPath: server.directory.path)[
            .posixPermissions]
        #expect(permissions as? Int == 0o700)
        server.stop()
        #expect(kill(pid, 0) == -1)
        #expect(!FileManager.default.fileExists(atPath: server.directory.path))
        #expect(server.statusLine() == nil)
    }
}
