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
    /// path first names the scheme alone; nil when the scheme has no such list. It is given
    /// how to reach an authority's volume, the one the session keeps for it (opened by `open`
    /// the first time), so that a walk from the list into a bucket goes on on the bucket's own
    /// volume.
    public let openAuthorities: (@Sendable (_ authority: @escaping AuthorityVolume) -> any Volume)?

    /// The volume the session keeps for an authority (a bucket's name).
    public typealias AuthorityVolume = @Sendable ([UInt8]) -> any Volume

    /// A scheme from its name, how to open its volumes, and how to list its authorities.
    public init(
        name: String, open: @escaping @Sendable ([UInt8]) -> any Volume,
        authorities: (@Sendable (_ authority: @escaping AuthorityVolume) -> any Volume)? = nil
    ) {
        self.name = name
        self.open = open
        self.openAuthorities = authorities
    }
}

/// The schemes a session knows and the volumes it has opened through them, one per authority,
/// so that two paths into one bucket are on the same volume (a rename between them is one).
/// A walk from a scheme's list of authorities opens them from its own threads too, hence the
/// lock.
public final class VolumeSchemes: Sendable {
    private struct Known {
        var schemes: [[UInt8]: VolumeScheme] = [:]
        var opened: [(locator: [UInt8], volume: any Volume)] = []
    }
    private let known = Mutex(Known())

    /// No schemes: every path is a path of the session's volume.
    public init() {}

    /// Adds `scheme`, replacing one of the same name.
    public func register(_ scheme: VolumeScheme) {
        known.withLock { $0.schemes[Array(scheme.name.utf8)] = scheme }
    }

    /// Whether `name` (`s3`) is a registered scheme.
    func isRegistered(_ name: [UInt8]) -> Bool { known.withLock { $0.schemes[name] != nil } }

    /// The file `path` names when it is a URL of a registered scheme (`s3://bucket/key`, whose
    /// `//` a `File` has folded: its first name is the scheme and `:`, its second the
    /// authority), else nil.
    ///
    /// The scheme alone (`s3://`, or `s3:/`, which is the same `File`) names the top of the
    /// volume that lists its authorities, if it has one; that volume's locator is `s3:/`, so
    /// that its paths read `s3://` and `s3://bucket`. `.` and `..` apply by syntax across the
    /// authority: `s3://b/..` is `s3://` (with no list, `s3://b`), `s3://b/../c` is `s3://c`;
    /// a final `.` below the authority stays (`s3://b/d/.` is `/d/.`), as it names the directory
    /// `d` where a file `d` may stand beside it (`ShellState.directory(_:)`).
    func file(for path: File) -> File? {
        guard !path.isAbsolute else { return nil }
        let names = path.componentBytes
        guard let first = names.first, first.last == 0x3A,
            let scheme = known.withLock({ $0.schemes[Array(first.dropLast())] })
        else { return nil }
        if names.count == 1 {
            // `s3://` is the path `s3:/` (a `File` drops a trailing slash); `s3:` alone is a name.
            guard path.bytes == Array(first) + [0x2F] else { return nil }
            return authorities(of: scheme, first)
        }
        var below: [ArraySlice<UInt8>] = []
        for name in names.dropFirst() {
            if name.elementsEqual([0x2E]) { continue }
            if name.elementsEqual([0x2E, 0x2E]) {
                if below.count > 1 || scheme.openAuthorities != nil { _ = below.popLast() }
            } else {
                below.append(name)
            }
        }
        guard let authority = below.first else { return authorities(of: scheme, first) }
        let volume = volume(of: scheme, authority: Array(authority))
        var rest: [UInt8] = []
        for name in below.dropFirst() { rest += [0x2F] + name }
        if below.count > 1, let last = names.last, last.elementsEqual([0x2E]) { rest += [0x2F, 0x2E] }
        return File(bytes: rest.isEmpty ? [0x2F] : rest).on(volume)
    }

    /// The top of the volume that lists `scheme`'s authorities (`first` is `s3:`), or nil
    /// when it has no such list.
    private func authorities(of scheme: VolumeScheme, _ first: ArraySlice<UInt8>) -> File? {
        guard let openAuthorities = scheme.openAuthorities else { return nil }
        return volume(at: Array(first) + [0x2F]) {
            openAuthorities { [weak self] authority in
                self?.volume(of: scheme, authority: authority) ?? scheme.open(authority)
            }
        }.root
    }

    /// The volume the session keeps for `authority` of `scheme`.
    private func volume(of scheme: VolumeScheme, authority: [UInt8]) -> any Volume {
        volume(at: Array(scheme.name.utf8) + [0x3A, 0x2F, 0x2F] + authority) { scheme.open(authority) }
    }

    /// The volume opened for `locator`, opened by `open` the first time (outside the lock: an
    /// opening may ask for another volume).
    private func volume(at locator: [UInt8], opening open: () -> any Volume) -> any Volume {
        if let volume = known.withLock({ $0.opened.first { $0.locator == locator }?.volume }) { return volume }
        let volume = open()
        return known.withLock { known in
            if let earlier = known.opened.first(where: { $0.locator == locator }) { return earlier.volume }
            known.opened.append((locator, volume))
            return volume
        }
    }

    /// How a path of `volume` begins when written for the user (`s3://bucket`), or nil for a
    /// volume no scheme opened.
    func locator(of volume: any Volume) -> [UInt8]? {
        known.withLock { $0.opened.first { $0.volume === volume }?.locator }
    }
}
