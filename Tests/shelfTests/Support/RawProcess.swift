import CPseudoTerminal
import Glibc

/// Runs a program with arguments and environment given as raw bytes, which Foundation's `Process`
/// cannot pass (it takes `String`s): the way to hand shelf a word that is not UTF-8.
enum RawProcess {
    /// What a run printed and how it ended.
    struct Result {
        var stdout: [UInt8]
        var stderr: [UInt8]
        /// The exit status, or 128 + the signal that ended the process.
        var status: Int32
    }

    /// Runs `executable` with `arguments` and `environment` (`NAME=value` entries) in
    /// `directory`, with `input` on standard input. Output goes through files in `directory`
    /// (`.out`, `.err`, `.in`), removed afterwards, so that neither stream can block the other.
    static func run(
        _ executable: String, _ arguments: [[UInt8]], environment: [[UInt8]], input: [UInt8] = [],
        in directory: String
    ) -> Result {
        let paths = [".in", ".out", ".err"].map { directory + "/" + $0 }
        defer { for path in paths { unlink(path) } }
        write(input, to: paths[0])
        let argv = ([Array(executable.utf8)] + arguments).map(cString)
        let envp = environment.map(cString)
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = spawn_with_files(
            executable, argv + [nil], envp + [nil], directory, paths[0], paths[1], paths[2], &pid)
        precondition(spawned == 0, "spawn \(executable): \(spawned)")
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exited = status & 0x7F == 0
        return Result(
            stdout: read(paths[1]), stderr: read(paths[2]),
            status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
    }

    private static func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
        let buffer = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        for (index, byte) in bytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
        buffer[bytes.count] = 0
        return buffer
    }

    private static func write(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "open \(path)")
        bytes.withUnsafeBytes { _ = Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    private static func read(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return result }
            result += chunk[..<count]
        }
    }
}
