import Glibc
import SystemPackage
import Testing

@testable import PathModel

/// Makes `depth` nested directories named `d` in `top` by descriptor (their paths pass
/// `PATH_MAX`), with a file `f` holding `contents` in the deepest.
private func makeDeepTree(in top: File, depth: Int, contents: String) throws {
    var dir = top.withCString { open($0, O_RDONLY | O_DIRECTORY) }
    try #require(dir >= 0)
    for _ in 0..<depth {
        try #require(mkdirat(dir, "d", 0o755) == 0)
        let child = openat(dir, "d", O_RDONLY | O_DIRECTORY)
        close(dir)
        try #require(child >= 0)
        dir = child
    }
    let file = openat(dir, "f", O_WRONLY | O_CREAT, 0o640)
    close(dir)
    try #require(file >= 0)
    _ = contents.utf8CString.dropLast().withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    close(file)
}

/// The contents and mode of `f` at the bottom of a `depth`-level tree under `top/d`, read by
/// descriptor; nil when a level is missing.
private func deepFile(in top: File, depth: Int) -> (contents: String, mode: mode_t)? {
    var dir = top.withCString { open($0, O_RDONLY | O_DIRECTORY) }
    for _ in 0..<depth {
        let child = openat(dir, "d", O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
        close(dir)
        guard child >= 0 else { return nil }
        dir = child
    }
    defer { close(dir) }
    let file = openat(dir, "f", O_RDONLY)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = read(file, &buffer, buffer.count)
    var info = stat()
    fstat(file, &info)
    return (String(decoding: buffer[..<max(count, 0)], as: UTF8.self), info.st_mode & 0o7777)
}

@Suite("Paths deeper than PATH_MAX")
struct DeepPathTests {
    @Test("copy(to:) copies every level of a tree 3,000 deep, the file at the bottom with its mode")
    func copy() throws {
        try withScratch { dir in
            try (dir + "source").makeDirectory()
            try makeDeepTree(in: dir + "source", depth: 3_000, contents: "bottom")
            try (dir + "source").copy(to: dir + "copy")
            #expect(deepFile(in: dir + "copy", depth: 3_000)?.contents == "bottom")
            #expect(deepFile(in: dir + "copy", depth: 3_000)?.mode == 0o640)
            #expect(deepFile(in: dir + "source", depth: 3_000)?.contents == "bottom")
        }
    }

    @Test("An anchor reaches paths longer than PATH_MAX, and is only a way to reach them")
    func anchors() throws {
        try withScratch { dir in
            let near = dir + (String(repeating: "x/", count: 1_100) + "x")
            try near.makeDirectory(intermediates: true)
            let anchored = near.anchored()
            #expect(anchored.anchor != nil)
            #expect(anchored == near && anchored.hashValue == near.hashValue)
            #expect((anchored + "below").anchor === anchored.anchor)
            #expect(anchored.parent.anchor == nil)

            let far = anchored + (String(repeating: "y/", count: 1_100) + "f")
            #expect(far.byteCount > Int(PATH_MAX))
            try far.parent.makeDirectory(intermediates: true)
            try far.write(text: "far")
            #expect(try far.readText() == "far")
            let plain = File(bytes: far.bytes)
            #expect(throws: FileError(.open, plain, .fileNameTooLong)) { try plain.readText() }
            try (anchored + "y").delete()
        }
    }
}
