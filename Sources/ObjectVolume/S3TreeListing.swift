import ObjectStorage
import PathModel
import Synchronization

/// The listings of the directories a walk enters below one directory of an `S3Volume`, rebuilt
/// from listings without a delimiter (every key below a prefix, 1,000 a request) rather than
/// asked for with a request each.
///
/// The keys of a listing are held in a *window*: a stretch of the listing of one prefix (its
/// *scope*), in the order the service gives. A directory's keys lie together in that order (S3
/// gives keys in byte order, SeaweedFS directory by directory, each directory's names in byte
/// order: in both, the keys below a prefix ending in `/` are consecutive), so a directory's
/// entries are known once a key of another directory follows its last, or the listing ends.
/// A walk enters directories roughly in that order, so the window moves forward: what lies
/// before the directory asked for is dropped, and the next page is read when its keys reach the
/// window's end. The window never holds more than `windowLimit` keys and a page: a directory
/// with more keys than that below it is listed with a delimiter as before (its keys in the
/// window then serve its subdirectories).
///
/// A directory asked for out of that order (a sorted walk enters `a` before `a.b`, whose keys
/// come first in byte order) whose keys were dropped gets a window of its own, a listing of its
/// own prefix, while the walk is below it. Each page is checked to be in byte order or in
/// directory order; a service that gives neither gets a listing per directory from then on.
final class S3TreeListing: Sendable {
    private let volume: S3Volume
    /// The most keys of one directory the window holds before it is listed with a delimiter.
    let windowLimit: Int
    /// The keys asked for in one request; nil for the service's most (1,000 on S3).
    let pageKeys: Int?
    private let windows = Mutex<[Window]>([])
    /// Set when a page kept neither order: every directory is then listed with a delimiter.
    private let unordered = Atomic<Bool>(false)
    /// The most keys the windows held together at once: at most a window (`windowLimit` keys
    /// and a page) for each directory the walk is in, whatever the number of keys.
    let mostKeysHeld = Atomic<Int>(0)

    /// The listings below directories of `volume`, read `pageKeys` keys a request.
    init(volume: S3Volume, windowLimit: Int = 1000, pageKeys: Int? = nil) {
        self.volume = volume
        self.windowLimit = windowLimit
        self.pageKeys = pageKeys
    }

    /// A stretch of the listing of `scope`.
    private struct Window {
        /// The prefix listed: a directory's, ending in `/`, or the volume's.
        let scope: [UInt8]
        /// The keys held, in the service's order.
        var objects: [ObjectSummary] = []
        /// The last key dropped from the front; nil when the window starts at the listing's start.
        var lastDropped: [UInt8]?
        /// The token for the next page; nil once the listing is over (or before the first page).
        var token: String?
        /// Whether the last page has been read.
        var isOver = false
        /// Whether every key so far came in byte order, and whether in directory order.
        var inByteOrder = true
        var inDirectoryOrder = true
    }

    /// The entries of the directory whose keys start with `prefix`, from the window; nil when
    /// the window cannot tell (no key lies below it, or more than `windowLimit` keys do), and
    /// the caller lists the directory with a delimiter.
    func page(prefix: [UInt8]) throws(S3Failure) -> DirectoryPage? {
        if unordered.load(ordering: .relaxed) { return nil }
        return try windows.withLock { (windows: inout [Window]) throws(S3Failure) -> DirectoryPage? in
            // Windows of directories the walk has left go.
            while let last = windows.last, !prefix.starts(with: last.scope) { windows.removeLast() }
            if windows.isEmpty {
                windows.append(try start(prefix))
                noteKeysHeld(in: windows)
            }
            var top = windows.count - 1
            while true {
                let outside = windows[..<top].reduce(0) { $0 + $1.objects.count }
                switch try find(prefix, in: &windows[top], besides: outside) {
                case .found(let page):
                    return page
                case .tooLarge:
                    return nil
                case .unknown where windows[top].scope == prefix:
                    // The listing of this very prefix has no key: a directory with nothing
                    // below it (or none at all), which a delimiter listing tells apart.
                    return nil
                case .unknown:
                    windows.append(try start(prefix))
                    top += 1
                    noteKeysHeld(in: windows)
                case .unordered:
                    unordered.store(true, ordering: .relaxed)
                    windows.removeAll()
                    return nil
                }
            }
        }
    }

    /// Keeps `mostKeysHeld` up to date with what `windows` hold.
    private func noteKeysHeld(in windows: [Window]) {
        mostKeysHeld.max(windows.reduce(0) { $0 + $1.objects.count }, ordering: .relaxed)
    }

    /// What a window says of a prefix.
    private enum Finding {
        /// Its keys, all of them, rebuilt into a directory's entries.
        case found(DirectoryPage)
        /// More keys than the window may hold.
        case tooLarge
        /// Its keys are not in the window (dropped, or never listed there).
        case unknown
        /// The listing kept neither order, so that where a directory's keys end is not known.
        case unordered
    }

    /// Looks for `prefix`'s keys in `window`, reading further pages while they reach its end;
    /// `outside` is the number of keys the other windows hold.
    private func find(_ prefix: [UInt8], in window: inout Window, besides outside: Int) throws(S3Failure) -> Finding {
        while true {
            if !window.inByteOrder && !window.inDirectoryOrder { return .unordered }
            guard let first = window.objects.firstIndex(where: { $0.key.starts(with: prefix) }) else {
                return .unknown
            }
            if first == 0, let dropped = window.lastDropped, dropped.starts(with: prefix) { return .unknown }
            let end = window.objects[first...].firstIndex { !$0.key.starts(with: prefix) }
            if end != nil || window.isOver {
                let run = window.objects[first..<(end ?? window.objects.count)]
                return .found(DirectoryPage(run, below: prefix))
            }
            // The keys go on past the window: what lies before them goes, the next page comes.
            if first > 0 {
                window.lastDropped = window.objects[first - 1].key
                window.objects.removeSubrange(0..<first)
            }
            if window.objects.count >= windowLimit { return .tooLarge }
            try read(&window)
            mostKeysHeld.max(outside + window.objects.count, ordering: .relaxed)
        }
    }

    /// A window on the listing of `prefix`, with its first page.
    private func start(_ prefix: [UInt8]) throws(S3Failure) -> Window {
        var window = Window(scope: prefix)
        try read(&window)
        return window
    }

    /// Reads the next page of `window`'s listing into it, checking its order.
    private func read(_ window: inout Window) throws(S3Failure) {
        let page = try volume.call {
            try volume.client.listObjects(
                bucket: volume.bucket, prefix: window.scope, continuationToken: window.token, maxKeys: pageKeys)
        }
        var previous = window.objects.last?.key
        for object in page.objects {
            if let previous {
                if !bytesPrecede(previous, object.key) { window.inByteOrder = false }
                if !Self.directoryOrderPrecedes(previous, object.key) { window.inDirectoryOrder = false }
            }
            previous = object.key
        }
        window.objects += page.objects
        window.token = page.isTruncated ? page.nextContinuationToken : nil
        window.isOver = window.token == nil
    }

    /// Whether `left` comes before `right` directory by directory: compared name by name, each
    /// name in byte order, a directory's own keys after a shorter name that it starts with
    /// (`/` counts as less than any byte).
    static func directoryOrderPrecedes(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        for (a, b) in zip(left, right) where a != b {
            if a == 0x2F { return true }
            if b == 0x2F { return false }
            return a < b
        }
        return left.count < right.count
    }
}

extension DirectoryPage {
    /// A directory's entries rebuilt from every key below it (`run`, each starting with
    /// `prefix`), in the order listed: the keys one level down as files, the first names of
    /// deeper keys as directories (each once, in the order first seen), then the key `prefix`
    /// itself as the directory's marker.
    init(_ run: ArraySlice<ObjectSummary>, below prefix: [UInt8]) {
        self.init()
        var directories: [DirectoryEntry] = []
        for object in run {
            let name = object.key[prefix.count...]
            guard let slash = name.firstIndex(of: 0x2F) else {
                if name.isEmpty {
                    hasMarker = true
                } else {
                    files[Array(name)] = object
                    entries.append(DirectoryEntry(name: Array(name), kind: .regular))
                }
                continue
            }
            // `dir//x` has an empty name after `dir/`, which no delimiter listing shows either.
            let directory = Array(name[..<slash])
            if !directory.isEmpty, self.directories.insert(directory).inserted {
                directories.append(DirectoryEntry(name: directory, kind: .directory))
            }
        }
        entries += directories
    }
}
