/// `export [-n] [-p] [NAME[=VALUE]]...`: give variables to the programs the shell starts.
public struct ExportCommand: ShellCommand {
    public static let name = "export"
    public static let summary = "Give variables to the programs the shell starts; alone, list them."
    /// Its operands are variable names.
    public static let operandCompletion = OperandCompletion.nothing
    public static let synopsis = "[-n] [-p] [NAME[=VALUE]]..."
    /// `export PATH=~/bin:$PATH` expands its value as an assignment's.
    public static let takesAssignments = true
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case remove, list
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("n", key: .remove, help: "stop giving each NAME to programs (it stays a variable of the shell)"),
        OptionSpec("p", key: .list, help: "list the exported variables (the default without NAME)"),
    ]

    /// Whether `-n` was given: the names are no longer exported.
    public var remove: Bool
    /// `NAME` or `NAME=VALUE` words.
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        remove = arguments.has(.remove)
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        let state = context.state
        guard !operands.isEmpty else {
            list(in: context)
            return .success
        }
        var status = ExitStatus.success
        for operand in operands {
            let equals = operand.bytes.firstIndex(of: 0x3D)
            let name = Array(operand.bytes[..<(equals ?? operand.bytes.endIndex)])
            guard Variable.isName(name) else {
                context.stderr.line("shelf: \(Self.name): \(Quoting.always(operand.bytes)): \(Messages.notIdentifier)")
                status = .failure
                continue
            }
            let text = String(decoding: name, as: UTF8.self)
            if let equals { state.environment[text] = Array(operand.bytes[(equals + 1)...]) }
            if remove { state.exportedNames.remove(name) } else { state.exportedNames.insert(name) }
        }
        return status
    }

    /// Writes `export NAME='VALUE'` for each exported variable (`export NAME` for one not set),
    /// sorted by name: lines the shell reads back to the same variables. A name inherited from
    /// the environment that is no variable name (`A-B`) cannot be read back and is left out.
    private func list(in context: CommandContext) {
        let state = context.state
        for name in state.exportedNames.sorted(by: { $0.lexicographicallyPrecedes($1) }) where Variable.isName(name) {
            context.stdout.write(bytes: Array("export ".utf8) + name)
            if let value = state.environment[String(decoding: name, as: UTF8.self)] {
                context.stdout.write(byte: 0x3D)
                context.stdout.write(bytes: Quoting.readBack(value))
            }
            context.stdout.line()
        }
    }

    private enum Messages {
        static let notIdentifier = "not a valid identifier"
    }
}
