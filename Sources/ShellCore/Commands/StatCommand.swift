import PathModel

/// `stat [-L] [-c FORMAT] FILE...`: show what the kernel knows about files.
public struct StatCommand: ShellCommand {
    public static let name = "stat"
    public static let summary = "Display file status."
    public static let synopsis = "[-L] [-c FORMAT | --json] FILE..."
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case format, dereference, json
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec(
            "c", "format", value: .required, valueName: "FORMAT",
            key: .format, help: "use FORMAT instead of the default; print a newline after each use"),
        OptionSpec("L", "dereference", key: .dereference, help: "follow links"),
        OptionSpec(
            nil, "json", key: .json, help: "write a JSON array of file records instead (see docs/json.md)"),
    ]

    /// Describe what symlinks point to rather than the links.
    public var followSymlinks: Bool
    /// The `-c` format; nil for the default layout.
    public var format: String?
    /// Write a JSON array of file records instead.
    public var json: Bool
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        followSymlinks = arguments.has(.dereference)
        format = arguments.value(.format)
        json = arguments.has(.json)
        if json && format != nil { throw .invalid(Messages.formatAndJSON) }
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
            } else {
                template = Self.defaultFormat(
                    device: info.kind == .characterDevice || info.kind == .blockDevice)
            }
            // GNU stat quotes %N only when the format spells "%N" exactly (no flags or width); a
            // terminal never gets a name's control characters or invalid bytes as they are.
            let rendering = StatRendering(
                name: operand.bytes, info: info, linkTarget: linkTarget, zone: zone, quoteNames: format?.contains("%N") == true,
                escapeNames: context.stdout.isTerminal, names: names)
            switch rendering.render(Array(template.utf8)) {
            case .success(let bytes):
                context.stdout.write(bytes: bytes)
                if format != nil { context.stdout.write(byte: 0x0A) }
            case .failure(let invalid):
                context.stdout.write(bytes: invalid.written)
                context.error(Messages.invalidDirective(invalid.directive))
                return .failure
            }
        }
        return status
    }

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
        static func invalidDirective(_ directive: [UInt8]) -> String {
            "\(Quoting.always(directive)): invalid directive"
        }
    }
}
