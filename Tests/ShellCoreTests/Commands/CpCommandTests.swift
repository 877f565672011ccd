import Foundation
@_spi(FaultInjection) import PathModel
import Synchronization
import Testing

@testable import ShellCore

@Suite struct CpCommandTests {
    static let rows: [FixtureRow] = [
        FixtureRow(
            name: "no operand", line: "cp",
            stderr: "cp: missing file operand\nTry 'help cp' for more information.\n", status: .usage,
            coreutils: .differs("GNU points to 'cp --help' and exits 1")),
        FixtureRow(
            name: "no destination", line: "cp a",
            stderr: "cp: missing destination file operand after 'a'\nTry 'help cp' for more information.\n",
            status: .usage, coreutils: .differs("GNU points to 'cp --help' and exits 1")),
        FixtureRow(
            name: "several sources, missing target", line: "cp a b c",
            stderr: "cp: target 'c': No such file or directory\n", status: .failure),
        FixtureRow(
            name: "several sources, file target", line: "cp a b empty",
            stderr: "cp: target 'empty': Not a directory\n", status: .failure),
        FixtureRow(
            name: "directory without -r", line: "cp s x",
            stderr: "cp: -r not specified; omitting directory 's'\n", status: .failure),
        FixtureRow(
            name: "symlink to a directory without -r", line: "cp ls x",
            stderr: "cp: -r not specified; omitting directory 'ls'\n", status: .failure),
        FixtureRow(
            name: "into itself", line: "cp -r s s/t",
            stderr: "cp: cannot copy a directory, 's', into itself, 's/t/s'\n", status: .failure,
            coreutils: .sameMessages("both copy part of the tree before they meet the copy, each in its own order")
        ),
        FixtureRow(
            name: "into itself through a symlink", line: "cp -r s ls/",
            stderr: "cp: cannot copy a directory, 's', into itself, 'ls/s'\n", status: .failure,
            coreutils: .sameMessages("both copy part of the tree before they meet the copy, each in its own order")
        ),
        FixtureRow(
            name: "same file", line: "cp a a", stderr: "cp: 'a' and 'a' are the same file\n", status: .failure
        ),
        FixtureRow(
            name: "same file spelled apart", line: "cp a ./a",
            stderr: "cp: 'a' and './a' are the same file\n", status: .failure),
        FixtureRow(
            name: "same file through a symlink", line: "cp a la",
            stderr: "cp: 'a' and 'la' are the same file\n", status: .failure),
        FixtureRow(
            name: "missing source", line: "cp nope b",
            stderr: "cp: cannot stat 'nope': No such file or directory\n", status: .failure),
        FixtureRow(
            name: "empty source", line: "cp '' x",
            stderr: "cp: cannot stat '': No such file or directory\n", status: .failure),
        FixtureRow(
            name: "dangling symlink without -r", line: "cp dang x",
            stderr: "cp: cannot stat 'dang': No such file or directory\n", status: .failure),
        FixtureRow(
            name: "missing source among others", line: "cp nope a d",
            stderr: "cp: cannot stat 'nope': No such file or directory\n", status: .failure),
        FixtureRow(
            name: "file to a new name with a slash", line: "cp a nodir/",
            stderr: "cp: cannot create regular file 'nodir/': Not a directory\n", status: .failure),
        FixtureRow(
            name: "file onto a file with a slash", line: "cp a f/s/",
            stderr: "cp: cannot stat 'f/s/': Not a directory\n", status: .failure),
        FixtureRow(
            name: "file source with a slash", line: "cp b/ x",
            stderr: "cp: cannot stat 'b/': Not a directory\n", status: .failure),
        FixtureRow(
            name: "directory onto a file", line: "cp -r d a",
            stderr: "cp: cannot overwrite non-directory 'a' with directory 'd'\n", status: .failure),
        FixtureRow(
            name: "directory onto a file inside itself", line: "cp -r s s/t/q",
            stderr: "cp: cannot overwrite non-directory 's/t/q' with directory 's'\n", status: .failure),
        FixtureRow(
            name: "file onto a directory", line: "cp f/s e",
            stderr: "cp: cannot overwrite directory 'e/s' with non-directory\n", status: .failure),
        FixtureRow(
            name: "same name twice into a directory", line: "mkdir x && cp a x/q && cp s/t/q x/q d",
            stderr: "cp: will not overwrite just-created 'd/q' with 'x/q'\n", status: .failure),
        FixtureRow(name: "verbose file", line: "cp -v a b", stdout: "'a' -> 'b'\n"),
        FixtureRow(name: "verbose into a directory", line: "cp -v a d//", stdout: "'a' -> 'd/a'\n"),
        FixtureRow(
            name: "verbose tree", line: "cp -rv s/ n",
            stdout: "'s/' -> 'n'\n's/l' -> 'n/l'\n's/t' -> 'n/t'\n's/t/q' -> 'n/t/q'\n",
            coreutils: .sameInAnyOrder),
        FixtureRow(
            name: "verbose merge into an existing directory", line: "cp -rv e d && cp -rv e d",
            stdout: "'e' -> 'd/e'\n'e/s' -> 'd/e/s'\n'e/s/x' -> 'd/e/s/x'\n'e/s/x' -> 'd/e/s/x'\n"),
        FixtureRow(name: "symlink followed without -r", line: "cp la x"),
        FixtureRow(name: "symlink kept with -r", line: "cp -r ls x"),
        FixtureRow(
            name: "symlink to a directory followed with a slash", line: "cp -rv ls/ x",
            stdout: "'ls/' -> 'x'\n'ls/l' -> 'x/l'\n'ls/t' -> 'x/t'\n'ls/t/q' -> 'x/t/q'\n",
            coreutils: .sameInAnyOrder),
        FixtureRow(name: "dangling symlink with -r", line: "cp -r dang x"),
        FixtureRow(name: "no clobber", line: "cp -n a b"),
        FixtureRow(name: "no clobber into a directory", line: "cp -rn s e"),
        FixtureRow(
            name: "dangling symlink destination", line: "cp a dang",
            stderr: "cp: not writing through dangling symlink 'dang'\n", status: .failure),
        FixtureRow(
            name: "dangling symlink destination with -f", line: "cp -f a dang",
            stderr: "cp: not writing through dangling symlink 'dang'\n", status: .failure),
        FixtureRow(
            name: "dangling symlink destination with -n", line: "cp -n a dang",
            stderr: "cp: not writing through dangling symlink 'dang'\n", status: .failure),
        FixtureRow(
            name: "dangling symlink destination with -r", line: "cp -r a dang",
            stderr: "cp: not writing through dangling symlink 'dang'\n", status: .failure),
        FixtureRow(
            name: "dangling symlink in a directory copied into", line: "cp -r f/. d",
            stderr: "cp: not writing through dangling symlink 'd/./s'\n", status: .failure,
            links: ["d/s": "nowhere"]),
        FixtureRow(
            name: "symlink copied onto a dangling symlink with -r", line: "cp -r la dang"),
        FixtureRow(name: "a device's contents without -r", line: "cp null x", links: ["null": "/dev/null"]),
        FixtureRow(
            name: "socket source without -r", line: "cp k x",
            stderr: "cp: cannot open 'k' for reading: No such device or address\n", status: .failure,
            nodes: ["k": .socket]),
        FixtureRow(
            name: "socket destination", line: "cp a k",
            stderr: "cp: cannot create regular file 'k': No such device or address\n", status: .failure,
            nodes: ["k": .socket]),
        FixtureRow(name: "FIFO recreated with -r", line: "cp -r p x", nodes: ["p": .fifo]),
        FixtureRow(name: "socket recreated with -r", line: "cp -r k x", nodes: ["k": .socket]),
        FixtureRow(name: "FIFO recreated over a file with -r", line: "cp -r p b", nodes: ["p": .fifo]),
        FixtureRow(name: "socket recreated over a file with -r", line: "cp -r k b", nodes: ["k": .socket]),
        FixtureRow(name: "FIFO kept with -rn", line: "cp -rn p b", nodes: ["p": .fifo]),
        FixtureRow(
            name: "special files recreated in a directory copied into", line: "cp -r d/. e",
            nodes: ["d/p": .fifo, "d/k": .socket, "e/p": .fifo, "e/k": .fifo]),
        FixtureRow(
            name: "interactive without a terminal", line: "cp -i a b && cp -i a empty",
            stderr:
                "cp: not overwriting 'b' (no terminal to ask)\ncp: not overwriting 'empty' (no terminal to ask)\n",
            coreutils: .differs("GNU reads the answer from standard input")),
    ]

    @Test(arguments: rows.filter { !$0.needsSpecialFiles })
    func messagesAndStatuses(_ row: FixtureRow) throws {
        try row.check()
    }

    @Test(arguments: rows.filter { !$0.needsSpecialFiles }) func matchesGNUcp(_ row: FixtureRow) throws {
        try row.compareWithCoreutils(tool: "cp")
    }

    @Test(
        .needsLocalFileSystem("FIFOs, sockets and devices are the kernel's"),
        arguments: rows.filter(\.needsSpecialFiles))
    func specialFilesMessagesAndStatuses(_ row: FixtureRow) throws {
        try row.check()
    }

    @Test(
        .needsLocalFileSystem("FIFOs, sockets and devices are the kernel's"),
        arguments: rows.filter(\.needsSpecialFiles))
    func specialFilesMatchGNUcp(_ row: FixtureRow) throws {
        try row.compareWithCoreutils(tool: "cp")
    }

    @Test(
        "Copies get GNU cp's modes: set-id bits only with -p, a directory's sticky bit always",
        .needsLocalFileSystem("GNU cp reads the fixture from disk"),
        .enabled(if: ReferenceTool.isInstalled("/usr/bin/cp"), "needs GNU cp"), arguments: [[], ["-p"]])
    func modesAgreeWithGNU(_ flags: [String]) throws {
        let shell = TestShell()
        for mode in [0o4755, 0o2755, 0o1755, 0o7755, 0o644] as [UInt32] {
            let octal = String(mode, radix: 8)
            try shell.write("f\(octal)", "x")
            try shell.path("f\(octal)").setPermissions(mode)
            try shell.path("d\(octal)").makeDirectory()
            try shell.path("d\(octal)").setPermissions(mode)
            for source in ["f\(octal)", "d\(octal)"] {
                let gnu = try ReferenceTool.run(
                    "/usr/bin/cp", flags + ["-r", source, "gnu-" + source], in: shell.directory.file)
                #expect(gnu.status == .success)
                #expect(shell.run(ReferenceTool.commandLine("cp", flags + ["-r", source, "mine-" + source])).status == .success)
                #expect(
                    try shell.path("mine-" + source).info().permissions == shell.path("gnu-" + source).info().permissions,
                    "cp \(flags) \(source)")
            }
        }
    }

    @Test(.needsLocalFileSystem("FIFOs are the kernel's")) func aFIFOIsReadUntilItsWriterClosesIt() throws {
        let shell = TestShell()
        try makeNode(shell.path("fifo"), .fifo)
        let path = shell.path("fifo").string
        let written = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // Waits for a reader: cp, which reads until this writer closes.
            let fd = open(path, O_WRONLY)
            if fd >= 0 {
                for line in ["one\n", "two\n"] { _ = line.withCString { write(fd, $0, strlen($0)) } }
                close(fd)
            }
            written.signal()
        }
        let result = shell.run("cp fifo x")
        // A writer still waiting (cp never opened the FIFO) is let through, so that it ends.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        written.wait()
        close(reader)
        #expect(result.stderr == "")
        #expect(result.status == .success)
        #expect(try shell.path("x").info().kind == .regular)
        #expect(try shell.path("x").readText() == "one\ntwo\n")
    }

    @Test(
        "Text that procfs reports as 0 bytes long is copied whole",
        .needsLocalFileSystem("/proc is the kernel's"))
    func procfsText() throws {
        let shell = TestShell()
        for line in ["cp /proc/self/status status", "cp --sparse=always /proc/self/status status"] {
            #expect(shell.run(line).status == .success)
            let text = try shell.path("status").readText()
            #expect(text.hasPrefix("Name:\t"), "\(line)")
            #expect(text.hasSuffix("\n"), "\(line)")
        }
    }

    @Test(.needsLocalFileSystem("FIFOs are the kernel's")) func aFIFODestinationIsWrittenInPlace() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        try makeNode(shell.path("fifo"), .fifo)
        // A reader is there already, so cp's open for writing does not wait.
        let reader = open(shell.path("fifo").string, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let result = shell.run("cp a fifo")
        #expect(result.stderr == "")
        #expect(result.status == .success)
        #expect(try shell.path("fifo").info().kind == .fifo)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(read(reader, &buffer, buffer.count) == 2)
        #expect(buffer.prefix(2) == [0x61, 0x0A])
        #expect(try temporaryLeftovers(in: shell.directory.file) == [])
    }

    @Test(
        "A full device is written in place, and its error worded as GNU cp words it",
        .needsLocalFileSystem("devices are the kernel's"))
    func fullDevice() throws {
        let shell = TestShell()
        try shell.write("big", String(repeating: "x", count: 1 << 16))
        // As root, a full device of the test's own, lest a copier that replaces destinations
        // replace /dev/full; otherwise a link to /dev/full, which no such user can replace.
        if getuid() == 0 {
            #expect(mknod(shell.path("full").string, S_IFCHR | 0o666, deviceNumber(major: 1, minor: 7)) == 0)
        } else {
            try shell.path("full").makeSymlink(to: "/dev/full")
        }
        let kind = try shell.path("full").info().kind
        let result = shell.run("cp big full")
        #expect(result.stderr == "cp: error writing 'full': No space left on device\n")
        #expect(result.status == .failure)
        #expect(try shell.path("full").info().kind == kind)
        #expect(try temporaryLeftovers(in: shell.directory.file) == [])
        guard coreutilsInstalled("cp") else { return }
        let gnu = try runCoreutils("cp big full", in: shell.directory.file)
        #expect(gnu.stderr == result.stderr)
        #expect(gnu.status == result.status.code)
    }

    @Test func treeIsCopiedByteForByteWithSymlinksKept() throws {
        let shell = TestShell()
        let source = shell.path("src")
        try shell.write("src/top.txt", "top\n")
        try shell.write("src/deep/er/est.bin", String(repeating: "0123456789", count: 50_000))
        try shell.write("src/empty", "")
        try (source + "deep/nothing").makeDirectory()
        try (source + "deep/link").makeSymlink(to: "../top.txt")
        try (source + "absolute").makeSymlink(to: "/etc/hostname")
        try source.appending(name: [0x6E, 0xE9, 0x2E, 0x74, 0x78, 0x74]).write(text: "not UTF-8\n")
        let result = shell.run("cp -r src copy")
        #expect(result.status == .success)
        #expect(result.stderr == "")
        #expect(try treeSnapshot(source) == treeSnapshot(shell.path("copy")))
        #expect(
            try shell.path("copy/deep/er/est.bin").readBytes()
                == shell.path("src/deep/er/est.bin").readBytes())
        #expect(try shell.path("copy/deep/link").info().kind == .symlink)
        #expect(try temporaryLeftovers(in: shell.directory.file) == [])
    }

    @Test func copiesIntoAnExistingDirectoryUnderTheSourceName() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        #expect(shell.run("cp -r s a e").status == .success)
        #expect(
            try treeSnapshot(shell.path("e")) == [
                "a = \"a\\n\"", "s/", "s/l -> t", "s/t/", "s/t/q = \"q\\n\"", "s/x = \"x\\n\"",
            ])
    }

    @Test func symlinkOperandIsFollowedWithoutRecursion() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        #expect(shell.run("cp la x && cp -r la y").status == .success)
        #expect(try shell.path("x").info().kind == .regular)
        #expect(try shell.path("x").readText() == "a\n")
        #expect(try shell.path("y").linkTarget().string == "a")
    }

    @Test func noClobberKeepsWhatIsThere() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        let result = shell.run("cp -n a b && cp -rn f e")
        #expect(result.status == .success)
        #expect(try shell.path("b").readText() == "b\n")
        #expect(try shell.path("e/f/s").readText() == "f/s\n")
    }

    @Test(arguments: [
        ("older source is skipped", 2_000, 1_000, "b\n"), ("newer source is copied", 1_000, 2_000, "a\n"),
    ])
    func updateCopiesOnlyNewerSources(
        _ row: (name: String, destinationTime: Int64, sourceTime: Int64, expected: String)
    ) throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        try shell.path("a").setTimes(access: nil, modification: Timestamp(seconds: row.sourceTime))
        try shell.path("b").setTimes(access: nil, modification: Timestamp(seconds: row.destinationTime))
        #expect(shell.run("cp -u a b").status == .success)
        #expect(try shell.path("b").readText() == row.expected)
    }

    @Test func interactiveAsksAndFollowsTheAnswers() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        let answers = ScriptedAnswers(["cp: overwrite 'b'? ": false, "cp: overwrite 'empty'? ": true])
        answers.install(in: shell)
        let result = shell.run("cp -i a b && cp -iv a empty")
        #expect(answers.questions == ["cp: overwrite 'b'? ", "cp: overwrite 'empty'? "])
        #expect(result.stdout == "'a' -> 'empty'\n")
        #expect(result.status == .success)
        #expect(try shell.path("b").readText() == "b\n")
        #expect(try shell.path("empty").readText() == "a\n")
    }

    @Test func interactiveWithoutTerminalSaysSoOnceAndOverwritesNothing() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        try shell.write("copy/a", "old a\n")
        try shell.write("copy/b", "old b\n")
        let result = shell.run("cp -i a b empty copy")
        #expect(result.stderr == "cp: not overwriting 'copy/a' (no terminal to ask)\n")
        #expect(result.status == .success)
        #expect(try shell.path("copy/a").readText() == "old a\n")
        #expect(try shell.path("copy/b").readText() == "old b\n")
        #expect(try shell.path("copy/empty").readText() == "")
    }

    @Test func preserveKeepsModeAndTimes() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        try shell.path("a").setPermissions(0o640)
        try shell.path("a").setTimes(
            access: Timestamp(seconds: 1_000_000), modification: Timestamp(seconds: 2_000_000, nanoseconds: 5)
        )
        try shell.path("s").setTimes(access: nil, modification: Timestamp(seconds: 3_000_000))
        #expect(shell.run("cp -p a x && cp -rp s y && cp a z").status == .success)
        let copied = try shell.path("x").info()
        #expect(copied.permissions == 0o640)
        #expect(copied.modificationTime == Timestamp(seconds: 2_000_000, nanoseconds: 5))
        #expect(copied.accessTime == Timestamp(seconds: 1_000_000))
        #expect(try shell.path("y").info().modificationTime == Timestamp(seconds: 3_000_000))
        #expect(try shell.path("z").info().modificationTime != Timestamp(seconds: 2_000_000, nanoseconds: 5))
    }

    @Test func intoItselfIsJudgedByIdentityNotSpelling() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        let result = shell.run("cp -r ls/ s/t/copy")
        #expect(result.stderr == "cp: cannot copy a directory, 'ls/', into itself, 's/t/copy'\n")
        #expect(result.status == .failure)
        // Copied until the walk met its own copy below s/t: nothing was copied twice.
        #expect(shell.path("s/t/copy/t/q").exists)
        #expect(!shell.path("s/t/copy/t/copy").exists)
    }

    @Test func sameFileThroughAHardLink() throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        try shell.path("hard").makeHardLink(to: shell.path("a"))
        let result = shell.run("cp a hard")
        #expect(result.stderr == "cp: 'a' and 'hard' are the same file\n")
        #expect(result.status == .failure)
    }

    @Test func interruptedCopyStopsAndLeavesNoHalfWrittenFile() throws {
        let shell = TestShell()
        try shell.write("big", String(repeating: "x", count: 1 << 20))
        try shell.write("old", "old contents\n")
        // The first poll (before the file) passes; the one before the first chunk is Ctrl-C.
        CancelAfter(polls: 2).install(in: shell)
        let result = shell.run("cp big new; cp big old")
        #expect(result.status == .interrupted)
        #expect(result.stderr == "")
        #expect(!shell.path("new").exists)
        #expect(try shell.path("old").readText() == "old contents\n")
        #expect(try temporaryLeftovers(in: shell.directory.file) == [])
    }

    @Test(.needsLocalFileSystem("faults are injected into syscalls"), arguments: [
        ("without -f the refusal is reported", "cp a b", "cp: cannot create regular file 'b': Permission denied\n", "b\n"),
        ("-f removes the destination and tries again", "cp -f a b", "", "a\n"),
    ])
    func forceRemovesADestinationThatCannotBeReplaced(
        _ row: (name: String, line: String, stderr: String, contents: String)
    ) throws {
        let shell = TestShell()
        try TransferFixture.build(in: shell.directory.file)
        // The first rename into place is refused, as for a file in a sticky directory.
        let refusals = Mutex(1)
        let plan = FaultPlan { call, path in
            guard call == .rename, path?.hasSuffix(".shelf-tmp") == true else { return nil }
            return refusals.withLock { left in
                defer { left = max(0, left - 1) }
                return left > 0 ? .permissionDenied : nil
            }
        }
        let result = FaultPlan.$current.withValue(plan) { shell.run(row.line) }
        #expect(result.stderr == row.stderr)
        #expect(result.status == (row.stderr.isEmpty ? .success : .failure))
        #expect(try shell.path("b").readText() == row.contents)
        #expect(try temporaryLeftovers(in: shell.directory.file) == [])
    }

    @Test(.needsLocalFileSystem("a 2 GiB sparse file costs nothing only on disk"))
    func ctrlCStopsALargeCopyPartWay() throws {
        let shell = TestShell()
        // 2 GiB of holes: nothing on disk, but every byte is copied, chunk by chunk.
        let descriptor = open(shell.path("big").string, O_WRONLY | O_CREAT, 0o644)
        #expect(descriptor >= 0 && ftruncate(descriptor, 1 << 31) == 0)
        close(descriptor)
        // Ctrl-C comes at the 12th look: a copy that looked only between files would finish
        // this one first (the whole command looks 36 times, most of them between the chunks of
        // the copy), one that looks between chunks is stopped inside it.
        let cancel = CancelAfter(polls: 12)
        cancel.install(in: shell)
        let result = shell.run("cp big copy")
        #expect(result.status == .interrupted)
        #expect(!shell.path("copy").exists)
        #expect(try temporaryLeftovers(in: shell.directory.file) == [])
    }

    @Test func interruptedTreeCopyStopsAtOnce() throws {
        let shell = TestShell()
        for index in 0..<50 { try shell.write("tree/\(index)/file", "\(index)\n") }
        let cancel = CancelAfter(polls: 10)
        cancel.install(in: shell)
        let result = shell.run("cp -r tree copy")
        #expect(result.status == .interrupted)
        // Ten polls, the one that stops the copy, and the shell's own check after the command.
        #expect(cancel.polls <= 12)
        #expect(try treeSnapshot(shell.path("copy")).count < 20)
        #expect(try temporaryLeftovers(in: shell.directory.file) == [])
    }
}
