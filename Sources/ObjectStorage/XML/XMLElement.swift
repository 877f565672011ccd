/// An element of an XML document: its name, its child elements and its text, as S3's responses
/// need them (attributes and namespaces are read past, not kept).
///
///     let root = try XMLElement.parse(Array("<A><B>x &amp; y</B></A>".utf8))
///     root.child("B")?.string   // "x & y"
public struct XMLElement: Sendable, Hashable {
    /// The element's name without a namespace prefix (`Key` for `<s3:Key>`).
    public var name: String
    /// The child elements, in document order.
    public var children: [XMLElement]
    /// The character data directly inside the element, entities and CDATA resolved, as bytes.
    public var text: [UInt8]

    /// An element from its parts.
    public init(name: String, children: [XMLElement] = [], text: [UInt8] = []) {
        self.name = name
        self.children = children
        self.text = text
    }

    /// The text as a string (invalid UTF-8 repaired), for codes, messages, tokens and numbers.
    public var string: String { String(decoding: text, as: UTF8.self) }

    /// The first child named `name`.
    public func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }

    /// Every child named `name`, in document order.
    public func children(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// The text of the first child named `name`, as a string.
    public func string(_ name: String) -> String? { child(name)?.string }

    /// The root element of the document in `bytes`.
    ///
    /// - Throws: `XMLSyntaxError` at the offset where the document stops being well-formed
    ///   enough to read.
    public static func parse(_ bytes: [UInt8]) throws(XMLSyntaxError) -> XMLElement {
        var reader = XMLReader(bytes: bytes)
        return try reader.document()
    }
}

/// Where and why a document could not be read.
public struct XMLSyntaxError: Error, Sendable, Hashable {
    /// What was wrong.
    public enum Problem: Sendable, Hashable {
        case noRootElement, unexpectedEnd, malformedTag, mismatchedEndTag, unknownEntity, trailingContent
    }

    /// What was wrong.
    public var problem: Problem
    /// The byte offset where it was found.
    public var offset: Int
}

/// A reader over a document's bytes, one construct at a time.
private struct XMLReader {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws(XMLSyntaxError) -> XMLElement {
        try skipMisc()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else {
            throw fail(.noRootElement)
        }
        let root = try element()
        try skipMisc()
        guard position == bytes.count else { throw fail(.trailingContent) }
        return root
    }

    /// Skips white space, the XML declaration, processing instructions, comments and a DOCTYPE.
    mutating func skipMisc() throws(XMLSyntaxError) {
        while true {
            while position < bytes.count, isSpace(bytes[position]) { position += 1 }
            if starts(with: "<?") {
                try skip(past: "?>")
            } else if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<!DOCTYPE") {
                try skip(past: ">")
            } else {
                return
            }
        }
    }

    /// Reads an element whose `<` is at `position`, and everything up to its end tag.
    mutating func element() throws(XMLSyntaxError) -> XMLElement {
        position += 1
        let qualifiedName = try name()
        var element = XMLElement(name: localName(qualifiedName))
        // Attributes: read past them, quoted values included.
        while true {
            guard position < bytes.count else { throw fail(.unexpectedEnd) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "/") {
                guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else {
                    throw fail(.malformedTag)
                }
                position += 2
                return element
            } else if byte == UInt8(ascii: ">") {
                position += 1
                break
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                position += 1
                while position < bytes.count, bytes[position] != byte { position += 1 }
                guard position < bytes.count else { throw fail(.unexpectedEnd) }
                position += 1
            } else if byte == UInt8(ascii: "<") {
                throw fail(.malformedTag)
            } else {
                position += 1
            }
        }
        // Content.
        while true {
            guard position < bytes.count else { throw fail(.unexpectedEnd) }
            if starts(with: "</") {
                position += 2
                let closing = try name()
                while position < bytes.count, isSpace(bytes[position]) { position += 1 }
                guard closing == qualifiedName else { throw fail(.mismatchedEndTag) }
                guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
                    throw fail(.malformedTag)
                }
                position += 1
                return element
            } else if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<![CDATA[") {
                let start = position + 9
                try skip(past: "]]>")
                element.text += bytes[start..<(position - 3)]
            } else if starts(with: "<?") {
                try skip(past: "?>")
            } else if bytes[position] == UInt8(ascii: "<") {
                element.children.append(try self.element())
            } else if bytes[position] == UInt8(ascii: "&") {
                element.text += try entity()
            } else {
                element.text.append(bytes[position])
                position += 1
            }
        }
    }

    mutating func name() throws(XMLSyntaxError) -> String {
        let start = position
        while position < bytes.count, !isSpace(bytes[position]),
            ![UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "<"), UInt8(ascii: "=")].contains(
                bytes[position])
        {
            position += 1
        }
        guard position > start else { throw fail(position < bytes.count ? .malformedTag : .unexpectedEnd) }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// Reads `&…;` and gives the bytes it stands for.
    mutating func entity() throws(XMLSyntaxError) -> [UInt8] {
        let start = position
        guard let end = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw fail(.unknownEntity)
        }
        let body = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        position = end + 1
        switch body {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            let scalarValue: UInt32?
            if body.hasPrefix("#x") || body.hasPrefix("#X") {
                scalarValue = UInt32(body.dropFirst(2), radix: 16)
            } else if body.hasPrefix("#") {
                scalarValue = UInt32(body.dropFirst(), radix: 10)
            } else {
                scalarValue = nil
            }
            guard let scalarValue, let scalar = Unicode.Scalar(scalarValue) else {
                position = start
                throw fail(.unknownEntity)
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    func starts(with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { bytes[position..<(position + count)].elementsEqual($0) }
    }

    mutating func skip(past terminator: StaticString) throws(XMLSyntaxError) {
        while position < bytes.count {
            if starts(with: terminator) {
                position += terminator.utf8CodeUnitCount
                return
            }
            position += 1
        }
        throw fail(.unexpectedEnd)
    }

    func localName(_ qualified: String) -> String {
        guard let colon = qualified.lastIndex(of: ":") else { return qualified }
        return String(qualified[qualified.index(after: colon)...])
    }

    func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    func fail(_ problem: XMLSyntaxError.Problem) -> XMLSyntaxError {
        XMLSyntaxError(problem: problem, offset: position)
    }
}

/// Writing XML request bodies (DeleteObjects, CompleteMultipartUpload).
enum XMLWriter {
    /// `bytes` as character data: `&`, `<`, `>`, `"` and `'` escaped, carriage returns as `&#13;`
    /// so that they survive the parser's line-end normalisation.
    static func escaped(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\""): out += Array("&quot;".utf8)
            case UInt8(ascii: "'"): out += Array("&apos;".utf8)
            case 0x0D: out += Array("&#13;".utf8)
            default: out.append(byte)
            }
        }
        return out
    }

    /// Whether XML 1.0 can carry `bytes` as text: valid UTF-8 with no control character but tab,
    /// line feed and carriage return.
    static func canCarry(_ bytes: [UInt8]) -> Bool {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar.value < 0x20 && ![0x09, 0x0A, 0x0D].contains(scalar.value) { return false }
                if scalar.value == 0xFFFE || scalar.value == 0xFFFF { return false }
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
