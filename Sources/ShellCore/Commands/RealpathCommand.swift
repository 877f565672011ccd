import PathModel

/// `realpath [-e|-m] [-z] FILE...`: print each FILE's absolute path with `.`, `..` and symlinks
/// resolved, against the shell's current directory.
public struct RealpathCommand: ShellCommand {
    public static let name = "realpath"
    public static let summary =
        "Print the resolved absolute path of each FILE; all but the last component must exist by default."
    public static let synopsis = "[-e | -m] [-z] FILE..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case canonicalizeExisting, canonicalizeMissing, zero
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            "e", "canonicalize-existing", key: .canonicalizeExisting,
            help: "all components of the path must exist"),
        OptionSpec(
            "m", "canonicalize-missing", key: .canonicalizeMissing,
            help: "no path components need exist or be a directory"),
        OptionSpec("z", "zero", key: .zero, help: "end each output line with NUL, not newline"),
    ]

    /// Which components may be missing.
    public var missing: File.MissingComponents
    /// End each path with NUL.
    public var zeroTerminated: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        switch arguments.last(of: [.canonicalizeExisting, .canonicalizeMissing]) {
        case .canonicalizeExisting: missing = .none
        case .canonicalizeMissing: missing = .any
        default: missing = .last
        }
        zeroTerminated = arguments.has(.zero)
        operands = arguments.operands
        guard !operands.isEmpty else { throw .invalid(Messages.missingOperand) }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        var status = ExitStatus.success
        for operand in operands {
            do throws(FileError) {
                let resolved = try Self.resolve(operand, allowingMissing: missing, in: context)
                context.stdout.write(bytes: resolved.bytes)
                context.stdout.write(byte: zeroTerminated ? 0x00 : 0x0A)
            } catch {
                context.stdout.flush()
                context.error(Diagnostics.renderBare(error, as: operand.bytes))
                status = .failure
            }
        }
        return status
    }

    /// `operand` as an absolute path with its symlinks resolved against the shell's directory, as
    /// GNU's `canonicalize_filename_mode` gives it (`realpath`, `readlink -f`).
    /// - Throws: `FileError` with operation `.resolve`.
    static func resolve(
        _ operand: Argument, allowingMissing missing: File.MissingComponents, in context: CommandContext
    ) throws(FileError) -> File {
        if operand.bytes.isEmpty { throw FileError(.resolve, operand.file, .noSuchFileOrDirectory) }
        let resolved = try context.resolve(operand).resolvingSymlinks(allowingMissing: missing)
        // `x/` names a directory: an x that is something else fails, as in GNU realpath
        // (unless -m, which asks nothing of what exists).
        if operand.hasTrailingSlash, missing != .any,
            let kind = try? resolved.info(followSymlinks: true).kind,
            kind != .directory
        {
            throw FileError(.resolve, operand.file, .notDirectory)
        }
        return resolved
    }

    private enum Messages {
        static let missingOperand = "missing operand"
    }
}
