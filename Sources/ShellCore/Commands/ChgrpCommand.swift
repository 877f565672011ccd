import PathModel

/// `chgrp [-R] [-h] [-c | -v] [-f] GROUP FILE...`: change the group of each FILE, as GNU chgrp
/// does.
public struct ChgrpCommand: ShellCommand {
    public static let name = "chgrp"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Change the group of each FILE to GROUP."
    public static let synopsis = "[-R] [-h] [-c | -v] [-f] [--dry-run] GROUP FILE..."
    /// The keys its options are read back by, shared with chown.
    public typealias Option = OwnershipOption
    public static let options: [OptionSpec<Option>] = OwnershipOption.shared

    /// What to change, and how.
    var request: OwnershipRequest
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        (request, operands) = try OwnershipRequest.parse(arguments, kind: .group)
    }

    public func run(in context: CommandContext) -> ExitStatus {
        OwnershipRun.run(request, on: operands, in: context)
    }
}
