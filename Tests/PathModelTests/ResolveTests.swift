import Glibc
import SystemPackage
import Testing

@testable import PathModel

@Suite("Resolving symlinks")
struct ResolveTests {
    /// The kernel's answer, for comparison.
    static func realpath(_ file: File) -> File? {
        guard let resolved = file.withCString({ Glibc.realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return File(cString: resolved)
    }

    @Test("resolvingSymlinks() agrees with realpath(3)")
    func agreesWithRealpath() throws {
        try withScratch { dir in
            try (dir + "real/deeper").makeDirectory(intermediates: true)
            try (dir + "real/deeper/file").write(text: "")
            try (dir + "rel").makeSymlink(to: "real/deeper")
            try (dir + "abs").makeSymlink(to: dir + "real")
            try (dir + "real/up").makeSymlink(to: "..")
            try (dir + "chain").makeSymlink(to: "rel")
            let base = try #require(Self.realpath(dir))
            for spelling in [
                "rel/file", "abs/deeper/file", "real/up/real/up/rel", "chain/../deeper", "./abs/./deeper/..",
            ] {
                let file = dir + spelling
                let expected = try #require(Self.realpath(file), "realpath failed for \(spelling)")
                #expect(try file.resolvingSymlinks() == expected, "\(spelling)")
                #expect(expected.string.hasPrefix(base.string))
            }
        }
    }

    @Test("resolvingSymlinks() errors: missing, through a file, a loop")
    func errors() throws {
        try withScratch { dir in
            try (dir + "file").write(text: "")
            try (dir + "loop").makeSymlink(to: "loop")
            let missing = dir + "missing/x"
            #expect(throws: FileError(.resolve, missing, .noSuchFileOrDirectory)) {
                try missing.resolvingSymlinks()
            }
            let throughFile = dir + "file/x"
            #expect(throws: FileError(.resolve, throughFile, .notDirectory)) {
                try throughFile.resolvingSymlinks()
            }
            let loop = dir + "loop"
            #expect(throws: FileError(.resolve, loop, .tooManySymbolicLinkLevels)) {
                try loop.resolvingSymlinks()
            }
        }
    }

    @Test("checkSearchable() passes for a directory one may enter")
    func searchable() throws {
        try withScratch { dir in
            try dir.checkSearchable()
            let missing = dir + "missing"
            #expect(throws: FileError(.stat, missing, .noSuchFileOrDirectory)) {
                try missing.checkSearchable()
            }
        }
    }

    @Test(
        "resolvingSymlinks(allowingMissing:) lets the last or any component be missing",
        arguments: [
            ("link/new", File.MissingComponents.last, "real/new"),
            ("link/new/more", .any, "real/new/more"),
            ("link/new/../other", .any, "real/other"),
            ("real/file/below", .any, "real/file/below"),
        ])
    func allowingMissing(_ path: String, _ missing: File.MissingComponents, _ expected: String) throws {
        try withScratch { dir in
            try (dir + "real").makeDirectory()
            try (dir + "real/file").write(text: "x")
            try (dir + "link").makeSymlink(to: "real")
            let base = try dir.resolvingSymlinks()
            #expect(try (dir + path).resolvingSymlinks(allowingMissing: missing) == base + expected)
        }
    }

    @Test("resolvingSymlinks(allowingMissing: .last) still needs every other component")
    func lastOnly() throws {
        try withScratch { dir in
            try (dir + "real").makeDirectory()
            let path = dir + "real/missing/new"
            #expect(throws: FileError(.resolve, path, .noSuchFileOrDirectory)) {
                try path.resolvingSymlinks(allowingMissing: .last)
            }
        }
    }
}
