import PathModel
import Synchronization

/// A kind of volume that paths reach by a URL scheme: `s3://bucket/key` names `/key` on the
/// volume `open` gives for `bucket`.
///
/// ShellCore knows no scheme of its own, so that networking stays out of it: the `shelf`
/// executable registers the ones it links (object storage) in `ShellState.schemes` at start, and
/// a scheme's volumes are made only when a path first names them.
public struct VolumeScheme: Sendable {
    /// The scheme, without `://` (`s3`).
    public let name: String
    /// The volume for an authority (a bucket), called once for each one a session names. A
    /// volume that cannot work (no credentials) still comes back, and refuses each call with
    /// the reason.
    public let open: @Sendable ([UInt8]) -> any Volume
    /// The volume whose top lists the authorities (`s3://`: the buckets), called once when a
    /// path first names the scheme alone; nil when the scheme has no such list.
    public let openAuthorities: (@Sendable () -> any Volume)?

    /// A scheme from its name, how to open its volumes, and how to list its authorities.
    public init(
        name: String, open: @escaping @Sendable ([UInt8]) -> any Volume,
        authorities: (@Sendable () -> any Volume)? = nil
    ) {
        self.name = name
        self.open = open
        self.openAuthorities = authorities
    }
}

/// The schemes a session knows and the volumes it has opened through them, one per authority,
/// so that two paths into one bucket are on the same volume (a rename between them is one).
///
/// The commands of a pipeline share the session's, each on a thread of its own: the schemes are
/// registered before any command runs, and the volumes opened are kept under a lock.
public final class VolumeSchemes: Sendable {
    private let schemes: Mutex<[[UInt8]: VolumeScheme]> = Mutex([:])
    private let opened: Mutex<[(locator: [UInt8], volume: any Volume)]> = Mutex([])

    /// No schemes: every path is a path of the session's volume.
    public init() {}

    /// Adds `scheme`, replacing one of the same name.
    public func register(_ scheme: VolumeScheme) {
        schemes.withLock { $0[Array(scheme.name.utf8)] = scheme }
    }

    /// Whether `name` (`s3`) is a registered scheme.
    func isRegistered(_ name: [UInt8]) -> Bool { schemes.withLock { $0[name] != nil } }

    /// The file `path` names when it is a URL of a registered scheme (`s3://bucket/key`, whose
    /// `//` a `File` has folded: its first name is the scheme and `:`, its second the
    /// authority), else nil.
    ///
    /// The scheme alone (`s3://`, or `s3:/`, which is the same `File`) names the top of the
    /// volume that lists its authorities, if it has one; that volume's locator is `s3:/`, so
    /// that its paths read `s3://` and `s3://bucket`.
    func file(for path: File) -> File? {
        guard !path.isAbsolute else { return nil }
        let names = path.componentBytes
        guard let first = names.first, first.last == 0x3A,
            let scheme = schemes.withLock({ $0.isEmpty ? nil : $0[Array(first.dropLast())] })
        else { return nil }
        if names.count == 1 {
            let locator = Array(first) + [0x2F]
            // `s3://` is the path `s3:/` (a `File` drops a trailing slash); `s3:` alone is a name.
            guard let openAuthorities = scheme.openAuthorities, path.bytes == locator else { return nil }
            return volume(at: locator, opening: openAuthorities).root
        }
        let volume = volume(at: Array(first) + [0x2F, 0x2F] + names[1]) { scheme.open(Array(names[1])) }
        var rest: [UInt8] = []
        for name in names.dropFirst(2) { rest += [0x2F] + name }
        return File(bytes: rest.isEmpty ? [0x2F] : rest).on(volume)
    }

    /// The volume opened for `locator`, opened by `open` the first time (under the lock, so
    /// that two commands of a pipeline naming one bucket get one volume).
    private func volume(at locator: [UInt8], opening open: () -> any Volume) -> any Volume {
        opened.withLock { opened in
            if let known = opened.first(where: { $0.locator == locator }) { return known.volume }
            let volume = open()
            opened.append((locator, volume))
            return volume
        }
    }

    /// How a path of `volume` begins when written for the user (`s3://bucket`), or nil for a
    /// volume no scheme opened.
    func locator(of volume: any Volume) -> [UInt8]? {
        opened.withLock { opened in opened.first { $0.volume === volume }?.locator }
    }

    /// Whether `volume` lists a scheme's authorities (`s3://`), so that a name relative to it
    /// is an authority.
    func listsAuthorities(_ volume: any Volume) -> Bool {
        locator(of: volume)?.last == 0x2F
    }
}
