import PathModel
import Testing

@testable import ShellCore

@Suite struct ShellSmokeTests {
    @Test func mkdirThenPwdInsideIt() throws {
        let shell = TestShell()
        let result = shell.run("mkdir -p a/b && cd a/b && pwd")
        #expect(result.stdout == shell.path("a/b").string + "\n")
        #expect(result.status == .success)
    }
}
