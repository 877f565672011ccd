import PathModel
import Testing

@testable import ShellCore

@Suite struct ShellInterruptTests {
    /// Ctrl-C (seen as cancellation) ends the typed line: later statements do not run.
    @Test func anInterruptedCommandEndsTheInteractiveLine() throws {
        let shell = TestShell(interactive: true)
        try shell.write("a.txt", "text\n")
        shell.state.isCancelled = { true }
        let result = shell.run("cat a.txt; echo after")
        #expect(result.stdout == "")
        #expect(result.status == .interrupted)
        #expect(shell.state.lastStatus == .interrupted)
    }

    /// A script stops at the interrupted command, as before.
    @Test func anInterruptedCommandStopsAScript() throws {
        let shell = TestShell(interactive: false)
        try shell.write("a.txt", "text\n")
        shell.state.isCancelled = { true }
        let result = shell.run("cat a.txt\necho after")
        #expect(result.stdout == "")
        #expect(result.status == .interrupted)
    }
}
