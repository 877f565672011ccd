import ObjectStorage
import PathModel
import SystemPackage

/// An object opened for reading: each read outside the bytes already fetched asks for a range,
/// which doubles (up to the volume's part size) while the reads go on in order, so a small read
/// (`head`) costs a small request and a whole object a few large ones; a read at the end
/// (`tail`) fetches only the end.
final class S3Download: FileStream, @unchecked Sendable {
    private let volume: S3Volume
    private let key: [UInt8]
    private let head: ObjectHead
    private let file: File
    /// Touched only by the one task that uses the stream.
    private var offset: UInt64 = 0
    /// The bytes fetched last and the offset of the first of them.
    private var window: [UInt8] = []
    private var windowStart: UInt64 = 0
    /// How many bytes the next fetch asks for.
    private var fetchSize = 256 << 10

    init(volume: S3Volume, key: [UInt8], head: ObjectHead, file: File) {
        self.volume = volume
        self.key = key
        self.head = head
        self.file = file
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
        let count = try read(into: buffer, at: offset)
        offset += UInt64(count)
        return count
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(FileError) -> Int {
        let size = UInt64(max(head.size, 0))
        guard offset < size, buffer.count > 0 else { return 0 }
        if offset < windowStart || offset >= windowStart + UInt64(window.count) {
            try fetch(at: offset, size: size, wanted: buffer.count)
        }
        let start = Int(offset - windowStart)
        let count = min(buffer.count, window.count - start)
        guard count > 0 else { return 0 }
        window.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + start, byteCount: count)
        }
        return count
    }

    /// Fetches the window that starts at `offset`: the next one in order grows.
    private func fetch(at offset: UInt64, size: UInt64, wanted: Int) throws(FileError) {
        if offset == windowStart + UInt64(window.count) && !window.isEmpty {
            fetchSize = min(fetchSize * 2, max(volume.partSize, 256 << 10))
        }
        let length = UInt64(max(fetchSize, wanted))
        let last = min(offset + length, size) - 1
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(last - offset + 1))
        try volume.failing(.read, file) { () throws(S3Failure) in
            try volume.call {
                try volume.client.getObject(
                    bucket: volume.bucket, key: key, range: ByteRange(first: Int64(offset), last: Int64(last))
                ) { bytes.append(contentsOf: $0) }
            }
        }
        window = bytes
        windowStart = offset
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        throw FileError(.write, file, .badFileDescriptor)
    }

    func info() throws(FileError) -> FileInfo {
        volume.fileInfo(key: key, size: head.size, modified: head.lastModified)
    }

    func setAttributes(_ change: AttributeChange) throws(FileError) {
        if change != AttributeChange() { throw FileError(.setAttributes, file, .notSupported) }
    }

    func truncate(to size: UInt64) throws(FileError) {
        throw FileError(.write, file, .invalidArgument)
    }

    func close() { window = [] }
}

/// A directory opened for a look: it describes itself and refuses to be read, as a directory's
/// descriptor does.
final class S3DirectoryStream: FileStream {
    private let volume: S3Volume
    private let place: Place
    private let file: File

    init(volume: S3Volume, place: Place, file: File) {
        self.volume = volume
        self.place = place
        self.file = file
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
        throw FileError(.read, file, .isDirectory)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(FileError) -> Int {
        throw FileError(.read, file, .isDirectory)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        throw FileError(.write, file, .badFileDescriptor)
    }

    func info() throws(FileError) -> FileInfo {
        volume.directoryInfo(prefix: place.directoryPrefix(in: volume))
    }

    func setAttributes(_ change: AttributeChange) throws(FileError) {
        if change != AttributeChange() { throw FileError(.setAttributes, file, .notSupported) }
    }

    func truncate(to size: UInt64) throws(FileError) {
        throw FileError(.write, file, .invalidArgument)
    }

    func close() {}
}

/// An object being written. The bytes gather in memory; each time a part's worth is there it
/// goes up as a part of a multipart upload, begun then. `finish()` sends the rest (one PUT for a
/// file no larger than a part) and completes the upload: only then does the object appear, and
/// a failure at any step aborts the upload, so no parts are left behind. `close()` without
/// `finish()` abandons it the same way.
///
/// Writes go in order. A write or a cut before the bytes already sent as parts is refused with
/// `ENOTSUP`; so is opening an object larger than a part to append to it or change it in place.
final class S3Upload: FileStream, @unchecked Sendable {
    private let volume: S3Volume
    private let key: [UInt8]
    private let file: File
    private let appending: Bool
    /// Touched only by the one task that uses the stream.
    private var pending: [UInt8] = []
    /// How many bytes went up as parts before `pending`.
    private var sent: Int64 = 0
    private var offset: Int64 = 0
    private var uploadID: String?
    private var parts: [CompletedPart] = []
    private var ended = false

    init(volume: S3Volume, key: [UInt8], file: File, appending: Bool) {
        self.volume = volume
        self.key = key
        self.file = file
        self.appending = appending
    }

    /// Starts from the existing object's bytes, to append to them or change them in place.
    func start(from head: ObjectHead) throws(S3Failure) {
        guard head.size <= Int64(volume.partSize) else { throw .errno(.notSupported) }
        var bytes: [UInt8] = []
        try volume.call {
            try volume.client.getObject(bucket: volume.bucket, key: key) { bytes.append(contentsOf: $0) }
        }
        pending = bytes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
        throw FileError(.read, file, .badFileDescriptor)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(FileError) -> Int {
        throw FileError(.read, file, .badFileDescriptor)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        if appending { offset = sent + Int64(pending.count) }
        guard offset >= sent else { throw FileError(.write, file, .notSupported) }
        let start = Int(offset - sent)
        if start > pending.count { pending += [UInt8](repeating: 0, count: start - pending.count) }
        let overlap = min(bytes.count, pending.count - start)
        pending.replaceSubrange(start..<(start + overlap), with: bytes)
        offset += Int64(bytes.count)
        while pending.count >= volume.partSize && offset == sent + Int64(pending.count) {
            try failing { () throws(S3Failure) in try sendPart(count: volume.partSize) }
        }
    }

    /// Sends the first `count` pending bytes as the next part, beginning the upload if needed.
    private func sendPart(count: Int) throws(S3Failure) {
        let id: String
        if let uploadID {
            id = uploadID
        } else {
            id = try volume.call { try volume.client.createMultipartUpload(bucket: volume.bucket, key: key) }
            uploadID = id
        }
        var position = 0
        let eTag = try volume.call {
            try pending.withUnsafeBytes { bytes in
                try volume.client.uploadPart(
                    bucket: volume.bucket, key: key, uploadID: id, partNumber: parts.count + 1,
                    length: Int64(count), rewind: { position = 0 }
                ) { buffer in
                    let length = min(buffer.count, count - position)
                    buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + position, byteCount: length)
                    position += length
                    return length
                }
            }
        }
        parts.append(CompletedPart(partNumber: parts.count + 1, eTag: eTag))
        pending.removeFirst(count)
        sent += Int64(count)
    }

    func finish() throws(FileError) {
        guard !ended else { return }
        try failing { () throws(S3Failure) in
            if let uploadID {
                if !pending.isEmpty { try sendPart(count: pending.count) }
                try volume.call {
                    try volume.client.completeMultipartUpload(
                        bucket: volume.bucket, key: key, uploadID: uploadID, parts: parts)
                }
            } else {
                try volume.call {
                    try volume.client.putObject(bucket: volume.bucket, key: key, bytes: pending)
                }
            }
        }
        ended = true
        pending = []
    }

    /// Runs `body`; on failure, abandons the upload and throws the `FileError` for writing.
    private func failing(_ body: () throws(S3Failure) -> Void) throws(FileError) {
        do {
            try body()
        } catch {
            close()
            throw error.fileError(.write, file)
        }
    }

    func info() throws(FileError) -> FileInfo {
        volume.fileInfo(key: key, size: sent + Int64(pending.count), modified: .now())
    }

    func setAttributes(_ change: AttributeChange) throws(FileError) {
        if change != AttributeChange() { throw FileError(.setAttributes, file, .notSupported) }
    }

    func truncate(to size: UInt64) throws(FileError) {
        guard let size = Int64(exactly: size), size >= sent else {
            throw FileError(.write, file, .notSupported)
        }
        let count = Int(size - sent)
        if count < pending.count {
            pending.removeSubrange(count...)
        } else {
            pending += [UInt8](repeating: 0, count: count - pending.count)
        }
    }

    func close() {
        guard !ended else { return }
        ended = true
        pending = []
        if let uploadID {
            try? volume.client.abortMultipartUpload(bucket: volume.bucket, key: key, uploadID: uploadID)
        }
    }
}
