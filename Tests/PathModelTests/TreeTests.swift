// Tree operations: delete, copy(to:) and move(to:).

import Glibc
import SystemPackage
import Testing

@_spi(FaultInjection) @testable import PathModel

@Suite("Tree operations")
struct TreeTests {
    /// tree/
    ///   a.txt (0640)          run.sh (0755)
    ///   sub/ (0750)           sub/b.txt   sub/deeper/c.txt
    ///   rel -> a.txt          abs -> <tree>/sub
    ///   dangling -> nowhere
    static func populate(_ tree: File) throws {
        try (tree + "sub/deeper").makeDirectory(intermediates: true)
        try (tree + "a.txt").write(text: "A")
        try (tree + "a.txt").setPermissions(0o640)
        try (tree + "run.sh").write(text: "#!/bin/sh\n")
        try (tree + "run.sh").setPermissions(0o755)
        try (tree + "sub/b.txt").write(text: "B")
        try (tree + "sub/deeper/c.txt").write(text: "C")
        try (tree + "sub").setPermissions(0o750)
        try (tree + "rel").makeSymlink(to: "a.txt")
        try (tree + "abs").makeSymlink(to: tree + "sub")
        try (tree + "dangling").makeSymlink(to: "nowhere")
    }

    /// Every path below `root` with its kind, permissions and (for links) target, for comparisons.
    static func snapshot(_ root: File) -> [String] {
        root.walk().map { result in
            switch result {
            case .success(let entry):
                let info = try? entry.file.info()
                let detail: String
                switch entry.kind {
                case .symlink: detail = "-> " + ((try? entry.file.linkTarget())?.string ?? "?")
                case .regular: detail = (try? entry.file.readText()) ?? "?"
                default: detail = ""
                }
                let mode = String(info?.permissions ?? 0, radix: 8)
                return "\(entry.file.relative(to: root)!.string) \(entry.kind) \(mode) \(detail)"
            case .failure(let error):
                return "error \(error)"
            }
        }
    }

    // MARK: delete

    @Test("delete() removes a tree but never follows a symlink out of it")
    func deleteKeepsOutsideTargets() throws {
        try withScratch { dir in
            let outside = dir + "outside"
            try outside.makeDirectory()
            try (outside + "keep.txt").write(text: "keep")
            let tree = dir + "tree"
            try Self.populate(tree)
            try (tree + "to-outside-dir").makeSymlink(to: outside)
            try (tree + "sub/to-outside-file").makeSymlink(to: outside + "keep.txt")
            try tree.delete()
            #expect(!rawExists(tree))
            #expect(try (outside + "keep.txt").readText() == "keep")
            #expect(try outside.childNames() == ["keep.txt"])
        }
    }

    @Test("delete() on a symlink to a directory removes the link only")
    func deleteSymlinkToDirectory() throws {
        try withScratch { dir in
            try (dir + "real").makeDirectory()
            try (dir + "real/x").write(text: "")
            let link = dir + "link"
            try link.makeSymlink(to: "real")
            try link.delete()
            #expect(!rawExists(link))
            #expect(try (dir + "real").childNames() == ["x"])
        }
    }

    @Test("delete() of a single file and of an empty directory")
    func deleteSingle() throws {
        try withScratch { dir in
            let file = dir + "f"
            try file.write(text: "")
            try file.delete()
            #expect(!rawExists(file))
            let empty = dir + "empty"
            try empty.makeDirectory()
            try empty.delete()
            #expect(!rawExists(empty))
        }
    }

    @Test("delete() of a missing path is a .remove ENOENT error")
    func deleteMissing() throws {
        try withScratch { dir in
            let missing = dir + "missing"
            #expect(throws: FileError(.remove, missing, .noSuchFileOrDirectory)) { try missing.delete() }
        }
    }

    @Test("delete() reports the first failure and keeps what it could not remove")
    func deleteFailure() throws {
        try withScratch { dir in
            let tree = dir + "tree"
            try Self.populate(tree)
            let plan = failing(.unlink, with: .permissionDenied, where: { $0 == "b.txt" })
            let error = #expect(throws: FileError.self) { try injecting(plan) { try tree.delete() } }
            #expect(error == FileError(.remove, tree + "sub/b.txt", .permissionDenied))
            #expect((tree + "sub/b.txt").exists)
            #expect(tree.exists)
        }
    }

    @Test("A deep tree is removed without recursion limits")
    func deleteDeep() throws {
        try withScratch { dir in
            var path = dir + "deep"
            for _ in 0..<200 { path = path + "d" }
            try path.makeDirectory(intermediates: true)
            try (path + "leaf").write(text: "")
            try (dir + "deep").delete()
            #expect(rawNames(dir).isEmpty)
        }
    }

    @Test("deleteAllChildren() empties a directory and keeps it")
    func deleteAllChildren() throws {
        try withScratch { dir in
            let tree = dir + "tree"
            try Self.populate(tree)
            try (tree + ".hidden").write(text: "")
            try tree.deleteAllChildren()
            #expect(tree.isDirectory)
            #expect(rawNames(tree).isEmpty)
        }
    }

    @Test("deleteAllChildren() on a symlink to a directory fails with ENOTDIR and leaves the directory full")
    func deleteAllChildrenOfSymlink() throws {
        try withScratch { dir in
            let tree = dir + "tree"
            try Self.populate(tree)
            let before = rawNames(tree)
            let link = dir + "link"
            try link.makeSymlink(to: "tree")
            #expect(throws: FileError(.list, link, .notDirectory)) { try link.deleteAllChildren() }
            #expect(rawNames(tree) == before)
            #expect(link.isSymlink)
            let file = tree + "file"
            try file.write(text: "kept")
            #expect(throws: FileError(.list, file, .notDirectory)) { try file.deleteAllChildren() }
            #expect(try file.readText() == "kept")
        }
    }

    @Test("deleteAllChildren() removes each entry by name from the open directory (unlinkat)")
    func deleteAllChildrenByDescriptor() throws {
        try withScratch { dir in
            let tree = dir + "tree"
            try (tree + "sub").makeDirectory(intermediates: true)
            try (tree + "kept").write(text: "")
            try (tree + "sub/gone").write(text: "")
            // The one door sees the bare name for a descriptor-relative call, the full path otherwise.
            let plan = failing(.unlink, with: .ioError) { $0 == "kept" }
            #expect(throws: FileError(.remove, tree + "kept", .ioError)) {
                try injecting(plan) { try tree.deleteAllChildren() }
            }
            #expect(rawNames(tree).contains(Array("kept".utf8)))
        }
    }

    @Test("removeTree reports each removal, children before their directory")
    func removeTreeCallbacks() throws {
        try withScratch { dir in
            let tree = dir + "tree"
            try (tree + "sub").makeDirectory(intermediates: true)
            try (tree + "sub/x").write(text: "")
            try (tree + "y").makeSymlink(to: "sub")
            var removed: [String] = []
            var steps: [RemovalStep] = []
            let everything = tree.removeTree(
                confirm: {
                    steps.append($0)
                    return true
                },
                removed: { file, kind in removed.append("\(file.relative(to: dir)!.string) \(kind)") },
                failed: { Issue.record("unexpected failure \($0)") })
            #expect(everything)
            #expect(
                removed.sorted() == [
                    "tree directory", "tree/sub directory", "tree/sub/x regular", "tree/y symlink",
                ])
            #expect(removed.last == "tree directory")
            #expect(
                removed.firstIndex(of: "tree/sub/x regular")! < removed.firstIndex(of: "tree/sub directory")!)
            #expect(steps.first == .descend(tree))
            #expect(steps.contains(.descend(tree + "sub")))
            #expect(steps.contains(.remove(tree + "y", .symlink)))
            #expect(!rawExists(tree))
        }
    }

    @Test("removeTree with confirm false keeps the refused entry and its ancestors")
    func removeTreeRefusal() throws {
        try withScratch { dir in
            let tree = dir + "tree"
            try Self.populate(tree)
            let keep = tree + "sub/deeper/c.txt"
            var removed: [File] = []
            var failures: [FileError] = []
            let everything = tree.removeTree(
                confirm: { $0 != .remove(keep, .regular) },
                removed: { file, _ in removed.append(file) },
                failed: { failures.append($0) })
            #expect(!everything)
            #expect(failures.isEmpty)
            #expect(try keep.readText() == "C")
            #expect(rawNames(tree) == [Array("sub".utf8)])
            #expect(rawNames(tree + "sub") == [Array("deeper".utf8)])
            #expect(removed.contains(tree + "sub/b.txt"))
            #expect(!removed.contains(tree))
        }
    }

    @Test("removeTree with confirm false on descend skips that directory entirely")
    func removeTreeSkipsDescend() throws {
        try withScratch { dir in
            let tree = dir + "tree"
            try Self.populate(tree)
            let everything = tree.removeTree(
                confirm: { $0 != .descend(tree + "sub") },
                failed: { Issue.record("unexpected failure \($0)") })
            #expect(!everything)
            #expect(rawNames(tree) == [Array("sub".utf8)])
            #expect(try (tree + "sub/deeper/c.txt").readText() == "C")
        }
    }

    @Test("removeTree goes on after a failure and reports it")
    func removeTreeGoesOn() throws {
        try withScratch { dir in
            let tree = dir + "tree"
            try Self.populate(tree)
            var failures: [FileError] = []
            let plan = failing(.unlink, with: .permissionDenied, where: { $0 == "b.txt" })
            let everything = injecting(plan) { tree.removeTree(failed: { failures.append($0) }) }
            #expect(!everything)
            #expect(failures == [FileError(.remove, tree + "sub/b.txt", .permissionDenied)])
            // Everything else went: only the failed file and its ancestors stay.
            #expect(rawNames(tree) == [Array("sub".utf8)])
            #expect(rawNames(tree + "sub") == [Array("b.txt".utf8)])
        }
    }

    // MARK: copy

    @Test("copy(to:) copies a tree: symlinks as symlinks, modes and mtimes kept")
    func copyTree() throws {
        try withScratch { dir in
            let tree = dir + "tree"
            try Self.populate(tree)
            let old = Timestamp(seconds: 1_500_000_000, nanoseconds: 123_456_789)
            try (tree + "a.txt").setTimes(access: old, modification: old)
            try (tree + "sub/deeper").setTimes(access: old, modification: old)
            try tree.setTimes(access: old, modification: old)
            let copy = dir + "copy"
            try tree.copy(to: copy)

            #expect(Self.snapshot(copy) == Self.snapshot(tree))
            #expect((copy + "rel").isSymlink)
            #expect(try (copy + "rel").linkTarget() == File(path: "a.txt"))
            // An absolute link is copied as written: it still points into the source tree.
            #expect(try (copy + "abs").linkTarget() == tree + "sub")
            #expect((copy + "dangling").isSymlink)
            #expect(try (copy + "a.txt").info().permissions == 0o640)
            #expect(try (copy + "run.sh").info().permissions == 0o755)
            #expect(try (copy + "sub").info().permissions == 0o750)
            #expect(try (copy + "a.txt").info().modificationTime == old)
            #expect(try (copy + "sub/deeper").info().modificationTime == old)
            #expect(try copy.info().modificationTime == old)
            #expect(try (copy + "a.txt").info().identity != (tree + "a.txt").info().identity)
            #expect(leftoverTemporaries(in: copy).isEmpty)
        }
    }

    @Test("copy(to:) of a symlink copies the link, not its target")
    func copySymlink() throws {
        try withScratch { dir in
            try (dir + "target").write(text: "T")
            try (dir + "link").makeSymlink(to: "target")
            try (dir + "link").copy(to: dir + "link2")
            #expect(try (dir + "link2").info().kind == .symlink)
            #expect(try (dir + "link2").linkTarget() == File(path: "target"))
        }
    }

    @Test("copy(to:) without force refuses an existing file; with force replaces it")
    func copyForce() throws {
        try withScratch { dir in
            let source = dir + "source"
            let destination = dir + "destination"
            try source.write(text: "new")
            try destination.write(text: "old")
            let error = #expect(throws: TransferError.self) { try source.copy(to: destination) }
            #expect(error == .file(FileError(.copy, source, .fileExists, destination: destination)))
            #expect(try destination.readText() == "old")
            try source.copy(to: destination, force: true)
            #expect(try destination.readText() == "new")
        }
    }

    @Test("copy(to:) of a missing source is a .stat ENOENT error")
    func copyMissing() throws {
        try withScratch { dir in
            let missing = dir + "missing"
            #expect(throws: TransferError.file(FileError(.stat, missing, .noSuchFileOrDirectory))) {
                try missing.copy(to: dir + "x")
            }
            #expect(!(dir + "x").exists)
        }
    }

    @Test("copy into itself is refused with the .intoItself conflict and creates nothing")
    func copyIntoItself() throws {
        try withScratch { dir in
            let tree = dir + "tree"
            try Self.populate(tree)
            let inside = tree + "sub/copy"
            let error = #expect(throws: TransferError.self) { try tree.copy(to: inside) }
            #expect(error == .conflict(TransferConflict(.intoItself, source: tree, destination: inside)))
            #expect(!rawExists(inside))
            // Spelled through .. or a symlink, it is still inside.
            let sneaky = tree + "sub/../abs/x"
            #expect(throws: TransferError.self) { try tree.copy(to: sneaky) }
            #expect(!rawExists(tree + "sub/x"))
        }
    }

    @Test("copy onto itself is refused with the .sameFile conflict", arguments: [false, true])
    func copyOntoItself(_ force: Bool) throws {
        try withScratch { dir in
            let file = dir + "f"
            try file.write(text: "keep")
            let error = #expect(throws: TransferError.self) { try file.copy(to: file, force: force) }
            #expect(error == .conflict(TransferConflict(.sameFile, source: file, destination: file)))
            #expect(try file.readText() == "keep")
            // A hard link is the same file under another name.
            let hard = dir + "hard"
            try hard.makeHardLink(to: file)
            let hardError = #expect(throws: TransferError.self) { try file.copy(to: hard, force: true) }
            #expect(hardError == .conflict(TransferConflict(.sameFile, source: file, destination: hard)))
            #expect(try file.readText() == "keep")
            // A directory onto itself, too.
            let sub = dir + "sub"
            try sub.makeDirectory()
            #expect(throws: TransferError.self) { try sub.copy(to: sub, force: force) }
        }
    }

    @Test("copy(to:) of a directory merges into an existing one; force decides clashing files")
    func copyMerges() throws {
        try withScratch { dir in
            let source = dir + "source"
            let destination = dir + "destination"
            try source.makeDirectory()
            try destination.makeDirectory()
            try (source + "new.txt").write(text: "new")
            try (source + "same.txt").write(text: "from source")
            try (destination + "same.txt").write(text: "from destination")
            try (destination + "only.txt").write(text: "only")

            let error = #expect(throws: TransferError.self) { try source.copy(to: destination) }
            #expect(
                error
                    == .file(
                        FileError(.copy, source + "same.txt", .fileExists, destination: destination + "same.txt")))
            #expect(try destination.childNames() == ["new.txt", "only.txt", "same.txt"])
            #expect(try (destination + "new.txt").readText() == "new")
            #expect(try (destination + "same.txt").readText() == "from destination")

            try source.copy(to: destination, force: true)
            #expect(try (destination + "same.txt").readText() == "from source")
            #expect(try (destination + "only.txt").readText() == "only")
        }
    }

    @Test("A 100 MiB file is copied byte for byte", .timeLimit(.minutes(2)))
    func largeCopy() throws {
        try withScratch { dir in
            let size = 100 << 20
            let chunk = 1 << 20
            let source = dir + "large.bin"
            // Deterministic content, written in chunks so that no 100 MiB array is needed.
            let fd = source.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
            try #require(fd >= 0)
            var random = PseudoRandomBytes(seed: 0x5EED)
            var buffer = [UInt8](repeating: 0, count: chunk)
            for _ in 0..<(size / chunk) {
                random.fill(&buffer)
                let written = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                try #require(written == chunk)
            }
            close(fd)

            let copy = dir + "copy.bin"
            try source.copy(to: copy)
            #expect(try copy.info().size == UInt64(size))

            // Compare chunk by chunk against a fresh stream from the same seed.
            let input = copy.withCString { open($0, O_RDONLY) }
            try #require(input >= 0)
            defer { close(input) }
            var expected = PseudoRandomBytes(seed: 0x5EED)
            var want = [UInt8](repeating: 0, count: chunk)
            var got = [UInt8](repeating: 0, count: chunk)
            var offset = 0
            while offset < size {
                expected.fill(&want)
                var filled = 0
                while filled < chunk {
                    let count = got.withUnsafeMutableBytes {
                        Glibc.read(input, $0.baseAddress! + filled, chunk - filled)
                    }
                    try #require(count > 0, "short copy at offset \(offset + filled)")
                    filled += count
                }
                if got != want {
                    let at = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }!.offset
                    Issue.record("copy differs at byte \(offset + at)")
                    return
                }
                offset += chunk
            }
            var extra: UInt8 = 0
            #expect(Glibc.read(input, &extra, 1) == 0, "copy is longer than the source")
        }
    }

    // MARK: move

    @Test("move(to:) within one file system is a rename: same inode, source gone")
    func moveWithinFileSystem() throws {
        try withScratch { dir in
            let tree = dir + "tree"
            try Self.populate(tree)
            let before = Self.snapshot(tree)
            let identity = try tree.info().identity
            let moved = dir + "moved"
            try tree.move(to: moved)
            #expect(!rawExists(tree))
            #expect(try moved.info().identity == identity)
            #expect(Self.snapshot(moved) == before)
        }
    }

    @Test("move(to:) without force refuses an existing file with EEXIST")
    func moveRefusesExisting() throws {
        try withScratch { dir in
            let source = dir + "source"
            let destination = dir + "destination"
            try source.write(text: "S")
            try destination.write(text: "D")
            let error = #expect(throws: TransferError.self) { try source.move(to: destination) }
            #expect(error == .file(FileError(.move, source, .fileExists, destination: destination)))
            #expect(try source.readText() == "S")
            #expect(try destination.readText() == "D")
            try source.move(to: destination, force: true)
            #expect(!rawExists(source))
            #expect(try destination.readText() == "S")
        }
    }

    @Test("move(to:) into itself is refused with the .intoItself conflict")
    func moveIntoItself() throws {
        try withScratch { dir in
            let tree = dir + "tree"
            try Self.populate(tree)
            let error = #expect(throws: TransferError.self) { try tree.move(to: tree + "sub/inside") }
            #expect(error == .conflict(TransferConflict(.intoItself, source: tree, destination: tree + "sub/inside")))
            #expect(tree.isDirectory)
            #expect(!rawExists(tree + "sub/inside"))
        }
    }

    @Test("move(to:) of a missing source is a .move ENOENT error")
    func moveMissing() throws {
        try withScratch { dir in
            let missing = dir + "missing"
            #expect(throws: TransferError.file(FileError(.move, missing, .noSuchFileOrDirectory, destination: dir + "x"))) {
                try missing.move(to: dir + "x")
            }
        }
    }

    /// Whether /dev/shm and /tmp are two file systems, so that a move between them must copy.
    static var twoFileSystems: Bool {
        guard let shm = rawLstat("/dev/shm"), let tmp = rawLstat("/tmp") else { return false }
        return shm.st_mode & S_IFMT == S_IFDIR && shm.st_dev != tmp.st_dev && access("/dev/shm", W_OK) == 0
    }

    @Test(
        "move(to:) across file systems copies, then removes the source",
        .enabled(if: twoFileSystems, "needs /dev/shm and /tmp on different devices"))
    func moveAcrossFileSystems() throws {
        try withScratch(in: "/dev/shm") { shm in
            try withScratch(in: "/tmp") { tmp in
                let tree = shm + "tree"
                try Self.populate(tree)
                try (tree + "abs").delete()  // it points into /dev/shm; keep the snapshot comparable
                let old = Timestamp(seconds: 1_400_000_000)
                try (tree + "a.txt").setTimes(access: old, modification: old)
                let before = Self.snapshot(tree)
                let destination = tmp + "moved"
                try #require(try tree.info().device != tmp.info().device)

                try tree.move(to: destination)
                #expect(!rawExists(tree))
                #expect(Self.snapshot(destination) == before)
                #expect(try (destination + "a.txt").info().modificationTime == old)
                #expect(try destination.info().device == tmp.info().device)
                #expect(leftoverTemporaries(in: destination).isEmpty)

                // A single file back the other way.
                let file = destination + "a.txt"
                try file.move(to: shm + "a.txt")
                #expect(!rawExists(file))
                #expect(try (shm + "a.txt").readText() == "A")
            }
        }
    }

    @Test(
        "move(to:) across file systems without force refuses an existing file",
        .enabled(if: twoFileSystems, "needs /dev/shm and /tmp on different devices"))
    func moveAcrossRefusesExisting() throws {
        try withScratch(in: "/dev/shm") { shm in
            try withScratch(in: "/tmp") { tmp in
                let source = shm + "s"
                let destination = tmp + "d"
                try source.write(text: "S")
                try destination.write(text: "D")
                let error = #expect(throws: TransferError.self) { try source.move(to: destination) }
                #expect(error?.errno == .fileExists)
                #expect(try source.readText() == "S")
                #expect(try destination.readText() == "D")
            }
        }
    }

    @Test(
        "A failed move across file systems keeps the source",
        .enabled(if: twoFileSystems, "needs /dev/shm and /tmp on different devices"))
    func moveAcrossFailure() throws {
        try withScratch(in: "/dev/shm") { shm in
            try withScratch(in: "/tmp") { tmp in
                let tree = shm + "tree"
                try Self.populate(tree)
                let plan = failing([.copyFileRange, .write], with: .noSpace)
                let error = #expect(throws: TransferError.self) {
                    try injecting(plan) { try tree.move(to: tmp + "moved") }
                }
                #expect(error?.errno == .noSpace)
                #expect(try (tree + "sub/deeper/c.txt").readText() == "C")
                #expect(try (tree + "a.txt").readText() == "A")
            }
        }
    }
}
