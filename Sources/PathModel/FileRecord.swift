/// One file described for machines: the schema of shelf's JSON output (`ls --json`,
/// `stat --json`, `tree -J`, `find --json`, `du --json`), documented in docs/json.md.
///
/// Names and paths are text; when their bytes are not UTF-8, the text has U+FFFD in their place
/// and `nameBase64`/`pathBase64` hold the exact bytes. Times are ISO 8601 in UTC with
/// nanoseconds (`2026-11-24T03:11:06.123456789Z`); the mode is the permission bits in octal.
/// What the file's volume does not keep (`FileInfo.absent`: object storage has no owners, and a
/// directory that is only a prefix has no times) is nil, and left out of the JSON.
public struct FileRecord: Codable, Sendable, Hashable {
    /// The last component as text.
    public var name: String
    /// The last component's bytes in base64, only when they are not UTF-8.
    public var nameBase64: String?
    /// The path as the command was given it, joined with the names below.
    public var path: String
    /// The path's bytes in base64, only when they are not UTF-8.
    public var pathBase64: String?
    /// `file`, `directory`, `link`, `fifo`, `socket`, `char`, `block` or `unknown`, as tree(1) names them.
    public var type: String
    /// The size in bytes (`st_size`).
    public var size: UInt64
    /// The permission bits in octal, four digits (`0644`, `4755`).
    public var mode: String
    /// The owner's name, or the user id as digits when the user database has none; nil when the
    /// volume keeps no owners (object storage).
    public var owner: String?
    /// The group's name, or the group id as digits; nil when the volume keeps no owners.
    public var group: String?
    /// Last modification; nil when the volume keeps no times for the file (a directory on
    /// object storage that is only a prefix, without a marker).
    public var modified: String?
    /// Last access; nil when `modified` is.
    public var accessed: String?
    /// Last status change; nil when `modified` is.
    public var changed: String?
    /// Creation, when the file system records it.
    public var created: String?
    /// A symlink's target as text.
    public var target: String?
    /// A symlink target's bytes in base64, only when they are not UTF-8.
    public var targetBase64: String?
    /// Space used in bytes, counted as `du` counts it (`du --json` only).
    public var diskUsage: UInt64?
    /// An object's entity tag, without quotes (object storage only).
    public var eTag: String?
    /// An object's storage class (object storage only).
    public var storageClass: String?

    enum CodingKeys: String, CodingKey {
        case name
        case nameBase64 = "name_base64"
        case path
        case pathBase64 = "path_base64"
        case type, size, mode, owner, group, modified, accessed, changed, created, target
        case targetBase64 = "target_base64"
        case diskUsage = "disk_usage"
        case eTag = "etag"
        case storageClass = "storage_class"
    }

    /// The record of the file at `path` (as shown) whose metadata is `info`; owner and group
    /// names come from `owner` and `group` (nil: the ids as digits), a symlink's target from
    /// `linkTarget`. What `info.absent` names is left nil: owner and group for `.owners`, the
    /// times for `.times`.
    public init(
        path: [UInt8], name: [UInt8], info: FileInfo, owner: String?, group: String?, linkTarget: [UInt8]? = nil
    ) {
        (self.name, nameBase64) = FileRecord.text(name)
        (self.path, pathBase64) = FileRecord.text(path)
        type = FileRecord.typeName(info.kind)
        size = info.size
        var octal = String(info.permissions, radix: 8)
        while octal.count < 4 { octal = "0" + octal }
        mode = octal
        if !info.absent.contains(.owners) {
            self.owner = owner ?? String(info.userID)
            self.group = group ?? String(info.groupID)
        }
        if !info.absent.contains(.times) {
            modified = info.modificationTime.iso8601
            accessed = info.accessTime.iso8601
            changed = info.changeTime.iso8601
            created = info.creationTime?.iso8601
        }
        if let linkTarget { (target, targetBase64) = FileRecord.text(linkTarget) }
        eTag = info.object?.eTag
        storageClass = info.object?.storageClass
    }

    /// tree(1)'s name for a kind of file.
    public static func typeName(_ kind: FileKind) -> String {
        switch kind {
        case .regular: return "file"
        case .directory: return "directory"
        case .symlink: return "link"
        case .fifo: return "fifo"
        case .socket: return "socket"
        case .characterDevice: return "char"
        case .blockDevice: return "block"
        case .unknown: return "unknown"
        }
    }

    /// Bytes as text (U+FFFD for what is not UTF-8), plus base64 of the bytes when they are not UTF-8.
    public static func text(_ bytes: [UInt8]) -> (String, String?) {
        if let text = String(validating: bytes, as: UTF8.self) { return (text, nil) }
        return (String(decoding: bytes, as: UTF8.self), Base64.encode(bytes))
    }
}

extension Timestamp {
    /// ISO 8601 in UTC with nanoseconds: `2026-11-24T03:11:06.123456789Z`.
    public var iso8601: String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Howard Hinnant's days-to-civil algorithm.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        func append(_ value: Int64, _ width: Int) {
            if value < 0 { text.append(0x2D) }
            var digits: [UInt8] = []
            var rest = value.magnitude
            repeat {
                digits.append(UInt8(rest % 10) + 0x30)
                rest /= 10
            } while rest > 0
            for _ in digits.count..<max(width, digits.count) { text.append(0x30) }
            text.append(contentsOf: digits.reversed())
        }
        append(year, 4)
        text.append(0x2D)
        append(month, 2)
        text.append(0x2D)
        append(day, 2)
        text.append(0x54)
        append(secondOfDay / 3600, 2)
        text.append(0x3A)
        append(secondOfDay / 60 % 60, 2)
        text.append(0x3A)
        append(secondOfDay % 60, 2)
        text.append(0x2E)
        append(Int64(nanoseconds), 9)
        text.append(0x5A)
        return String(decoding: text, as: UTF8.self)
    }
}

/// Base64 (RFC 4648, with padding), for bytes that are not text.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let a = UInt32(bytes[index])
            let b = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let c = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let group = a << 16 | b << 8 | c
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            out.append(index + 1 < bytes.count ? alphabet[Int(group >> 6 & 63)] : 0x3D)
            out.append(index + 2 < bytes.count ? alphabet[Int(group & 63)] : 0x3D)
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
