// Private fixtures for PathModel's tests: every test that touches the disk gets its own
// temporary directory (0700, made by mkdtemp) and removes it when done. Nothing here touches $HOME.
//
// The raw helpers (`rawCreate`, `rawExists`, `rawLstat`, `rawNames`) go to Glibc directly, so that a test can
// check PathModel's result against the kernel instead of against PathModel itself.

import Glibc
import SystemPackage
import Testing

@_spi(FaultInjection) @testable import PathModel

/// Runs `body` with a fresh private directory under `parent` (default `/tmp`), then removes it.
func withScratch<R>(
    in parent: String = "/tmp", sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (File) throws -> R
) throws -> R {
    let root = try makeScratch(in: parent)
    defer { removeScratch(root, sourceLocation: sourceLocation) }
    return try body(root)
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
}

/// Makes `<parent>/pathmodel-tests.XXXXXX` with mode 0700.
func makeScratch(in parent: String) throws -> File {
    var template = Array((parent + "/pathmodel-tests.XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard made != nil else {
        throw FixtureError(description: "mkdtemp in \(parent): \(String(cString: strerror(errno)))")
    }
    return template.withUnsafeBufferPointer { File(cString: $0.baseAddress!) }
}

/// Removes a scratch directory, first giving back any permissions a test took away.
func removeScratch(_ root: File, sourceLocation: SourceLocation) {
    for case .success(let entry) in root.walk() where entry.kind == .directory {
        _ = entry.file.withCString { chmod($0, 0o700) }
    }
    do {
        try root.delete()
    } catch {
        Issue.record("could not remove scratch directory: \(error)", sourceLocation: sourceLocation)
    }
}

/// Whether the test process runs as root (as CI does), where permission bits do not deny access.
var runningAsRoot: Bool { getuid() == 0 }

/// The process's umask, read from /proc without changing it (so that parallel tests are not disturbed).
func currentUmask() -> UInt32 {
    guard let text = try? File(path: "/proc/self/status").readText() else { return 0o022 }
    for line in text.split(separator: "\n") where line.hasPrefix("Umask:") {
        let digits = line.dropFirst("Umask:".count).trimmingPrefix(while: { $0 == " " || $0 == "\t" })
        if let value = UInt32(digits, radix: 8) { return value }
    }
    return 0o022
}

/// A fault plan that fails `call` with `errno` whenever `matches` accepts the call's path.
func failing(
    _ call: SyscallName, with errno: Errno,
    where matches: @escaping @Sendable (String?) -> Bool = { _ in true }
) -> FaultPlan {
    FaultPlan { name, path in name == call && matches(path) ? errno : nil }
}

/// A fault plan that fails every call named in `calls` with `errno`.
func failing(_ calls: Set<SyscallName>, with errno: Errno) -> FaultPlan {
    FaultPlan { name, _ in calls.contains(name) ? errno : nil }
}

/// Runs `body` with `plan` in force for the current task.
func injecting<R>(_ plan: FaultPlan, _ body: () throws -> R) rethrows -> R {
    try FaultPlan.$current.withValue(plan) { try body() }
}

// MARK: - Raw checks through Glibc

/// Creates a regular file named by raw bytes with `contents`, bypassing PathModel.
func rawCreate(_ path: [UInt8], contents: [UInt8] = []) throws {
    let fd = withCPath(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    guard fd >= 0 else { throw FixtureError(description: "open: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    let written = contents.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    guard written == contents.count else { throw FixtureError(description: "short write") }
}

/// Whether anything is at `path` (a dangling symlink counts), by `lstat(2)`.
func rawExists(_ path: [UInt8]) -> Bool {
    var info = stat()
    return withCPath(path) { lstat($0, &info) } == 0
}

/// The `lstat(2)` of `path`, or nil.
func rawLstat(_ path: File) -> stat? {
    var info = stat()
    return path.withCString { lstat($0, &info) } == 0 ? info : nil
}

/// Whether `path` exists, by `lstat(2)`.
func rawExists(_ path: File) -> Bool { rawLstat(path) != nil }

/// The names in a directory, by `opendir(3)`, sorted by bytes; the fixture's own ground truth.
func rawNames(_ directory: File) -> [[UInt8]] {
    guard let dir = directory.withCString({ opendir($0) }) else { return [] }
    defer { closedir(dir) }
    var names: [[UInt8]] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
        if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
    }
    return names.sorted { $0.lexicographicallyPrecedes($1) }
}

/// Makes a FIFO at `path` with `mkfifo(3)`.
func rawMakeFifo(_ path: File) throws {
    guard path.withCString({ mkfifo($0, 0o644) }) == 0 else {
        throw FixtureError(description: "mkfifo: \(String(cString: strerror(errno)))")
    }
}

func withCPath<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
    (bytes + [0]).withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
}

/// The names of temporary files PathModel may have left in `directory`.
func leftoverTemporaries(in directory: File) -> [String] {
    rawNames(directory).map { String(decoding: $0, as: UTF8.self) }.filter { $0.hasSuffix(".shelf-tmp") }
}

// MARK: - Deterministic content

/// A SplitMix64 stream: the same seed gives the same bytes on every run.
struct PseudoRandomBytes {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func nextWord() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Fills `buffer` (whose count is a multiple of 8) with the next bytes.
    mutating func fill(_ buffer: inout [UInt8]) {
        buffer.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = nextWord() }
        }
    }

    /// The next `count` bytes.
    mutating func bytes(_ count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: (count + 7) / 8 * 8)
        fill(&buffer)
        return Array(buffer.prefix(count))
    }
}

extension File: CustomTestStringConvertible {
    /// Test output shows the path's spelling; `description` would stat the disk.
    public var testDescription: String { string.debugDescription }
}
