import PathModel

/// `cd [DIR]`, `cd -`: change the shell's current directory.
public struct CdCommand: ShellCommand {
    public static let name = "cd"
    public static let summary = "Change the shell's current directory (to $HOME without DIR; to the previous one with -)."
    public static let synopsis = "[DIR | -]"
    /// Its operand is a directory.
    public static let operandCompletion = OperandCompletion.directories

    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Never>) throws(UsageError) {
        operands = arguments.operands
    }

    /// `cd -` is an operand, not an option.
    public static func parse(_ arguments: [Argument]) throws(UsageError) -> CdCommand {
        if arguments.count == 1, arguments[0].bytes == [0x2D] {
            return try CdCommand(ParsedArguments(options: [], operands: arguments))
        }
        return try CdCommand(OptionParser.parse(arguments, specs: options))
    }

    public func run(in context: CommandContext) -> ExitStatus {
        let state = context.state
        guard operands.count <= 1 else {
            context.error(Messages.tooMany)
            return .failure
        }
        var spelled = operands.first?.bytes ?? state.home.bytes
        if spelled.isEmpty { return .success }  // `cd ""` stays where it is, as in bash.
        var announce = false
        if spelled == [0x2D] {
            // As in sh, the variable: inherited, set by the last `cd`, or by the user.
            guard let previous = state.environment["OLDPWD"], !previous.isEmpty else {
                context.error(Messages.noPrevious)
                return .failure
            }
            spelled = previous
            announce = true
        }
        var target = state.resolve(File(bytes: spelled)).normalized
        if Argument(bytes: spelled).hasTrailingSlash { target = state.directory(target) }
        do {
            let info = try target.info(followSymlinks: true)
            guard info.kind == .directory else {
                context.error(Diagnostics.renderBare(FileError(.stat, target, .notDirectory), as: spelled))
                return .failure
            }
            try target.checkSearchable()
        } catch {
            context.error(Diagnostics.renderBare(error, as: spelled))
            return .failure
        }
        // As the user writes them, so that `$PWD/x` names x here on any volume (`s3://b/d/x`).
        state.environment["OLDPWD"] = state.spelling(of: state.cwd)
        state.cwd = target
        state.environment["PWD"] = state.spelling(of: target)
        // Programs get them, as in sh, whether or not shelf started with them.
        state.exportedNames.formUnion([Array("OLDPWD".utf8), Array("PWD".utf8)])
        if announce {
            context.stdout.write(bytes: state.spelling(of: target))
            context.stdout.line()
        }
        return .success
    }

    private enum Messages {
        static let tooMany = "too many arguments"
        static let noPrevious = "OLDPWD not set"
    }
}
