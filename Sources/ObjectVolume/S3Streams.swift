import Dispatch
import ObjectStorage
import PathModel
import Synchronization
import SystemPackage

/// An object opened for reading: each read outside the bytes already fetched asks for a range,
/// which doubles (up to the volume's part size) while the reads go on in order, so a small read
/// (`head`) costs a small request and a whole object a few large ones; a read at the end
/// (`tail`) fetches only the end. Once the ranges are a part's size, the next ones are fetched
/// ahead in parallel (the volume's `partsInFlight`, each in a part's buffer reused from range to
/// range) while the reads go on in order; a read elsewhere drops them. Memory so holds the range
/// being read and those ahead, whatever the object's size.
///
/// An object stored with a checksum is checked while the ranges come in order from its first
/// byte: the read that brings its last byte fails with `EIO` (a checksum mismatch) when the
/// bytes differ, and so does every read after it. Reads out of order are not checked. An
/// object made of parts that carried checksums is checked so too, each part's checksum worked
/// out where S3 says the parts end: asked once the reads go past a first range of 256 KiB or
/// less (a short read costs no request more), before any larger one; the first range's bytes
/// count towards the first part, so an object whose first part is shorter than that is not
/// checked (S3 refuses parts under 5 MiB but the last).
///
/// An object opened as a listing described it (`described`, no larger than the first range)
/// is fetched whole by the first read, in one GET on the condition that its entity tag is
/// still the listed one; when it has changed, a HEAD says what it is now, and the reads go on
/// as above.
final class S3Download: PieceSource, @unchecked Sendable {
    private let volume: S3Volume
    private let key: [UInt8]
    private var head: ObjectHead
    private let file: File
    /// Whether `head` is what a listing said, until the first read fetches the whole object.
    private var isDescribed = false
    /// Touched only by the one task that uses the stream.
    private var offset: UInt64 = 0
    /// The bytes fetched last and the offset of the first of them.
    private var window: [UInt8] = []
    private var windowStart: UInt64 = 0
    /// How many bytes the first fetch asks for.
    static let firstFetchSize = 256 << 10
    /// How many bytes the next fetch asks for.
    private var fetchSize = firstFetchSize
    /// The ranges being fetched ahead of the reads, in order.
    private var ahead: [RangeFetch] = []
    /// The buffers of the ranges fetched ahead, made with the first of them.
    private var buffers: PartBuffers?
    /// The checksum of the bytes fetched so far, while they came in order from the first; nil
    /// once a fetch went elsewhere, or when the object has no checksum to compare with.
    private var computation: ChecksumComputation?
    /// The checksums of the parts fetched so far, while they came in order from the first; nil
    /// once a fetch went elsewhere, or when the object has no composite checksum.
    private var parts: PartChecksums?
    /// How many bytes `computation` has taken.
    private var checked: UInt64 = 0
    /// Whether the bytes were found to differ from the object's checksum.
    private var mismatched = false

    init(volume: S3Volume, key: [UInt8], head: ObjectHead, file: File) {
        self.volume = volume
        self.key = key
        self.head = head
        self.file = file
        startChecking()
    }

    /// The object `key` as `head` (its size and entity tag, from a listing) describes it.
    init(volume: S3Volume, key: [UInt8], described head: ObjectHead, file: File) {
        self.volume = volume
        self.key = key
        self.head = head
        self.file = file
        isDescribed = true
    }

    /// The largest range one request asks for.
    private var largestFetch: Int { max(volume.partSize, 256 << 10) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
        let count = try read(into: buffer, at: offset)
        offset += UInt64(count)
        return count
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(FileError) -> Int {
        if mismatched { throw checksumMismatch }
        if isDescribed { try fetchDescribed() }
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

    /// Fetches the window that starts at `offset`: the next one in order grows, and comes from
    /// the ranges fetched ahead once it is as large as it gets.
    private func fetch(at offset: UInt64, size: UInt64, wanted: Int) throws(FileError) {
        let inOrder = offset == windowStart + UInt64(window.count) && !window.isEmpty
        if inOrder {
            fetchSize = min(fetchSize * 2, largestFetch)
        }
        if let next = ahead.first, next.start == offset, let buffers {
            ahead.removeFirst()
            let part = try volume.failing(.read, file) { () throws(S3Failure) in try next.bytes() }
            // The range's bytes become the window; the buffer goes back with the old window's room.
            swap(&window, &part.bytes)
            buffers.give(part)
        } else {
            dropFetchesAhead()
            let last = min(offset + UInt64(max(fetchSize, wanted)), size) - 1
            window = try volume.failing(.read, file) { () throws(S3Failure) in
                try RangeFetch.get(key, first: offset, last: last, from: volume)
            }
        }
        windowStart = offset
        try check(size: size)
        if inOrder && fetchSize == largestFetch {
            let parts =
                buffers
                ?? PartBuffers(limit: volume.partsInFlight, partSize: largestFetch, ledger: volume.partLedger)
            buffers = parts
            var next = ahead.last.map { $0.start + UInt64(largestFetch) } ?? offset + UInt64(window.count)
            while ahead.count < parts.limit && next < size {
                let last = min(next + UInt64(largestFetch), size) - 1
                ahead.append(RangeFetch(key, first: next, last: last, from: volume, into: parts))
                next = last + 1
            }
        }
    }

    /// Fetches the whole object a listing described, if it still has the entity tag listed (the
    /// client checks its checksum); else asks what it is now (HEAD) for the reads to go on.
    private func fetchDescribed() throws(FileError) {
        isDescribed = false
        do {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Int(max(head.size, 0)))
            let answer = try volume.client.getObject(bucket: volume.bucket, key: key, ifMatch: head.eTag) {
                bytes.append(contentsOf: $0)
            }
            head = answer
            window = bytes
            windowStart = 0
        } catch let error as S3Error where error.kind == .preconditionFailed {
            head = try volume.failing(.read, file) { () throws(S3Failure) in
                try volume.call { try volume.client.headObject(bucket: volume.bucket, key: key) }
            }
            startChecking()
        } catch let error as S3Error where error.kind == .badDigest {
            mismatched = true
            throw checksumMismatch
        } catch {
            throw S3Failure(error).fileError(.read, file)
        }
    }

    /// Checks the bytes to come against the checksum `head` gives, if any.
    private func startChecking() {
        if head.checksum != nil { computation = ChecksumComputation() }
        if head.compositeChecksum != nil { parts = PartChecksums() }
    }

    /// Adds the window just fetched to the checksum while the windows come in order from the
    /// first byte, and once the last byte is in compares it with the object's.
    private func check(size: UInt64) throws(FileError) {
        guard computation != nil || parts != nil else { return }
        guard windowStart == checked else {
            computation = nil
            parts = nil
            return
        }
        let isLast = checked + UInt64(window.count) == size
        if parts != nil, parts?.sizes == nil, checked > 0 || isLast || window.count > Self.firstFetchSize {
            parts = try volume.partSizes(of: key, head: head, file: file).flatMap { parts?.learning($0) }
        }
        window.withUnsafeBytes { bytes in
            computation?.add(bytes)
            parts?.add(bytes)
        }
        checked += UInt64(window.count)
        guard isLast else { return }
        let matches =
            computation.map { $0.finished() == head.checksum }
            ?? parts.map { $0.matches(head.compositeChecksum!) } ?? true
        computation = nil
        parts = nil
        if !matches {
            mismatched = true
            window = []
            throw checksumMismatch
        }
    }

    /// The error of a read once the bytes did not match the object's checksum.
    private var checksumMismatch: FileError {
        FileError(.read, file, .ioError, serviceFailure: .checksumMismatch)
    }

    /// Waits for the ranges fetched ahead and forgets them, so that no request outlives its use.
    private func dropFetchesAhead() {
        for fetch in ahead { fetch.drop() }
        ahead = []
    }

    /// The object's ranges fetched in parallel, each piece handed over as it arrives
    /// (`ParallelRanges`). Declined for a stream read already; for a small object a listing
    /// described (its one GET reads it whole); and for an object stored with a checksum of its
    /// whole bytes, which the reads work out as the bytes come in order.
    func deliverPieces(
        to sink: @escaping @Sendable (_ offset: UInt64, _ bytes: UnsafeRawBufferPointer) throws(FileError) -> Void,
        progress: (_ bytes: UInt64) -> Void, isCancelled: () -> Bool
    ) throws(FileError) -> Bool {
        guard !isDescribed, offset == 0, window.isEmpty, head.checksum == nil else { return false }
        try ParallelRanges(volume: volume, key: key, head: head, file: file)
            .deliver(to: sink, progress: progress, isCancelled: isCancelled)
        return true
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

    func close() {
        dropFetchesAhead()
        window = []
    }
}

/// One ranged GET of an object on a thread of its own, for reading ahead, into a buffer of
/// the download's `PartBuffers`: whoever takes its bytes gives the buffer back.
final class RangeFetch: @unchecked Sendable {
    /// The offset of the range's first byte.
    let start: UInt64
    private let done = DispatchSemaphore(value: 0)
    private let part: PartBuffer
    private let buffers: PartBuffers
    /// Written by the fetching thread before it signals `done`.
    private var failure: S3Failure?

    /// Starts fetching bytes `first...last` of `key` into a buffer taken from `buffers`.
    init(_ key: [UInt8], first: UInt64, last: UInt64, from volume: S3Volume, into buffers: PartBuffers) {
        start = first
        self.buffers = buffers
        part = buffers.take()
        // A queue of its own runs on a thread of its own, however many wait on the network.
        DispatchQueue(label: "shelf.s3.range").async { [self] in
            do throws(S3Failure) {
                try Self.get(key, first: first, last: last, from: volume, into: &part.bytes)
            } catch {
                failure = error
            }
            done.signal()
        }
    }

    /// The buffer holding the range's bytes, once they have come; the caller gives it back.
    /// - Throws: the range's failure, its buffer given back.
    func bytes() throws(S3Failure) -> PartBuffer {
        done.wait()
        if let failure {
            buffers.give(part)
            throw failure
        }
        return part
    }

    /// Waits until the range has come (or failed) and gives its buffer back unread.
    func drop() {
        done.wait()
        buffers.give(part)
    }

    /// Bytes `first...last` of `key`, fetched on the caller's thread.
    static func get(_ key: [UInt8], first: UInt64, last: UInt64, from volume: S3Volume) throws(S3Failure)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        try get(key, first: first, last: last, from: volume, into: &bytes)
        return bytes
    }

    /// Appends bytes `first...last` of `key` to `bytes`, fetched on the caller's thread.
    static func get(
        _ key: [UInt8], first: UInt64, last: UInt64, from volume: S3Volume, into bytes: inout [UInt8]
    ) throws(S3Failure) {
        bytes.reserveCapacity(bytes.count + Int(last - first + 1))
        _ = try volume.call {
            try volume.client.getObject(
                bucket: volume.bucket, key: key, range: ByteRange(first: Int64(first), last: Int64(last))
            ) { bytes.append(contentsOf: $0) }
        }
    }
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
/// goes up as a part of a multipart upload, begun then, while the next part gathers: up to the
/// volume's `partsInFlight` parts are in flight at once, each in a buffer reused from part to
/// part (`PartBuffers`), so memory holds that many parts and the one gathering. `finish()` sends the rest (one PUT for a file no larger
/// than a part), waits for every part and completes the upload: only then does the object
/// appear, and a failure at any step aborts the upload once no part is in flight, so no parts
/// are left behind. `close()` without `finish()` abandons it the same way.
///
/// Writes go in order. A write or a cut before the bytes already sent as parts is refused with
/// `ENOTSUP`; so is opening an object larger than a part to append to it or change it in place.
final class S3Upload: PieceTaker, @unchecked Sendable {
    private let volume: S3Volume
    private let key: [UInt8]
    private let file: File
    private let appending: Bool
    /// Touched only by the one task that uses the stream.
    private var pending: [UInt8] = []
    /// How many bytes went up as parts before `pending`.
    private var sent: Int64 = 0
    private var offset: Int64 = 0
    /// The multipart upload, once begun.
    private var parts: PartUploads?
    /// The buffers of the parts in flight, made with the first part.
    private var buffers: PartBuffers?
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
        // A part goes once more than a part is held: a file of exactly a part is one PUT.
        while pending.count > volume.partSize && offset == sent + Int64(pending.count) {
            try failing { () throws(S3Failure) in try sendPart(count: volume.partSize) }
        }
    }

    /// Hands the first `count` pending bytes to the upload as its next part, beginning the
    /// upload if needed; waits while the most parts allowed are in flight.
    private func sendPart(count: Int) throws(S3Failure) {
        let upload: PartUploads
        if let parts {
            upload = parts
        } else {
            upload = try PartUploads(of: key, in: volume, checksummed: true)
            parts = upload
        }
        let buffers =
            self.buffers
            ?? PartBuffers(limit: volume.partsInFlight, partSize: volume.partSize, ledger: volume.partLedger)
        self.buffers = buffers
        // Waits while the most parts allowed are in memory.
        let part = buffers.take()
        if count == pending.count {
            // The part's bytes go as they are; the next part gathers in the buffer's room.
            swap(&part.bytes, &pending)
        } else {
            part.bytes.append(contentsOf: pending[..<count])
            pending.removeFirst(count)
        }
        try upload.send(part, from: buffers)
        sent += Int64(count)
    }

    func finish() throws(FileError) {
        guard !ended else { return }
        try failing { () throws(S3Failure) in
            if let parts {
                if !pending.isEmpty { try sendPart(count: pending.count) }
                try parts.complete()
            } else {
                try volume.call {
                    try volume.client.putObject(bucket: volume.bucket, key: key, bytes: pending)
                }
            }
        }
        ended = true
        pending = []
    }

    /// A file larger than a part goes up as a multipart upload whose parts are read from the
    /// source when each is sent (`PieceTaker`): its checksum from a first read, its body from
    /// a second as the request streams it (and again when the client sends it again), the
    /// volume's `partsInFlight` parts at once, each of the part size or of a 10,000th of the
    /// file if that is larger. No part is held in memory, only what a request streams at a
    /// time. The object is the file's `size` bytes: bytes appended to it meanwhile are not
    /// sent. Declined for a file no larger than a part and for a stream written already, whose
    /// bytes are written in order.
    func takePieces(
        size: UInt64,
        from read: @escaping @Sendable (_ offset: UInt64, _ buffer: UnsafeMutableRawBufferPointer) throws(FileError) ->
            Void,
        progress: (_ bytes: UInt64) -> Void, isCancelled: () -> Bool
    ) throws(FileError) -> Bool {
        guard size > UInt64(volume.partSize), !appending, !ended, parts == nil, offset == 0, pending.isEmpty else {
            return false
        }
        let partSize = max(UInt64(volume.partSize), (size + UInt64(ObjectParts.mostParts) - 1) / UInt64(ObjectParts.mostParts))
        try failing { () throws(S3Failure) in
            let upload = try PartUploads(of: key, in: volume, checksummed: true, partsAtOnce: volume.partsInFlight)
            parts = upload
            var first: UInt64 = 0
            while first < size {
                if isCancelled() { throw .errno(.canceled) }
                let count = Int(min(partSize, size - first))
                try upload.send { [first] number throws(S3Failure) in
                    var computation = ChecksumComputation()
                    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(count, 256 << 10), alignment: 16)
                    defer { chunk.deallocate() }
                    var hashed = 0
                    while hashed < count {
                        let piece = UnsafeMutableRawBufferPointer(rebasing: chunk[..<min(chunk.count, count - hashed)])
                        do throws(FileError) { try read(first + UInt64(hashed), piece) } catch { throw .other(error) }
                        computation.add(UnsafeRawBufferPointer(piece))
                        hashed += piece.count
                    }
                    return try upload.uploadPart(number, length: count, checksum: computation.finished()) {
                        (offset, buffer) throws(FileError) in try read(first + UInt64(offset), buffer)
                    }
                }
                progress(UInt64(count))
                first += UInt64(count)
            }
            try upload.complete()
        }
        ended = true
        sent = Int64(size)
        return true
    }

    /// Runs `body`; on failure, abandons the upload and throws the `FileError` for writing, or
    /// for creating the file when the service refused it: S3 refuses an object when its bytes
    /// go up, where a disk refuses at the file's creation. A source's failure to be read
    /// (`PieceTaker`) is told as it is.
    private func failing(_ body: () throws(S3Failure) -> Void) throws(FileError) {
        do {
            try body()
        } catch {
            close()
            if case .other(let source as FileError) = error, source.operation == .read { throw source }
            let failure = error.fileError(.write, file)
            throw failure.errno == .permissionDenied ? failure.reworded(as: .createFile, file) : failure
        }
    }

    func info() throws(FileError) -> FileInfo {
        volume.fileInfo(key: key, size: sent + Int64(pending.count), modified: .now())
    }

    func setAttributes(_ change: AttributeChange) throws(FileError) {
        if change != AttributeChange() { throw FileError(.setAttributes, file, .notSupported) }
    }

    /// Cuts or extends the bytes not yet sent; what a part already took cannot change, and an
    /// object extended past a part's size (bytes held in memory until sent) is `EFBIG`.
    func truncate(to size: UInt64) throws(FileError) {
        guard let size = Int64(exactly: size), size >= sent else {
            throw FileError(.write, file, .notSupported)
        }
        guard size - sent <= Int64(max(volume.partSize, pending.count)) else {
            throw FileError(.write, file, .fileTooLarge)
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
        parts?.abort()
    }
}

/// The parts of one multipart upload, sent in parallel: each on a thread of its own, at most
/// the volume's `concurrentRequests` at once; handing over one more waits for a slot. The
/// client retries a failed part alone; a part that fails for good becomes the upload's
/// failure, and no part is sent after it. In a `checksummed` upload each part goes with its
/// checksum, worked out on the part's thread, and the completion lists them.
final class PartUploads: Sendable {
    private let volume: S3Volume
    private let key: [UInt8]
    /// The upload's id.
    let uploadID: String
    private let slots: DispatchSemaphore
    private let inFlight = DispatchGroup()
    /// The parts through so far, the first failure, and how many parts were handed over.
    private let state = Mutex<(parts: [CompletedPart], failure: S3Failure?, numbered: Int)>(([], nil, 0))

    /// Begins a multipart upload of `key`, whose parts carry their checksums when `checksummed`,
    /// `partsAtOnce` of them in flight (the volume's `concurrentRequests` unless told).
    init(of key: [UInt8], in volume: S3Volume, checksummed: Bool = false, partsAtOnce: Int? = nil) throws(S3Failure) {
        self.volume = volume
        self.key = key
        uploadID = try volume.call {
            try volume.client.createMultipartUpload(bucket: volume.bucket, key: key, checksummed: checksummed)
        }
        slots = DispatchSemaphore(value: partsAtOnce ?? volume.concurrentRequests)
    }

    /// Sends the bytes of `part` as the next part (UploadPart, retried by the client from their
    /// start), with their checksum, and gives the buffer back to `buffers` once it is through
    /// (or has failed).
    func send(_ part: PartBuffer, from buffers: PartBuffers) throws(S3Failure) {
        do throws(S3Failure) {
            try send { [self] number throws(S3Failure) in
                defer { buffers.give(part) }
                let checksum = part.bytes.withUnsafeBytes { ObjectChecksum(of: $0) }
                return try uploadPart(number, length: part.bytes.count, checksum: checksum) { offset, buffer in
                    part.bytes.withUnsafeBytes { bytes in
                        buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: buffer.count)
                    }
                }
            }
        } catch {
            // Refused before it went (a part before it failed): the buffer was never handed over.
            buffers.give(part)
            throw error
        }
    }

    /// Sends `length` bytes as part `number` with their `checksum` (UploadPart): `read` fills a
    /// buffer with the part's bytes at an offset in it, and is asked again from the part's
    /// start when the client sends the part again.
    func uploadPart(
        _ number: Int, length: Int, checksum: ObjectChecksum,
        from read: (_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Void
    ) throws(S3Failure) -> CompletedPart {
        var position = 0
        let eTag = try volume.call {
            try volume.client.uploadPart(
                bucket: volume.bucket, key: key, uploadID: uploadID, partNumber: number, length: Int64(length),
                checksum: checksum, rewind: { position = 0 }
            ) { buffer in
                let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, length - position)])
                try read(position, piece)
                position += piece.count
                return piece.count
            }
        }
        return CompletedPart(partNumber: number, eTag: eTag, checksum: checksum)
    }

    /// Runs `part` for the next part number, once fewer than the most allowed are in flight;
    /// it gives the part as the completion lists it.
    /// - Throws: the failure of a part sent before, if one failed.
    func send(_ part: @escaping @Sendable (_ number: Int) throws(S3Failure) -> CompletedPart) throws(S3Failure) {
        slots.wait()
        let number: Int? = state.withLock { state in
            guard state.failure == nil else { return nil }
            state.numbered += 1
            return state.numbered
        }
        guard let number else {
            slots.signal()
            throw state.withLock { $0.failure! }
        }
        inFlight.enter()
        // A queue of its own runs on a thread of its own, however many wait on the network.
        DispatchQueue(label: "shelf.s3.part").async { [self] in
            defer {
                slots.signal()
                inFlight.leave()
            }
            do throws(S3Failure) {
                let completed = try part(number)
                state.withLock { $0.parts.append(completed) }
            } catch {
                state.withLock { state in
                    if state.failure == nil { state.failure = error }
                }
            }
        }
    }

    /// Waits until no part is in flight.
    func waitForAll() { inFlight.wait() }

    /// Waits for every part and completes the upload: the object appears now.
    /// - Throws: the first failure of a part, or of the completion.
    func complete() throws(S3Failure) {
        inFlight.wait()
        let (parts, failure) = state.withLock { ($0.parts, $0.failure) }
        if let failure { throw failure }
        _ = try volume.call {
            try volume.client.completeMultipartUpload(
                bucket: volume.bucket, key: key, uploadID: uploadID,
                parts: parts.sorted { $0.partNumber < $1.partNumber })
        }
    }

    /// Abandons the upload once no part is in flight (a part still going could land after the
    /// abort and stay stored).
    func abort() {
        inFlight.wait()
        try? volume.client.abortMultipartUpload(bucket: volume.bucket, key: key, uploadID: uploadID)
    }
}
