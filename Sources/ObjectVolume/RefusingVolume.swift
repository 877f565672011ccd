import PathModel
import SystemPackage

/// A volume that cannot be reached (no credentials, a bucket name S3 cannot hold): every call
/// fails with the same reason, named by the path it was given, so that the user reads why at
/// the first command that touches it.
public final class RefusingVolume: Volume {
    /// The errno every call fails with.
    public let errno: Errno
    /// What the service would not do, or could not be asked.
    public let serviceFailure: FileError.ServiceFailure?

    /// A volume whose every call fails with `errno` and `serviceFailure`.
    public init(_ errno: Errno, serviceFailure: FileError.ServiceFailure?) {
        self.errno = errno
        self.serviceFailure = serviceFailure
    }

    /// Nothing.
    public var capabilities: VolumeCapabilities { [] }

    private func refusal(_ operation: FileError.Operation, _ file: File) -> FileError {
        FileError(operation, file, errno, serviceFailure: serviceFailure)
    }

    public func info(of file: File, following: Bool) throws(FileError) -> FileInfo {
        throw refusal(.stat, file)
    }
    public func linkTarget(of file: File) throws(FileError) -> [UInt8] { throw refusal(.readLink, file) }
    public func openDirectory(_ file: File, following: Bool) throws(FileError) -> any VolumeDirectory {
        throw refusal(.list, file)
    }
    public func forEachEntry(
        of file: File, limit: Int?, _ body: (DirectoryEntry) throws(FileError) -> Void
    ) throws(FileError) { throw refusal(.list, file) }
    public func open(_ file: File, _ mode: File.OpenMode, permissions: UInt32) throws(FileError) -> OpenFile {
        throw refusal(mode == .create ? .createFile : .open, file)
    }
    public func makeDirectory(_ file: File, permissions: UInt32) throws(FileError) {
        throw refusal(.makeDirectory, file)
    }
    public func removeFile(_ file: File) throws(FileError) { throw refusal(.remove, file) }
    public func removeDirectory(_ file: File) throws(FileError) { throw refusal(.removeDirectory, file) }
    public func rename(_ source: File, to destination: File, replacing: Bool) throws(FileError) {
        throw FileError(.rename, source, errno, destination: destination, serviceFailure: serviceFailure)
    }
    public func makeSymlink(_ file: File, target: [UInt8]) throws(FileError) {
        throw refusal(.makeLink, file)
    }
    public func makeHardLink(_ file: File, to existing: File) throws(FileError) {
        throw refusal(.makeLink, file)
    }
    public func setAttributes(of file: File, _ change: AttributeChange, following: Bool) throws(FileError) {
        throw refusal(.setAttributes, file)
    }
    public func checkAccess(of file: File, write: Bool) throws(FileError) {
        throw refusal(write ? .open : .stat, file)
    }
}
