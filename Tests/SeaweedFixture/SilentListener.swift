import Glibc

/// A socket on 127.0.0.1 that listens and never answers: the kernel accepts connections, nothing
/// reads them.
public struct SilentListener {
    /// The listening socket.
    public let descriptor: Int32
    /// The port it listens on.
    public let port: Int

    /// Listens on a free port.
    public init() throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = self.descriptor
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard listening else { throw FixtureError.noFreePorts }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Stops listening.
    public func close() { Glibc.close(descriptor) }
}
