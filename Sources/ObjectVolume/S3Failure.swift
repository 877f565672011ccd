import ObjectStorage
import PathModel
import SystemPackage

/// Why an operation on an `S3Volume` failed, before it is tied to a path: a mistake a disk would
/// refuse with `errno`, or what the service (or the way to it) answered.
enum S3Failure: Error {
    /// A mistake with the errno a POSIX file system gives for it.
    case errno(Errno)
    /// The service's error, or the transport's.
    case service(S3Error)
    /// Something else a caller's code threw.
    case other(any Error)

    /// The failure `error` is.
    init(_ error: any Error) {
        switch error {
        case let error as S3Error: self = .service(error)
        case let error as S3Failure: self = error
        default: self = .other(error)
        }
    }

    /// The `FileError` for `operation` on `file`.
    func fileError(_ operation: FileError.Operation, _ file: File, destination: File? = nil) -> FileError {
        switch self {
        case .errno(let errno):
            return FileError(operation, file, errno, destination: destination)
        case .service(let error):
            let (errno, failure) = Self.meaning(of: error)
            return FileError(operation, file, errno, destination: destination, serviceFailure: failure)
        case .other(let error as FileError):
            return error.reworded(as: operation, file, destination: destination)
        case .other:
            return FileError(operation, file, .ioError, destination: destination)
        }
    }

    /// The errno that says what `error` means to a shell, and what more the service said.
    static func meaning(of error: S3Error) -> (Errno, FileError.ServiceFailure?) {
        switch error.kind {
        case .noSuchKey: return (.noSuchFileOrDirectory, nil)
        case .noSuchBucket: return (.noSuchFileOrDirectory, .noSuchBucket)
        case .accessDenied: return (.permissionDenied, nil)
        case .signatureDoesNotMatch: return (.permissionDenied, .signatureMismatch)
        case .invalidAccessKeyID: return (.permissionDenied, .unknownAccessKey)
        case .bucketNotEmpty: return (.directoryNotEmpty, nil)
        case .bucketAlreadyExists: return (.fileExists, nil)
        case .connectionRefused: return (.connectionRefused, nil)
        case .timedOut: return (.timedOut, nil)
        case .connectionClosed: return (.connectionReset, nil)
        case .unreachable: return (.noRouteToHost, nil)
        case .tlsFailure: return (.protocolError, .tlsFailure)
        case .slowDown, .serverFailure: return (.ioError, .serverFailure(code: error.code))
        case .malformedResponse: return (.ioError, .malformedAnswer)
        case .invalidRange: return (.invalidArgument, nil)
        case .badDigest: return (.ioError, .checksumMismatch)
        case .interrupted: return (.interrupted, nil)
        case .noSuchUpload, .preconditionFailed, .sourceLengthMismatch, .other:
            return (.ioError, error.code.map { .refused(code: $0) })
        }
    }
}
