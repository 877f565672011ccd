import PathModel

/// Finds the file a program name stands for, as sh does: a name with a `/` is a path (resolved
/// against the shell's directory), any other is looked for in each directory of `PATH` in turn.
enum ProgramLookup {
    /// Why no program could be run for a name.
    enum Failure: Error {
        /// No directory of `PATH` holds a file of that name.
        case notFound
        /// The file is there but cannot be run: `EACCES` (not executable), `EISDIR`, or `ENOENT`
        /// for a path that names nothing.
        case unusable(FileError)
    }

    /// The `PATH` used when the variable is not set.
    static let defaultSearchPath: [UInt8] = Array("/usr/local/bin:/usr/bin:/bin".utf8)

    /// The program file `name` stands for in `state`: the first executable regular file of its
    /// name in `PATH` (an empty entry is the shell's directory), or the path itself.
    /// - Throws: `Failure`; a file found in `PATH` that is not executable is reported when no
    ///   later one is (`Permission denied`, as sh says).
    static func locate(_ name: [UInt8], in state: ShellState) throws(Failure) -> File {
        if name.contains(0x2F) {
            let file = state.resolve(File(bytes: name))
            if let problem = problem(with: file) { throw .unusable(problem) }
            return file
        }
        guard !name.isEmpty else { throw .notFound }
        var firstProblem: FileError?
        let searchPath = state.environment["PATH"] ?? defaultSearchPath
        for directory in searchPath.split(separator: 0x3A, omittingEmptySubsequences: false) {
            let file =
                state.resolve(File(bytes: directory.isEmpty ? [0x2E] : Array(directory))) + File(bytes: name)
            guard let problem = problem(with: file) else { return file }
            if problem.errno == .permissionDenied, firstProblem == nil { firstProblem = problem }
        }
        if let firstProblem { throw .unusable(firstProblem) }
        throw .notFound
    }

    /// Why `file` cannot be run, or nil when it can: it must be a regular file (a symlink is
    /// followed) that the user may execute.
    private static func problem(with file: File) -> FileError? {
        do {
            let info = try file.info(followSymlinks: true)
            if info.kind == .directory { return FileError(.stat, file, .isDirectory) }
            guard info.kind == .regular else { return FileError(.stat, file, .permissionDenied) }
            try file.checkSearchable()
            return nil
        } catch {
            return error
        }
    }

    /// The names of the programs in `PATH` that start with `prefix`, each once, sorted by bytes;
    /// none in a session that runs no program. For completion: each directory is listed once
    /// and only the names that match are examined.
    static func programNames(startingWith prefix: [UInt8], in state: ShellState) -> [[UInt8]] {
        guard state.programRefusal == nil else { return [] }
        var names = Set<[UInt8]>()
        let searchPath = state.environment["PATH"] ?? defaultSearchPath
        for entry in searchPath.split(separator: 0x3A, omittingEmptySubsequences: false) {
            let directory = state.resolve(File(bytes: entry.isEmpty ? [0x2E] : Array(entry)))
            var matching: [[UInt8]] = []
            try? directory.forEachEntry { item in
                if item.name.starts(with: prefix), !names.contains(item.name) { matching.append(item.name) }
            }
            for name in matching where problem(with: directory + File(bytes: name)) == nil {
                names.insert(name)
            }
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }
}
