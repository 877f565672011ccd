import PathModel
import SystemPackage

/// `mktemp [-d] [-u] [-q] [-p DIR] [-t] [--suffix=SUFF] [TEMPLATE]`: create a file (or directory)
/// with a new name, made from TEMPLATE by replacing its last run of X's with random letters and
/// digits, and print that name, as GNU mktemp does. Nothing is overwritten: the name is created
/// exclusively, and another is tried when it exists.
public struct MktempCommand: ShellCommand {
    public static let name = "mktemp"
    /// Refused in a read-only shell.
    public static let changesDisk = true
    public static let summary = "Create a temporary file or directory, safely, and print its name."
    public static let synopsis = "[-d] [-u] [-q] [-p DIR | --tmpdir[=DIR]] [-t] [--suffix=SUFF] [TEMPLATE]"
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case directory, dryRun, quiet, suffix, tmpdir, inTemporaryDirectory
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("d", "directory", key: .directory, help: "create a directory, not a file"),
        OptionSpec(
            "u", "dry-run", key: .dryRun, help: "do not create anything; merely print a name (unsafe)"),
        OptionSpec("q", "quiet", key: .quiet, help: "suppress diagnostics about file/dir-creation failure"),
        OptionSpec(
            nil, "suffix", value: .required, valueName: "SUFF", key: .suffix,
            help: "append SUFF to TEMPLATE; SUFF must not contain a slash"),
        OptionSpec(
            "p", nil, value: .required, valueName: "DIR", key: .tmpdir,
            help: "interpret TEMPLATE relative to DIR (empty: $TMPDIR, else /tmp)"),
        OptionSpec(
            nil, "tmpdir", value: .optional, valueName: "DIR", key: .tmpdir,
            help: "the same as -p; without DIR, $TMPDIR or else /tmp"),
        OptionSpec(
            "t", nil, key: .inTemporaryDirectory,
            help: "TEMPLATE is one name, in $TMPDIR if set, else in DIR, else in /tmp"),
    ]

    /// Make a directory (`-d`).
    public var makesDirectory: Bool
    /// Only print a name that does not exist yet (`-u`).
    public var dryRun: Bool
    /// Leave out the message when the file cannot be created (`-q`).
    public var quiet: Bool
    /// What follows the X's; nil takes what follows the last X in TEMPLATE.
    public var suffix: [UInt8]?
    /// `-p DIR`/`--tmpdir[=DIR]` was given: DIR, empty for `$TMPDIR` or `/tmp`.
    public var directory: [UInt8]?
    /// `-t`: TEMPLATE is one name in the temporary directory.
    public var inTemporaryDirectory: Bool
    /// The TEMPLATE, if given.
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        makesDirectory = arguments.has(.directory)
        dryRun = arguments.has(.dryRun)
        quiet = arguments.has(.quiet)
        suffix = arguments.bytes(.suffix)
        directory = arguments.has(.tmpdir) ? arguments.bytes(.tmpdir) ?? [] : nil
        inTemporaryDirectory = arguments.has(.inTemporaryDirectory)
        operands = arguments.operands
        if operands.count > 1 { throw .invalid(Messages.tooManyTemplates) }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        let given = operands.first?.bytes
        var template = given ?? Array("tmp.XXXXXXXXXX".utf8)
        let suffixText: [UInt8]
        if let suffix {
            guard template.last == UInt8(ascii: "X") else {
                context.error("\(Messages.withSuffix) \(Quoting.always(template)) \(Messages.mustEndInX)")
                return .failure
            }
            suffixText = suffix
            template += suffix
        } else {
            suffixText = Array(
                template[((template.lastIndex(of: UInt8(ascii: "X")) ?? template.endIndex - 1) + 1)...])
        }
        if suffixText.contains(0x2F) {
            context.error(
                "\(Messages.invalidSuffix) \(Quoting.always(suffixText)), \(Messages.containsSlash)")
            return .failure
        }
        let stemEnd = template.count - suffixText.count
        let xCount = template[..<stemEnd].reversed().prefix { $0 == UInt8(ascii: "X") }.count
        guard xCount >= 3 else {
            context.error("\(Messages.tooFewXs) \(Quoting.always(given ?? template))")
            return .failure
        }
        // With -t, or with no TEMPLATE, or with -p/--tmpdir, the name goes in a directory.
        if inTemporaryDirectory || given == nil || directory != nil {
            let isAbsolute = template.first == 0x2F
            if inTemporaryDirectory && template.contains(0x2F) {
                context.error(
                    "\(Messages.invalidTemplate) \(Quoting.always(template)), \(Messages.containsSlash)")
                return .failure
            }
            if !inTemporaryDirectory && isAbsolute {
                context.error(
                    "\(Messages.invalidTemplate) \(Quoting.always(template)); \(Messages.mayNotBeAbsolute)")
                return .failure
            }
            template = joinedPath(temporaryDirectory(context), template)
        }
        // The X's end where the suffix starts, in the template joined with its directory too.
        let end = template.count - suffixText.count
        let start = end - xCount
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<Self.attempts {
            if context.isCancelled { return .interrupted }
            var name = template
            for index in start..<end { name[index] = Self.letters.randomElement(using: &generator)! }
            let file = context.resolve(Argument(bytes: name))
            do {
                if dryRun {
                    if (try? file.info(followSymlinks: false)) != nil { continue }
                } else if makesDirectory {
                    try file.volume.makeDirectory(file, permissions: 0o700)
                } else {
                    try file.volume.open(file, .create, permissions: 0o600).close()
                }
            } catch  where error.errno == .fileExists {
                continue
            } catch {
                return failed(template, error.errno, in: context)
            }
            context.stdout.write(bytes: name + [0x0A])
            return .success
        }
        return failed(template, .fileExists, in: context)
    }

    /// The directory a name goes in with `-t`, `-p`, `--tmpdir` or no TEMPLATE: with `-t`,
    /// `$TMPDIR` first; then DIR; then `$TMPDIR`; then `/tmp`.
    private func temporaryDirectory(_ context: CommandContext) -> [UInt8] {
        let environment = context.state.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
        if inTemporaryDirectory, let environment { return environment }
        if let directory, !directory.isEmpty { return directory }
        return environment ?? Array("/tmp".utf8)
    }

    /// Says that nothing could be made from `template` (unless `-q`) and gives the status.
    private func failed(_ template: [UInt8], _ errno: Errno, in context: CommandContext) -> ExitStatus {
        if !quiet {
            let what = makesDirectory ? Messages.directory : Messages.file
            context.error(
                "\(Messages.failedToCreate) \(what) \(Messages.viaTemplate) \(Quoting.always(template)): "
                    + Diagnostics.reason(errno))
        }
        return .failure
    }

    /// The bytes an X becomes.
    private static let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    /// How many names are tried before giving up.
    private static let attempts = 10_000

    private enum Messages {
        static let tooManyTemplates = "too many templates"
        static let withSuffix = "with --suffix, template"
        static let mustEndInX = "must end in X"
        static let invalidSuffix = "invalid suffix"
        static let containsSlash = "contains directory separator"
        static let tooFewXs = "too few X's in template"
        static let invalidTemplate = "invalid template,"
        static let mayNotBeAbsolute = "with --tmpdir, it may not be absolute"
        static let failedToCreate = "failed to create"
        static let file = "file"
        static let directory = "directory"
        static let viaTemplate = "via template"
    }
}
