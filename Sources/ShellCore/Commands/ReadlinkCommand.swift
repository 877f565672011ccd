import PathModel

/// `readlink [-f | -e | -m] [-n] [-z] [-q | -s | -v] FILE...`: print what each symlink FILE
/// holds, or with `-f`/`-e`/`-m` each FILE's resolved absolute path, as GNU readlink does.
public struct ReadlinkCommand: ShellCommand {
    public static let name = "readlink"
    public static let summary =
        "Print the target of each symlink FILE, or with -f, -e or -m its resolved absolute path."
    public static let synopsis = "[-f | -e | -m] [-n] [-z] [-q | -s | -v] FILE..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case canonicalize, canonicalizeExisting, canonicalizeMissing, noNewline, quiet, verbose, zero
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            "f", "canonicalize", key: .canonicalize,
            help: "resolve every symlink; all but the last component must exist"),
        OptionSpec(
            "e", "canonicalize-existing", key: .canonicalizeExisting,
            help: "resolve every symlink; all components must exist"),
        OptionSpec(
            "m", "canonicalize-missing", key: .canonicalizeMissing,
            help: "resolve every symlink; no component needs to exist"),
        OptionSpec(
            "n", "no-newline", key: .noNewline, help: "do not end the output with a newline (one FILE only)"),
        OptionSpec("q", "quiet", key: .quiet, help: "report no errors (the default)"),
        OptionSpec("s", "silent", key: .quiet, help: "the same as -q"),
        OptionSpec("v", "verbose", key: .verbose, help: "report errors"),
        OptionSpec("z", "zero", key: .zero, help: "end each output line with NUL, not newline"),
    ]

    /// Which components may be missing when resolving; nil prints the symlink's own target.
    public var canonicalization: File.MissingComponents?
    /// Leave out the terminator after the last output (honoured with one FILE only).
    public var noNewline: Bool
    /// End each output with NUL.
    public var zeroTerminated: Bool
    /// Report the FILEs that fail; GNU readlink is silent about them by default.
    public var verbose: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        switch arguments.last(of: [.canonicalize, .canonicalizeExisting, .canonicalizeMissing]) {
        case .canonicalize: canonicalization = .last
        case .canonicalizeExisting: canonicalization = File.MissingComponents.none
        case .canonicalizeMissing: canonicalization = .any
        default: canonicalization = nil
        }
        noNewline = arguments.has(.noNewline)
        zeroTerminated = arguments.has(.zero)
        verbose = arguments.last(of: [.quiet, .verbose]) == .verbose
        operands = arguments.operands
        guard !operands.isEmpty else { throw .invalid(Messages.missingOperand) }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        if noNewline && operands.count > 1 { context.error(Messages.ignoringNoNewline) }
        var status = ExitStatus.success
        for operand in operands {
            do throws(FileError) {
                if let canonicalization {
                    let resolved = try RealpathCommand.resolve(
                        operand, allowingMissing: canonicalization, in: context)
                    context.stdout.write(bytes: context.state.spelling(of: resolved))
                } else {
                    context.stdout.write(bytes: try Self.target(of: operand, in: context))
                }
                if !(noNewline && operands.count == 1) {
                    context.stdout.write(byte: zeroTerminated ? 0x00 : 0x0A)
                }
            } catch {
                if verbose {
                    context.stdout.flush()
                    context.error(Diagnostics.renderBare(error, as: operand.bytes))
                }
                status = .failure
            }
        }
        return status
    }

    /// The bytes the symlink `operand` holds, exactly as written, as `readlink(2)` gives them.
    /// - Throws: `FileError`: `EINVAL` for a file that is not a symlink, and for `x/`, whose
    ///   trailing slash follows the link.
    private static func target(of operand: Argument, in context: CommandContext) throws(FileError) -> [UInt8]
    {
        let file = context.resolve(operand)
        if operand.bytes.isEmpty || operand.hasTrailingSlash {
            _ = try operand.info(at: file, followSymlinks: true)
            throw FileError(.readLink, operand.file, .invalidArgument)
        }
        return try file.volume.linkTarget(of: file)
    }

    private enum Messages {
        static let missingOperand = "missing operand"
        static let ignoringNoNewline = "ignoring --no-newline with multiple arguments"
    }
}
