import Foundation
import Glibc
import Synchronization
import SystemPackage
import Testing

@_spi(FaultInjection) @testable import PathModel

/// How a sandbox resolves paths: through the kernel (`openat2`), or by its own walk, which it
/// falls back to where the kernel has no `openat2` (simulated here with ENOSYS).
enum Resolution: String, CaseIterable, CustomTestStringConvertible {
    case kernel, walk

    var testDescription: String { rawValue }

    /// Runs `body` with this resolution in force.
    func run<R>(_ body: () throws -> R) rethrows -> R {
        switch self {
        case .kernel: return try body()
        case .walk:
            let plan = FaultPlan { call, _ in call == .openat2 ? .noFunction : nil }
            return try FaultPlan.$current.withValue(plan) { try body() }
        }
    }
}

/// A scratch directory holding `outside/` (with a file `secret` and a directory `dir`) and the
/// sandbox's directory `root/`, which holds `inside/file` and symlinks that try to get out.
struct SandboxFixture {
    let scratch: File
    var outside: File { scratch + "outside" }
    var rootDirectory: File { scratch + "root" }

    init(_ scratch: File) throws {
        self.scratch = scratch
        try (scratch + "outside/dir").makeDirectory(intermediates: true)
        try (scratch + "outside/secret").write(text: "secret")
        try (scratch + "outside/dir/deep").write(text: "secret")
        try (scratch + "root/inside").makeDirectory(intermediates: true)
        try (scratch + "root/inside/file").write(text: "inside")
        try (scratch + "root/victim").write(text: "inside")
        let links: [(String, String)] = [
            ("up", "../outside"),
            ("upMany", "../../../../../../outside"),
            ("absolute", outside.string),
            ("chain", "chainNext"),
            ("chainNext", "inside/../up"),
            ("top", "/"),
            ("dotDot", ".."),
            ("magic", "/proc/self/root" + outside.string),
            ("insideAbsolute", "/inside/file"),
            ("insideClimb", "../../../inside/file"),
            ("loop", "loop"),
        ]
        for (name, target) in links { try (rootDirectory + name).makeSymlink(to: File(path: target)) }
    }

    /// Runs `body` with a fresh fixture in a private directory and a sandbox on its `root/`,
    /// resolving as `resolution` says.
    static func withSandbox(_ resolution: Resolution, _ body: (SandboxFixture, Sandbox) throws -> Void) throws {
        try withScratch { scratch in
            let fixture = try SandboxFixture(scratch)
            try resolution.run { try body(fixture, try Sandbox(fixture.rootDirectory)) }
        }
    }

    /// Everything under `outside/`: each path with its kind, size, mode, times and contents.
    func outsideSnapshot() throws -> [String] {
        var lines: [String] = []
        for case .success(let entry) in outside.walk() {
            let info = try entry.file.info()
            var line = "\(entry.file.string) \(info.kind) \(info.size) \(info.mode) \(info.modificationTime) \(info.changeTime)"
            if info.kind == .regular { line += " " + (try entry.file.readText()) }
            lines.append(line)
        }
        return lines.sorted()
    }
}

@Suite("Sandbox: a directory that acts as /")
struct SandboxTests {
    /// Paths that name `outside/secret` (or a way to it) from inside, if anything could escape.
    static let escapes: [String] = [
        "/../outside/secret", "../outside/secret", "/../../../../outside/secret", "/inside/../../outside/secret",
        "/up/secret", "/upMany/secret", "/absolute/secret", "/chain/secret", "/top/../outside/secret",
        "/dotDot/outside/secret", "/dotDot/../outside/secret", "/magic/secret", "/up", "/absolute", "/up/dir",
        "/proc/self/root/tmp", "/loop/secret",
    ]

    /// One thing a program might do to a path; none may reach outside the sandbox.
    enum Attempt: String, CaseIterable, CustomTestStringConvertible {
        case read, list, stat, write, append, create, makeDirectory, makeDirectories, delete, removeFile
        case removeDirectory, setPermissions, setTimes, symlinkOver, hardLinkFrom, renameAway, renameOnto
        case copyOut, copyIn, moveOut, walk, resolve, openForWriting

        var testDescription: String { rawValue }

        /// Does it to `target` in `sandbox`; returns what was read, if anything.
        func perform(on target: File, in sandbox: Sandbox) throws -> String? {
            switch self {
            case .read: return try target.readText()
            case .list: return try target.entries().map(\.nameString).joined(separator: ",")
            case .stat: return "\(try target.info(followSymlinks: true).size)"
            case .write: try target.write(text: "planted")
            case .append: try target.append(text: "planted")
            case .create: try target.createFile()
            case .makeDirectory: try target.makeDirectory()
            case .makeDirectories: try (target + "x/y").makeDirectory(intermediates: true)
            case .delete: try target.delete()
            case .removeFile: try target.removeFile()
            case .removeDirectory: try target.removeEmptyDirectory()
            case .setPermissions: try target.setPermissions(0o777)
            case .setTimes: try target.setTimes(access: nil, modification: nil, followSymlinks: true)
            case .symlinkOver: try target.makeLink(.symbolic, to: "/inside/file", replacing: true)
            case .hardLinkFrom: try sandbox.file("/hard").makeHardLink(to: target)
            case .renameAway: try target.moveByRenaming(to: sandbox.file("/taken"), replacing: true)
            case .renameOnto: try sandbox.file("/victim").moveByRenaming(to: target, replacing: true)
            case .copyOut: try target.copy(to: sandbox.file("/copied"), force: true)
            case .copyIn: try sandbox.file("/inside").copy(to: target, force: true)
            case .moveOut: try target.move(to: sandbox.file("/moved"), force: true)
            case .walk: return target.walk().compactMap { try? $0.get().file.string }.joined(separator: ",")
            case .resolve: return try target.resolvingSymlinks(allowingMissing: .any).readText()
            case .openForWriting:
                let file = try target.open(.truncate)
                defer { file.close() }
                try file.write(Array("planted".utf8)[...])
            }
            return nil
        }
    }

    @Test(
        "Nothing outside the sandbox is read or changed",
        arguments: Resolution.allCases, Attempt.allCases)
    func nothingEscapes(_ resolution: Resolution, _ attempt: Attempt) throws {
        try withScratch { scratch in
            let fixture = try SandboxFixture(scratch)
            let before = try fixture.outsideSnapshot()
            try resolution.run {
                for path in Self.escapes + [fixture.outside.string + "/secret"] {
                    let sandbox = try Sandbox(fixture.rootDirectory)
                    let read = try? attempt.perform(on: sandbox.file(path), in: sandbox)
                    #expect(read?.contains("secret") != true, "\(path): \(read ?? "")")
                    #expect(read?.contains(fixture.outside.string) != true, "\(path): \(read ?? "")")
                }
            }
            #expect(try fixture.outsideSnapshot() == before)
        }
    }

    @Test("/, .. and symlinks resolve inside the sandbox", arguments: Resolution.allCases)
    func chrootSemantics(_ resolution: Resolution) throws {
        try SandboxFixture.withSandbox(resolution) { fixture, sandbox in
            for path in [
                "/inside/file", "inside/file", "/../inside/file", "/../../inside/../inside/./file",
                "/insideAbsolute", "/insideClimb", "/top/inside/file", "/dotDot/inside/file",
                "/top/top/dotDot/insideAbsolute",
            ] {
                #expect(try sandbox.file(path).readText() == "inside", "\(path)")
            }
            let top = try sandbox.root.entries().map(\.nameString)
            #expect(top.contains("inside") && top.contains("victim"))
            #expect(try sandbox.file("/..").entries().map(\.nameString) == top)
            #expect(try sandbox.file("/up").resolvingSymlinks(allowingMissing: .any) == sandbox.file("/outside"))
            #expect(try sandbox.file("/insideClimb").resolvingSymlinks() == sandbox.file("/inside/file"))
            #expect(try sandbox.file("/inside").contains(sandbox.file("inside/file")))
            // A sandbox made from a path in another lies inside it.
            #expect(try Sandbox(sandbox.file("/top/inside")).file("/../file").readText() == "inside")
            #expect(throws: FileError(.resolve, sandbox.file("/up"), .noSuchFileOrDirectory)) {
                try Sandbox(sandbox.file("/up"))
            }
            #expect(try !sandbox.file("/inside").contains(sandbox.file("victim")))
            #expect(throws: FileError(.open, sandbox.file("/loop"), .tooManySymbolicLinkLevels)) {
                try sandbox.file("/loop").readText()
            }
            // Writing through a dangling symlink creates its target inside.
            try sandbox.file("/made").makeSymlink(to: "/inside/new")
            try sandbox.file("/made").write(text: "new")
            #expect(try (fixture.rootDirectory + "inside/new").readText() == "new")
        }
    }

    @Test("A DirectoryHandle in a sandbox follows symlinks inside it", arguments: Resolution.allCases)
    func directoryHandles(_ resolution: Resolution) throws {
        try SandboxFixture.withSandbox(resolution) { _, sandbox in
            let top = try DirectoryHandle(sandbox.root)
            let names = try top.entries(at: []).map(\.nameString)
            #expect(names.contains("victim"))
            #expect(try DirectoryHandle(Array("top".utf8), in: top).entries(at: []).map(\.nameString) == names)
            #expect(try top.entries(at: Array("dotDot".utf8)).map(\.nameString) == names)
            for escape in ["up", "upMany", "absolute", "chain", "magic", "up/dir", "dotDot/../outside"] {
                #expect(throws: FileError.self, "\(escape)") { try DirectoryHandle(Array(escape.utf8), in: top) }
                #expect(throws: FileError.self, "\(escape)") { try top.entries(at: Array(escape.utf8)) }
                #expect(throws: FileError.self, "\(escape)") {
                    try top.info(at: Array(escape.utf8), followSymlinks: true)
                }
            }
            #expect(try top.info(at: Array("up".utf8)).kind == .symlink)
            #expect(try top.info(at: Array("insideAbsolute".utf8), followSymlinks: true).size == 6)
            #expect(try top.linkTarget(at: Array("up".utf8)) == Array("../outside".utf8))
        }
    }

    @Test(
        "A DirectoryHandle below the top reaches paths beneath it, and what climbs or links out of it only inside",
        arguments: Resolution.allCases)
    func directoryHandlesBelowTheTop(_ resolution: Resolution) throws {
        try SandboxFixture.withSandbox(resolution) { fixture, sandbox in
            try (fixture.rootDirectory + "inside/sub").makeDirectory()
            try (fixture.rootDirectory + "inside/sub/deeper").makeDirectory()
            let links = [
                ("out", "../../../outside"), ("absolute", "/victim"), ("climb", "../../victim"),
                ("upLink", "../../up"), ("around", "../sub/deeper"),
            ]
            for (name, target) in links {
                try (fixture.rootDirectory + "inside/sub" + name).makeSymlink(to: File(path: target))
            }
            let inside = try DirectoryHandle(sandbox.file("/inside"))
            func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
            // Beneath the handle, symlinks that stay beneath it included.
            #expect(try inside.entries(at: bytes("sub/around")).isEmpty)
            #expect(try inside.info(at: bytes("sub/deeper")).kind == .directory)
            #expect(try inside.info(at: bytes("sub/out")).kind == .symlink)
            #expect(try DirectoryHandle(bytes("sub/around"), in: inside).entries(at: []).isEmpty)
            // Above it, or out through a symlink: resolved in the sandbox, from its top.
            #expect(try inside.info(at: bytes("sub/climb"), followSymlinks: true).size == 6)
            #expect(try inside.info(at: bytes("sub/absolute"), followSymlinks: true).size == 6)
            #expect(try inside.info(at: bytes("../victim")).size == 6)
            #expect(try inside.info(at: bytes("../../../victim")).size == 6)
            #expect(try inside.info(at: bytes("sub/../../inside/file")).size == 6)
            for escape in ["sub/out", "sub/out/dir", "sub/upLink", "sub/upLink/dir", "../up/dir", "../../outside/dir"] {
                #expect(throws: FileError.self, "\(escape)") { try inside.entries(at: bytes(escape)) }
                #expect(throws: FileError.self, "\(escape)") { try DirectoryHandle(bytes(escape), in: inside) }
            }
            for escape in ["sub/out/secret", "sub/upLink/secret", "../up/secret", "../../outside/secret"] {
                #expect(throws: FileError.self, "\(escape)") { try inside.info(at: bytes(escape)) }
                #expect(throws: FileError.self, "\(escape)") { try inside.info(at: bytes(escape), followSymlinks: true) }
            }
        }
    }

    @Test("Paths keep their spelling inside the sandbox, in values and errors")
    func spelling() throws {
        try withScratch { scratch in
            let fixture = try SandboxFixture(scratch)
            let sandbox = try Sandbox(fixture.rootDirectory)
            let file = sandbox.file("/inside/file")
            #expect(file.string == "/inside/file")
            #expect(file.sandbox == sandbox)
            #expect((file.parent + "x").sandbox == sandbox)
            #expect(sandbox.root.isRoot && sandbox.root.sandbox == sandbox)
            #expect(file != File(path: "/inside/file"))
            #expect(throws: FileError(.open, sandbox.file("/nope"), .noSuchFileOrDirectory)) {
                try sandbox.file("/nope").readText()
            }
        }
    }

    @Test("A sandbox needs an existing directory")
    func badDirectory() throws {
        try withScratch { scratch in
            let fixture = try SandboxFixture(scratch)
            #expect(throws: FileError(.resolve, "", .noSuchFileOrDirectory)) { try Sandbox("") }
            let file = fixture.rootDirectory + "victim"
            #expect(throws: FileError(.resolve, file, .notDirectory)) { try Sandbox(file) }
            let missing = scratch + "missing"
            #expect(throws: FileError(.resolve, missing, .noSuchFileOrDirectory)) { try Sandbox(missing) }
        }
    }

    @Test("procfs magic links do not lead out", arguments: Resolution.allCases)
    func magicLinks(_ resolution: Resolution) throws {
        try withScratch { scratch in
            let fixture = try SandboxFixture(scratch)
            let fd = fixture.outside.withCString { Glibc.open($0, O_RDONLY | O_DIRECTORY) }
            try #require(fd >= 0)
            defer { Glibc.close(fd) }
            try resolution.run {
                let sandbox = try Sandbox("/proc/self")
                for path in ["/root" + fixture.outside.string + "/secret", "/cwd", "/fd/\(fd)/secret", "/exe"] {
                    let read = try? sandbox.file(path).readText()
                    #expect(read == nil, "\(path)")
                    let listed = try? sandbox.file(path).entries()
                    #expect(listed == nil, "\(path)")
                }
            }
        }
    }

    @Test(
        "A directory swapped for a symlink while files are reached through it leads nowhere outside",
        .timeLimit(.minutes(1)), arguments: Resolution.allCases)
    func swapRace(_ resolution: Resolution) throws {
        try withScratch { scratch in
            let fixture = try SandboxFixture(scratch)
            let root = fixture.rootDirectory
            try (root + "d/sub").makeDirectory(intermediates: true)
            try (root + "d/secret").write(text: "inside")
            try (root + "held").makeSymlink(to: fixture.outside)
            let before = try fixture.outsideSnapshot()
            let swapper = Swapper(root + "d", root + "real", root + "held")
            let escaped: [String] = try resolution.run {
                let sandbox = try Sandbox(root)
                var escaped: [String] = []
                for round in 0..<1000 {
                    if let text = try? sandbox.file("/d/secret").readText(), text != "inside" { escaped.append(text) }
                    if let names = try? sandbox.file("/d").entries().map(\.nameString), names.contains("dir") {
                        escaped.append(names.joined(separator: ","))
                    }
                    try? sandbox.file("/d/planted\(round % 7)").write(text: "planted")
                    try? sandbox.file("/d/sub").delete()
                    try? sandbox.file("/d/secret").setPermissions(0o600)
                }
                return escaped
            }
            let swaps = swapper.stop()
            #expect(swaps > 0)
            #expect(escaped.isEmpty, "\(escaped.count) reads reached outside, first: \(escaped.first ?? "")")
            #expect(try fixture.outsideSnapshot() == before)
        }
    }
}

/// A thread that swaps a directory for a symlink and back, as fast as it can, until stopped.
private final class Swapper: @unchecked Sendable {
    private let stopping = Atomic<Bool>(false)
    private let swaps = Atomic<Int>(0)
    private let finished = Atomic<Bool>(false)

    /// Starts swapping: `directory` moves to `aside` while `link` takes its place, then back.
    init(_ directory: File, _ aside: File, _ link: File) {
        let thread = Thread { [self] in
            func rename(_ from: File, _ to: File) {
                _ = from.withCString { old in to.withCString { new in Glibc.rename(old, new) } }
            }
            while !stopping.load(ordering: .relaxed) {
                rename(directory, aside)
                rename(link, directory)
                rename(directory, link)
                rename(aside, directory)
                swaps.add(1, ordering: .relaxed)
            }
            finished.store(true, ordering: .releasing)
        }
        thread.start()
    }

    /// Stops the thread, waits for it, and returns how many swaps it made.
    func stop() -> Int {
        stopping.store(true, ordering: .relaxed)
        while !finished.load(ordering: .acquiring) { usleep(1000) }
        return swaps.load(ordering: .relaxed)
    }
}
