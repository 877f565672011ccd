import Glibc
import PathModel
import Testing

@testable import ShellCore

/// What needs file systems mounted inside a fixture, against GNU's tools: rm's
/// `--one-file-system` and `--preserve-root=all`, cp's, du's and tree's `-x`, and df, whose numbers only stay still on a
/// file system nobody else writes to. Each twin gets tmpfs mounts of its own, unmounted before
/// it is removed; the tests run one at a time, so that a listing of every mount sees none of
/// theirs come and go.
@Suite(
    .serialized, .needsLocalFileSystem("tmpfs file systems are mounted inside the fixtures"),
    .enabled(if: Tmpfs.canMount, "needs to mount a tmpfs (root)"),
    .enabled(if: ReferenceTool.isInstalled("/usr/bin/df"), "needs GNU coreutils"))
struct MountedFixtureTests {
    /// Mounts a tmpfs of `options` at `point`, remembering it in `mounted`.
    static func mountTmpfs(_ point: File, _ options: String, mounted: inout [String]) throws {
        try point.makeDirectory(intermediates: true)
        guard mount("none", point.string, "tmpfs", 0, options) == 0 else {
            throw NodeError(description: "mount \(point.string): \(String(cString: strerror(errno)))")
        }
        mounted.append(point.string)
    }

    /// Runs `line` in shelf (`confined` to its fixture, unless it must read the mount table)
    /// and with GNU's tools on twins that `build` makes (mounts included), both with
    /// `environment` added, and returns both transcripts with the fixtures' paths written
    /// `FIXTURE`, and both trees.
    static func twins(
        _ line: String, confined: Bool = true, environment: [String: String] = [:],
        build: (File, inout [String]) throws -> Void
    ) throws -> (ours: Transcript, theirs: Transcript, ourTree: [String], theirTree: [String]) {
        var mounted: [String] = []
        let shell = TestShell(environment: environment)
        let twin = TemporaryDirectory(onLocalDisk: true)
        // Unmounted before either fixture is removed, so that no removal meets a mount point.
        defer {
            for point in mounted.reversed() { umount2(point, Int32(MNT_DETACH)) }
            twin.remove()
            withExtendedLifetime(shell) {}
        }
        try build(shell.directory.file, &mounted)
        try build(twin.file, &mounted)
        // A listing shows both fixtures' mounts: both paths are written alike in both.
        func masked(_ text: String) -> String {
            text.replacingOccurrences(of: twin.file.string, with: "FIXTURE").replacingOccurrences(
                of: shell.directory.file.string, with: "FIXTURE")
        }
        let gnu = try ReferenceTool.run("/bin/bash", ["-c", line], in: twin.file, environment: environment)
        let shelf = confined ? shell.runConfined(line) : shell.run(line)
        let theirs = Transcript(stdout: masked(gnu.stdout), stderr: masked(gnu.stderr), status: gnu.status)
        let ours = Transcript(
            stdout: masked(shelf.stdout), stderr: masked(shelf.stderr), status: shelf.status)
        return (ours, theirs, try treeSnapshot(shell.directory.file), try treeSnapshot(twin.file))
    }

    /// `top/f`, `top/keep/k`, and a tmpfs at `top/mnt` holding `inside`.
    static func buildTree(in root: File, mounted: inout [String]) throws {
        try (root + "top/keep").makeDirectory(intermediates: true)
        try (root + "top/f").write(text: "f\n")
        try (root + "top/keep/k").write(text: "k\n")
        try mountTmpfs(root + "top/mnt", "size=64k", mounted: &mounted)
        try (root + "top/mnt/inside").write(text: "i\n")
    }

    @Test(arguments: [
        "rm -r --one-file-system top", "rm -rv --one-file-system top", "rm -r --preserve-root=all top/mnt",
        "rm -r --preserve-root=all top", "rm -r top/keep --preserve-root=all top/mnt/",
        "rm -r --preserve-root=all --no-preserve-root top/mnt",
    ])
    func rmMatchesGNU(_ line: String) throws {
        let run = try Self.twins(line, build: Self.buildTree)
        #expect(run.ours.stdout == run.theirs.stdout, "\(line)")
        #expect(run.ours.stderr == run.theirs.stderr, "\(line)")
        #expect(run.ours.status == run.theirs.status, "\(line)")
        #expect(run.ourTree == run.theirTree, "\(line)")
    }

    @Test(arguments: [
        "cp -rx top copy", "cp -rvx top copy", "cp -ax top copy", "cp -r top copy", "du -x top", "du -ax top",
        "du --one-file-system --inodes -a top", "du -a top", "du -xs top/mnt",
    ])
    func cpAndDuMatchGNU(_ line: String) throws {
        let run = try Self.twins(line, build: Self.buildTree)
        // GNU writes a directory's entries in the kernel's order, shelf's cp in byte order, and
        // du's kernel order need not be the same in two directories.
        let lines = { (text: String) in text.split(separator: "\n").sorted() }
        #expect(lines(run.ours.stdout) == lines(run.theirs.stdout), "\(line)")
        #expect(run.ours.stderr == run.theirs.stderr, "\(line)")
        #expect(run.ours.status == run.theirs.status, "\(line)")
        #expect(run.ourTree == run.theirTree, "\(line)")
    }

    @Test(arguments: ["tree -x top", "tree top", "tree -x -p top/mnt", "tree -x -l -d top", "tree -xs --noreport top"])
    func treeMatchesTree(_ line: String) throws {
        let run = try Self.twins(line, build: Self.buildTree)
        #expect(run.ours.stdout == run.theirs.stdout, "\(line)")
        #expect(run.ours.status == run.theirs.status, "\(line)")
    }

    /// Three tmpfs, their usage still: `m` (1500 KiB, a 300,000-byte file), `big` (10 MiB, a
    /// 3,500,000-byte file) and `tiny` (one page, empty); a symlink to `m`'s file.
    static func buildFileSystems(in root: File, mounted: inout [String]) throws {
        try mountTmpfs(root + "m", "size=1500k", mounted: &mounted)
        try (root + "m/z").write(bytes: [UInt8](repeating: 0, count: 300_000))
        try (root + "m/sub").makeDirectory()
        try mountTmpfs(root + "big", "size=10m,nr_inodes=5000", mounted: &mounted)
        try (root + "big/z").write(bytes: [UInt8](repeating: 0, count: 3_500_000))
        try mountTmpfs(root + "tiny", "size=4k,nr_inodes=3", mounted: &mounted)
        try (root + "link").makeSymlink(to: "m/z")
    }

    @Test(arguments: [
        "df m", "df -h m big tiny", "df -H m big tiny", "df -P m", "df -Ph m", "df -T m", "df -i big tiny",
        "df -hi m big", "df --output m", "df --output=source,pcent,file m/sub",
        "df -h --output=size,avail m big",
        "df nope m", "df -k -h m", "df -h -k m", "df -iT tiny", "df -a m/z", "df m link big/z",
        "df --output=file,target m/./z", "df --output=itotal,iused,iavail,ipcent big tiny",
        "df --output=size --output=used big", "df -Hi big",
        // Units of -B, and the headers they give.
        "df -B1M m big", "df -BM m", "df -B1000 m", "df -BKB m", "df -B KiB m", "df -B 512 m", "df -B1K -P m",
        "df -B1M -P m", "df --block-size=human m", "df -B si m", "df -h -B1M m", "df -B1M -h m", "df -k -BK m",
        "df -B1M --output=size,used,avail m", "df -i -BM big", "df -B 1536 m big",
        // The total row.
        "df --total m big", "df --total -h m big tiny", "df --total -i m big tiny", "df --total --output m big",
        "df --total --output=source,target m", "df --total --output=file,pcent,ipcent m",
        "df --total --output=target,size m", "df -P --total m", "df --total nope m", "df -T --total m m",
        // Types, local file systems, sync.
        "df -t tmpfs m big", "df -t ext4 m", "df -x tmpfs m", "df -t ext4 -t tmpfs m", "df -x ext4 -x proc m big",
        "df -t ext4 nope m", "df -l m", "df --local -T big", "df --sync m", "df --no-sync m", "df --sync --no-sync -i m",
    ])
    func dfMatchesGNU(_ line: String) throws {
        let run = try Self.twins(line, confined: false, build: Self.buildFileSystems)
        #expect(run.ours.stdout == run.theirs.stdout, "\(line)")
        #expect(run.ours.stderr == run.theirs.stderr, "\(line)")
        #expect(run.ours.status == run.theirs.status, "\(line)")
    }

    @Test(arguments: [
        "df -i --output m", "df -P --output m", "df -T --output=size m", "df --output=x m",
        "df --output=size,size m", "df --output= m", "df --bogus", "df -t tmpfs -x tmpfs m",
        "df -x ext4 -t tmpfs -t ext4 m", "df --block-size=0 m", "df --block-size=1Q m", "df --block-size=x m",
    ])
    func dfUsageErrorsMatchGNU(_ line: String) throws {
        let run = try Self.twins(line, confined: false, build: Self.buildFileSystems)
        #expect(
            run.ours.stderr.split(separator: "\n").first == run.theirs.stderr.split(separator: "\n").first,
            "\(line)")
        #expect(run.ours.stderr.hasSuffix("Try 'help df' for more information.\n"), "\(line)")
        #expect(run.ours.status == .usage && run.theirs.status == .failure, "\(line)")
    }

    @Test(arguments: [
        ("DF_BLOCK_SIZE", ["DF_BLOCK_SIZE": "1M"], "df m big"),
        ("DF_BLOCK_SIZE before BLOCK_SIZE", ["DF_BLOCK_SIZE": "1000", "BLOCK_SIZE": "1M"], "df m"),
        ("BLOCK_SIZE", ["BLOCK_SIZE": "1000"], "df m"),
        ("BLOCKSIZE with a unit alone", ["BLOCKSIZE": "K"], "df m"),
        ("POSIXLY_CORRECT", ["POSIXLY_CORRECT": "1"], "df m"),
        ("POSIXLY_CORRECT with -P", ["POSIXLY_CORRECT": "1"], "df -P m"),
        ("POSIXLY_CORRECT with -k", ["POSIXLY_CORRECT": "1"], "df -k m"),
        ("a value that is no SIZE", ["DF_BLOCK_SIZE": "x"], "df m"),
        ("BLOCK_SIZE=human-readable", ["BLOCK_SIZE": "human-readable"], "df m big"),
        ("-P over DF_BLOCK_SIZE", ["DF_BLOCK_SIZE": "1M"], "df -P m"),
        ("-B over DF_BLOCK_SIZE", ["DF_BLOCK_SIZE": "1M"], "df -B1000 m"),
        ("DF_BLOCK_SIZE with --total", ["DF_BLOCK_SIZE": "1M"], "df --total m big"),
    ])
    func dfReadsTheVariablesAsGNU(_ name: String, _ environment: [String: String], _ line: String) throws {
        let run = try Self.twins(line, confined: false, environment: environment, build: Self.buildFileSystems)
        #expect(run.ours.stdout == run.theirs.stdout, "\(name)")
        #expect(run.ours.stderr == run.theirs.stderr, "\(name)")
        #expect(run.ours.status == run.theirs.status, "\(name)")
    }

    @Test(
        "A listing names the file systems GNU df names, in its order",
        arguments: [
            "df --output=source,fstype,target", "df -a --output=source,fstype,target",
            "df -t tmpfs --output=source,fstype,target", "df -x tmpfs -x overlay --output=source,fstype,target",
            "df -l --output=source,fstype,target", "df -a -t proc -t sysfs --output=source,fstype,target",
        ])
    func dfListingMatchesGNU(_ line: String) throws {
        let run = try Self.twins(line, confined: false, build: Self.buildFileSystems)
        #expect(run.ours.stdout == run.theirs.stdout, "\(line)")
        #expect(run.ours.status == run.theirs.status, "\(line)")
    }
}

/// Whether this machine lets the tests mount file systems.
enum Tmpfs {
    /// Whether a tmpfs can be mounted here (root, where the kernel lets it).
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let directory = TemporaryDirectory(onLocalDisk: true)
        defer { directory.remove() }
        guard mount("none", directory.file.string, "tmpfs", 0, nil) == 0 else { return false }
        return umount2(directory.file.string, Int32(MNT_DETACH)) == 0
    }()
}
