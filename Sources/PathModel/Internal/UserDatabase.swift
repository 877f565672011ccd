// Lookups in the user and group databases (`getpwuid_r(3)`, `getgrgid_r(3)`): not file-system
// calls, so they live beside the one door rather than in it.

import Glibc

extension Sys {
    /// The login name for a user id, or nil when the user database has none.
    static func userName(_ uid: uid_t) -> String? {
        userEntry({ getpwuid_r(uid, &$0, &$1, $1.count, &$2) }, { String(cString: $0.pw_name) })
    }

    /// The home directory for a user id from the user database.
    static func homeDirectory(_ uid: uid_t) -> [UInt8]? {
        userEntry({ getpwuid_r(uid, &$0, &$1, $1.count, &$2) }, { bytes($0.pw_dir) })
    }

    /// The home directory of a named user from the user database.
    static func homeDirectory(named name: String) -> [UInt8]? {
        userEntry({ getpwnam_r(name, &$0, &$1, $1.count, &$2) }, { bytes($0.pw_dir) })
    }

    /// The user id and login group of a named user, or nil when the user database has none.
    static func user(named name: String) -> (uid: uid_t, gid: gid_t)? {
        userEntry({ getpwnam_r(name, &$0, &$1, $1.count, &$2) }, { ($0.pw_uid, $0.pw_gid) })
    }

    /// The group name for a group id, or nil when the group database has none.
    static func groupName(_ gid: gid_t) -> String? {
        groupEntry({ getgrgid_r(gid, &$0, &$1, $1.count, &$2) }, { String(cString: $0.gr_name) })
    }

    /// The group id of a named group, or nil when the group database has none.
    static func groupID(named name: String) -> gid_t? {
        groupEntry({ getgrnam_r(name, &$0, &$1, $1.count, &$2) }, { $0.gr_gid })
    }

    /// Looks a group up with `lookup` (a `getgr*_r` call) and reads what is wanted from the entry;
    /// nil when the database has no such group.
    private static func groupEntry<T>(
        _ lookup: (inout group, inout [CChar], inout UnsafeMutablePointer<group>?) -> Int32,
        _ read: (group) -> T
    ) -> T? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 8192)
        guard lookup(&entry, &buffer, &result) == 0, result != nil else { return nil }
        return read(entry)
    }

    /// Looks a user up with `lookup` (a `getpw*_r` call) and reads what is wanted from the entry;
    /// nil when the database has no such user.
    private static func userEntry<T>(
        _ lookup: (inout passwd, inout [CChar], inout UnsafeMutablePointer<passwd>?) -> Int32,
        _ read: (passwd) -> T
    ) -> T? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard lookup(&entry, &buffer, &result) == 0, result != nil else { return nil }
        return read(entry)
    }

    /// The bytes of a C string.
    private static func bytes(_ string: UnsafePointer<CChar>) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: string, count: strlen(string)))
    }
}
