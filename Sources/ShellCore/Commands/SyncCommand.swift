import PathModel

/// `sync [-d | -f] [FILE...]`: write what the system holds in memory to storage: everything, or
/// each FILE (`fsync`), its data (`-d`, `fdatasync`) or its whole file system (`-f`, `syncfs`),
/// as GNU sync does.
public struct SyncCommand: ShellCommand {
    public static let name = "sync"
    public static let summary =
        "Synchronize cached writes to persistent storage: all of them, or each FILE's."
    public static let synopsis = "[-d | -f] [FILE...]"
    /// The keys its options are read back by.
    public enum Option: Hashable, Sendable {
        case data, fileSystem
    }
    public static let options: [OptionSpec<Option>] = [
        OptionSpec("d", "data", key: .data, help: "sync only file data, no unneeded metadata"),
        OptionSpec(
            "f", "file-system", key: .fileSystem, help: "sync the file systems that contain the files"),
    ]

    /// What is written out for each FILE.
    public enum Scope: Sendable {
        /// The file, data and metadata (`fsync`).
        case file
        /// The file's data (`fdatasync`).
        case data
        /// The file system the file is on (`syncfs`).
        case fileSystem
    }

    /// What is written out for each FILE.
    public var scope: Scope
    /// Why the options cannot be followed, in GNU's words (a failure, not a usage error).
    var refusal: String?
    public var operands: [Argument]

    public init(_ arguments: ParsedArguments<Option>) throws(UsageError) {
        operands = arguments.operands
        switch (arguments.has(.data), arguments.has(.fileSystem)) {
        case (true, true):
            scope = .file
            refusal = Messages.bothModes
        case (true, false):
            scope = .data
            if operands.isEmpty { refusal = Messages.dataNeedsArgument }
        case (false, true): scope = .fileSystem
        case (false, false): scope = .file
        }
    }

    public func run(in context: CommandContext) -> ExitStatus {
        if let refusal {
            context.error(refusal)
            return .failure
        }
        guard !operands.isEmpty else {
            // With no FILE, -f syncs every file system too, as sync(2) does.
            File.syncAll()
            return .success
        }
        var status = ExitStatus.success
        for operand in operands {
            if context.isCancelled { return .interrupted }
            let file = context.resolve(operand)
            let opened: OpenFile
            do {
                opened = try open(file, operand)
            } catch {
                context.error("\(Messages.errorOpening) \(Quoting.always(operand.bytes)): \(error.reason)")
                status = .failure
                continue
            }
            defer { opened.close() }
            do {
                switch scope {
                case .file: try opened.sync()
                case .data: try opened.syncData()
                case .fileSystem: try opened.syncFileSystem()
                }
            } catch {
                context.error("\(Messages.errorSyncing) \(Quoting.always(operand.bytes)): \(error.reason)")
                status = .failure
            }
        }
        return status
    }

    /// Opens `file` without waiting (a FIFO with no writer opens at once), for reading, or for
    /// writing when it may not be read; the error is reading's.
    private func open(_ file: File, _ operand: Argument) throws(FileError) -> OpenFile {
        if operand.hasTrailingSlash { _ = try operand.info(at: file, followSymlinks: true) }
        do {
            return try file.open(.inspect)
        } catch {
            do { return try file.open(.modify) } catch { _ = error }
            throw error
        }
    }

    private enum Messages {
        static let bothModes = "cannot specify both --data and --file-system"
        static let dataNeedsArgument = "--data needs at least one argument"
        static let errorOpening = "error opening"
        static let errorSyncing = "error syncing"
    }
}
