import SystemPackage

/// The local file system, as the process sees it: relative paths start at the process's current
/// directory and `/` is the machine's root. Every `File` is on it unless made on another volume.
///
///     File(path: "/etc/hostname").volume === LocalVolume.shared   // true
public final class LocalVolume: DescriptorVolume {
    /// The one local volume.
    public static let shared = LocalVolume()

    private init() {}

    func withLocation<R>(
        of file: File, following: Bool, _ body: (_ directory: Int32, _ name: UnsafePointer<CChar>, _ follow: Bool) throws(Errno) -> R
    ) throws(Errno) -> R {
        try file.withLocalLocation(following: following, body)
    }
}
