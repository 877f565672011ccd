import Synchronization
import Testing

import PathModel

@Suite("The interruption check")
struct InterruptionTests {
    /// A transfer asks the check before every wait on the connection: tens of thousands of
    /// times in one copy. Each read once wrapped the stored closure one step deeper, so that
    /// asking grew slower with every read and these reads took minutes (and the last call
    /// went as deep as the reads were many).
    @Test("Reading the check many times hands out the check that was set", .timeLimit(.minutes(1)))
    func manyReadsKeepTheCheckAsItWasSet() {
        let previous = Interruption.isRequested
        defer { Interruption.isRequested = previous }
        let asked = Atomic<Int>(0)
        Interruption.isRequested = {
            asked.add(1, ordering: .relaxed)
            return false
        }
        var answers = 0
        for _ in 0..<100_000 where Interruption.isRequested?() == false { answers += 1 }
        #expect(answers == 100_000)
        #expect(asked.load(ordering: .relaxed) == 100_000)
    }
}
