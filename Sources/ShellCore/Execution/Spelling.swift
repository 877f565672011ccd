import PathModel

/// Names paths the way the user wrote them.
///
/// Commands work on absolute paths (`/home/ann/s/t`) but speak of them as the operand was
/// spelled (`s/t`, `./s/t`, `s/` for the operand itself), as coreutils does. Each operand is a
/// root: its absolute path and its spelling; a path below a root is spelled as the root's
/// spelling joined with the rest.
struct Spelling {
    private var roots: [(absolute: File, spelled: [UInt8])] = []

    /// A spelling with no roots: paths are written absolute.
    init() {}

    /// Spells `absolute` (and everything below it) as `spelled`.
    mutating func add(_ absolute: File, as spelled: [UInt8]) {
        roots.append((absolute, spelled))
    }

    /// The spelled bytes of `file`; its own bytes when it lies under no root.
    func bytes(_ file: File) -> [UInt8] {
        let path = file.bytes
        var best: (length: Int, spelled: [UInt8])?
        for root in roots {
            let base = root.absolute.bytes
            let length = base.count
            if let best, best.length >= length { continue }
            if path == base {
                best = (length, root.spelled)
            } else if path.count > length, path.starts(with: base), base == [0x2F] || path[length] == 0x2F {
                let rest = path[(base == [0x2F] ? length : length + 1)...]
                best = (length, (File(bytes: root.spelled) + File(bytes: rest)).bytes)
            }
        }
        return best?.spelled ?? path
    }

    /// `file` spelled and quoted for a message: `'s/t'`.
    func quoted(_ file: File) -> String { Quoting.always(bytes(file)) }

    /// The error with its paths spelled, for `CommandContext.report`.
    func respell(_ error: FileError) -> FileError {
        error.reworded(
            as: error.operation, File(bytes: bytes(error.path)),
            destination: error.destination.map { File(bytes: bytes($0)) })
    }
}
