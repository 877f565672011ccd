import SystemPackage

extension File {
    /// A fresh name next to this one for a temporary entry (`.name.XXXXXXXX.shelf-tmp`).
    func temporarySiblingName() -> File {
        var name: [UInt8] = [0x2E]
        name.append(contentsOf: nameBytes.prefix(100))
        name.append(0x2E)
        name.append(contentsOf: hexDigits(Sys.randomNumber()))
        name.append(contentsOf: Array(".shelf-tmp".utf8))
        return parent.appending(entryName: name)
    }

    /// Creates a new, empty, uniquely named file next to this one (`.name.XXXXXXXX.shelf-tmp`)
    /// and returns it open for writing.
    func makeTemporarySibling(mode: UInt32) throws(FileError) -> (file: File, output: OpenFile) {
        for _ in 0..<100 {
            let candidate = temporarySiblingName()
            do {
                return (candidate, try volume.open(candidate, .create, permissions: (mode & 0o777) | 0o600))
            } catch where error.errno == .fileExists {
                continue
            } catch {
                throw error.reworded(as: .createFile, self)
            }
        }
        throw FileError(.createFile, self, .fileExists)
    }

    /// Unlinks a temporary file after a failed write. The original failure is what the caller
    /// reports; a failure to clean up here cannot be reported more usefully than that one.
    func removeQuietlyAfterFailure() {
        try? volume.removeFile(self)
    }
}

private func hexDigits(_ value: UInt64) -> [UInt8] {
    let digits = Array("0123456789abcdef".utf8)
    return (0..<8).map { digits[Int((value >> (UInt64($0) * 4)) & 0xF)] }
}
