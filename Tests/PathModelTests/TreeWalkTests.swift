import SystemPackage
import Testing

@_spi(FaultInjection) @testable import PathModel

/// The one walker, on every kind of volume: the events it gives, in order, and what a consumer
/// can do at each.
@Suite struct TreeWalkTests {
    /// top/
    ///   a/        a/b/  a/b/deep.txt   a/one.txt
    ///   .dot.txt
    ///   top.txt
    ///   link -> a
    static func populate(_ top: File) throws {
        try (top + "a/b").makeDirectory(intermediates: true)
        try (top + "a/b/deep.txt").write(text: "deep")
        try (top + "a/one.txt").write(text: "one")
        try (top + ".dot.txt").write(text: "dot")
        try (top + "top.txt").write(text: "top")
        try (top + "link").makeSymlink(to: "a")
    }

    /// Every event as "event depth path", the path as the walk spells it.
    static func events(_ walk: inout TreeWalk) -> [String] {
        var lines: [String] = []
        while let event = walk.next() {
            let path = String(decoding: walk.path, as: UTF8.self)
            switch event {
            case .entry: lines.append("entry \(walk.depth) \(path)")
            case .enter: lines.append("enter \(walk.depth) \(path)")
            case .leave: lines.append("leave \(walk.depth) \(path)")
            case .directory: lines.append("directory \(walk.depth) \(path)")
            case .unreadable(let error): lines.append("unreadable \(walk.depth) \(path) \(error.errno)")
            case .cycle(let ancestor): lines.append("cycle \(walk.depth) \(path) of \(String(decoding: ancestor, as: UTF8.self))")
            case .failure(let error): lines.append("failure \(walk.depth) \(path) \(error.errno)")
            }
        }
        return lines
    }

    /// A row: options, and the events they give on the fixture spelled `t`.
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let options: TreeWalk.Options
        let expected: [String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "sorted, every entry, each directory entered before its entries and left after",
            options: TreeWalk.Options(sorted: true),
            expected: [
                "enter 0 t", "entry 1 t/.dot.txt", "enter 1 t/a", "enter 2 t/a/b", "entry 3 t/a/b/deep.txt",
                "leave 2 t/a/b", "entry 2 t/a/one.txt", "leave 1 t/a", "entry 1 t/link", "entry 1 t/top.txt", "leave 0 t",
            ]),
        Row(
            name: "hidden names left out",
            options: TreeWalk.Options(sorted: true, maxDepth: 1, includeHidden: false),
            expected: ["enter 0 t", "entry 1 t/a", "entry 1 t/link", "entry 1 t/top.txt", "leave 0 t"]),
        Row(
            name: "a depth limit gives the directories at the limit as entries",
            options: TreeWalk.Options(sorted: true, maxDepth: 2),
            expected: [
                "enter 0 t", "entry 1 t/.dot.txt", "enter 1 t/a", "entry 2 t/a/b", "entry 2 t/a/one.txt", "leave 1 t/a",
                "entry 1 t/link", "entry 1 t/top.txt", "leave 0 t",
            ]),
        Row(
            name: "depth 0 gives the start alone",
            options: TreeWalk.Options(maxDepth: 0),
            expected: ["entry 0 t"]),
        Row(
            name: "following symlinks enters the link to a directory",
            options: TreeWalk.Options(sorted: true, maxDepth: 2, following: .always, includeHidden: false),
            expected: [
                "enter 0 t", "enter 1 t/a", "entry 2 t/a/b", "entry 2 t/a/one.txt", "leave 1 t/a", "enter 1 t/link",
                "entry 2 t/link/b", "entry 2 t/link/one.txt", "leave 1 t/link", "entry 1 t/top.txt", "leave 0 t",
            ]),
        Row(
            name: "announced directories come before they are opened",
            options: TreeWalk.Options(sorted: true, maxDepth: 2, includeHidden: false, announcesDirectories: true),
            expected: [
                "directory 0 t", "enter 0 t", "directory 1 t/a", "enter 1 t/a", "entry 2 t/a/b", "entry 2 t/a/one.txt",
                "leave 1 t/a", "entry 1 t/link", "entry 1 t/top.txt", "leave 0 t",
            ]),
    ]

    @Test(arguments: VolumeKind.linking, rows)
    func events(_ volume: VolumeKind, _ row: Row) throws {
        try volume.withTop { top in
            let t = top + "t"
            try t.makeDirectory()
            try Self.populate(t)
            var walk = TreeWalk(t, spelled: Array("t".utf8), options: row.options)
            #expect(Self.events(&walk) == row.expected)
        }
    }

    @Test("The volume's own order gives every entry once", arguments: VolumeKind.linking)
    func volumeOrder(_ volume: VolumeKind) throws {
        try volume.withTop { top in
            try Self.populate(top)
            var walk = TreeWalk(top, spelled: Array("t".utf8))
            #expect(Self.events(&walk).sorted() == [
                "enter 0 t", "enter 1 t/a", "enter 2 t/a/b", "entry 1 t/.dot.txt", "entry 1 t/link", "entry 1 t/top.txt",
                "entry 2 t/a/one.txt", "entry 3 t/a/b/deep.txt", "leave 0 t", "leave 1 t/a", "leave 2 t/a/b",
            ])
        }
    }

    @Test("At .enter a consumer reads the entries, examines them and picks which to visit, in its order",
        arguments: VolumeKind.linking)
    func visit(_ volume: VolumeKind) throws {
        try volume.withTop { top in
            try Self.populate(top)
            var walk = TreeWalk(top, spelled: Array("t".utf8), options: TreeWalk.Options(sorted: true))
            #expect(walk.next() == .enter)
            let children = walk.children
            let names = (0..<children.count).map { String(decoding: children.name($0), as: UTF8.self) }
            #expect(names == [".dot.txt", "a", "link", "top.txt"])
            #expect(try walk.childInfo(3).size == 3)
            #expect(try walk.childInfo(2).kind == .symlink)
            #expect(try walk.childInfo(2, following: true).kind == .directory)
            #expect(try walk.childLinkTarget(2) == Array("a".utf8))
            // Backwards, and without the hidden file.
            walk.visit([3, 2, 1])
            var seen: [String] = []
            while let event = walk.next() {
                if event == .enter { walk.visit([]) }
                seen.append("\(event) \(String(decoding: walk.name, as: UTF8.self))")
            }
            #expect(seen == ["entry top.txt", "entry link", "enter a", "leave a", "leave t"])
        }
    }

    @Test("info() of the current entry, and a symlink's target", arguments: VolumeKind.linking)
    func currentEntry(_ volume: VolumeKind) throws {
        try volume.withTop { top in
            try Self.populate(top)
            var walk = TreeWalk(top + "a", options: TreeWalk.Options(sorted: true))
            var sizes: [String: UInt64] = [:]
            while let event = walk.next() {
                if event == .entry { sizes[String(decoding: walk.name, as: UTF8.self)] = try walk.info().size }
            }
            #expect(sizes == ["deep.txt": 4, "one.txt": 3])
            var links = TreeWalk(top, options: TreeWalk.Options(sorted: true, maxDepth: 1))
            var targets: [[UInt8]] = []
            while let event = links.next() {
                if event == .entry, links.kind == .symlink { targets.append(try links.linkTarget()) }
            }
            #expect(targets == [Array("a".utf8)])
        }
    }

    @Test("remove() at each entry and at each .leave empties a tree", arguments: VolumeKind.linking)
    func removeAsItGoes(_ volume: VolumeKind) throws {
        try volume.withTop { top in
            let t = top + "t"
            try t.makeDirectory()
            try Self.populate(t)
            var walk = TreeWalk(t)
            while let event = walk.next() {
                if event == .entry || event == .leave { try walk.remove() }
            }
            #expect(!t.exists)
            #expect(try top.entries().isEmpty)
        }
    }

    @Test("A symlink loop is a cycle naming its ancestor, and the walk goes on", arguments: VolumeKind.linking)
    func cycle(_ volume: VolumeKind) throws {
        try volume.withTop { top in
            try (top + "a").makeDirectory()
            try (top + "a/up").makeSymlink(to: "..")
            try (top + "z").write(text: "")
            var walk = TreeWalk(top, spelled: Array("t".utf8), options: TreeWalk.Options(sorted: true, following: .always))
            #expect(Self.events(&walk) == [
                "enter 0 t", "enter 1 t/a", "cycle 2 t/a/up of t", "leave 1 t/a", "entry 1 t/z", "leave 0 t",
            ])
        }
    }

    @Test("Examining every entry gives each what examining it alone gives", arguments: VolumeKind.linking)
    func examinesEveryEntry(_ volume: VolumeKind) throws {
        try volume.withTop { top in
            try Self.populate(top)
            var walk = TreeWalk(top, options: TreeWalk.Options(sorted: true, examinesEveryEntry: true))
            var checked = 0
            while let event = walk.next() {
                guard walk.depth > 0, event == .entry || event == .enter else { continue }
                // Reading a directory may touch its access time, so that is left out.
                var alone = try walk.file.info()
                alone.accessTime = try walk.info().accessTime
                #expect(try walk.info() == alone, "\(walk.file)")
                checked += 1
            }
            #expect(checked == 7)
        }
    }

    @Test("An entry that cannot be examined is a failure at its turn, and the walk goes on")
    func entryThatCannotBeExamined() throws {
        try VolumeKind.local.withTop { top in
            try Self.populate(top)
            let plan = FaultPlan { call, path in call == .stat && path == "one.txt" ? .permissionDenied : nil }
            let lines = FaultPlan.$current.withValue(plan) {
                var walk = TreeWalk(
                    top, spelled: Array("t".utf8), options: TreeWalk.Options(sorted: true, examinesEveryEntry: true))
                return Self.events(&walk)
            }
            #expect(lines == [
                "enter 0 t", "entry 1 t/.dot.txt", "enter 1 t/a", "enter 2 t/a/b", "entry 3 t/a/b/deep.txt",
                "leave 2 t/a/b", "failure 2 t/a/one.txt \(Errno.permissionDenied)", "leave 1 t/a", "entry 1 t/link",
                "entry 1 t/top.txt", "leave 0 t",
            ])
        }
    }

    @Test("A missing start is a failure; a file is one entry", arguments: VolumeKind.linking)
    func starts(_ volume: VolumeKind) throws {
        try volume.withTop { top in
            try (top + "f").write(text: "x")
            var missing = TreeWalk(top + "missing", spelled: Array("m".utf8))
            #expect(Self.events(&missing) == ["failure 0 m \(Errno.noSuchFileOrDirectory)"])
            var file = TreeWalk(top + "f", spelled: Array("f".utf8))
            #expect(Self.events(&file) == ["entry 0 f"])
        }
    }

    @Test("A directory deeper than the open-directory limit is reopened through .. on the way back",
        arguments: VolumeKind.linking)
    func deeperThanTheLimit(_ volume: VolumeKind) throws {
        try volume.withTop { top in
            let levels = TreeWalk.openDirectoryLimit * 3
            var path = top
            for level in 0..<levels {
                path = path + "d"
                try path.makeDirectory()
                try (path + "f\(level)").write(text: "")
            }
            var walk = TreeWalk(top)
            var entries = 0
            var leaves = 0
            var deepest = 0
            while let event = walk.next() {
                switch event {
                case .entry: entries += 1
                case .leave: leaves += 1
                case .enter: deepest = max(deepest, walk.depth)
                default: Issue.record("unexpected \(event) at \(walk.path)")
                }
            }
            #expect(entries == levels)
            #expect(leaves == levels + 1)
            #expect(deepest == levels)
        }
    }
}
