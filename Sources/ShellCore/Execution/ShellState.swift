import PathModel

/// Everything a shell session remembers between commands.
///
/// The current directory lives here, not in the process: commands resolve their operands
/// against `cwd`, so many shells can run side by side in one process.
public final class ShellState {
    /// The shell's current directory, absolute and lexically normalised; on the session's volume,
    /// or on a volume a scheme opened (`cd s3://bucket/dir`).
    public var cwd: File {
        didSet { if schemes.locator(of: cwd.volume) == nil { sessionVolume = cwd.volume } }
    }
    /// The kinds of volume that paths reach by a URL scheme (`s3://`), and those opened so far;
    /// the commands of a pipeline share the session's.
    public private(set) var schemes = VolumeSchemes()
    /// The volume absolute paths are on: the last one `cwd` was on that no scheme opened.
    private var sessionVolume: any Volume
    /// The shell's variables, for `$NAME` expansion, as bytes; starts as a copy of the process
    /// environment. Programs get only the exported ones (`exportedNames`).
    public var environment: Environment
    /// The names of the variables that programs get in their environment (`export`): at first
    /// every variable of the process environment, as in sh. A name may be here before its
    /// variable is set (`export NAME`).
    public var exportedNames: Set<[UInt8]>
    /// The aliases (`alias ll='ls -l'`), expanded as statements are read.
    public var aliases = Aliases()
    /// The named remotes (`remote backup s3://bucket/backups`), which `@NAME` stands for.
    public var remotes = Remotes()
    /// `$0`: the script's path as given, else `shelf`.
    public var scriptName: [UInt8] = Array("shelf".utf8)
    /// The positional parameters `$1`, `$2`…: the words after the script (or after `-c COMMANDS`).
    public var arguments: [[UInt8]] = []
    /// The status of the last command, for `$?` and the prompt.
    public var lastStatus: ExitStatus = .success
    /// Lines run so far, for `history`, as the bytes typed.
    public var history: [[UInt8]] = []
    /// Whether a failing command stops a script (`set -e`, the default for scripts).
    public var stopOnError: Bool
    /// Whether the session is interactive (keeps going after failures, may ask questions).
    public let isInteractive: Bool
    /// Set by `exit`: the status the shell should end with.
    public var exitRequest: ExitStatus?
    /// Answers yes/no questions (`cp -i`, `rm -i`); nil means there is nobody to ask.
    public var asker: (@Sendable (String) -> Bool?)?
    /// Refuse every command that changes the disk, and redirections to files (`--read-only`).
    public var isReadOnly = false
    /// Why programs (and `!`) are refused in this session (`--root`, `--read-only`,
    /// `--no-programs`); nil when they run.
    public var programRefusal: ProgramRefusal?
    /// Whether standard input is a terminal: as in GNU rm, only then is the user asked about
    /// removing a write-protected file without `-i`.
    public var standardInputIsTerminal = false
    /// Polled by long-running commands; true means Ctrl-C was pressed.
    public var isCancelled: @Sendable () -> Bool = { false }
    /// Seconds on a clock that never goes back, for progress lines; tests give a clock of their own.
    public var monotonicClock: () -> Double = Clock.monotonicSeconds
    /// The terminal width for column output, when known.
    public var terminalWidth: Int?

    /// A fresh state in `cwd` with `environment`.
    public init(cwd: File, environment: Environment, isInteractive: Bool = false, stopOnError: Bool = true) {
        self.cwd = cwd.normalized
        sessionVolume = cwd.volume
        self.environment = environment
        exportedNames = Set(environment.sorted.map(\.name))
        self.isInteractive = isInteractive
        self.stopOnError = stopOnError
    }

    /// Whether this is a copy that one command of a pipeline runs with: it shares the terminal
    /// with the other commands, so a program does not take it over.
    public private(set) var isPipelineStage = false
    /// For a stage of a pipeline of programs only on the terminal: the process group its program
    /// joins, which has the terminal while the pipeline runs.
    var pipelineGroup: PipelineGroup?

    /// A copy for one command of a pipeline, which may change it (`cd`, `exit`) without the
    /// session seeing it, as a subshell in sh.
    func copyForPipelineStage() -> ShellState {
        let copy = ShellState(cwd: cwd, environment: environment, isInteractive: isInteractive, stopOnError: stopOnError)
        copy.exportedNames = exportedNames
        copy.aliases = aliases
        copy.remotes = remotes
        copy.scriptName = scriptName
        copy.arguments = arguments
        copy.lastStatus = lastStatus
        copy.history = history
        copy.asker = asker
        copy.isReadOnly = isReadOnly
        copy.programRefusal = programRefusal
        copy.standardInputIsTerminal = standardInputIsTerminal
        copy.isCancelled = isCancelled
        copy.monotonicClock = monotonicClock
        copy.terminalWidth = terminalWidth
        copy.isPipelineStage = true
        // The same volumes, so that `/etc` is still the session's under `cd s3://bucket`.
        copy.schemes = schemes
        copy.sessionVolume = sessionVolume
        return copy
    }

    /// The home directory: `$HOME` when set and absolute, else the user database's entry.
    public var home: File {
        if let value = environment["HOME"], value.first == 0x2F { return File(bytes: value) }
        return File.home
    }

    /// The environment a program is started with: the exported variables, `NAME=value` entries
    /// as bytes.
    var programEnvironment: [[UInt8]] {
        environment.sorted.filter { exportedNames.contains($0.name) }.map { $0.name + [0x3D] + $0.value }
    }

    /// A variable as it was before one command's `NAME=value` changed it.
    struct SavedVariable {
        let name: String
        let value: [UInt8]?
        let wasExported: Bool
    }

    /// Sets and exports `values` (names and values, in the order written) for one command, and
    /// returns what `restore(_:)` puts back after it.
    func setForOneCommand(_ values: [(name: String, value: [UInt8])]) -> [SavedVariable] {
        values.map { name, value in
            let key = Array(name.utf8)
            let saved = SavedVariable(name: name, value: environment[name], wasExported: exportedNames.contains(key))
            environment[name] = value
            exportedNames.insert(key)
            return saved
        }
    }

    /// Puts back variables as `setForOneCommand(_:)` found them, the last set first.
    func restore(_ saved: [SavedVariable]) {
        for variable in saved.reversed() {
            environment[variable.name] = variable.value
            if variable.wasExported {
                exportedNames.insert(Array(variable.name.utf8))
            } else {
                exportedNames.remove(Array(variable.name.utf8))
            }
        }
    }

    /// The character set the locale variables (`LC_ALL`, `LC_CTYPE`, `LANG`) name.
    public var characterEncoding: CharacterEncoding { CharacterEncoding { environment.text($0) } }

    /// The user's well-known places as this shell's variables place them (`@docs`, `@config`…),
    /// on the session's volume.
    public var places: WellKnownPlaces { WellKnownPlaces(environment: environment, on: volume) }

    /// The volume the session runs on, whose top is `/` for every absolute operand: the local
    /// file system, the sandbox of `--root`, or another. It is `cwd`'s, unless `cwd` is on a
    /// volume a scheme opened (`s3://`): `/etc` stays the session's `/etc` there.
    public var volume: any Volume { sessionVolume }

    /// The absolute path an operand names: a URL of a registered scheme (`s3://bucket/key`) on
    /// that scheme's volume; else itself when absolute, on the session's volume; else joined to
    /// `cwd` (under a URL, as the URL they make together). An empty operand stays empty, so
    /// that the volume answers ENOENT as the kernel does for coreutils.
    public func resolve(_ path: File) -> File {
        if path.byteCount == 0 { return path.on(volume) }
        if let file = schemes.file(for: path) { return file }
        if path.isAbsolute { return path.on(volume) }
        // Under a URL a relative path makes one with it, so that it may leave the volume: under
        // `s3://` a name is a bucket (`photos` is `s3://photos`), and `..` at a bucket's top is
        // `s3://`.
        if let locator = schemes.locator(of: cwd.volume) {
            var url = locator + cwd.normalized.bytes
            if url.last != 0x2F { url.append(0x2F) }
            if let file = schemes.file(for: File(bytes: url + path.bytes)) { return file }
        }
        return cwd + path
    }

    /// `file` as a directory, as a path written with a trailing slash (`d/`) names one: a `File`
    /// drops the slash, so on a URL's volume, where a file `d` may stand beside the directory
    /// `d/` (object storage), the path ends in `/.`, which names the directory alone. Elsewhere
    /// the kernel's reading of `d/` and `d` differs only for a symlink, which callers follow.
    public func directory(_ file: File) -> File {
        guard schemes.locator(of: file.volume) != nil, !file.isRoot, !file.nameBytes.elementsEqual([0x2E])
        else { return file }
        return file + File(bytes: [0x2E])
    }

    /// A path as the user writes it: with its scheme and authority (`s3://bucket/key`) on a
    /// volume a scheme opened, else its bytes.
    public func spelling(of file: File) -> [UInt8] {
        guard let locator = schemes.locator(of: file.volume) else { return file.bytes }
        return locator + file.normalized.bytes
    }
}
