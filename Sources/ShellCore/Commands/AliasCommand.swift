/// `alias [-p] [NAME[=VALUE]]...`: define aliases, show them, or list them all.
public struct AliasCommand: ShellCommand {
    public static let name = "alias"
    public static let summary = "Make NAME stand for VALUE as a command's name; alone, list the aliases."
    /// Its operands are alias names.
    public static let operandCompletion = OperandCompletion.nothing
    public static let synopsis = "[-p] [NAME[=VALUE]]..."
    /// `alias ll=ls\ -l` is never globbed.
    public static let takesAssignments = true
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case list
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("p", key: .list, help: "list every alias (as without NAME), before the operands")
    ]

    /// Whether `-p` was given.
    public var list: Bool
    /// `NAME` or `NAME=VALUE` words.
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        list = arguments.has(.list)
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        let state = context.state
        if list || operands.isEmpty {
            for (name, value) in state.aliases.sorted { show(name, value, in: context) }
        }
        var status = ExitStatus.success
        for operand in operands {
            guard let equals = operand.bytes.firstIndex(of: 0x3D) else {
                if let value = state.aliases[operand.bytes] {
                    show(operand.bytes, value, in: context)
                } else {
                    context.stderr.line("shelf: \(Self.name): \(Quoting.bare(operand.bytes)): \(Messages.notFound)")
                    status = .failure
                }
                continue
            }
            let name = Array(operand.bytes[..<equals])
            let value = Array(operand.bytes[(equals + 1)...])
            guard Aliases.isName(name) else {
                context.stderr.line("shelf: \(Self.name): \(Quoting.always(name)): \(Messages.invalidName)")
                status = .failure
                continue
            }
            do throws(Lexer.Failure) {
                _ = try Lexer.tokenize(value)
            } catch {
                let problem = Diagnostics.render(Parser.syntaxError(error, in: value))
                context.stderr.line("shelf: \(Self.name): \(Quoting.bare(name)): \(problem)")
                status = .failure
                continue
            }
            state.aliases[name] = value
        }
        return status
    }

    /// Writes `alias NAME='VALUE'`, a line the shell reads back to the same alias.
    private func show(_ name: [UInt8], _ value: [UInt8], in context: CommandContext) {
        context.stdout.write(bytes: Array("alias ".utf8) + name + [0x3D] + Quoting.readBack(value))
        context.stdout.line()
    }

    private enum Messages {
        static let notFound = "not found"
        static let invalidName = "invalid alias name"
    }
}
