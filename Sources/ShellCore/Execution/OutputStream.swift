import PathModel

/// A buffered byte sink: a file descriptor (standard output, a redirection) or memory (tests).
///
/// Writes are gathered into 64 KiB blocks, or flushed per line on a terminal. A write error
/// (`EPIPE` when the reader has gone) is kept in `error`; later writes are dropped, so a command
/// can stop early by checking `isBroken`.
public final class OutputStream {
    private enum Sink {
        case descriptor(OpenFile)
        case memory
    }

    private let sink: Sink
    private var buffer: [UInt8] = []
    private let lineBuffered: Bool
    /// Everything written, for a memory stream.
    public private(set) var contents: [UInt8] = []
    /// Whether the sink is a terminal (decides columns, quoting and colour).
    public let isTerminal: Bool
    /// The first write error, after which output is dropped.
    public private(set) var error: FileError? {
        didSet { isBroken = error != nil }
    }
    /// Whether a write has failed; output is being dropped. Kept apart from `error` so that the
    /// check on every write does not copy the error.
    public private(set) var isBroken = false
    /// A stream flushed before this one takes a write, so that what the two say reaches a shared
    /// destination (`2>&1`, a log) in the order it was said: standard output for standard error.
    public var flushedFirst: OutputStream?

    /// A stream writing to an open descriptor, flushed per line on a terminal or when
    /// `flushingEveryLine` (standard error, as unbuffered as a line allows).
    public init(_ file: OpenFile, flushingEveryLine: Bool = false) {
        sink = .descriptor(file)
        isTerminal = file.isTerminal
        lineBuffered = isTerminal || flushingEveryLine
        buffer.reserveCapacity(1 << 16)
    }

    /// A stream that keeps what is written in `contents`; `terminal` pretends to be a terminal.
    public init(capturingAsTerminal terminal: Bool = false) {
        sink = .memory
        isTerminal = terminal
        lineBuffered = false
    }

    /// The contents of a memory stream as text.
    public var text: String { String(decoding: contents, as: UTF8.self) }

    /// Writes bytes.
    public func write<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        guard !isBroken else { return }
        flushedFirst?.flush()
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 || (lineBuffered && buffer.contains(0x0A)) { flush() }
    }

    /// Writes one byte (a separator after a name).
    public func write(byte: UInt8) {
        guard !isBroken else { return }
        flushedFirst?.flush()
        buffer.append(byte)
        if buffer.count >= 1 << 16 || (lineBuffered && byte == 0x0A) { flush() }
    }

    /// Writes text as UTF-8.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: $0) }
    }

    /// Writes text and a newline.
    public func line(_ text: String = "") {
        write(text)
        write(byte: 0x0A)
    }

    /// Sends buffered bytes to the sink.
    public func flush() {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard !isBroken else { return }
        switch sink {
        case .memory:
            contents.append(contentsOf: buffer)
        case .descriptor(let file):
            do {
                try buffer.withUnsafeBytes { raw in Result { () throws(FileError) in try file.write(raw) } }.get()
            } catch {
                self.error = error
            }
        }
    }

    /// The descriptor behind the stream, for kernel-side copies (`cat` of a large file); flushes first.
    public func descriptorForDirectWrite() -> OpenFile? {
        flush()
        guard case .descriptor(let file) = sink, !isBroken else { return nil }
        return file
    }

    /// Records an error met while writing through `descriptorForDirectWrite()`.
    public func recordDirectWriteError(_ error: FileError) {
        if !isBroken { self.error = error }
    }
}
