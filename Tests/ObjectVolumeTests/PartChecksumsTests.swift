// The checksums of an object's parts worked out from its bytes given in order, in pieces that
// need not end where the parts do, with the parts' sizes known before the bytes or learned
// after the first of them.

import Foundation
import Testing

@testable import ObjectStorage
@testable import ObjectVolume

@Suite struct PartChecksumsTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let testDescription: String
        /// The parts' sizes.
        let sizes: [Int]
        /// The size of each piece given.
        let piece: Int
        /// How many pieces come before the sizes are learned.
        let piecesBeforeSizes: Int
    }

    static let rows = [
        Row(
            testDescription: "sizes known first, pieces smaller than a part", sizes: [10, 10, 3], piece: 4,
            piecesBeforeSizes: 0),
        Row(
            testDescription: "sizes learned within the first part", sizes: [10, 10, 3], piece: 7,
            piecesBeforeSizes: 1),
        Row(
            testDescription: "sizes learned at the first part's end", sizes: [10, 10, 3], piece: 5,
            piecesBeforeSizes: 2),
        Row(
            testDescription: "one piece across every part", sizes: [3, 3, 3], piece: 9, piecesBeforeSizes: 0),
        Row(testDescription: "an empty last part", sizes: [5, 0], piece: 2, piecesBeforeSizes: 0),
        Row(testDescription: "one part", sizes: [6], piece: 4, piecesBeforeSizes: 1),
    ]

    static func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    }

    /// The composite checksum S3 would give parts of `sizes` of `bytes`.
    static func composite(of bytes: [UInt8], sizes: [Int]) -> CompositeChecksum {
        var start = 0
        let digests = sizes.flatMap { size in
            defer { start += size }
            return ObjectChecksum(of: Array(bytes[start..<start + size])).digest
        }
        let header = Data(ObjectChecksum(of: digests).digest).base64EncodedString() + "-\(sizes.count)"
        return CompositeChecksum(headerValue: header)!
    }

    @Test(arguments: rows)
    func thePartsMakeTheComposite(_ row: Row) {
        let bytes = Self.bytes(row.sizes.reduce(0, +))
        var parts = PartChecksums()
        var given = 0
        var pieces = 0
        while given < bytes.count || pieces < row.piecesBeforeSizes {
            if pieces == row.piecesBeforeSizes {
                let learned = parts.learning(row.sizes.map { Int64($0) })
                #expect(learned != nil)
                parts = learned ?? parts
            }
            let end = min(given + row.piece, bytes.count)
            bytes[given..<end].withUnsafeBytes { parts.add($0) }
            given = end
            pieces += 1
        }
        #expect(parts.matches(Self.composite(of: bytes, sizes: row.sizes)))
        var changed = bytes
        changed[changed.count - 1] ^= 1
        #expect(!parts.matches(Self.composite(of: changed, sizes: row.sizes)))
        #expect(!parts.matches(Self.composite(of: bytes, sizes: [bytes.count])) || row.sizes.count == 1)
    }

    /// Bytes given before the sizes that run past the first part's end cannot be split again.
    @Test func sizesLearnedPastTheFirstPartAreRefused() {
        var parts = PartChecksums()
        Self.bytes(12).withUnsafeBytes { parts.add($0) }
        #expect(parts.learning([10, 2]) == nil)
        #expect(parts.learning([12, 2]) != nil)
    }
}
