// Deep walks from listings without a delimiter (`S3TreeListing`): the order the server gives
// keys in, and every directory rebuilt from it as a delimiter listing shows it, whatever the
// page size, the window and the order directories are asked for in. Against a real SeaweedFS.

import ObjectStorage
import PathModel
import SeaweedFixture
import Synchronization
import Testing

@testable import ObjectVolume

@Suite struct S3TreeListingTests {
    /// Keys whose order differs between byte order and directory order (`a.b`, `a b`, `a-b`
    /// against `a/`), a file and a directory of one name (`b`), markers, a directory with a marker
    /// alone, one without any, a deep one, and names that are not ASCII.
    static let awkwardKeys = [
        "b/x", "a b", "a/b/c", "a.b", "a/x", "a0", "a/", "z/implied/g", "m/", "a-b/c", "a/b/", "a/b.c",
        "a/b/d", "a/b c", "b", "a.b/q", "é/x", "e/f", "ab/", "ab/c", "A/x", "a/b/c2/d/e", "a/b-c/f",
        "a/b-c/g", "a/b/c2/h",
    ]

    /// Writes `keys` below the volume's prefix, markers empty and files of their key's length.
    static func put(_ keys: [String], on volume: S3Volume) throws {
        for key in keys {
            try volume.client.putObject(
                bucket: volume.bucket, key: volume.prefix + Array(key.utf8),
                bytes: key.hasSuffix("/") ? [] : Array(key.utf8))
        }
    }

    /// Every key below the volume's prefix, in the order listed, two keys a request.
    static func flatListing(_ volume: S3Volume) throws -> [[UInt8]] {
        var keys: [[UInt8]] = []
        var token: String?
        repeat {
            let page = try volume.client.listObjects(
                bucket: volume.bucket, prefix: volume.prefix, continuationToken: token, maxKeys: 2)
            keys += page.objects.map { Array($0.key.dropFirst(volume.prefix.count)) }
            token = page.isTruncated ? page.nextContinuationToken : nil
        } while token != nil
        return keys
    }

    @Test func theServerKeepsEachDirectorysKeysTogether() throws {
        try SeaweedServer.withVolume { volume in
            try Self.put(Self.awkwardKeys, on: volume)
            let keys = try Self.flatListing(volume)
            #expect(Set(keys) == Set(Self.awkwardKeys.map { Array($0.utf8) }))
            // SeaweedFS gives directory order (`a/b/c` before `a b`), S3 byte order; either
            // keeps a directory's keys together, which is all the rebuild relies on.
            let pairs = zip(keys, keys.dropFirst())
            #expect(
                pairs.allSatisfy { bytesPrecede($0, $1) }
                    || pairs.allSatisfy { S3TreeListing.directoryOrderPrecedes($0, $1) })
            let directories = Set(keys.flatMap { key in
                key.indices.filter { key[$0] == 0x2F }.map { Array(key[...$0]) }
            })
            for directory in directories {
                let below = keys.indices.filter { keys[$0].starts(with: directory) }
                #expect(below.last! - below.first! + 1 == below.count, "\(String(decoding: directory, as: UTF8.self))")
            }
        }
    }

    /// How a walk asks for directories, and how much the tree listing reads and holds.
    struct Walk: Sendable, CustomTestStringConvertible {
        let name: String
        let pageKeys: Int?
        let windowLimit: Int
        /// Whether subdirectories are entered in byte order of their names (tree, ls -R, cp -r)
        /// rather than in the order listed.
        let sorted: Bool
        var testDescription: String { name }
    }

    static let walks: [Walk] = [
        Walk(name: "one page holds the tree", pageKeys: nil, windowLimit: 1000, sorted: false),
        Walk(name: "one page, entered in byte order", pageKeys: nil, windowLimit: 1000, sorted: true),
        Walk(name: "pages of three keys, a window of five", pageKeys: 3, windowLimit: 5, sorted: false),
        Walk(name: "pages of two keys, a window of four, in byte order", pageKeys: 2, windowLimit: 4, sorted: true),
        // Not a key a page: SeaweedFS says a listing of `dir/` that gave `dir/` alone, asked for
        // one key, is over.
        Walk(name: "pages of two keys, a window of one, in byte order", pageKeys: 2, windowLimit: 1, sorted: true),
    ]

    /// What a directory's listing says: each entry with its kind (and a file's size), and
    /// whether the directory's marker was listed.
    static func summary(_ page: DirectoryPage) -> [String] {
        let entries = page.entries.map { entry in
            let name = String(decoding: entry.name, as: UTF8.self)
            guard entry.kind == .regular else { return "d " + name }
            return "f \(name) \(page.files[entry.name]?.size ?? -1)"
        }
        return entries.sorted() + (page.hasMarker ? ["marker"] : [])
    }

    @Test(arguments: walks) func everyDirectoryIsRebuiltAsADelimiterListingShowsIt(_ walk: Walk) throws {
        try SeaweedServer.withVolume { volume in
            try Self.put(Self.awkwardKeys + (0..<7).map { "many/d\($0 % 3)/f\($0)" }, on: volume)
            let tree = S3TreeListing(volume: volume, windowLimit: walk.windowLimit, pageKeys: walk.pageKeys)
            var visited = 0
            func visit(_ place: Place) throws {
                let page = try tree.page(prefix: place.directoryPrefix(in: volume)) ?? volume.existingListing(of: place)
                let expected = try volume.listing(of: place)
                #expect(Self.summary(page) == Self.summary(expected), "\(place.components)")
                visited += 1
                var directories = page.entries.filter { $0.kind == .directory }.map(\.name)
                if walk.sorted { directories.sort(by: bytesPrecede) }
                for name in directories { try visit(Place(components: place.components + [name])) }
            }
            try visit(Place(components: []))
            // The top, a, a/b, a/b/c2, a/b/c2/d, a/b-c, z, z/implied, m, a-b, a.b, é, e, ab, A, b,
            // many and its three.
            #expect(visited == 20)
        }
    }

    /// The promise: a deep listing holds keys by the depth of the walk, not by their
    /// number. 600 keys three directories deep (4 × 5 × 5 directories of 6 keys), read seven
    /// keys a request through windows of 40: the directories below the top two levels are
    /// rebuilt from the windows, and the walk never holds more than a window and a page for
    /// each directory it is in.
    @Test(arguments: [false, true]) func aWalkHoldsKeysByItsDepthNotByTheirNumber(sorted: Bool) throws {
        try SeaweedServer.withVolume { volume in
            let keys = (0..<600).map { "d\($0 / 150)/e\($0 / 30 % 5)/f\($0 / 6 % 5)/k\($0)" }
            try Self.put(keys, on: volume)
            let (windowLimit, pageKeys) = (40, 7)
            let tree = S3TreeListing(volume: volume, windowLimit: windowLimit, pageKeys: pageKeys)
            var filesSeen = 0
            var rebuilt = 0
            func visit(_ place: Place) throws {
                let fromWindow = try tree.page(prefix: place.directoryPrefix(in: volume))
                if fromWindow != nil { rebuilt += 1 }
                let page = try fromWindow ?? volume.existingListing(of: place)
                filesSeen += page.entries.filter { $0.kind == .regular }.count
                var directories = page.entries.filter { $0.kind == .directory }.map(\.name)
                if sorted { directories.sort(by: bytesPrecede) }
                for name in directories { try visit(Place(components: place.components + [name])) }
            }
            try visit(Place(components: []))
            #expect(filesSeen == keys.count)
            #expect(rebuilt >= 4 * 5 + 4 * 5 * 5, "every directory below the top two levels came from a window")
            let held = tree.mostKeysHeld.load(ordering: .relaxed)
            #expect(held <= 4 * (windowLimit + pageKeys), "a window and a page for each of four levels")
        }
    }

    @Test func directoryOrderComparesNameByName() {
        let rows: [(String, String, Bool)] = [
            ("a/b/c", "a b", true), ("a b", "a/b/c", false), ("a", "a/x", true), ("a/x", "a.b", true),
            ("a.b", "a/x", false), ("a/x", "a/y", true), ("ab", "a/x", false), ("a/b", "a/b", false),
        ]
        for (left, right, precedes) in rows {
            #expect(
                S3TreeListing.directoryOrderPrecedes(Array(left.utf8), Array(right.utf8)) == precedes,
                "\(left) before \(right)")
        }
    }
}
