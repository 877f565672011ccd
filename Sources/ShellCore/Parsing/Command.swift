/// A command line resolved to one of shelf's commands, with its options parsed: what the shell runs.
///
/// Built from expanded arguments without touching the disk; globs in the operands are expanded
/// afterwards by the shell. The cases are the commands; `entries` is the one table that names,
/// lists and parses them, and `body` the one switch that opens a parsed command.
public enum Command {
    case alias(AliasCommand)
    case basename(BasenameCommand)
    case cat(CatCommand)
    case cd(CdCommand)
    case chgrp(ChgrpCommand)
    case chmod(ChmodCommand)
    case chown(ChownCommand)
    case command(CommandCommand)
    case cp(CpCommand)
    case df(DfCommand)
    case dirname(DirnameCommand)
    case du(DuCommand)
    case echo(EchoCommand)
    case exit(ExitCommand)
    case export(ExportCommand)
    case find(FindCommand)
    case head(HeadCommand)
    case help(HelpCommand)
    case history(HistoryCommand)
    case ln(LnCommand)
    case ls(LsCommand)
    case mkdir(MkdirCommand)
    case mktemp(MktempCommand)
    case mv(MvCommand)
    case pwd(PwdCommand)
    case readlink(ReadlinkCommand)
    case realpath(RealpathCommand)
    case remote(RemoteCommand)
    case rm(RmCommand)
    case rmdir(RmdirCommand)
    case set(SetCommand)
    case stat(StatCommand)
    case sync(SyncCommand)
    case tail(TailCommand)
    case touch(TouchCommand)
    case tree(TreeCommand)
    case truncate(TruncateCommand)
    case unalias(UnaliasCommand)
    case unset(UnsetCommand)
    case wc(WcCommand)

    /// Each case's constructor, in the order `help` lists the commands; a command's type and name
    /// come from its case.
    private static let entries: [Entry] = [
        Entry(alias), Entry(basename), Entry(cat), Entry(cd), Entry(chgrp), Entry(chmod), Entry(chown), Entry(command), Entry(cp),
        Entry(df), Entry(dirname), Entry(du), Entry(echo),
        Entry(exit), Entry(export), Entry(find), Entry(head), Entry(help), Entry(history), Entry(ln), Entry(ls),
        Entry(mkdir), Entry(mktemp), Entry(mv), Entry(pwd), Entry(readlink), Entry(realpath), Entry(remote), Entry(rm),
        Entry(rmdir),
        Entry(set),
        Entry(stat), Entry(sync), Entry(tail), Entry(touch), Entry(tree), Entry(truncate), Entry(unalias), Entry(unset), Entry(wc),
    ]

    /// Every command type, in the order `help` lists them.
    public static let all: [any ShellCommand.Type] = entries.map(\.type)

    /// The command type called `name`, if there is one.
    public static func type(named name: String) -> (any ShellCommand.Type)? {
        entries.first { $0.type.name == name }?.type
    }

    /// Parses `arguments` (the name excluded) for the command called `name`.
    /// - Returns: nil when no command has that name.
    /// - Throws: `UsageError` for bad options.
    public static func parse(name: String, arguments: [Argument]) throws(UsageError) -> Command? {
        guard let entry = entries.first(where: { $0.type.name == name }) else { return nil }
        return try entry.parse(arguments)
    }

    /// The parsed command as the common protocol, which the shell runs.
    public var body: any ShellCommand {
        switch self {
        case .alias(let command): return command
        case .basename(let command): return command
        case .cat(let command): return command
        case .cd(let command): return command
        case .chgrp(let command): return command
        case .chmod(let command): return command
        case .chown(let command): return command
        case .command(let command): return command
        case .cp(let command): return command
        case .df(let command): return command
        case .dirname(let command): return command
        case .du(let command): return command
        case .echo(let command): return command
        case .exit(let command): return command
        case .export(let command): return command
        case .find(let command): return command
        case .head(let command): return command
        case .help(let command): return command
        case .history(let command): return command
        case .ln(let command): return command
        case .ls(let command): return command
        case .mkdir(let command): return command
        case .mktemp(let command): return command
        case .mv(let command): return command
        case .pwd(let command): return command
        case .readlink(let command): return command
        case .realpath(let command): return command
        case .remote(let command): return command
        case .rm(let command): return command
        case .rmdir(let command): return command
        case .set(let command): return command
        case .stat(let command): return command
        case .sync(let command): return command
        case .tail(let command): return command
        case .touch(let command): return command
        case .tree(let command): return command
        case .truncate(let command): return command
        case .unalias(let command): return command
        case .unset(let command): return command
        case .wc(let command): return command
        }
    }

    /// One command: its type, and how its arguments become a `Command`.
    private struct Entry: Sendable {
        let type: any ShellCommand.Type
        let parse: @Sendable ([Argument]) throws(UsageError) -> Command

        /// The entry of the case that `wrap` builds; the command type is the case's payload.
        init<Body: ShellCommand>(_ wrap: @escaping @Sendable (Body) -> Command) {
            type = Body.self
            parse = { arguments throws(UsageError) in wrap(try Body.parse(arguments)) }
        }
    }
}
