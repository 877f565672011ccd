import PathModel

/// How a walk reaches a directory's entries: from the directory's own handle near the top of
/// the tree, and deeper down by a short path from an ancestor's handle, so that the walk holds
/// a bounded number of descriptors however deep the tree goes, and never hands the kernel a path
/// near `PATH_MAX`.
struct DirectoryReach {
    /// The open directory the entries are reached from.
    let base: DirectoryHandle
    /// The path from `base` to the directory (`[]` when `base` is the directory itself).
    let relative: [UInt8]

    /// How many levels keep handles of their own, so that their entries are reached by bare name.
    static let ownHandleDepth = 16
    /// A path from an ancestor longer than this is not handed to the kernel.
    static let relativeLimit = 2048

    /// The reach for a directory just opened as `handle`, `depth` levels below the walk's start,
    /// found at `path` from `ancestor` (nil for the start itself).
    init(opened handle: DirectoryHandle, at path: [UInt8], from ancestor: DirectoryHandle?, depth: Int) {
        if let ancestor, depth >= Self.ownHandleDepth, path.count <= Self.relativeLimit {
            base = ancestor
            relative = path
        } else {
            base = handle
            relative = []
        }
    }

    /// The path from `base` to the entry `name` of the directory.
    func path(to name: [UInt8]) -> [UInt8] { relative.isEmpty ? name : joinedPath(relative, name) }
}
