import ObjectStorage
import PathModel

extension S3Volume {
    /// The sizes of the parts `key` was made of, to check `composite` by: nil when S3 lists no
    /// parts, or when the credentials may not ask (a permission of its own on AWS,
    /// `s3:GetObjectAttributes`), and the object is then not checked.
    /// - Throws: `EIO` (a malformed answer) when the parts listed are not `composite`'s count or
    ///   do not add up to the object's `size`; a failed request as every read's.
    func partSizes(
        of key: [UInt8], matching composite: CompositeChecksum, size: Int64, file: File
    ) throws(FileError) -> [Int64]? {
        let sizes: [Int64]?
        do {
            sizes = try client.partSizes(bucket: bucket, key: key)
        } catch let error as S3Error where error.kind == .accessDenied || error.code == "NotImplemented" {
            return nil
        } catch {
            throw S3Failure(error).fileError(.read, file)
        }
        guard let sizes else { return nil }
        guard sizes.count == composite.partCount, sizes.reduce(0, +) == size else {
            throw FileError(.read, file, .ioError, serviceFailure: .malformedAnswer)
        }
        return sizes
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

    /// Takes the parts' sizes; false when the bytes given already run past the first part's
    /// end, and the parts cannot be checked.
    mutating func learn(_ sizes: [Int64]) -> Bool {
        guard let first = sizes.first, inCurrent <= first else { return false }
        self.sizes = sizes
        finishFullParts()
        return true
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
    func make(_ composite: CompositeChecksum) -> Bool {
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
