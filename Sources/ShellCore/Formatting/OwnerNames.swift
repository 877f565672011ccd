import PathModel

/// Owner and group names looked up once per id for the length of one command, as GNU's tools
/// cache them: the user database is read once per id, not once per file.
final class OwnerNames {
    private var users: [UInt32: String?] = [:]
    private var groups: [UInt32: String?] = [:]

    /// The login name of the file's owner, or nil when the user database has none.
    func owner(of info: FileInfo) -> String? {
        if let known = users[info.userID] { return known }
        let name = info.owner
        users[info.userID] = .some(name)
        return name
    }

    /// The name of the file's group, or nil when the group database has none.
    func group(of info: FileInfo) -> String? {
        if let known = groups[info.groupID] { return known }
        let name = info.group
        groups[info.groupID] = .some(name)
        return name
    }
}
