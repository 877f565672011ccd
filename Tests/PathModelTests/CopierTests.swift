import Glibc
import SystemPackage
import Testing

@_spi(FaultInjection) @testable import PathModel

@Suite("Copier")
struct CopierTests {
    /// The outcome of one `Copier.copy`: its result, and what it reported.
    struct Outcome {
        var result: Bool
        var copied: [File] = []
        var failures: [TransferError] = []
    }

    static func run(
        _ options: CopyOptions, _ source: File, _ destination: File,
        confirmReplace: @escaping (File, File) -> Bool = { _, _ in true }
    ) -> Outcome {
        var copied: [File] = []
        var failures: [TransferError] = []
        var copier = Copier(options: options)
        copier.confirmReplace = confirmReplace
        copier.copied = { _, to in copied.append(to) }
        copier.failed = { failures.append($0) }
        let result = copier.copy(source, to: destination)
        return Outcome(result: result, copied: copied, failures: failures)
    }

    static let older = Timestamp(seconds: 1_000_000_000)
    static let newer = Timestamp(seconds: 1_600_000_000)

    struct OverwriteCase: Sendable, CustomTestStringConvertible {
        let name: String
        let overwrite: CopyOptions.Overwrite
        /// The destination's mtime relative to the source's.
        let destinationIsNewer: Bool
        let expectedText: String
        let expectedResult: Bool
        let expectedErrno: Errno?
        var testDescription: String { name }
    }

    @Test(
        "Overwrite policies for an existing destination file",
        arguments: [
            OverwriteCase(
                name: ".replace replaces", overwrite: .replace, destinationIsNewer: true,
                expectedText: "source", expectedResult: true, expectedErrno: nil),
            OverwriteCase(
                name: ".skip keeps the destination (cp -n)", overwrite: .skip, destinationIsNewer: false,
                expectedText: "destination", expectedResult: true, expectedErrno: nil),
            OverwriteCase(
                name: ".fail reports EEXIST", overwrite: .fail, destinationIsNewer: false,
                expectedText: "destination", expectedResult: false, expectedErrno: .fileExists),
            OverwriteCase(
                name: ".ifNewer replaces an older destination", overwrite: .ifNewer,
                destinationIsNewer: false,
                expectedText: "source", expectedResult: true, expectedErrno: nil),
            OverwriteCase(
                name: ".ifNewer keeps a newer destination (cp -u)", overwrite: .ifNewer,
                destinationIsNewer: true,
                expectedText: "destination", expectedResult: true, expectedErrno: nil),
        ])
    func overwrite(_ row: OverwriteCase) throws {
        try withScratch { dir in
            let source = dir + "source"
            let destination = dir + "destination"
            try source.write(text: "source")
            try destination.write(text: "destination")
            try source.setTimes(
                access: Self.older, modification: row.destinationIsNewer ? Self.older : Self.newer)
            try destination.setTimes(
                access: Self.older, modification: row.destinationIsNewer ? Self.newer : Self.older)
            let outcome = Self.run(CopyOptions(overwrite: row.overwrite), source, destination)
            #expect(outcome.result == row.expectedResult)
            #expect(try destination.readText() == row.expectedText)
            #expect(outcome.failures.map(\.errno) == (row.expectedErrno.map { [$0] } ?? []) as [Errno?])
            #expect(outcome.copied == (row.expectedText == "source" ? [destination] : []))
        }
    }

    @Test(".ifNewer with equal times keeps the destination")
    func ifNewerEqual() throws {
        try withScratch { dir in
            let source = dir + "source"
            let destination = dir + "destination"
            try source.write(text: "source")
            try destination.write(text: "destination")
            try source.setTimes(access: Self.older, modification: Self.older)
            try destination.setTimes(access: Self.older, modification: Self.older)
            #expect(Self.run(CopyOptions(overwrite: .ifNewer), source, destination).result)
            #expect(try destination.readText() == "destination")
        }
    }

    @Test("confirmReplace false keeps the destination; it is asked with both paths")
    func confirmReplace() throws {
        try withScratch { dir in
            let source = dir + "source"
            let destination = dir + "destination"
            try source.write(text: "source")
            try destination.write(text: "destination")
            var asked: [(File, File)] = []
            let outcome = Self.run(CopyOptions(overwrite: .replace), source, destination) { from, to in
                asked.append((from, to))
                return false
            }
            #expect(outcome.result)
            #expect(outcome.failures.isEmpty)
            #expect(asked.count == 1)
            #expect(asked.first?.0 == source)
            #expect(asked.first?.1 == destination)
            #expect(try destination.readText() == "destination")
            // Not asked when nothing is in the way.
            let fresh = dir + "fresh"
            _ = Self.run(CopyOptions(overwrite: .replace), source, fresh) { _, _ in
                Issue.record("asked about a destination that did not exist")
                return false
            }
            #expect(try fresh.readText() == "source")
        }
    }

    @Test("preserve false applies the umask and sets the time to now")
    func preserveFalse() throws {
        try withScratch { dir in
            let source = dir + "source"
            try source.write(text: "x")
            try source.setPermissions(0o777)
            try source.setTimes(access: Self.older, modification: Self.older)
            let destination = dir + "destination"
            #expect(Self.run(CopyOptions(preserve: []), source, destination).result)
            #expect(try destination.info().permissions == 0o777 & ~currentUmask())
            #expect(try destination.info().modificationTime > Self.newer)
        }
    }

    @Test("preserve false keeps an existing destination's mode")
    func preserveFalseExisting() throws {
        try withScratch { dir in
            let source = dir + "source"
            let destination = dir + "destination"
            try source.write(text: "new")
            try source.setPermissions(0o755)
            try destination.write(text: "old")
            try destination.setPermissions(0o600)
            #expect(Self.run(CopyOptions(preserve: []), source, destination).result)
            #expect(try destination.readText() == "new")
            #expect(try destination.info().permissions == 0o600)
        }
    }

    @Test("preserve true keeps mode, times and owner")
    func preserveTrue() throws {
        try withScratch { dir in
            let source = dir + "source"
            try source.write(text: "x")
            try source.setPermissions(0o751)
            let access = Timestamp(seconds: 1_100_000_000, nanoseconds: 1)
            let modification = Timestamp(seconds: 1_200_000_000, nanoseconds: 999)
            try source.setTimes(access: access, modification: modification)
            let destination = dir + "destination"
            #expect(Self.run(CopyOptions(preserve: .standard), source, destination).result)
            let info = try destination.info()
            #expect(info.permissions == 0o751)
            #expect(info.modificationTime == modification)
            #expect(info.accessTime == access)
            #expect(info.userID == (try source.info().userID))
        }
    }

    @Test("recursive false on a directory reports EISDIR and copies nothing")
    func notRecursive() throws {
        try withScratch { dir in
            let source = dir + "source"
            try source.makeDirectory()
            try (source + "x").write(text: "")
            let destination = dir + "destination"
            let outcome = Self.run(CopyOptions(recursive: false), source, destination)
            #expect(!outcome.result)
            #expect(outcome.failures == [.file(FileError(.copy, source, .isDirectory, destination: destination))])
            #expect(!rawExists(destination))
        }
    }

    @Test("A file onto an existing directory reports the conflict")
    func fileOntoDirectory() throws {
        try withScratch { dir in
            let source = dir + "source"
            try source.write(text: "x")
            let destination = dir + "destination"
            try destination.makeDirectory()
            let outcome = Self.run(CopyOptions(), source, destination)
            #expect(
                outcome.failures == [
                    .conflict(TransferConflict(.nonDirectoryOverDirectory, source: source, destination: destination))
                ])
            #expect(destination.isEmptyDirectory)
        }
    }

    @Test("A directory onto an existing file reports the conflict")
    func directoryOntoFile() throws {
        try withScratch { dir in
            let source = dir + "source"
            try source.makeDirectory()
            let destination = dir + "destination"
            try destination.write(text: "keep")
            let outcome = Self.run(CopyOptions(), source, destination)
            #expect(
                outcome.failures == [
                    .conflict(TransferConflict(.directoryOverNonDirectory, source: source, destination: destination))
                ])
            #expect(try destination.readText() == "keep")
        }
    }

    @Test("A failing copy leaves an existing destination as it was, with no temporary file")
    func failingCopyKeepsDestination() throws {
        try withScratch { dir in
            let source = dir + "source"
            let destination = dir + "destination"
            var random = PseudoRandomBytes(seed: 1)
            try source.write(bytes: random.bytes(300_000))
            try destination.write(text: "old content")
            try destination.setPermissions(0o640)
            let plan = failing([.copyFileRange, .write], with: .ioError)
            let outcome = injecting(plan) { Self.run(CopyOptions(overwrite: .replace), source, destination) }
            #expect(!outcome.result)
            #expect(outcome.failures == [.file(FileError(.write, destination, .ioError))])
            #expect(outcome.copied.isEmpty)
            #expect(try destination.readText() == "old content")
            #expect(try destination.info().permissions == 0o640)
            #expect(leftoverTemporaries(in: dir).isEmpty)
            #expect(rawNames(dir).count == 2)
        }
    }

    @Test("A failing read is reported against the source")
    func failingRead() throws {
        try withScratch { dir in
            let source = dir + "source"
            try source.write(text: "abc")
            let destination = dir + "destination"
            // Without copy_file_range the copier reads; the read fails.
            let plan = FaultPlan { name, _ in
                name == .copyFileRange ? .noFunction : name == .read ? .ioError : nil
            }
            let outcome = injecting(plan) { Self.run(CopyOptions(), source, destination) }
            #expect(outcome.failures == [.file(FileError(.read, source, .ioError))])
            #expect(!rawExists(destination))
            #expect(leftoverTemporaries(in: dir).isEmpty)
        }
    }

    @Test(
        "Without copy_file_range the copier falls back to read/write",
        arguments: [Errno.noFunction, .improperLink, .notSupported, .invalidArgument])
    func fallback(_ errno: Errno) throws {
        try withScratch { dir in
            let source = dir + "source"
            var random = PseudoRandomBytes(seed: 2)
            let bytes = random.bytes(700_001)
            try source.write(bytes: bytes)
            let destination = dir + "destination"
            let outcome = injecting(failing(.copyFileRange, with: errno)) {
                Self.run(CopyOptions(), source, destination)
            }
            #expect(outcome.failures.isEmpty)
            #expect(try destination.readBytes() == bytes)
        }
    }

    @Test("isCancelled stops the copy and removes the partial file")
    func cancelled() throws {
        try withScratch { dir in
            let source = dir + "source"
            try source.write(text: "abc")
            var copier = Copier(options: CopyOptions())
            var failures: [TransferError] = []
            copier.failed = { failures.append($0) }
            copier.isCancelled = { true }
            let result = copier.copy(source, to: dir + "destination")
            #expect(!result)
            #expect(failures == [.file(FileError(.write, dir + "destination", .canceled))])
            #expect(rawNames(dir) == [Array("source".utf8)])
        }
    }

    @Test("copied is told of every entry of a tree, directories before their contents")
    func copiedCallback() throws {
        try withScratch { dir in
            let source = dir + "source"
            try (source + "sub").makeDirectory(intermediates: true)
            try (source + "a").write(text: "")
            try (source + "sub/b").write(text: "")
            try (source + "link").makeSymlink(to: "a")
            let destination = dir + "destination"
            let outcome = Self.run(CopyOptions(), source, destination)
            #expect(outcome.result)
            #expect(
                outcome.copied.map { $0.relative(to: dir)!.string } == [
                    "destination", "destination/a", "destination/link", "destination/sub",
                    "destination/sub/b",
                ])
        }
    }

    @Test("followSourceSymlink copies what a source link points to")
    func followSourceSymlink() throws {
        try withScratch { dir in
            try (dir + "target").write(text: "T")
            try (dir + "link").makeSymlink(to: "target")
            #expect(Self.run(CopyOptions(followSourceSymlink: true), dir + "link", dir + "followed").result)
            #expect(try (dir + "followed").info().kind == .regular)
            #expect(try (dir + "followed").readText() == "T")
            #expect(Self.run(CopyOptions(followSourceSymlink: false), dir + "link", dir + "kept").result)
            #expect(try (dir + "kept").info().kind == .symlink)
        }
    }

    @Test("With .links kept, names of one file are copied as names of one copy, across copy calls too")
    func linksKept() throws {
        try withScratch { dir in
            try (dir + "source/sub").makeDirectory(intermediates: true)
            try (dir + "source/a").write(text: "A")
            try (dir + "source/sub/b").makeHardLink(to: dir + "source/a")
            try (dir + "c").makeHardLink(to: dir + "source/a")
            var copier = Copier(options: CopyOptions(preserve: .links))
            let tree = copier.copy(dir + "source", to: dir + "copy")
            let operand = copier.copy(dir + "c", to: dir + "copy/c")
            #expect(tree && operand)
            let identities = try ["copy/a", "copy/sub/b", "copy/c"].map { try (dir + $0).info().identity }
            #expect(Set(identities).count == 1)
            #expect(identities[0] != (try (dir + "source/a").info().identity))
            #expect(try (dir + "copy/sub/b").readText() == "A")
            let plain = Self.run(CopyOptions(), dir + "source", dir + "plain")
            #expect(plain.result)
            #expect(try (dir + "plain/a").info().identity != (try (dir + "plain/sub/b").info().identity))
        }
    }

    @Test("linksInstead makes hard links to the sources, and directories anew")
    func hardLinksInstead() throws {
        try withScratch { dir in
            try (dir + "source/sub").makeDirectory(intermediates: true)
            try (dir + "source/sub/b").write(text: "B")
            #expect(Self.run(CopyOptions(linksInstead: .hard), dir + "source", dir + "copy").result)
            #expect(try (dir + "copy/sub").info().identity != (try (dir + "source/sub").info().identity))
            #expect(try (dir + "copy/sub/b").info().identity == (try (dir + "source/sub/b").info().identity))
        }
    }

    @Test("followEverySymlink copies what links inside a tree lead to; one that leads nowhere fails alone")
    func followEverySymlink() throws {
        try withScratch { dir in
            try (dir + "source/t").makeDirectory(intermediates: true)
            try (dir + "source/t/q").write(text: "Q")
            try (dir + "source/l").makeSymlink(to: "t")
            try (dir + "source/gone").makeSymlink(to: "nowhere")
            let outcome = Self.run(CopyOptions(followEverySymlink: true), dir + "source", dir + "copy")
            #expect(!outcome.result)
            #expect(outcome.failures.map(\.errno) == [.noSuchFileOrDirectory])
            #expect(try (dir + "copy/l").info().kind == .directory)
            #expect(try (dir + "copy/l/q").readText() == "Q")
            #expect(!(dir + "copy/gone").exists)
        }
    }

    @Test("backUp is asked before an existing file is replaced, and a refusal leaves it")
    func backUp() throws {
        try withScratch { dir in
            try (dir + "source").write(text: "new")
            try (dir + "kept").write(text: "old")
            var asked: [File] = []
            var copier = Copier(options: CopyOptions())
            copier.backUp = { destination in
                asked.append(destination)
                do { try destination.moveByRenaming(to: dir + "kept~", replacing: true) } catch { return false }
                return true
            }
            let replaced = copier.copy(dir + "source", to: dir + "kept")
            #expect(replaced)
            #expect(asked == [dir + "kept"])
            #expect(try (dir + "kept").readText() == "new")
            #expect(try (dir + "kept~").readText() == "old")
            copier.backUp = { _ in false }
            try (dir + "other").write(text: "other")
            let refused = copier.copy(dir + "source", to: dir + "other")
            #expect(!refused)
            #expect(try (dir + "other").readText() == "other")
        }
    }

    @Test("Replacing a destination symlink with .replace writes through it, keeping the link")
    func replaceThroughDestinationSymlink() throws {
        try withScratch { dir in
            try (dir + "source").write(text: "new")
            try (dir + "target").write(text: "old")
            try (dir + "link").makeSymlink(to: "target")
            #expect(Self.run(CopyOptions(overwrite: .replace), dir + "source", dir + "link").result)
            #expect((dir + "link").isSymlink)
            #expect(try (dir + "target").readText() == "new")
        }
    }

    @Test("A fifo is copied as a fifo, not read")
    func fifo() throws {
        try withScratch { dir in
            let pipe = dir + "pipe"
            try rawMakeFifo(pipe)
            #expect(Self.run(CopyOptions(), pipe, dir + "pipe2").result)
            #expect(try (dir + "pipe2").info().kind == .fifo)
        }
    }

    @Test("A fifo is recreated over an existing file, which stays until the fifo is there")
    func fifoOverAFile() throws {
        try withScratch { dir in
            try rawMakeFifo(dir + "pipe")
            try (dir + "file").write(text: "old")
            #expect(Self.run(CopyOptions(), dir + "pipe", dir + "file").result)
            #expect(try (dir + "file").info().kind == .fifo)
            #expect(try dir.entries().map(\.nameString).sorted() == ["file", "pipe"])
        }
    }

    @Test("copyContents reads a device into a regular file")
    func copyContentsOfADevice() throws {
        try withScratch { dir in
            try (dir + "null").makeSymlink(to: "/dev/null")
            let options = CopyOptions(recursive: false, followSourceSymlink: true, specialFiles: .copyContents)
            #expect(Self.run(options, dir + "null", dir + "copy").result)
            let copy = try (dir + "copy").info()
            #expect(copy.kind == .regular && copy.size == 0)
        }
    }

    @Test(
        "writeThrough writes into a fifo in place; replace puts a file in its stead",
        arguments: [CopyOptions.Destinations.writeThrough, .replace])
    func fifoDestination(_ destinations: CopyOptions.Destinations) throws {
        try withScratch { dir in
            try (dir + "source").write(text: "data")
            try rawMakeFifo(dir + "pipe")
            let reader = open((dir + "pipe").string, O_RDONLY | O_NONBLOCK)
            defer { close(reader) }
            #expect(Self.run(CopyOptions(destinations: destinations), dir + "source", dir + "pipe").result)
            var buffer = [UInt8](repeating: 0, count: 8)
            let count = read(reader, &buffer, buffer.count)
            if destinations == .writeThrough {
                #expect(try (dir + "pipe").info().kind == .fifo)
                #expect(Array(buffer.prefix(max(count, 0))) == Array("data".utf8))
            } else {
                #expect(try (dir + "pipe").readText() == "data")
                #expect(count <= 0)
            }
        }
    }

    @Test(
        "writeThrough refuses a dangling destination symlink; replace replaces it",
        arguments: [CopyOptions.Destinations.writeThrough, .replace])
    func danglingDestinationSymlink(_ destinations: CopyOptions.Destinations) throws {
        try withScratch { dir in
            try (dir + "source").write(text: "data")
            try (dir + "link").makeSymlink(to: "nowhere")
            let outcome = Self.run(CopyOptions(destinations: destinations), dir + "source", dir + "link")
            #expect(!(dir + "nowhere").exists)
            if destinations == .writeThrough {
                #expect(!outcome.result)
                let refusal = TransferConflict(.danglingDestinationSymlink, source: dir + "source", destination: dir + "link")
                #expect(outcome.failures == [.conflict(refusal)])
                #expect(try (dir + "link").info().kind == .symlink)
            } else {
                #expect(outcome.result)
                #expect(try (dir + "link").readText() == "data")
            }
        }
    }

    @Test("An error on one entry does not stop the others")
    func goesOn() throws {
        try withScratch { dir in
            let source = dir + "source"
            try source.makeDirectory()
            for name in ["a", "b", "c"] { try (source + name).write(text: name) }
            let destination = dir + "destination"
            try destination.makeDirectory()
            try (destination + "b").write(text: "existing")
            let outcome = Self.run(CopyOptions(overwrite: .fail), source, destination)
            #expect(!outcome.result)
            #expect(
                outcome.failures == [
                    .file(FileError(.copy, source + "b", .fileExists, destination: destination + "b"))
                ])
            #expect(try (destination + "a").readText() == "a")
            #expect(try (destination + "b").readText() == "existing")
            #expect(try (destination + "c").readText() == "c")
        }
    }

    @Test(
        "Files in a directory the copy makes get the source's mode less the umask, or all of it with preserve",
        arguments: [0o644, 0o600, 0o640, 0o444, 0o400, 0o755, 0o700, 0o777, 0o4755, 0o2750, 0o1644] as [UInt32],
        [false, true])
    func modesInANewDirectory(mode: UInt32, preserve: Bool) throws {
        try withScratch { dir in
            let source = dir + "source"
            try source.makeDirectory()
            try (source + "f").write(text: "x")
            try (source + "f").setPermissions(mode)
            #expect(Self.run(CopyOptions(preserve: preserve ? .standard : []), source, dir + "copy").result)
            // Without preserve, as GNU cp: no set-id or sticky bit on a new file.
            let expected = preserve ? mode : mode & 0o777 & ~currentUmask()
            #expect(try (dir + "copy" + "f").info().permissions == expected, "\(String(mode, radix: 8))")
        }
    }

    @Test("A name that appears in a directory the copy made is not replaced: that entry fails, the rest is copied")
    func appearingNameIsKept() throws {
        try withScratch { dir in
            let source = dir + "source"
            try source.makeDirectory()
            for name in ["a", "b"] { try (source + name).write(text: "copied") }
            let destination = dir + "destination"
            let intruder = (destination + "a").bytes
            // Just before the copy of a is renamed into place, another writer makes a file there.
            let plan = FaultPlan { call, path in
                if call == .rename, path?.split(separator: "/").last?.hasPrefix(".a.") == true {
                    try? rawCreate(intruder, contents: Array("theirs".utf8))
                }
                return nil
            }
            let outcome = injecting(plan) { Self.run(CopyOptions(), source, destination) }
            #expect(!outcome.result)
            #expect(
                outcome.failures == [.file(FileError(.copy, source + "a", .fileExists, destination: destination + "a"))])
            #expect(try (destination + "a").readText() == "theirs")
            #expect(try (destination + "b").readText() == "copied")
            #expect(leftoverTemporaries(in: destination).isEmpty)
        }
    }

    @Test(
        "preserve gives directories and symlinks their owner and group too",
        .enabled(if: getuid() == 0, "only root may give files away"))
    func preserveOwnersOfDirectoriesAndSymlinks() throws {
        try withScratch { dir in
            let source = dir + "source"
            try (source + "sub").makeDirectory(intermediates: true)
            try (source + "link").makeSymlink(to: "sub")
            for name in ["sub", "link"] {
                _ = (source + name).withCString { lchown($0, 12_345, 23_456) }
            }
            #expect(Self.run(CopyOptions(preserve: .standard), source, dir + "copy").result)
            for name in ["sub", "link"] {
                let info = try (dir + "copy" + name).info()
                #expect(info.userID == 12_345 && info.groupID == 23_456, "\(name)")
            }
            #expect(Self.run(CopyOptions(preserve: []), source, dir + "plain").result)
            #expect(try (dir + "plain" + "sub").info().userID == getuid())
        }
    }
}
