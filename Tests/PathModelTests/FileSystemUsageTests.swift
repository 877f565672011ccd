import Foundation
import SystemPackage
import Testing

@testable import PathModel

/// What a file system reports (`statfs`) and where file systems are mounted (`mountinfo`).
@Suite struct FileSystemUsageTests {
    @Test(
        "The local volume answers as GNU stat -f does",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/stat"), "needs GNU coreutils"))
    func localMatchesGNUStat() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/stat")
        process.arguments = ["-f", "-c", "%b %S %c", "/"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let usage = try File(path: "/").fileSystemUsage()
        // Total blocks, the block size and the inodes do not move while other tests write.
        #expect(text == "\(usage.totalBlocks) \(usage.blockSize) \(usage.totalInodes)\n")
    }

    @Test("A missing file, and a volume that is no file system of the kernel's")
    func failures() {
        #expect(throws: FileError(.stat, File(path: "/nonexistent-shelf"), .noSuchFileOrDirectory)) {
            try File(path: "/nonexistent-shelf").fileSystemUsage()
        }
        let memory = MemoryVolume().file("/")
        #expect(throws: FileError(.stat, memory, .notSupported)) { try memory.fileSystemUsage() }
    }

    @Test("mountinfo lines, escapes and the optional tags before the dash")
    func mountinfo() {
        let text = """
            22 1 0:21 / /proc rw,nosuid - proc proc rw
            30 22 8:1 /sub /mnt/a\\040b rw shared:1 master:2 - ext4 /dev/sda1 rw
            31 22 259:65537 / /x rw - tmpfs none rw
            garbage
            """
        let mounts = MountedFileSystem.parse(Array(text.utf8))
        #expect(mounts.map(\.mountPoint.string) == ["/proc", "/mnt/a b", "/x"])
        #expect(mounts.map(\.type) == ["proc", "ext4", "tmpfs"])
        #expect(mounts[1].source == Array("/dev/sda1".utf8))
        #expect(mounts[1].root == Array("/sub".utf8))
        // makedev(8, 1) and makedev(259, 65537), as glibc joins the halves.
        #expect(mounts[1].device == 0x801)
        #expect(mounts[2].device == 0x1001_0301)
    }

    @Test("Every mount's device is what stat(2) gives its mount point, where it is not covered")
    func devicesMatchTheKernel() throws {
        let mounts = try MountedFileSystem.all()
        #expect(!mounts.isEmpty)
        let root = try #require(mounts.last { $0.mountPoint.isRoot })
        #expect(try File(path: "/").info(followSymlinks: true).identity.device == root.device)
    }
}
