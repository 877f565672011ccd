/// The user and group databases, as `chown` and `chgrp` read owners from them: names to ids and
/// back. Lookups, not file-system calls.
public enum Accounts {
    /// The id and login group of the user called `name`; nil when no user has that name.
    /// Corresponds to `getpwnam_r(3)`.
    public static func user(named name: String) -> (id: UInt32, loginGroup: UInt32)? {
        Sys.user(named: name).map { ($0.uid, $0.gid) }
    }

    /// The id of the group called `name`; nil when no group has that name.
    /// Corresponds to `getgrnam_r(3)`.
    public static func group(named name: String) -> UInt32? { Sys.groupID(named: name) }

    /// The login name of the user `id`; nil when the user database has none.
    /// Corresponds to `getpwuid_r(3)`.
    public static func userName(_ id: UInt32) -> String? { Sys.userName(id) }

    /// The name of the group `id`; nil when the group database has none.
    /// Corresponds to `getgrgid_r(3)`.
    public static func groupName(_ id: UInt32) -> String? { Sys.groupName(id) }
}
