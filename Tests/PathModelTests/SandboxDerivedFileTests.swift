import Testing

@_spi(FaultInjection) @testable import PathModel

/// Every public way of making a `File` from a sandboxed one keeps the result in the sandbox.
///
/// The fixture's sandbox holds a mirror of the directory outside it: at the outside directory's
/// own absolute path, inside the sandbox, a `secret` that reads "inside" (and `/toSecret`, a
/// symlink holding that absolute path). A derived path that
/// left the sandbox reads the real `outside/secret`, which reads "secret"; one that stayed reads
/// the mirror.
@Suite("Sandbox: files made from sandboxed files stay in the sandbox")
struct SandboxDerivedFileTests {
    /// One API that makes a `File` from a sandboxed `File`: `derive` returns the file that
    /// should read "inside", given the sandbox and the outside directory's absolute path.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let derive: @Sendable (Sandbox, String) throws -> File?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "Glob.expand, absolute pattern") { sandbox, outside in
            Glob(outside + "/s*t").expand(relativeTo: sandbox.root).first
        },
        Row(name: "Glob.expand, absolute pattern with a literal last segment") { sandbox, outside in
            Glob(outside.dropLast("outside".count) + "out*de/secret").expand(relativeTo: sandbox.root).first
        },
        Row(name: "Glob.expand, ** pattern") { sandbox, outside in
            Glob(outside + "/**/deep").expand(relativeTo: sandbox.root).first
        },
        Row(name: "Glob.expand, relative pattern from the top") { sandbox, outside in
            Glob(String(outside.dropFirst()) + "/s*t").expand(relativeTo: sandbox.root).first
        },
        Row(name: "parent") { sandbox, outside in sandbox.file(outside + "/secret/x").parent },
        Row(name: "+ String") { sandbox, outside in sandbox.file(outside) + "secret" },
        Row(name: "+ File") { sandbox, outside in sandbox.file(outside) + File(path: "secret") },
        Row(name: "plain + sandboxed File") { sandbox, outside in
            File(path: outside) + sandbox.file("secret")
        },
        Row(name: "appending(name:)") { sandbox, outside in
            try sandbox.file(outside).appending(name: Array("secret".utf8))
        },
        Row(name: "normalized") { sandbox, outside in sandbox.file(outside + "/dir/../secret").normalized },
        Row(name: "relative(to:)") { sandbox, outside in
            sandbox.file(outside + "/secret").relative(to: sandbox.root)
        },
        Row(name: "expandingTilde(home:)") { sandbox, outside in
            sandbox.file("~/secret").expandingTilde(home: File(path: outside))
        },
        Row(name: "children()") { sandbox, outside in
            try sandbox.file(outside).children().first { $0.name == "secret" }
        },
        Row(name: "walk()") { sandbox, outside in
            sandbox.file(outside).walk().compactMap { try? $0.get().file }.first { $0.name == "secret" }
        },
        Row(name: "resolvingSymlinks()") { sandbox, _ in try sandbox.file("/toSecret").resolvingSymlinks() },
        Row(name: "linkTarget()") { sandbox, _ in try sandbox.file("/toSecret").linkTarget() },
        Row(name: "user-dirs.dirs absolute value") { sandbox, outside in
            File.parseUserDirectory(
                "XDG_MUSIC_DIR=\"\(outside)/secret\"", key: "MUSIC", home: sandbox.file("/home"))
        },
        Row(name: "rename(to:)") { sandbox, outside in
            try sandbox.file(outside + "/secret").rename(to: "renamed")
        },
        Row(name: "makeDirectory(intermediates:) results") { sandbox, outside in
            try sandbox.file(outside + "/new/deeper").makeDirectory(intermediates: true).first.map {
                $0.parent + "secret"
            }
        },
        Row(name: "Copier destinations") { sandbox, outside in
            var copier = Copier(options: CopyOptions())
            var destinations: [File] = []
            copier.copied = { _, destination in destinations.append(destination) }
            _ = copier.copy(sandbox.file(outside + "/dir"), to: sandbox.file(outside + "/copy"))
            return destinations.first { $0.name == "deep" }
        },
        Row(name: "DirectoryHandle.path(_:)") { sandbox, outside in
            try DirectoryHandle(sandbox.file(outside)).path(Array("dir/deep".utf8))
        },
        Row(name: "OpenFile.file") { sandbox, outside in
            let open = try sandbox.file(outside + "/secret").open(.read)
            defer { open.close() }
            return open.file
        },
        Row(name: "FileError.path") { sandbox, outside in
            do throws(FileError) {
                _ = try sandbox.file(outside + "/secret/x").readBytes()
                return nil
            } catch {
                return error.path.parent
            }
        },
    ]

    @Test("A derived file is in the sandbox and reads what is inside", arguments: rows)
    func derivedFilesStayInside(_ row: Row) throws {
        try withScratch { scratch in
            let fixture = try SandboxFixture(scratch)
            let mirror = fixture.rootDirectory + fixture.outside.string
            try (mirror + "dir").makeDirectory(intermediates: true)
            try (mirror + "secret").write(text: "inside")
            try (mirror + "dir/deep").write(text: "inside")
            try (fixture.rootDirectory + "toSecret").makeSymlink(to: fixture.outside + "secret")
            try (fixture.rootDirectory + "home").makeDirectory()
            let sandbox = try Sandbox(fixture.rootDirectory)
            let derived = try #require(try row.derive(sandbox, fixture.outside.string))
            #expect(derived.sandbox == sandbox)
            // A relative result, as a glob's or relative(to:)'s, starts at the sandbox's top.
            #expect(try derived.readText() == "inside")
            #expect(try fixture.outside.appending(name: Array("secret".utf8)).readText() == "secret")
        }
    }

    @Test("relative(to:) between two sandboxes, or a sandbox and the whole file system, is nil")
    func relativeAcrossSandboxes() throws {
        try withScratch { scratch in
            let fixture = try SandboxFixture(scratch)
            let one = try Sandbox(fixture.rootDirectory)
            let other = try Sandbox(fixture.rootDirectory)
            #expect(one.file("/inside/file").relative(to: one.root) == one.file("inside/file"))
            #expect(one.file("/inside/file").relative(to: other.root) == nil)
            #expect(one.file("/inside/file").relative(to: File.root) == nil)
            #expect(File(path: "/inside/file").relative(to: one.root) == nil)
        }
    }
}
