import PathModel

/// Streams a JSON array of objects to an output stream, one object per line, as entries are
/// produced: nothing is held back, so a listing of any size takes the memory of one entry.
struct JSONArrayWriter {
    private let output: OutputStream
    private var count = 0

    /// A writer that has written nothing yet.
    init(output: OutputStream) { self.output = output }

    /// Writes one object made of `fields` (keys, and values already in JSON).
    mutating func append(_ fields: [(key: String, value: String)]) {
        output.write(count == 0 ? "[\n" : ",\n")
        output.write(JSONText.object(fields))
        count += 1
    }

    /// Closes the array (an empty one when nothing was appended).
    mutating func finish() {
        output.write(count == 0 ? "[]\n" : "\n]\n")
    }
}

/// JSON text for the values shelf writes.
enum JSONText {
    /// A string literal, escaped as RFC 8259 requires.
    static func string(_ text: String) -> String {
        if !text.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) { return "\"" + text + "\"" }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// An object from keys and JSON values, in order, on one line.
    static func object(_ fields: [(key: String, value: String)]) -> String {
        "{" + fields.map { string($0.key) + ":" + $0.value }.joined(separator: ",") + "}"
    }

    /// `name` and `path` as a file record writes them, with `name_base64` and `path_base64` when
    /// their bytes are not UTF-8.
    static func nameFields(name: [UInt8], path: [UInt8]) -> [(key: String, value: String)] {
        let (nameText, nameBase64) = FileRecord.text(name)
        let (pathText, pathBase64) = FileRecord.text(path)
        return nameFields(name: nameText, nameBase64: nameBase64, path: pathText, pathBase64: pathBase64)
    }

    private static func nameFields(name: String, nameBase64: String?, path: String, pathBase64: String?) -> [(
        key: String, value: String
    )] {
        var fields: [(key: String, value: String)] = [("name", string(name))]
        if let nameBase64 { fields.append(("name_base64", string(nameBase64))) }
        fields.append(("path", string(path)))
        if let pathBase64 { fields.append(("path_base64", string(pathBase64))) }
        return fields
    }

    /// The fields of a file record, in the order docs/json.md gives; absent optionals are left out.
    static func fields(of record: FileRecord) -> [(key: String, value: String)] {
        var fields = nameFields(
            name: record.name, nameBase64: record.nameBase64, path: record.path, pathBase64: record.pathBase64)
        fields += [
            ("type", string(record.type)), ("size", String(record.size)), ("mode", string(record.mode)),
        ]
        if let owner = record.owner { fields.append(("owner", string(owner))) }
        if let group = record.group { fields.append(("group", string(group))) }
        if let modified = record.modified { fields.append(("modified", string(modified))) }
        if let accessed = record.accessed { fields.append(("accessed", string(accessed))) }
        if let changed = record.changed { fields.append(("changed", string(changed))) }
        if let created = record.created { fields.append(("created", string(created))) }
        if let target = record.target { fields.append(("target", string(target))) }
        if let base64 = record.targetBase64 { fields.append(("target_base64", string(base64))) }
        if let usage = record.diskUsage { fields.append(("disk_usage", String(usage))) }
        if let eTag = record.eTag { fields.append(("etag", string(eTag))) }
        if let storageClass = record.storageClass { fields.append(("storage_class", string(storageClass))) }
        return fields
    }

    /// The record of a file for JSON output (a symlink's target as `linkTarget` gives it), with
    /// names looked up through `names`.
    static func record(
        path: [UInt8], name: [UInt8], info: FileInfo, linkTarget: [UInt8]? = nil, names: OwnerNames
    ) -> FileRecord {
        FileRecord(
            path: path, name: isURLTop(path) ? path : name, info: info, owner: names.owner(of: info),
            group: names.group(of: info), linkTarget: linkTarget)
    }

    /// Whether `path` is a URL's top, a scheme and slashes alone (`s3://`): named as written, as
    /// `/` names itself (its last component, `s3:`, names nothing).
    static func isURLTop(_ path: [UInt8]) -> Bool {
        guard let colon = path.firstIndex(of: 0x3A), colon > 0, path.count >= colon + 3 else { return false }
        let isSchemeByte = { (byte: UInt8) in
            (0x61...0x7A).contains(byte | 0x20) || (0x30...0x39).contains(byte) || [0x2B, 0x2D, 0x2E].contains(byte)
        }
        return path[..<colon].allSatisfy(isSchemeByte) && path[(colon + 1)...].allSatisfy { $0 == 0x2F }
    }
}
