import CProcessLauncher
import Glibc
import PathModel
import Synchronization
import SystemPackage

/// What a program is started with: its file, its words, its environment, its directory and the
/// descriptors that become its standard streams.
struct ProgramLaunch {
    /// The program's file, an absolute path on the local file system.
    var executable: File
    /// Its words, `argv[0]` (the name as typed) first, as bytes.
    var arguments: [[UInt8]]
    /// Its environment, `NAME=value` entries as bytes.
    var environment: [[UInt8]]
    /// The directory it starts in (the shell's, not the process's).
    var directory: File
    /// The descriptors that become its standard input, output and error, in that order.
    var standardStreams: [Int32]
    /// The process group it runs in.
    var placement: Placement

    /// The process group a program runs in.
    enum Placement {
        /// The shell's (a script's programs, and a pipeline's that has built-in stages).
        case shells
        /// One of its own, given the terminal, as a job control shell runs a foreground job.
        case own(ForegroundTerminal)
        /// The group of a pipeline of programs only, which has the terminal while it runs.
        case pipeline(PipelineGroup)
    }
}

/// The process group of a pipeline whose commands are all programs: the first program started
/// makes it and gives it the terminal, the others join it, and the shell takes the terminal back
/// when the pipeline is done (`finish()`), as a job control shell runs a foreground job.
final class PipelineGroup: Sendable {
    /// The terminal the group is given.
    let terminal: ForegroundTerminal
    /// The terminal's modes before the pipeline, put back by `finish()`.
    private let modes: TerminalModes?
    /// The group's number (its first program's process number) once one has started, and
    /// whether Ctrl-C or Ctrl-\ ended one of its programs.
    private let members = Mutex<(leader: pid_t?, interrupted: Bool)>((nil, false))

    /// A group for a pipeline on `terminal`.
    init(terminal: ForegroundTerminal) {
        self.terminal = terminal
        modes = TerminalModes.ofStandardInput()
    }

    /// Starts `launch` in the group: as its first member, given the terminal, or joining it. A
    /// program whose group is gone already (its members all ended and were waited for) starts a
    /// new one, given the terminal in turn.
    /// - Throws: the errno of the first step that failed; `ECANCELED` when Ctrl-C has already
    ///   ended a program of the pipeline (a stage that starts late must not start after it).
    func start(_ launch: ProgramLaunch) throws(Errno) -> ChildProcess {
        try members.withLock { (members: inout (leader: pid_t?, interrupted: Bool)) throws(Errno) -> ChildProcess in
            if members.interrupted { throw .canceled }
            if let group = members.leader {
                do throws(Errno) {
                    return try ProcessLauncher.spawn(launch, group: group, terminal: nil)
                } catch {
                    // No member left to join (EPERM): this program leads a new group.
                    guard error == .notPermitted || error == .noSuchProcess else { throw error }
                }
            }
            let child = try ProcessLauncher.spawn(launch, group: 0, terminal: terminal)
            members.leader = child.pid
            return child
        }
    }

    /// Notes that one of the group's programs ended with `status`: after Ctrl-C (130) or Ctrl-\
    /// (131), no other program of the pipeline starts, and the signal is sent to the group again
    /// for a program that joined it after the key was pressed. Corresponds to `kill(2)`.
    func ended(with status: ExitStatus) {
        guard status == .interrupted || status == .quit else { return }
        members.withLock { members in
            members.interrupted = true
            if let leader = members.leader { kill(-leader, status == .quit ? SIGQUIT : SIGINT) }
        }
    }

    /// Gives the terminal back to the shell with the modes it had, when the group had it.
    func finish() {
        guard members.withLock({ $0.leader }) != nil else { return }
        ProcessLauncher.takeBack(terminal, restoring: modes)
    }
}

/// The terminal an interactive shell hands to the program it runs, and takes back after.
struct ForegroundTerminal: Sendable {
    /// The terminal's descriptor (standard input).
    let descriptor: Int32

    /// Standard input when it is a terminal whose foreground process group is this process's:
    /// the shell may give it away. Corresponds to `isatty(3)` and `tcgetpgrp(3)`.
    static var ofStandardInput: ForegroundTerminal? {
        guard isatty(0) == 1, tcgetpgrp(0) == getpgrp() else { return nil }
        return ForegroundTerminal(descriptor: 0)
    }
}

/// The modes of the terminal on standard input, as they were when taken, to be put back after a
/// pipeline whose programs may have changed them (a single program's are put back by
/// `ProcessLauncher.wait(for:)`).
struct TerminalModes: Sendable {
    private let modes: termios

    /// The modes now, when standard input is a terminal. Corresponds to `tcgetattr(3)`.
    static func ofStandardInput() -> TerminalModes? {
        var modes = termios()
        guard isatty(0) == 1, tcgetattr(0, &modes) == 0 else { return nil }
        return TerminalModes(modes: modes)
    }

    /// Puts the modes back. Corresponds to `tcsetattr(3)`.
    func restore() {
        var modes = modes
        while tcsetattr(0, TCSADRAIN, &modes) == -1 && errno == EINTR {}
    }
}

/// A program that was started and has not been waited for.
struct ChildProcess {
    /// Its process number (and, when it was given the terminal, its process group's).
    let pid: pid_t
    /// The terminal it was given, with the modes the terminal had before, for `wait(for:)` to
    /// take back (a pipeline's group is taken back by `PipelineGroup.finish()`).
    fileprivate let terminal: (ForegroundTerminal, TerminalModes?)?
}

/// The one place where the shell creates processes, waits for them, sets signal dispositions
/// for them and hands the terminal over: `posix_spawn`, `waitpid`, `tcsetpgrp`, `tcsetattr`.
public enum ProcessLauncher {
    /// The signals a started program gets at their default disposition, whatever the shell did
    /// with them: ignored ones (SIGPIPE, SIGXFSZ, and the job control signals in an interactive
    /// shell) would otherwise stay ignored across `exec`.
    private static let signalsSetToDefault = [
        SIGINT, SIGQUIT, SIGPIPE, SIGXFSZ, SIGTSTP, SIGTTIN, SIGTTOU, SIGTERM, SIGHUP, SIGCHLD,
    ]

    /// Starts `launch` without a shell in between: its directory is set, its standard streams
    /// put in place (every other descriptor of the shell is close-on-exec), its signals reset
    /// and unblocked, and with a terminal, its own process group made the terminal's foreground.
    /// - Throws: the errno of the first step that failed (`ENOENT`, `EACCES`, `ENOEXEC`…).
    /// Corresponds to `posix_spawn(3)`.
    static func start(_ launch: ProgramLaunch) throws(Errno) -> ChildProcess {
        switch launch.placement {
        case .shells: return try spawn(launch, group: nil, terminal: nil)
        case .own(let terminal): return try spawn(launch, group: 0, terminal: terminal)
        case .pipeline(let group): return try group.start(launch)
        }
    }

    /// Starts `launch` in the process group `group` (0 for a new one, nil for the shell's); with
    /// `terminal`, its group is made the terminal's foreground and the terminal's modes are kept
    /// to be put back by `wait(for:)`, unless it joins a pipeline's group (which puts them back).
    /// Corresponds to `posix_spawn(3)` with `POSIX_SPAWN_SETPGROUP`.
    fileprivate static func spawn(
        _ launch: ProgramLaunch, group: pid_t?, terminal: ForegroundTerminal?
    ) throws(Errno) -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var status = launch.directory.withCString { launcher_addchdir(&actions, $0) }
        var savedModes: TerminalModes?
        if let terminal {
            // Before the standard streams are put in place: the terminal's descriptor may be one
            // of them (standard input), which `< file` or a pipe replaces.
            if status == 0 { status = launcher_addtcsetpgrp(&actions, terminal.descriptor) }
            savedModes = TerminalModes.ofStandardInput()
        }
        for (target, source) in launch.standardStreams.enumerated() where status == 0 {
            status = posix_spawn_file_actions_adddup2(&actions, source, Int32(target))
        }
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if let group {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, group)
        }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in signalsSetToDefault { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(flags))
        guard status == 0 else { throw Errno(rawValue: status) }

        var pid: pid_t = 0
        let argv = launch.arguments.map(cString)
        let envp = launch.environment.map(cString)
        defer { for pointer in argv + envp { free(pointer) } }
        status = launch.executable.withCString { path in
            posix_spawn(&pid, path, &actions, &attributes, argv + [nil], envp + [nil])
        }
        guard status == 0 else { throw Errno(rawValue: status) }
        guard case .own = launch.placement else { return ChildProcess(pid: pid, terminal: nil) }
        return ChildProcess(pid: pid, terminal: terminal.map { ($0, savedModes) })
    }

    /// Waits for `child` to end and returns its status, 128 + the signal's number when a signal
    /// ended it. A program stopped by Ctrl-Z is continued at once (the shell has no background
    /// jobs to keep it as). A child that had the terminal gives it back to the shell, whose
    /// terminal modes are restored as they were before it started (a program may leave the
    /// terminal raw).
    /// Corresponds to `waitpid(2)`, `kill(2)` with SIGCONT, `tcsetpgrp(3)` and `tcsetattr(3)`.
    static func wait(for child: ChildProcess) -> ExitStatus {
        var status: Int32 = 0
        while true {
            let result = waitpid(child.pid, &status, WUNTRACED)
            if result == -1 {
                if errno == EINTR { continue }
                status = 0x7F00 | (SIGKILL & 0x7F)  // never expected: no child to wait for
                break
            }
            let stopped = status & 0xFF == 0x7F
            guard stopped else { break }
            kill(child.terminal == nil ? child.pid : -child.pid, SIGCONT)
        }
        if let (terminal, modes) = child.terminal { takeBack(terminal, restoring: modes) }
        let signal = status & 0x7F
        return signal == 0 ? ExitStatus((status >> 8) & 0xFF) : ExitStatus(128 + signal)
    }

    /// Makes the shell's process group the terminal's foreground again and puts back `modes`;
    /// SIGTTOU, which a process outside the foreground group gets for this, is blocked meanwhile.
    fileprivate static func takeBack(_ terminal: ForegroundTerminal, restoring modes: TerminalModes?) {
        var block = sigset_t()
        var previous = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGTTOU)
        pthread_sigmask(SIG_BLOCK, &block, &previous)
        tcsetpgrp(terminal.descriptor, getpgrp())
        modes?.restore()
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    /// Makes Ctrl-Z, Ctrl-\ and reads or writes from the background harmless to an interactive
    /// shell: SIGTSTP, SIGQUIT, SIGTTIN and SIGTTOU are ignored (the programs it starts get them
    /// back at their default). Corresponds to `signal(2)` with `SIG_IGN`.
    public static func ignoreJobControlSignals() {
        for ignored in [SIGTSTP, SIGQUIT, SIGTTIN, SIGTTOU] { signal(ignored, SIG_IGN) }
    }

    /// Makes a write on the calling thread into a pipe whose reader has gone fail with EPIPE
    /// instead of ending the process with SIGPIPE, whatever the process does with that signal
    /// (a program embedding ShellCore may keep its default): the signal is blocked for this
    /// thread, and one that arrives stays pending until the thread ends. For a pipeline's
    /// threads; programs started from them get an empty mask. Corresponds to `pthread_sigmask(3)`.
    static func blockBrokenPipeSignalOnThisThread() {
        var block = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &block, nil)
    }

    /// Whether the process catches SIGINT (the shelf executable does, to stop commands on Ctrl-C),
    /// so that `interrupt(_:)` may send it to a thread. Corresponds to `sigaction(2)`.
    static var catchesInterrupts: Bool {
        var action = sigaction()
        guard sigaction(SIGINT, nil, &action) == 0 else { return false }
        let handler = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
        return handler != unsafeBitCast(SIG_DFL, to: Int.self) && handler != unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Sends SIGINT to `thread` of this process, so that a system call it is blocked in (a read of
    /// the terminal or a FIFO) returns EINTR; only where the process catches it
    /// (`catchesInterrupts`). Corresponds to `pthread_kill(3)`.
    static func interrupt(_ thread: pthread_t) {
        pthread_kill(thread, SIGINT)
    }

    /// Copies what arrives on each pipe's read end into its stream until every writer has
    /// closed its end, then closes the read ends; a stream that breaks drops the rest.
    /// Corresponds to `poll(2)` and `read(2)`.
    static func drain(_ pipes: [(input: OpenFile, output: OutputStream)]) {
        var open = pipes
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !open.isEmpty {
            var requests = open.map {
                pollfd(fd: $0.input.descriptor ?? -1, events: Int16(POLLIN), revents: 0)
            }
            if poll(&requests, nfds_t(requests.count), -1) == -1 {
                if errno == EINTR { continue }
                break
            }
            for index in requests.indices.reversed() where requests[index].revents != 0 {
                let (input, output) = open[index]
                let count = (try? input.read(into: &buffer)) ?? 0
                if count > 0 {
                    output.write(bytes: buffer[..<count])
                } else {
                    input.close()
                    open.remove(at: index)
                }
            }
        }
        for (input, _) in open { input.close() }
    }

    /// A copy of `bytes` as a NUL-terminated C string, to be freed.
    private static func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
        let buffer = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        for (index, byte) in bytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
        buffer[bytes.count] = 0
        return buffer
    }
}
