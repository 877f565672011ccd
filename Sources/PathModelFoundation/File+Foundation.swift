import FoundationEssentials
import PathModel

extension File {
    /// A path from a `file:` URL, keeping its bytes. Returns nil for a URL of another scheme.
    public init?(url: URL) {
        guard url.isFileURL else { return nil }
        self.init(path: url.path(percentEncoded: false))
    }

    /// The path as a `file:` URL.
    public var url: URL { URL(filePath: string, directoryHint: .inferFromPath) }

    /// The whole contents as `Data`.
    /// - Throws: `FileError` with operation `.open` or `.read`.
    public func readData() throws(FileError) -> Data { Data(try readBytes()) }

    /// Replaces the contents with `data`; atomic by default (temp file, fsync, rename).
    /// - Throws: `FileError` with operation `.write`.
    public func write(data: Data, atomically: Bool = true) throws(FileError) {
        try write(bytes: data, atomically: atomically)
    }

    /// Replaces the contents with `text` in `encoding`; atomic by default.
    /// - Throws: `FileError` (`.write`, and `EILSEQ` when the text cannot be encoded).
    public func write(text: String, encoding: String.Encoding, atomically: Bool = true) throws(FileError) {
        guard let data = text.data(using: encoding) else { throw FileError(.write, self, .illegalByteSequence) }
        try write(bytes: data, atomically: atomically)
    }

    /// The contents decoded as text in `encoding`.
    /// - Throws: `FileError` (`.read`, and `EILSEQ` when the bytes are not valid in `encoding`).
    public func readText(encoding: String.Encoding) throws(FileError) -> String {
        let data = Data(try readBytes())
        guard let text = String(data: data, encoding: encoding) else { throw FileError(.read, self, .illegalByteSequence) }
        return text
    }

    /// Decodes the file's JSON into `type`; keys are converted from snake_case by default.
    /// - Throws: `FileError` for reading, or the decoder's `DecodingError`.
    public func decoded<T: Decodable>(
        _ type: T.Type, keyDecoding: JSONDecoder.KeyDecodingStrategy = .convertFromSnakeCase
    ) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = keyDecoding
        return try decoder.decode(type, from: readData())
    }

    /// Writes `value` as JSON, keys converted to snake_case by default; atomic.
    /// - Throws: the encoder's `EncodingError`, or `FileError` for writing.
    public func write<T: Encodable>(
        json value: T, keyEncoding: JSONEncoder.KeyEncodingStrategy = .convertToSnakeCase,
        formatting: JSONEncoder.OutputFormatting = [.prettyPrinted, .sortedKeys]
    ) throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = keyEncoding
        encoder.outputFormatting = formatting
        try write(data: encoder.encode(value))
    }

    /// The modification time as a `Date` (following symlinks).
    /// - Throws: `FileError` with operation `.stat`.
    public func modificationDate() throws(FileError) -> Date {
        try info(followSymlinks: true).modificationTime.date
    }
}

extension Timestamp {
    /// The timestamp as a Foundation `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }
}
