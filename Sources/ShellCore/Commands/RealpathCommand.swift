import PathModel

/// `realpath [-e|-m] [-s] [-q] [-z] [--relative-to=DIR] [--relative-base=DIR] FILE...`: print
/// each FILE's absolute path with `.`, `..` and symlinks resolved, against the shell's current
/// directory, or relative to a directory, as GNU realpath does.
public struct RealpathCommand: ShellCommand {
    public static let name = "realpath"
    public static let summary =
        "Print the resolved absolute path of each FILE; all but the last component must exist by default."
    public static let synopsis = "[-e | -m] [-s] [-q] [-z] [--relative-to=DIR] [--relative-base=DIR] FILE..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case canonicalizeExisting, canonicalizeMissing, quiet, relativeTo, relativeBase, strip, zero
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            "e", "canonicalize-existing", key: .canonicalizeExisting,
            help: "all components of the path must exist"),
        OptionSpec(
            "m", "canonicalize-missing", key: .canonicalizeMissing,
            help: "no path components need exist or be a directory"),
        OptionSpec("q", "quiet", key: .quiet, help: "suppress most error messages"),
        OptionSpec(
            nil, "relative-to", value: .required, valueName: "DIR", key: .relativeTo,
            help: "print the resolved path relative to DIR"),
        OptionSpec(
            nil, "relative-base", value: .required, valueName: "DIR", key: .relativeBase,
            help: "print absolute paths unless paths below DIR"),
        OptionSpec("s", "strip", key: .strip, help: "don't expand symlinks"),
        OptionSpec(nil, "no-symlinks", key: .strip, help: "the same as -s"),
        OptionSpec("z", "zero", key: .zero, help: "end each output line with NUL, not newline"),
    ]

    /// Which components may be missing.
    public var missing: File.MissingComponents
    /// Apply `.` and `..` by syntax and leave symlinks as they are (`-s`).
    public var keepsSymlinks: Bool
    /// Leave out the messages about FILEs that fail (their status is still 1).
    public var quiet: Bool
    /// Print paths relative to this directory (`--relative-to`), as typed.
    public var relativeTo: Argument?
    /// Print relative paths only for paths below this directory (`--relative-base`), as typed.
    public var relativeBase: Argument?
    /// End each path with NUL.
    public var zeroTerminated: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        switch arguments.last(of: [.canonicalizeExisting, .canonicalizeMissing]) {
        case .canonicalizeExisting: missing = .none
        case .canonicalizeMissing: missing = .any
        default: missing = .last
        }
        keepsSymlinks = arguments.has(.strip)
        quiet = arguments.has(.quiet)
        relativeTo = arguments.bytes(.relativeTo).map { Argument(bytes: $0) }
        relativeBase = arguments.bytes(.relativeBase).map { Argument(bytes: $0) }
        zeroTerminated = arguments.has(.zero)
        operands = arguments.operands
        guard !operands.isEmpty else { throw .invalid(Messages.missingOperand) }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        // A directory that cannot be resolved ends the command, -q or not, as in GNU realpath.
        func resolveDirectory(_ given: Argument) -> File? {
            do throws(FileError) {
                return try resolve(given, in: context)
            } catch {
                context.error(Diagnostics.renderBare(error, as: given.bytes))
                return nil
            }
        }
        var directory: File?
        var base: File?
        if let relativeTo {
            guard let resolved = resolveDirectory(relativeTo) else { return .failure }
            directory = resolved
        }
        if let relativeBase {
            guard let resolved = resolveDirectory(relativeBase) else { return .failure }
            base = resolved
        }
        if let given = base {
            // A directory to be relative to outside the base makes every path absolute.
            if let target = directory, !Self.isWithin(target, given) {
                directory = nil
                base = nil
            } else if directory == nil {
                directory = given
            }
        }
        var status = ExitStatus.success
        for operand in operands {
            do throws(FileError) {
                let resolved = try resolve(operand, in: context)
                // A path relative to the directory asked for, else as the user writes it
                // (`s3://b/k` on object storage).
                var shown = context.state.spelling(of: resolved)
                if let directory, base.map({ Self.isWithin(resolved, $0) }) ?? true,
                    let relative = resolved.relative(to: directory)
                {
                    shown = relative.bytes
                }
                context.stdout.write(bytes: shown)
                context.stdout.write(byte: zeroTerminated ? 0x00 : 0x0A)
            } catch {
                if !quiet {
                    context.stdout.flush()
                    context.error(Diagnostics.renderBare(error, as: operand.bytes))
                }
                status = .failure
            }
        }
        return status
    }

    /// `operand` resolved as the options ask: symlinks resolved, or only `.` and `..` with `-s`.
    private func resolve(_ operand: Argument, in context: CommandContext) throws(FileError) -> File {
        guard keepsSymlinks else { return try Self.resolve(operand, allowingMissing: missing, in: context) }
        if operand.bytes.isEmpty { throw FileError(.resolve, operand.file, .noSuchFileOrDirectory) }
        let resolved: File
        do {
            resolved = try context.resolve(operand).resolvingDots(allowingMissing: missing)
        } catch {
            throw error.reworded(as: .resolve, operand.file)
        }
        // `x/` names a directory, as without -s.
        if operand.hasTrailingSlash, missing != .any,
            let kind = try? resolved.info(followSymlinks: true).kind,
            kind != .directory
        {
            throw FileError(.resolve, operand.file, .notDirectory)
        }
        return resolved
    }

    /// Whether `path` is `directory` or below it, by components (`/` holds every path of its
    /// volume).
    private static func isWithin(_ path: File, _ directory: File) -> Bool {
        path.volume === directory.volume && path.componentBytes.starts(with: directory.componentBytes)
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
