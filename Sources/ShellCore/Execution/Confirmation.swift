/// Asks the questions of `-i` (`cp: overwrite 'b'? `).
///
/// When nobody can answer (no terminal), the answer is "no" and the command says so once, on
/// the first question it could not ask; it never reads the script's standard input for an answer.
final class Confirmation {
    private let context: CommandContext
    private var toldNobodyToAsk = false

    /// A confirmation for the command running in `context`.
    init(_ context: CommandContext) { self.context = context }

    /// Asks `question`; false when the answer is no or nobody can answer.
    /// - Parameter declining: what a "no" means here (`not overwriting 'b'`), said when there is
    ///   no terminal to ask.
    func ask(_ question: String, declining: @autoclosure () -> String) -> Bool {
        if let answer = context.ask(question) { return answer }
        if !toldNobodyToAsk {
            toldNobodyToAsk = true
            context.error("\(declining()) \(Messages.noTerminal)")
        }
        return false
    }

    private enum Messages {
        static let noTerminal = "(no terminal to ask)"
    }
}
