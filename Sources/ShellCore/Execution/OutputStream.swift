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

    /// What every write changes, kept behind a pointer: a stream takes a write for each entry of
    /// a walk, and the stored properties of a class would be checked for exclusive access on
    /// each one.
    private struct State {
        /// Bytes written and not yet sent to the sink.
        var count = 0
        /// Whether a write has failed.
        var isBroken = false
        var flushedFirst: OutputStream?
    }

    private let sink: Sink
    private let state: UnsafeMutablePointer<State>
    /// The buffer, `capacity` bytes.
    private let buffer: UnsafeMutablePointer<UInt8>
    private static let capacity = 1 << 16
    private let lineBuffered: Bool
    /// Everything written, for a memory stream.
    public private(set) var contents: [UInt8] = []
    /// Whether the sink is a terminal (decides columns, quoting and colour).
    public let isTerminal: Bool
    /// The first write error, after which output is dropped.
    public private(set) var error: FileError? {
        didSet { state.pointee.isBroken = error != nil }
    }
    /// Whether a write has failed; output is being dropped. Kept apart from `error` so that the
    /// check on every write does not copy the error.
    public var isBroken: Bool { state.pointee.isBroken }
    /// A stream flushed before this one takes a write, so that what the two say reaches a shared
    /// destination (`2>&1`, a log) in the order it was said: standard output for standard error.
    public var flushedFirst: OutputStream? {
        get { state.pointee.flushedFirst }
        set { state.pointee.flushedFirst = newValue }
    }

    /// A stream writing to an open descriptor, flushed per line on a terminal or when
    /// `flushingEveryLine` (standard error, as unbuffered as a line allows).
    public init(_ file: OpenFile, flushingEveryLine: Bool = false) {
        sink = .descriptor(file)
        isTerminal = file.isTerminal
        lineBuffered = isTerminal || flushingEveryLine
        (state, buffer) = Self.allocate()
    }

    /// A stream that keeps what is written in `contents`; `terminal` pretends to be a terminal.
    public init(capturingAsTerminal terminal: Bool = false) {
        sink = .memory
        isTerminal = terminal
        lineBuffered = false
        (state, buffer) = Self.allocate()
    }

    private static func allocate() -> (UnsafeMutablePointer<State>, UnsafeMutablePointer<UInt8>) {
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State())
        return (state, UnsafeMutablePointer<UInt8>.allocate(capacity: capacity))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        buffer.deallocate()
    }

    /// The contents of a memory stream as text.
    public var text: String { String(decoding: contents, as: UTF8.self) }

    /// Writes bytes.
    public func write<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        guard !state.pointee.isBroken else { return }
        state.pointee.flushedFirst?.flush()
        let endsLine: Bool? = bytes.withContiguousStorageIfAvailable { contiguous in
            append(contiguous)
            return lineBuffered && contiguous.contains(0x0A)
        }
        if let endsLine {
            if endsLine { flush() }
            return
        }
        for byte in bytes {
            append(byte)
            if lineBuffered && byte == 0x0A { flush() }
        }
    }

    /// Writes one byte (a separator after a name).
    public func write(byte: UInt8) {
        guard !state.pointee.isBroken else { return }
        state.pointee.flushedFirst?.flush()
        append(byte)
        if lineBuffered && byte == 0x0A { flush() }
    }

    /// Puts bytes in the buffer, sending it to the sink whenever it is full.
    private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard var source = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let count = state.pointee.count
            let taken = Swift.min(left, Self.capacity - count)
            (buffer + count).update(from: source, count: taken)
            state.pointee.count = count + taken
            source += taken
            left -= taken
            if count + taken == Self.capacity { flush() }
        }
    }

    /// Puts one byte in the buffer, sending it to the sink when it is full.
    private func append(_ byte: UInt8) {
        let count = state.pointee.count
        buffer[count] = byte
        state.pointee.count = count + 1
        if count + 1 == Self.capacity { flush() }
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
        let count = state.pointee.count
        guard count > 0 else { return }
        state.pointee.count = 0
        guard !state.pointee.isBroken else { return }
        let pending = UnsafeRawBufferPointer(start: buffer, count: count)
        switch sink {
        case .memory:
            contents.append(contentsOf: pending)
        case .descriptor(let file):
            do {
                try file.write(pending)
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
