import PathModel

/// What the commands that change a tree below an operand (`chmod -R`, `chown -R`, `chgrp -R`)
/// share: refusing `/`, and a walk that names each entry as the user spelled the operand.
enum RecursiveOperand {
    /// Whether the directory `info` describes is its volume's root; if so, says that changing
    /// it recursively is refused, in GNU's words, naming it `spelled`.
    static func refusesRoot(_ info: FileInfo, of file: File, spelled: [UInt8], in context: CommandContext)
        -> Bool
    {
        guard info.kind == .directory, let root = try? file.volume.root.info(followSymlinks: true),
            root.identity == info.identity
        else { return false }
        let name = Quoting.always(spelled)
        context.error(
            spelled == [0x2F]
                ? "\(Messages.dangerous) \(name)" : "\(Messages.dangerous) \(name) (\(Messages.sameAs) '/')")
        context.error(Messages.useNoPreserveRoot)
        return true
    }

    /// Calls `visit` with each entry below the directory `root`, parents before their children,
    /// symlinks not followed, and its path spelled from `spelled` (`d/e/f`); calls `failed` with
    /// each error met, its path spelled the same way. Stops when the command is cancelled.
    static func walk(
        below root: File, spelled: [UInt8], in context: CommandContext, visit: (WalkEntry, [UInt8]) -> Void,
        failed: (FileError) -> Void
    ) {
        /// The spelled path of each level down to the latest entry.
        var levels: [[UInt8]] = [spelled]
        let rootLength = root.bytes.last == 0x2F ? root.byteCount : root.byteCount + 1
        for result in root.walk(WalkOptions(sorted: true)) {
            if context.isCancelled { return }
            switch result {
            case .success(let entry):
                levels.removeSubrange(entry.depth...)
                levels.append(joinedPath(levels[entry.depth - 1], Array(entry.file.nameBytes)))
                visit(entry, levels[entry.depth])
            case .failure(let error):
                let bytes = error.path.bytes
                let path =
                    bytes.count > rootLength ? joinedPath(spelled, Array(bytes[rootLength...])) : spelled
                failed(error.reworded(as: error.operation, File(bytes: path)))
            }
        }
    }

    /// GNU's words for a walk's error: `cannot read directory` for a directory that could not be
    /// listed, the operation's own words otherwise.
    static func phrase(for error: FileError) -> String? {
        [.list, .read].contains(error.operation) ? Messages.cannotReadDirectory : nil
    }

    private enum Messages {
        static let dangerous = "it is dangerous to operate recursively on"
        static let sameAs = "same as"
        static let useNoPreserveRoot = "use --no-preserve-root to override this failsafe"
        static let cannotReadDirectory = "cannot read directory"
    }
}
