@_spi(FaultInjection) import PathModel
import Synchronization
import SystemPackage
import Glibc
import Testing

@testable import ShellCore

/// A fault injected into one system call, for the paths whose text contains `pathPart` (any path
/// when empty, and calls without a path too).
struct Fault: Sendable, CustomTestStringConvertible {
    let name: String
    let calls: Set<SyscallName>
    let pathPart: String
    let errno: Errno
    let line: String
    let stderr: String
    var status: ShellCore.ExitStatus = .failure
    /// Files and their contents once the command has failed.
    var after: [String: String] = [:]
    /// Files that must not exist afterwards.
    var absent: [String] = []
    /// Whether renaming `a` fails with EXDEV, as between two file systems.
    var acrossFileSystems = false

    var testDescription: String { name }

    var plan: FaultPlan {
        let calls = calls
        let pathPart = pathPart
        let errno = errno
        let acrossFileSystems = acrossFileSystems
        return FaultPlan { call, path in
            if acrossFileSystems, call == .rename, path?.hasSuffix("/a") == true { return .improperLink }
            guard calls.contains(call) else { return nil }
            guard !pathPart.isEmpty else { return errno }
            return path?.contains(pathPart) == true ? errno : nil
        }
    }
}

/// Faults the disk can throw at a command: each gives one clear message for the command, leaves
/// existing data as it was and no temporary file behind, and the session goes on.
@Suite(.needsLocalFileSystem("faults are injected into syscalls")) struct FaultTests {
    static let rows: [Fault] = [
        Fault(
            name: "cp: disk full keeps the old destination", calls: [.copyFileRange, .write], pathPart: "",
            errno: .noSpace, line: "cp a b", stderr: "cp: error writing 'b': No space left on device\n",
            after: ["a": "new", "b": "old"]),
        Fault(
            name: "cp: file too large keeps the old destination", calls: [.copyFileRange, .write], pathPart: "",
            errno: .fileTooLarge, line: "cp a b", stderr: "cp: error writing 'b': File too large\n",
            after: ["a": "new", "b": "old"]),
        Fault(
            name: "cp: an I/O error reading the source", calls: [.copyFileRange, .read], pathPart: "",
            errno: .ioError, line: "cp a b", stderr: "cp: error writing 'b': Input/output error\n",
            after: ["a": "new", "b": "old"]),
        Fault(
            name: "cp: permission denied in the destination directory", calls: [.open], pathPart: ".shelf-tmp",
            errno: .permissionDenied, line: "cp a d/b",
            stderr: "cp: cannot create regular file 'd/b': Permission denied\n", after: ["d/b": "in d"]),
        Fault(
            name: "cp: a read-only file system", calls: [.open], pathPart: ".shelf-tmp",
            errno: .readOnlyFileSystem, line: "cp a b",
            stderr: "cp: cannot create regular file 'b': Read-only file system\n", after: ["b": "old"]),
        Fault(
            name: "cp -r: a file that vanished mid-walk", calls: [.stat], pathPart: "gone",
            errno: .noSuchFileOrDirectory, line: "cp -r d e",
            stderr: "cp: cannot stat 'd/gone': No such file or directory\n", after: ["e/b": "in d"]),
        Fault(
            name: "mv across file systems copies, syncs, then removes", calls: [], pathPart: "",
            errno: .improperLink, line: "mv a c", stderr: "", status: .success, after: ["c": "new"], absent: ["a"],
            acrossFileSystems: true),
        Fault(
            name: "mv across file systems with the disk full keeps the source", calls: [.copyFileRange, .write],
            pathPart: "", errno: .noSpace, line: "mv a b",
            stderr: "mv: error writing 'b': No space left on device\n", after: ["a": "new", "b": "old"],
            acrossFileSystems: true),
        Fault(
            name: "mv across file systems with a failing sync keeps the source", calls: [.fsync],
            pathPart: "", errno: .ioError, line: "mv a c",
            stderr: "mv: error writing 'c': Input/output error\n", after: ["a": "new"], absent: ["c"],
            acrossFileSystems: true),
        Fault(
            name: "rm -r: permission denied on one file", calls: [.unlink], pathPart: "b",
            errno: .permissionDenied, line: "rm -r d",
            stderr: "rm: cannot remove 'd/b': Permission denied\n", after: ["d/b": "in d"]),
        Fault(
            name: "rm: a read-only file system", calls: [.unlink], pathPart: "",
            errno: .readOnlyFileSystem, line: "rm a", stderr: "rm: cannot remove 'a': Read-only file system\n",
            after: ["a": "new"]),
        Fault(
            name: "rm -r: an entry that vanished mid-walk", calls: [.unlink], pathPart: "gone",
            errno: .noSuchFileOrDirectory, line: "rm -r d",
            stderr: "rm: cannot remove 'd/gone': No such file or directory\n", absent: ["d/b"]),
        Fault(
            name: "ls: an I/O error reading a directory", calls: [.readdir], pathPart: "", errno: .ioError,
            line: "ls d", stderr: "ls: reading directory 'd': Input/output error\n", status: .usage),
        Fault(
            name: "tree: an I/O error reading a directory", calls: [.readdir], pathPart: "", errno: .ioError,
            line: "tree d", stderr: "tree: error reading 'd': Input/output error\n"),
        Fault(
            name: "ls -R: an I/O error reading a directory", calls: [.readdir], pathPart: "", errno: .ioError,
            line: "ls -R d", stderr: "ls: reading directory 'd': Input/output error\n", status: .usage),
        Fault(
            name: "du: an I/O error reading a directory", calls: [.readdir], pathPart: "", errno: .ioError,
            line: "du d", stderr: "du: cannot read directory 'd': Input/output error\n"),
        Fault(
            name: "find: an I/O error reading a directory", calls: [.readdir], pathPart: "", errno: .ioError,
            line: "find d", stderr: "find: 'd': Input/output error\n"),
        Fault(
            name: "cp -r: an I/O error reading a directory", calls: [.readdir], pathPart: "", errno: .ioError,
            line: "cp -r d e", stderr: "cp: error reading 'd': Input/output error\n"),
        Fault(
            name: "rm -r: an I/O error reading a directory", calls: [.readdir], pathPart: "", errno: .ioError,
            line: "rm -r d", stderr: "rm: cannot remove 'd': Input/output error\n"),
        Fault(
            name: "cat: an I/O error reading", calls: [.read], pathPart: "", errno: .ioError, line: "cat a",
            stderr: "cat: a: Input/output error\n"),
    ]

    @Test(arguments: rows)
    func aFaultGivesOneMessageAndTheSessionGoesOn(_ fault: Fault) throws {
        let shell = TestShell()
        try shell.write("a", "new")
        try shell.write("b", "old")
        try shell.write("d/b", "in d")
        try shell.write("d/gone", "")
        let result = FaultPlan.$current.withValue(fault.plan) { shell.run(fault.line) }
        #expect(result.stderr == fault.stderr)
        #expect(result.status == fault.status)
        for (name, contents) in fault.after {
            #expect(try shell.path(name).readText() == contents, "\(name)")
        }
        for name in fault.absent { #expect(!shell.path(name).exists, "\(name)") }
        #expect(try temporaryLeftovers(in: shell.directory.file) == [])
        #expect(shell.run("echo still here").stdout == "still here\n")
    }
}

/// A directory below the operand that opens but then fails to be read.
@Suite(.needsLocalFileSystem("faults are injected into syscalls")) struct DirectoryReadFaultTests {
    /// Arms itself when `sub` is opened (as a directory stream or a descriptor), and fails every
    /// directory read after that.
    final class ReadFault: Sendable {
        let armed = Atomic<Bool>(false)

        var plan: FaultPlan {
            FaultPlan { [self] call, path in
                if call == .opendir || call == .open, path?.hasSuffix("sub") == true { armed.store(true, ordering: .sequentiallyConsistent) }
                guard call == .readdir, armed.load(ordering: .sequentiallyConsistent) else { return nil }
                return .ioError
            }
        }
    }

    @Test(
        "Every command that reads a directory reports an I/O error below its operand and fails",
        arguments: [
            ("tree d", "tree: error reading 'd/sub': Input/output error\n", ShellCore.ExitStatus.failure),
            ("ls -R d", "ls: reading directory 'd/sub': Input/output error\n", ShellCore.ExitStatus.failure),
            ("du d", "du: cannot read directory 'd/sub': Input/output error\n", ShellCore.ExitStatus.failure),
            ("find d", "find: 'd/sub': Input/output error\n", ShellCore.ExitStatus.failure),
        ])
    func belowTheOperand(_ line: String, _ stderr: String, _ status: ShellCore.ExitStatus) throws {
        let shell = TestShell()
        try shell.write("d/sub/x", "x")
        let result = FaultPlan.$current.withValue(ReadFault().plan) { shell.run(line) }
        #expect(result.stderr == stderr)
        #expect(result.status == status)
    }
}

/// Entries another process removes while `rm -r` walks: `rm -rf` treats them as removed, as GNU
/// rm does; `rm -r` without `-f` reports them.
@Suite(.needsLocalFileSystem("faults are injected into syscalls")) struct VanishingEntryTests {
    /// A plan that, at the first `call` on a path ending in `name`, removes `victims` (files, then
    /// directories, as another process would) and lets the call fail with ENOENT.
    static func vanishing(_ victims: [File], at calls: Set<SyscallName>, on name: String) -> FaultPlan {
        FaultPlan { call, path in
            guard calls.contains(call), path?.hasSuffix(name) == true else { return nil }
            for victim in victims { _ = victim.withCString { unlink($0) == 0 || rmdir($0) == 0 } }
            return .noSuchFileOrDirectory
        }
    }

    @Test(
        "An entry removed by someone else mid-walk",
        arguments: [
            ("a file, at its unlink", [SyscallName.unlink], "gone", ["d/gone"]),
            ("a directory, at its opening", [SyscallName.open, .opendir], "sub", ["d/sub/x", "d/sub"]),
            ("the operand itself, at its own removal", [SyscallName.rmdir], "/d", ["d"]),
        ])
    func vanishes(_ name: String, _ calls: [SyscallName], _ entry: String, _ victims: [String]) throws {
        let spelled = entry.hasPrefix("/") ? String(entry.dropFirst()) : "d/\(entry)"
        for (line, stderr, status, removed) in [
            ("rm -rf d", "", ShellCore.ExitStatus.success, true),
            ("rm -r d", "rm: cannot remove '\(spelled)': No such file or directory\n", .failure, false),
        ] {
            let shell = TestShell()
            try shell.write("d/gone", "")
            try shell.write("d/sub/x", "")
            try shell.write("d/kept", "")
            let plan = Self.vanishing(victims.map(shell.path), at: Set(calls), on: entry)
            let result = FaultPlan.$current.withValue(plan) { shell.run(line) }
            #expect(result.stderr == stderr, "\(name): \(line)")
            #expect(result.status == status, "\(name): \(line)")
            #expect(shell.path("d").exists != (removed || victims == ["d"]), "\(name): \(line)")
            #expect(!shell.path("d/kept").exists, "\(name): \(line)")
        }
    }
}
