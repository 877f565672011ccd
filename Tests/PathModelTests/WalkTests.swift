import SystemPackage
import Testing

@_spi(FaultInjection) @testable import PathModel

@Suite("Walk")
struct WalkTests {
    /// root/
    ///   a/            a/b/  a/b/deep.txt   a/one.txt
    ///   .hidden/      .hidden/inside.txt
    ///   .dot.txt
    ///   top.txt
    ///   link -> a     (symlink to a directory)
    static func populate(_ root: File) throws {
        try (root + "a/b").makeDirectory(intermediates: true)
        try (root + "a/b/deep.txt").write(text: "deep")
        try (root + "a/one.txt").write(text: "one")
        try (root + ".hidden").makeDirectory()
        try (root + ".hidden/inside.txt").write(text: "inside")
        try (root + ".dot.txt").write(text: "dot")
        try (root + "top.txt").write(text: "top")
        try (root + "link").makeSymlink(to: "a")
    }

    /// The successful entries as "depth kind relative-path", and the failures.
    static func run(_ root: File, _ options: WalkOptions = WalkOptions()) -> (
        entries: [String], failures: [FileError]
    ) {
        var entries: [String] = []
        var failures: [FileError] = []
        for result in root.walk(options) {
            switch result {
            case .success(let entry):
                entries.append("\(entry.depth) \(entry.kind) \(entry.file.relative(to: root)!.string)")
            case .failure(let error):
                failures.append(error)
            }
        }
        return (entries, failures)
    }

    @Test("The default walk: everything, sorted, parents before children, links not followed")
    func everything() throws {
        try withScratch { root in
            try Self.populate(root)
            let (entries, failures) = Self.run(root)
            #expect(failures.isEmpty)
            #expect(
                entries == [
                    "1 regular .dot.txt",
                    "1 directory .hidden",
                    "2 regular .hidden/inside.txt",
                    "1 directory a",
                    "2 directory a/b",
                    "3 regular a/b/deep.txt",
                    "2 regular a/one.txt",
                    "1 symlink link",
                    "1 regular top.txt",
                ])
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let options: WalkOptions
        let expected: [String]
        var testDescription: String { name }
    }

    @Test(
        "Walk options",
        arguments: [
            Case(
                name: "maxDepth 0 yields nothing below the start, as find -maxdepth 0",
                options: WalkOptions(maxDepth: 0),
                expected: []),
            Case(
                name: "maxDepth 1 yields the children only",
                options: WalkOptions(maxDepth: 1),
                expected: [
                    "1 regular .dot.txt", "1 directory .hidden", "1 directory a", "1 symlink link",
                    "1 regular top.txt",
                ]),
            Case(
                name: "maxDepth 2 stops above a/b/deep.txt",
                options: WalkOptions(maxDepth: 2, includeHidden: false),
                expected: [
                    "1 directory a", "2 directory a/b", "2 regular a/one.txt", "1 symlink link",
                    "1 regular top.txt",
                ]),
            Case(
                name: "minDepth 2 skips the children but walks through them",
                options: WalkOptions(minDepth: 2, includeHidden: false),
                expected: ["2 directory a/b", "3 regular a/b/deep.txt", "2 regular a/one.txt"]),
            Case(
                name: "minDepth 3 with maxDepth 3",
                options: WalkOptions(maxDepth: 3, minDepth: 3),
                expected: ["3 regular a/b/deep.txt"]),
            Case(
                name: "kinds [.regular] yields files but still walks directories",
                options: WalkOptions(includeHidden: false, kinds: [.regular]),
                expected: ["3 regular a/b/deep.txt", "2 regular a/one.txt", "1 regular top.txt"]),
            Case(
                name: "kinds [.directory, .symlink]",
                options: WalkOptions(kinds: [.directory, .symlink]),
                expected: ["1 directory .hidden", "1 directory a", "2 directory a/b", "1 symlink link"]),
            Case(
                name: "includeHidden false neither yields nor enters dot names",
                options: WalkOptions(includeHidden: false),
                expected: [
                    "1 directory a", "2 directory a/b", "3 regular a/b/deep.txt", "2 regular a/one.txt",
                    "1 symlink link", "1 regular top.txt",
                ]),
            Case(
                name: "followSymlinks enters the link as a directory",
                options: WalkOptions(includeHidden: false, followSymlinks: true),
                expected: [
                    "1 directory a", "2 directory a/b", "3 regular a/b/deep.txt", "2 regular a/one.txt",
                    "1 directory link", "2 directory link/b", "3 regular link/b/deep.txt",
                    "2 regular link/one.txt",
                    "1 regular top.txt",
                ]),
        ])
    func options(_ row: Case) throws {
        try withScratch { root in
            try Self.populate(root)
            let (entries, failures) = Self.run(root, row.options)
            #expect(failures.isEmpty)
            #expect(entries == row.expected)
        }
    }

    @Test("maxDepth 0 does not read the start: a missing one is no failure")
    func maxDepthZeroReadsNothing() throws {
        try withScratch { root in
            #expect(Array((root + "missing").walk(WalkOptions(maxDepth: 0))).isEmpty)
            #expect(Array((root + "missing").walk(WalkOptions(maxDepth: 1))).count == 1)
        }
    }

    @Test("Unsorted walk yields the same set")
    func unsorted() throws {
        try withScratch { root in
            try Self.populate(root)
            let sorted = Self.run(root).entries
            let unsorted = Self.run(root, WalkOptions(sorted: false)).entries
            #expect(unsorted.sorted() == sorted.sorted())
        }
    }

    @Test("followSymlinks reports a symlink loop as ELOOP and goes on")
    func symlinkLoop() throws {
        try withScratch { root in
            try (root + "a").makeDirectory()
            try (root + "a/up").makeSymlink(to: "..")  // leads back to root: a loop
            try (root + "a/self").makeSymlink(to: "self")  // refers to itself: leads nowhere
            try (root + "a/z.txt").write(text: "")
            try (root + "b.txt").write(text: "")
            let (entries, failures) = Self.run(root, WalkOptions(followSymlinks: true))
            #expect(failures == [FileError(.list, root + "a/up", .tooManySymbolicLinkLevels)])
            #expect(
                entries == [
                    "1 directory a",
                    "2 symlink a/self",
                    "2 directory a/up",
                    "2 regular a/z.txt",
                    "1 regular b.txt",
                ])
        }
    }

    @Test("Without followSymlinks a loop is just a link")
    func loopNotFollowed() throws {
        try withScratch { root in
            try (root + "up").makeSymlink(to: ".")
            let (entries, failures) = Self.run(root)
            #expect(failures.isEmpty)
            #expect(entries == ["1 symlink up"])
        }
    }

    @Test("A dangling link is an entry when following")
    func danglingFollowed() throws {
        try withScratch { root in
            try (root + "dangling").makeSymlink(to: "nowhere")
            let (entries, failures) = Self.run(root, WalkOptions(followSymlinks: true))
            #expect(failures.isEmpty)
            #expect(entries == ["1 symlink dangling"])
        }
    }

    @Test("An unreadable subdirectory is reported and the walk goes on")
    func unreadableSubdirectory() throws {
        try withScratch { root in
            try Self.populate(root)
            let blocked = root + "a/b"
            // The walk opens each directory by its name from the one above it.
            let plan = failing(.open, with: .permissionDenied, where: { $0 == blocked.string || $0 == "b" })
            let (entries, failures) = injecting(plan) { Self.run(root, WalkOptions(includeHidden: false)) }
            #expect(failures == [FileError(.list, blocked, .permissionDenied)])
            #expect(
                entries == [
                    "1 directory a", "2 directory a/b", "2 regular a/one.txt", "1 symlink link",
                    "1 regular top.txt",
                ])
        }
    }

    @Test("A root that cannot be listed gives one failure, then the end")
    func unreadableRoot() throws {
        try withScratch { root in
            let missing = root + "missing"
            var walk = missing.walk()
            let first = walk.next()
            guard case .failure(let error) = first else {
                Issue.record("expected a failure, got \(String(describing: first))")
                return
            }
            #expect(error == FileError(.list, missing, .noSuchFileOrDirectory))
            #expect(walk.next() == nil)
        }
    }

    @Test("A walk is lazy: it reads a subdirectory only when the iterator gets there")
    func lazy() throws {
        try withScratch { root in
            try Self.populate(root)
            var walk = root.walk(WalkOptions(includeHidden: false))
            guard case .success(let first) = walk.next() else {
                Issue.record("expected the first entry")
                return
            }
            #expect(first.file == root + "a")
            // Removed before the walk descends: the walk must see it gone, not a stale listing.
            try (root + "a").delete()
            var rest: [String] = []
            var failures: [FileError] = []
            while let result = walk.next() {
                switch result {
                case .success(let entry): rest.append(entry.file.relative(to: root)!.string)
                case .failure(let error): failures.append(error)
                }
            }
            #expect(failures == [FileError(.list, root + "a", .noSuchFileOrDirectory)])
            #expect(rest == ["link", "top.txt"])
        }
    }
}
