import PathModel

/// `stat [-L] [-f] [-t] [-c FORMAT | --printf=FORMAT | --json] FILE...`: show what the kernel
/// knows about files, or about the file systems holding them.
public struct StatCommand: ShellCommand {
    public static let name = "stat"
    public static let summary = "Display file status."
    public static let synopsis = "[-L] [-f] [-t] [-c FORMAT | --printf=FORMAT | --json] FILE..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case format, dereference, fileSystem, json, printf, terse
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            "c", "format", value: .required, valueName: "FORMAT",
            key: .format, help: "use FORMAT instead of the default; print a newline after each use"),
        OptionSpec("L", "dereference", key: .dereference, help: "follow links"),
        OptionSpec("f", "file-system", key: .fileSystem, help: "display file system status instead of file status"),
        OptionSpec(
            nil, "printf", value: .required, valueName: "FORMAT", key: .printf,
            help: "like --format, but interpret backslash escapes, and do not output a mandatory trailing newline"),
        OptionSpec("t", "terse", key: .terse, help: "print the information in terse form"),
        OptionSpec(
            nil, "json", key: .json, help: "write a JSON array of file records instead (see docs/json.md)"),
    ]

    /// Describe what symlinks point to rather than the links.
    public var followSymlinks: Bool
    /// The `-c` or `--printf` format (the last given); nil for the default layout.
    public var format: String?
    /// The format came with `--printf`: backslash escapes are read and no newline follows.
    public var printf: Bool
    /// Describe the file systems holding the files (`-f`).
    public var fileSystem: Bool
    /// The one-line layouts (`-t`), when no format is given.
    public var terse: Bool
    /// Write a JSON array of file records instead.
    public var json: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        followSymlinks = arguments.has(.dereference)
        let chosen = arguments.options.last { $0.key == .format || $0.key == .printf }
        format = chosen.map { String(decoding: $0.value ?? [], as: UTF8.self) }
        printf = chosen?.key == .printf
        fileSystem = arguments.has(.fileSystem)
        terse = arguments.has(.terse)
        json = arguments.has(.json)
        if json && format != nil { throw .invalid(Messages.formatAndJSON) }
        if json && (fileSystem || terse) { throw .invalid(Messages.layoutAndJSON) }
        operands = arguments.operands
    }

    public func run(in context: CommandContext) -> ExitStatus {
        guard !operands.isEmpty else {
            context.error(Messages.missingOperand)
            context.stderr.line("Try 'help stat' for more information.")
            return .failure
        }
        let zone = Clock.Zone(environment: context.state.environment)
        let names = OwnerNames()
        var records = json ? JSONArrayWriter(output: context.stdout) : nil
        defer { records?.finish() }
        if fileSystem { return describeFileSystems(in: context) }
        var status = ExitStatus.success
        for operand in operands {
            if context.isCancelled { return .interrupted }
            let info: FileInfo
            var linkTarget: [UInt8]?
            do throws(FileError) {
                info = try context.info(of: operand, followSymlinks: followSymlinks)
            } catch {
                context.error("\(Messages.cannotStat) \(Quoting.always(operand.bytes)): \(error.reason)")
                status = .failure
                continue
            }
            if info.kind == .symlink {
                do throws(FileError) {
                    linkTarget = try context.resolve(operand).linkTarget().bytes
                } catch {
                    context.error("\(Messages.cannotReadLink) \(Quoting.always(operand.bytes)): \(error.reason)")
                    status = .failure
                    continue
                }
            }
            if records != nil {
                records?.append(
                    JSONText.fields(
                        of: JSONText.record(
                            path: operand.bytes, name: BasenameCommand.strip(operand.bytes, suffix: nil), info: info,
                            linkTarget: linkTarget, names: names)))
                continue
            }
            let template: String
            if let format {
                template = format
            } else if terse {
                template = Self.terseFormat
            } else {
                template = Self.defaultFormat(
                    device: info.kind == .characterDevice || info.kind == .blockDevice)
            }
            // GNU stat quotes %N only when the format spells "%N" exactly (no flags or width); a
            // terminal never gets a name's control characters or invalid bytes as they are.
            let rendering = StatRendering(
                name: operand.bytes, info: info, linkTarget: linkTarget, zone: zone, quoteNames: format?.contains("%N") == true,
                escapeNames: context.stdout.isTerminal, names: names)
            guard write(rendering.render(Array(template.utf8), escapes: printf, warn: { context.error($0) }), context)
            else { return .failure }
        }
        return status
    }

    /// `stat -f`: the file system holding each operand, as GNU stat describes it.
    private func describeFileSystems(in context: CommandContext) -> ExitStatus {
        var status = ExitStatus.success
        let template = format ?? (terse ? FileSystemStatRendering.terseFormat : FileSystemStatRendering.defaultFormat)
        for operand in operands {
            if context.isCancelled { return .interrupted }
            let usage: FileSystemUsage
            do {
                usage = try context.resolve(operand).fileSystemUsage()
            } catch {
                context.error("\(Messages.cannotReadFileSystem) \(Quoting.always(operand.bytes)): \(error.reason)")
                status = .failure
                continue
            }
            let rendering = FileSystemStatRendering(name: operand.bytes, usage: usage)
            guard write(rendering.render(Array(template.utf8), escapes: printf, warn: { context.error($0) }), context)
            else { return .failure }
        }
        return status
    }

    /// Writes a filled format, and the newline `-c` adds; false after reporting an invalid
    /// directive, where GNU stat stops.
    private func write(_ rendered: Result<[UInt8], StatRendering.InvalidDirective>, _ context: CommandContext)
        -> Bool
    {
        switch rendered {
        case .success(let bytes):
            context.stdout.write(bytes: bytes)
            if format != nil && !printf { context.stdout.write(byte: 0x0A) }
            return true
        case .failure(let invalid):
            context.stdout.write(bytes: invalid.written)
            context.error(Messages.invalidDirective(invalid.directive))
            return false
        }
    }

    /// GNU stat's one-line layout for a file (`-t`).
    static let terseFormat = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"

    /// GNU stat's layout when no format is given; devices get a `Device type:` field.
    static func defaultFormat(device: Bool) -> String {
        "  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
            + (device
                ? "Device: %Hd,%Ld\tInode: %-10i  Links: %-5h Device type: %Hr,%Lr\n"
                : "Device: %Hd,%Ld\tInode: %-10i  Links: %h\n")
            + "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
            + "Access: %x\nModify: %y\nChange: %z\n Birth: %w\n"
    }

    private enum Messages {
        static let missingOperand = "missing operand"
        static let cannotStat = "cannot stat"
        static let cannotReadLink = "cannot read symbolic link"
        static let formatAndJSON = "--format and --json cannot be used together"
        static let layoutAndJSON = "--file-system and --terse cannot be used with --json"
        static let cannotReadFileSystem = "cannot read file system information for"
        static func invalidDirective(_ directive: [UInt8]) -> String {
            "\(Quoting.always(directive)): invalid directive"
        }
    }
}
