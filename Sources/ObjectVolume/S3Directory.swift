import ObjectStorage
import PathModel
import SystemPackage

/// An open directory of an `S3Volume`: its listing, read once when it was opened, answers for
/// its entries (a walk examines them without a request each); deeper paths are asked of the
/// service. A directory opened for a walk (`S3Volume.openTree`) shares the walk's
/// `S3TreeListing` with the directories opened from it.
final class S3Directory: VolumeDirectory {
    let file: File
    let volume: S3Volume
    private let place: Place
    private let page: DirectoryPage
    /// The listings of the tree a walk goes through, when this directory is part of one.
    private let tree: S3TreeListing?

    init(volume: S3Volume, place: Place, file: File, page: DirectoryPage, tree: S3TreeListing? = nil) {
        self.volume = volume
        self.place = place
        self.file = file
        self.page = page
        self.tree = tree
    }

    func openDirectory(at relative: [UInt8], following: Bool, path: File) throws(FileError)
        -> any VolumeDirectory
    {
        let target = place.appending(relative)
        // A child, as a walk enters it, may be in the tree's listing; a way back up is not.
        let isChild = target.parent == place && !relative.contains(0x2F)
        return try volume.failing(.list, path) { () throws(S3Failure) in
            var listed: DirectoryPage?
            if isChild, let tree { listed = try tree.page(prefix: target.directoryPrefix(in: volume)) }
            let page: DirectoryPage
            if let listed { page = listed } else { page = try volume.existingListing(of: target) }
            return S3Directory(volume: volume, place: target, file: path, page: page, tree: tree)
        }
    }

    func remove(at name: [UInt8], directory: Bool) throws(FileError) {
        let target = place.appending(name)
        try volume.failing(directory ? .removeDirectory : .remove, path(name)) { () throws(S3Failure) in
            if directory {
                try volume.removeDirectory(at: target, known: page.directories.contains(name))
            } else {
                try volume.removeFile(at: target)
            }
        }
    }

    /// Files the listing showed go in DeleteObjects requests of up to 1,000 keys (no HEAD: the
    /// listing said they exist); any other name is removed as `remove(at:directory:)` does.
    func remove(names: [[UInt8]]) -> [FileError?] {
        volume.remove(names.map { (self, $0) }, directories: false)
    }

    /// The key that removes the entry `name`: a file the listing showed, or a directory's
    /// marker (which may not exist: deleting it then changes nothing); nil for a file the
    /// listing did not show.
    func removalKey(of name: [UInt8], directory: Bool) -> [UInt8]? {
        directory ? place.appending(name).directoryPrefix(in: volume) : page.files[name]?.key
    }

    func forEachEntry(
        at relative: [UInt8], identity: ((FileIdentity) -> Void)?,
        _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) {
        let target = place.appending(relative)
        let listing =
            target == place
            ? page
            : try volume.failing(.list, path(relative)) { () throws(S3Failure) in
                try volume.existingListing(of: target)
            }
        identity?(volume.directoryInfo(prefix: target.directoryPrefix(in: volume)).identity)
        for entry in listing.entries { try body(entry) }
    }

    func info(at relative: [UInt8], following: Bool) throws(FileError) -> FileInfo {
        let target = place.appending(relative)
        if target == place { return volume.directoryInfo(prefix: place.directoryPrefix(in: volume)) }
        if target.parent == place, let name = target.components.last {
            // A file of the same name as a directory is the one a path names.
            if let summary = page.files[name] {
                return volume.fileInfo(summary)
            }
            if page.directories.contains(name) { return directoryInfo(of: name) }
        }
        return try volume.failing(.stat, path(relative)) { () throws(S3Failure) in try volume.info(at: target)
        }
    }

    /// A directory's entry is the directory even where a file of the same name stands beside
    /// it (the file is what the name alone gives).
    func info(ofEntry index: Int, named name: [UInt8], in listing: DirectoryListing, following: Bool)
        throws(FileError) -> FileInfo
    {
        if listing.kind(index) == .directory, page.directories.contains(name) { return directoryInfo(of: name) }
        return try info(at: name, following: following)
    }

    /// Every entry's description from the listing the directory was opened with: no request.
    func infos(of listing: DirectoryListing) -> [FileInfo?] {
        (0..<listing.count).map { index in
            let name = Array(listing.name(index))
            if listing.kind(index) == .directory { return directoryInfo(of: name) }
            guard let summary = page.files[name] else { return nil }
            return volume.fileInfo(summary)
        }
    }

    /// The description of the directory entry `name`, from its prefix: no request.
    private func directoryInfo(of name: [UInt8]) -> FileInfo {
        volume.directoryInfo(prefix: Place(components: place.components + [name]).directoryPrefix(in: volume))
    }

    func identity() throws(FileError) -> FileIdentity {
        volume.directoryInfo(prefix: place.directoryPrefix(in: volume)).identity
    }

    func linkTarget(at relative: [UInt8]) throws(FileError) -> [UInt8] {
        _ = try info(at: relative, following: false)
        throw FileError(.readLink, path(relative), .invalidArgument)
    }
}
