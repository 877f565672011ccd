import PathModel

/// `chown [-R] [-h] [-c | -v] [-f] [--from=OWNER:GROUP] OWNER[:[GROUP]] FILE...`: change the
/// owner and group of each FILE, as GNU chown does.
public struct ChownCommand: ShellCommand {
    public static let name = "chown"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Change the owner and group of each FILE to OWNER and GROUP."
    public static let synopsis =
        "[-R] [-h] [-c | -v] [-f] [--dry-run] [--from=CURRENT_OWNER:CURRENT_GROUP] [OWNER][:[GROUP]] FILE..."
    /// The keys its options are read back by, shared with chgrp.
    public typealias Option = OwnershipOption
    public static let options: [OptionSpec<Option>] =
        OwnershipOption.shared + [
            OptionSpec(
                nil, "from", value: .required, valueName: "CURRENT_OWNER:CURRENT_GROUP", key: .from,
                help: "change only files with this owner and group (either may be left out)")
        ]

    /// What to change, and how.
    var request: OwnershipRequest
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        (request, operands) = try OwnershipRequest.parse(arguments, kind: .owner)
    }

    public func run(in context: CommandContext) -> ExitStatus {
        OwnershipRun.run(request, on: operands, in: context)
    }
}
