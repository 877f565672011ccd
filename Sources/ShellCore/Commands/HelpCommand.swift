import PathModel

/// `help [COMMAND | places]...`: list the commands, show one command's usage and options, or list
/// the named places with where they point.
public struct HelpCommand: ShellCommand {
    public static let name = "help"
    public static let summary = "List shelf's commands, or show how to use one."
    public static let synopsis = "[COMMAND | places]..."
    /// Its operands are commands.
    public static let operandCompletion = OperandCompletion.commands

    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Never>) throws(UsageError) {
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        guard let topic = operands.first else {
            context.stdout.line("shelf commands (help COMMAND for details):")
            let width = Command.all.map { $0.name.count }.max() ?? 0
            for type in Command.all {
                context.stdout.line("  " + type.name + String(repeating: " ", count: width - type.name.count + 2) + type.summary)
            }
            return .success
        }
        var status = ExitStatus.success
        for operand in [topic] + operands.dropFirst() {
            if operand.text == Self.placesTopic {
                listPlaces(in: context)
                continue
            }
            guard let type = Command.type(named: operand.text) else {
                context.error("no help topics match '\(operand.text)'")
                status = .failure
                continue
            }
            context.stdout.write(HelpText.render(type))
            if let description = CommandDocs.descriptions[type.name] {
                context.stdout.write("\n" + description + "\n")
            }
        }
        return status
    }

    /// The topic that lists the named places.
    static let placesTopic = "places"

    /// `@name  path` for each place, from the shell's own variables.
    private func listPlaces(in context: CommandContext) {
        context.stdout.line("Named places (use them anywhere a path goes: cd @docs, cp a.pdf @downloads/):")
        let places = context.state.places
        let width = WellKnownPlaces.names.map(\.count).max() ?? 0
        for name in WellKnownPlaces.names {
            guard let place = places.place(named: name) else { continue }
            let padding = String(repeating: " ", count: width - name.count + 2)
            context.stdout.write("  @" + name + padding)
            context.stdout.write(bytes: Quoting.needsQuoting(place.bytes) ? Array(Quoting.always(place.bytes).utf8) : place.bytes)
            context.stdout.write(byte: 0x0A)
        }
    }
}
