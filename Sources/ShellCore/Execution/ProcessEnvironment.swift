import Glibc
import PathModel

/// The process-level facts and acts the executable needs: environment, signals, exit.
public enum ProcessEnvironment {
    /// The process environment, names and values byte for byte.
    public static func current() -> Environment {
        var result: [[UInt8]: [UInt8]] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let bytes = Array(UnsafeRawBufferPointer(start: entry, count: strlen(entry)))
            if let equals = bytes.firstIndex(of: 0x3D) {
                result[Array(bytes[..<equals])] = Array(bytes[(equals + 1)...])
            }
            cursor += 1
        }
        return Environment(result)
    }

    /// Ignores SIGPIPE and SIGXFSZ so that a closed pipe or a file-size limit fails one write
    /// (EPIPE, EFBIG) instead of killing the shell.
    public static func ignoreBrokenPipeAndFileSizeSignals() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Ends the process with `status`.
    public static func exit(_ status: ExitStatus) -> Never { Glibc.exit(status.code) }

    /// Prints `message` on standard error and ends the process with `status`.
    public static func fail(_ message: String, status: ExitStatus = .usage) -> Never {
        var line = message + "\n"
        line.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
        Glibc.exit(status.code)
    }
}
