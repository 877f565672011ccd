import ObjectStorage
import PathModel

extension S3Volume {
    /// The sizes of the parts of `key` (as `head` describes it), to check its composite checksum
    /// by: nil when it has none, when S3 lists no parts, or when the server may not or cannot
    /// say (`AccessDenied`: a permission of its own on AWS, `s3:GetObjectAttributes`;
    /// `NotImplemented`), and the object is then not checked. An object of one part is its one
    /// part, and costs no request.
    /// - Throws: the object changed since `head` (another entity tag) as a refused condition;
    ///   parts that are not the composite's count or do not add up to the object's size as a
    ///   malformed answer; a failed request as every read's.
    func partSizes(of key: [UInt8], head: ObjectHead, file: File) throws(FileError) -> [Int64]? {
        guard let composite = head.compositeChecksum else { return nil }
        if composite.partCount == 1 { return [head.size] }
        return try failing(.read, file) { () throws(S3Failure) -> [Int64]? in
            let parts: ObjectParts?
            do {
                parts = try client.objectParts(bucket: bucket, key: key)
            } catch let error as S3Error where error.kind == .accessDenied || error.code == "NotImplemented" {
                return nil
            } catch {
                throw S3Failure(error)
            }
            guard let parts else { return nil }
            if let eTag = parts.eTag, Self.unquoted(eTag) != head.eTag.map(Self.unquoted) {
                throw .service(S3Error(.preconditionFailed, status: 412, code: "PreconditionFailed"))
            }
            var total: Int64 = 0
            for size in parts.sizes {
                let (sum, overflow) = total.addingReportingOverflow(size)
                guard !overflow else { throw .service(S3Error(.malformedResponse)) }
                total = sum
            }
            guard parts.sizes.count == composite.partCount, total == head.size else {
                throw .service(S3Error(.malformedResponse))
            }
            return parts.sizes
        }
    }

    /// An entity tag without the quotes around it (S3 quotes it in headers, not in every answer).
    private static func unquoted(_ eTag: String) -> Substring {
        eTag.hasPrefix("\"") && eTag.hasSuffix("\"") && eTag.count >= 2 ? eTag.dropFirst().dropLast() : eTag[...]
    }
}

/// The checksums of an object's parts, worked out from its bytes given in order from the
/// first, to compare with its composite checksum. The parts' sizes may come after the first
/// bytes (a short read needs no request for them): until then every byte counts as the first
/// part's.
struct PartChecksums {
    /// The parts' sizes, once known.
    private(set) var sizes: [Int64]?
    /// The checksums of the parts whose bytes all came.
    private var finished: [ObjectChecksum] = []
    private var current = ChecksumComputation()
    /// How many bytes of the current part came.
    private var inCurrent: Int64 = 0

    /// These checksums with the parts' sizes known; nil when the bytes given already run past
    /// the first part's end, and the parts cannot be checked.
    func learning(_ sizes: [Int64]) -> PartChecksums? {
        guard let first = sizes.first, inCurrent <= first else { return nil }
        var learned = self
        learned.sizes = sizes
        learned.finishFullParts()
        return learned
    }

    /// Adds `bytes`, which follow those given before.
    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        guard let sizes else {
            current.add(bytes)
            inCurrent += Int64(bytes.count)
            return
        }
        var rest = bytes
        while !rest.isEmpty, finished.count < sizes.count {
            let taken = Int(min(Int64(rest.count), sizes[finished.count] - inCurrent))
            current.add(UnsafeRawBufferPointer(rebasing: rest[..<taken]))
            inCurrent += Int64(taken)
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
            finishFullParts()
        }
    }

    /// Whether the parts' checksums, once every byte was given, make `composite`.
    func matches(_ composite: CompositeChecksum) -> Bool {
        composite.isMade(of: finished)
    }

    /// Ends each part (empty ones too) whose bytes all came.
    private mutating func finishFullParts() {
        guard let sizes else { return }
        while finished.count < sizes.count, inCurrent == sizes[finished.count] {
            finished.append(current.finished())
            current = ChecksumComputation()
            inCurrent = 0
        }
    }
}
