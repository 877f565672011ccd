import PathModel

/// What a command runs with: the shell's state and its output streams.
public final class CommandContext {
    /// The session's state (current directory, variables…).
    public let state: ShellState
    /// Standard output (possibly redirected to a file).
    public let stdout: OutputStream
    /// Standard error.
    public let stderr: OutputStream
    /// The running command's name, which starts its messages.
    public let commandName: String
    /// Standard input: the shell's, or the pipe from the stage before in a pipeline. Commands
    /// read it for `-` or no FILE, and never close it.
    public let stdin: OpenFile

    /// A context for running `commandName`, reading `stdin` (the process's standard input unless
    /// given).
    public init(
        state: ShellState, stdout: OutputStream, stderr: OutputStream, commandName: String,
        stdin: OpenFile = .standardInput
    ) {
        self.state = state
        self.stdout = stdout
        self.stderr = stderr
        self.commandName = commandName
        self.stdin = stdin
    }

    /// Whether Ctrl-C was pressed, or the reader of the output went away; long loops poll this
    /// and stop.
    public var isCancelled: Bool { state.isCancelled() || stdout.isBroken }

    /// Writes `name: message` on standard error.
    public func error(_ message: String) {
        stderr.line("\(commandName): \(message)")
    }

    /// Writes a usage problem found once the command runs, `name: message` and the pointer to
    /// `help`, and gives the status of a usage error.
    public func usageError(_ message: String) -> ExitStatus {
        error(message)
        stderr.line("Try 'help \(commandName)' for more information.")
        return .usage
    }

    /// Writes a file error on standard error as coreutils words it: `rm: cannot remove 'x': Reason`.
    /// A read or write that Ctrl-C broke off is not reported: the command stops as a program
    /// killed by it would, without a word.
    /// - Parameter phrase: the command's words for the failed operation (`cannot remove`); when
    ///   nil, the error's own wording is used.
    public func report(_ error: FileError, _ phrase: String? = nil) {
        if isInterruption(error) { return }
        stderr.line("\(commandName): " + Diagnostics.render(error, phrase: phrase))
    }

    /// Writes a file error as `name: 'operand': Reason`, the operand as the user spelled it; a
    /// read, write or open that Ctrl-C broke off is not reported.
    public func report(_ error: FileError, as spelled: [UInt8]) {
        if isInterruption(error) { return }
        self.error(Diagnostics.renderBare(error, as: spelled))
    }

    /// Whether `error` is a read or write that Ctrl-C broke off (`EINTR` after the interrupt),
    /// which a command does not report: it stops as a program killed by Ctrl-C would, silently.
    public func isInterruption(_ error: FileError) -> Bool { error.errno == .interrupted && state.isCancelled() }

    /// Whether a copy's failure is only Ctrl-C stopping it: a step it cancelled (`ECANCELED`), or
    /// a request or system call it broke off (`EINTR` after the interrupt), which `cp` and `mv`
    /// do not report, for every file in flight.
    public func isStopping(_ error: TransferError) -> Bool {
        error.errno == .canceled || (error.errno == .interrupted && state.isCancelled())
    }

    /// Asks a yes/no question; nil when nobody can answer (no terminal).
    public func ask(_ question: String) -> Bool? {
        guard let asker = state.asker else { return nil }
        stderr.flush()
        return asker("\(commandName): \(question)")
    }

    /// The absolute path of an operand; one written with a trailing slash names a directory
    /// (`ShellState.directory(_:)`).
    public func resolve(_ argument: Argument) -> File {
        let file = state.resolve(argument.file)
        return argument.hasTrailingSlash ? state.directory(file) : file
    }
}

/// What a command's operands complete to.
public enum OperandCompletion: Sendable, Hashable {
    /// Files and directories, and the named places (`@docs/`).
    case files
    /// Directories only (and the named places).
    case directories
    /// shelf's command names.
    case commands
    /// Nothing: the operands are not names (`exit 3`, `set -e`).
    case nothing
}

/// A command of the shell: a struct of parsed options with one way to run.
public protocol ShellCommand: Sendable {
    /// The name it is called by.
    static var name: String { get }
    /// The keys of its options, which its parsed arguments are read by (`Never` for none).
    associatedtype Option: Hashable & Sendable = Never
    /// The options it accepts.
    static var options: [OptionSpec<Option>] { get }
    /// One line on what it does.
    static var summary: String { get }
    /// The synopsis after the name (`[-a] [PATH...]`).
    static var synopsis: String { get }

    /// Builds the command from parsed options and operands, without touching the disk.
    /// - Throws: `UsageError` for a combination it does not accept.
    init(_ arguments: ParsedArguments<Option>) throws(UsageError)

    /// Builds the command from its arguments as typed (the name excluded); most commands read
    /// them with their option table, a few (`echo`, `cd -`, `set +e`) their own way.
    /// - Throws: `UsageError` with GNU's wording.
    static func parse(_ arguments: [Argument]) throws(UsageError) -> Self

    /// Whether `--help` among the arguments shows the command's help (true for all but `echo`).
    static var takesHelpOption: Bool { get }

    /// Whether running it may create, change or remove files (refused in a read-only shell).
    static var changesDisk: Bool { get }

    /// What Tab offers for its operands.
    static var operandCompletion: OperandCompletion { get }

    /// Whether its operands are `NAME=value` words (`export`, `alias`): each such word's value is
    /// expanded as an assignment's (`~` after the `=`), and no operand is globbed.
    static var takesAssignments: Bool { get }

    /// A line the shell prints after a usage error and before `Try 'help NAME'…`, given the
    /// arguments as typed; it may look at the disk (rm names a file that looks like an option).
    static func usageHint(for arguments: [Argument], in state: ShellState) -> String?

    /// The operands, which the shell expands (globs) before `run`.
    var operands: [Argument] { get set }

    /// Runs the command, writing to the context's streams, and returns its status.
    func run(in context: CommandContext) -> ExitStatus
}

extension ShellCommand {
    /// Commands show their help for `--help` unless they say otherwise.
    public static var takesHelpOption: Bool { true }

    /// Commands only read unless they say otherwise.
    public static var changesDisk: Bool { false }

    /// Operands are files unless the command says otherwise.
    public static var operandCompletion: OperandCompletion { .files }

    /// Operands are ordinary words unless the command says otherwise.
    public static var takesAssignments: Bool { false }

    /// No hint unless the command gives one.
    public static func usageHint(for arguments: [Argument], in state: ShellState) -> String? { nil }

    /// Parses `arguments` with the command's option table, then builds it.
    /// - Throws: `UsageError` with GNU's wording.
    public static func parse(_ arguments: [Argument]) throws(UsageError) -> Self {
        try Self(OptionParser.parse(arguments, specs: options, acceptsHelp: true))
    }

    /// How its options are written and described, for help and Tab.
    public static var optionForms: [OptionForm] { options.map(\.form) }
}

extension ShellCommand where Option == Never {
    /// A command without options has none to list.
    public static var options: [OptionSpec<Never>] { [] }
}
