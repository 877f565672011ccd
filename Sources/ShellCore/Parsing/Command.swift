/// A command line resolved to one of shelf's commands, with its options parsed.
///
/// Built from expanded arguments without touching the disk; globs in the operands are expanded
/// afterwards by the executor.
public enum Command {
    case cat(CatCommand)
    case cd(CdCommand)
    case cp(CpCommand)
    case echo(EchoCommand)
    case exit(ExitCommand)
    case help(HelpCommand)
    case history(HistoryCommand)
    case ls(LsCommand)
    case mkdir(MkdirCommand)
    case mv(MvCommand)
    case pwd(PwdCommand)
    case rm(RmCommand)
    case rmdir(RmdirCommand)
    case set(SetCommand)
    case stat(StatCommand)
    case touch(TouchCommand)
    case tree(TreeCommand)
    case find(FindCommand)
    case du(DuCommand)
    case basename(BasenameCommand)
    case dirname(DirnameCommand)
    case realpath(RealpathCommand)
    case head(HeadCommand)
    case tail(TailCommand)
    case ln(LnCommand)

    /// Every command type, in the order `help` lists them.
    public static let all: [any ShellCommand.Type] = [
        BasenameCommand.self, CatCommand.self, CdCommand.self, CpCommand.self, DirnameCommand.self,
        DuCommand.self, EchoCommand.self, ExitCommand.self, FindCommand.self, HeadCommand.self,
        HelpCommand.self, HistoryCommand.self, LnCommand.self, LsCommand.self, MkdirCommand.self,
        MvCommand.self, PwdCommand.self, RealpathCommand.self, RmCommand.self, RmdirCommand.self,
        SetCommand.self, StatCommand.self, TailCommand.self, TouchCommand.self, TreeCommand.self,
    ]

    /// The command type called `name`, if there is one.
    public static func type(named name: String) -> (any ShellCommand.Type)? {
        all.first { $0.name == name }
    }

    /// Parses `arguments` (the name excluded) for the command called `name`.
    /// - Returns: nil when no command has that name.
    /// - Throws: `UsageError` for bad options.
    public static func parse(name: String, arguments: [Argument]) throws(UsageError) -> Command? {
        switch name {
        case CatCommand.name: return .cat(try .parse(arguments))
        case CdCommand.name: return .cd(try .parse(arguments))
        case CpCommand.name: return .cp(try .parse(arguments))
        case EchoCommand.name: return .echo(try .parse(arguments))
        case ExitCommand.name: return .exit(try .parse(arguments))
        case HelpCommand.name: return .help(try .parse(arguments))
        case HistoryCommand.name: return .history(try .parse(arguments))
        case LsCommand.name: return .ls(try .parse(arguments))
        case MkdirCommand.name: return .mkdir(try .parse(arguments))
        case MvCommand.name: return .mv(try .parse(arguments))
        case PwdCommand.name: return .pwd(try .parse(arguments))
        case RmCommand.name: return .rm(try .parse(arguments))
        case RmdirCommand.name: return .rmdir(try .parse(arguments))
        case SetCommand.name: return .set(try .parse(arguments))
        case StatCommand.name: return .stat(try .parse(arguments))
        case TouchCommand.name: return .touch(try .parse(arguments))
        case TreeCommand.name: return .tree(try .parse(arguments))
        case FindCommand.name: return .find(try .parse(arguments))
        case DuCommand.name: return .du(try .parse(arguments))
        case BasenameCommand.name: return .basename(try .parse(arguments))
        case DirnameCommand.name: return .dirname(try .parse(arguments))
        case RealpathCommand.name: return .realpath(try .parse(arguments))
        case HeadCommand.name: return .head(try .parse(arguments))
        case TailCommand.name: return .tail(try .parse(arguments))
        case LnCommand.name: return .ln(try .parse(arguments))
        default: return nil
        }
    }

    /// The parsed command as the common protocol.
    public var body: any ShellCommand {
        switch self {
        case .cat(let command): return command
        case .cd(let command): return command
        case .cp(let command): return command
        case .echo(let command): return command
        case .exit(let command): return command
        case .help(let command): return command
        case .history(let command): return command
        case .ls(let command): return command
        case .mkdir(let command): return command
        case .mv(let command): return command
        case .pwd(let command): return command
        case .rm(let command): return command
        case .rmdir(let command): return command
        case .set(let command): return command
        case .stat(let command): return command
        case .touch(let command): return command
        case .tree(let command): return command
        case .find(let command): return command
        case .du(let command): return command
        case .basename(let command): return command
        case .dirname(let command): return command
        case .realpath(let command): return command
        case .head(let command): return command
        case .tail(let command): return command
        case .ln(let command): return command
        }
    }
}
