import SystemPackage

/// A failed file operation: what was attempted, on which path(s), and the errno the kernel gave.
///
/// PathModel never swallows an error; every throwing method throws this type. It is data only:
/// the words (`cannot stat 'x': No such file or directory`) are the shell's to choose, and
/// ShellCore's `Diagnostics` is where they are chosen.
public struct FileError: Error, Sendable, Hashable {
    /// The operation that failed.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case stat, open, read, write, list, makeDirectory, createFile, remove, removeDirectory
        case rename, copy, move, makeLink, readLink, setAttributes, sync, resolve, clone
    }

    /// What was attempted.
    public var operation: Operation
    /// The path the operation was applied to.
    public var path: File
    /// The second path, for operations that have one (the destination of a copy, move or link).
    public var destination: File?
    /// The error number the kernel returned (on a volume that is not the kernel's, the errno
    /// that best says what went wrong).
    public var errno: Errno
    /// What a storage service answered, when it says more than `errno` can (a missing bucket, a
    /// wrong secret); nil for the kernel's errors.
    public var serviceFailure: ServiceFailure?

    /// An error for `operation` on `path`, optionally with a `destination` and what a storage
    /// service said.
    public init(
        _ operation: Operation, _ path: File, _ errno: Errno, destination: File? = nil,
        serviceFailure: ServiceFailure? = nil
    ) {
        self.operation = operation
        self.path = path
        self.errno = errno
        self.destination = destination
        self.serviceFailure = serviceFailure
    }

    /// The same failure told as `operation` on `path` (a copy's read error named as the copy's):
    /// its errno and what the service said are kept.
    public func reworded(as operation: Operation, _ path: File, destination: File? = nil) -> FileError {
        FileError(operation, path, errno, destination: destination, serviceFailure: serviceFailure)
    }

    /// A refusal or failure of a storage service reached over the network (object storage), as
    /// data: ShellCore's `Diagnostics` words it.
    public enum ServiceFailure: Sendable, Hashable {
        /// The bucket named in the path does not exist.
        case noSuchBucket
        /// The service does not accept the request's signature: a wrong secret, or a clock far off.
        case signatureMismatch
        /// The service does not know the access key id.
        case unknownAccessKey
        /// No credentials were found to sign requests with.
        case missingCredentials
        /// A setting (an environment variable or a key of a configuration file) that cannot be
        /// used, and its value.
        case badSetting(name: String, value: String)
        /// A profile the environment names (`AWS_PROFILE`) that no configuration file has.
        case unknownProfile(String)
        /// No secure connection could be set up with the service (its TLS handshake failed).
        case tlsFailure
        /// The service failed (a 5xx answer, or asked to slow down), with its error code if it
        /// sent one.
        case serverFailure(code: String?)
        /// The service answered with an error code the shell has no words of its own for.
        case refused(code: String)
        /// The service's answer could not be read.
        case malformedAnswer
        /// Bytes did not match their checksum on the way to or from the service.
        case checksumMismatch
    }
}
