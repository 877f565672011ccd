import PathModel

/// `touch [-c] FILE...`: set times to now, creating missing files.
public struct TouchCommand: ShellCommand {
    public static let name = "touch"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Update the access and modification times of each FILE to now, creating it if missing."
    public static let synopsis = "[-c] FILE..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case noCreate
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("c", "no-create", key: .noCreate, help: "do not create any files")
    ]

    /// Leave missing files missing.
    public var noCreate: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        noCreate = arguments.has(.noCreate)
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        guard !operands.isEmpty else {
            context.error(Messages.missingOperand)
            context.stderr.line("Try 'help touch' for more information.")
            return .usage
        }
        var status = ExitStatus.success
        for operand in operands {
            let target = context.resolve(operand)
            // `x/` names a directory: touch makes none and sets no file's times through it.
            if operand.hasTrailingSlash {
                do { _ = try operand.info(at: target, followSymlinks: true) } catch {
                    context.error("\(Messages.settingTimes) \(Quoting.always(operand.bytes)): \(error.reason)")
                    status = .failure
                    continue
                }
            }
            do {
                do {
                    try target.setTimes(access: nil, modification: nil)
                } catch where error.errno == .noSuchFileOrDirectory {
                    if noCreate { continue }
                    try target.createFile()
                    try target.setTimes(access: nil, modification: nil)
                }
            } catch {
                context.report(FileError(error.operation, operand.file, error.errno), Messages.cannotTouch)
                status = .failure
            }
        }
        return status
    }

    private enum Messages {
        static let missingOperand = "missing file operand"
        static let cannotTouch = "cannot touch"
        static let settingTimes = "setting times of"
    }
}
