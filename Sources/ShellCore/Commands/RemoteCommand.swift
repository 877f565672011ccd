/// `remote [NAME [URL]]`, `remote -d NAME...`: name places of object storage, so that `@NAME`
/// stands for them in paths (`remote backup s3://bucket/backups`, then `cp -r src @backup/`).
public struct RemoteCommand: ShellCommand {
    public static let name = "remote"
    public static let summary = "Make @NAME stand for URL (s3://BUCKET/PREFIX) in paths; alone, list the remotes."
    /// Its operands are a name and a URL.
    public static let operandCompletion = OperandCompletion.nothing
    public static let synopsis = "[NAME [URL]] | -d NAME..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case delete
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("d", key: .delete, help: "forget each remote NAME")
    ]

    /// Whether `-d` was given.
    public var delete: Bool
    /// `NAME` and `URL`, or with `-d` the names to forget.
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        delete = arguments.has(.delete)
        operands = arguments.operands
        if delete && operands.isEmpty { throw .invalid(Messages.missingName) }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        let state = context.state
        let words = operands.map(\.bytes)
        if delete {
            var status = ExitStatus.success
            for name in words {
                if state.remotes[name] == nil {
                    status = notFound(name, in: context)
                } else {
                    state.remotes[name] = nil
                }
            }
            return status
        }
        switch words.count {
        case 0:
            for (name, url) in state.remotes.sorted { show(name, url, in: context) }
        case 1:
            guard let url = state.remotes[words[0]] else { return notFound(words[0], in: context) }
            show(words[0], url, in: context)
        case 2:
            guard Remotes.isName(words[0]) else {
                context.stderr.line("shelf: \(Self.name): \(Quoting.always(words[0])): \(Messages.invalidName)")
                return .failure
            }
            guard Remotes.isURL(words[1]) else {
                context.stderr.line("shelf: \(Self.name): \(Quoting.always(words[1])): \(Messages.notURL)")
                return .failure
            }
            state.remotes[words[0]] = words[1]
        default:
            return context.usageError("\(Messages.extraOperand) \(Quoting.always(words[2]))")
        }
        return .success
    }

    /// Writes `remote NAME URL`, a line the shell reads back to the same remote.
    private func show(_ name: [UInt8], _ url: [UInt8], in context: CommandContext) {
        context.stdout.write(bytes: Array("remote ".utf8) + name + [0x20] + Quoting.readBack(url))
        context.stdout.line()
    }

    private func notFound(_ name: [UInt8], in context: CommandContext) -> ExitStatus {
        context.stderr.line("shelf: \(Self.name): \(Quoting.bare(name)): \(Messages.notFound)")
        return .failure
    }

    private enum Messages {
        static let notFound = "not found"
        static let invalidName = "invalid remote name (letters, digits, '-' and '_'; not a named place)"
        static let notURL = "not a URL (s3://BUCKET/PREFIX)"
        static let missingName = "missing remote name"
        static let extraOperand = "extra operand"
    }
}
