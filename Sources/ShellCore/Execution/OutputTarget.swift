import PathModel

/// A file that a command's standard output is redirected to (`> file`, `>> file`).
///
/// `>` onto a new file or a regular file with one link writes a temporary file and renames it
/// into place when the command ends, so the old contents survive until the new ones are whole.
/// Other targets are written in place: devices and FIFOs (`> /dev/null`) must stay what they
/// are, a file with several hard links must stay shared, and anything under `/dev` or `/proc`
/// (`> /dev/stdout`) is the caller's open file.
struct OutputTarget {
    /// The stream the command writes to.
    let stream: OutputStream
    private let replacement: Replacement?
    private let opened: OpenFile?

    /// Opens `file` for a redirection; `directoryOnly` when the target was written with a
    /// trailing slash (`> f/`), which names a directory, so it can never be written to, as
    /// `open(2)` of such a path with `O_CREAT` refuses it.
    /// - Throws: `FileError` (`.open`; `EISDIR` for a directory).
    static func open(_ file: File, append: Bool, directoryOnly: Bool = false) throws(FileError) -> OutputTarget {
        if directoryOnly { throw FileError(.open, file, .isDirectory) }
        if append { return try inPlace(file, mode: .append) }
        // /dev/stdout, /dev/fd/N and /proc/self/fd/N name an open file of the caller's: renaming
        // over what they lead to would detach the caller's output, so write them in place.
        let spelled = file.normalized.bytes
        if spelled.starts(with: Array("/dev/".utf8)) || spelled.starts(with: Array("/proc/".utf8)) {
            return try inPlace(file, mode: .truncate)
        }
        let existing: FileInfo?
        do {
            existing = try file.info(followSymlinks: true)
        } catch where error.errno == .noSuchFileOrDirectory {
            existing = nil
        }
        if let existing {
            if existing.kind == .directory { throw FileError(.open, file, .isDirectory) }
            if existing.kind != .regular || existing.linkCount > 1 { return try inPlace(file, mode: .truncate) }
        }
        let replacement = try file.openReplacement()
        return OutputTarget(stream: OutputStream(replacement.output), replacement: replacement, opened: nil)
    }

    private static func inPlace(_ file: File, mode: File.OpenMode) throws(FileError) -> OutputTarget {
        let opened = try file.open(mode)
        return OutputTarget(stream: OutputStream(opened), replacement: nil, opened: opened)
    }

    /// Flushes and puts the output in place (renames a replacement over the target). Call it, or
    /// `abandon`, once: either one closes the descriptor.
    /// - Throws: the stream's write error, or `FileError` from the rename; everything is closed
    ///   and a replacement discarded then, and the target keeps its old contents.
    func finish() throws(FileError) {
        stream.flush()
        if let error = stream.error {
            abandon()
            throw error
        }
        try opened?.finish()
        try replacement?.commit()
    }

    /// Closes without putting anything in place: a replacement's temporary file is removed and
    /// the target keeps its old contents (what was appended or written in place stays).
    func abandon() {
        opened?.close()
        replacement?.discard()
    }
}
