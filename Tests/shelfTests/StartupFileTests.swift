import Foundation
import Testing

/// The start-up file: `~/.config/shelf/rc` before an interactive session's first prompt,
/// `--rc FILE` in any session, `--norc`; and a variable set for one built-in through the binary.
@Suite struct StartupFileTests {
    /// A private directory that is HOME, with `files` written below it; removed by the caller.
    private static func home(_ files: [String: String]) throws -> URL {
        let directory = try ScriptTests.makeDirectory()
        for (path, text) in files {
            let file = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return directory
    }

    /// Runs shelf in `home` with `arguments` and `input`, HOME set to it and `extra` variables.
    private static func shelf(
        _ arguments: [String], input: String = "", home: URL, extra: [String] = []
    ) -> (stdout: String, stderr: String, status: Int32) {
        let environment = ["HOME=\(home.path)", "LC_ALL=C", "PATH=/usr/bin:/bin", "NO_COLOR=1"] + extra
        let result = RawProcess.run(
            ScriptTests.binary, arguments.map { Array($0.utf8) }, environment: environment.map { Array($0.utf8) },
            input: Array(input.utf8), in: home.path)
        return (
            String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self),
            result.status
        )
    }

    /// A start-up file with an alias, an exported variable and three failing lines.
    private static let startup = """
        alias say='echo said'
        export GREETING=hi
        cat missing
        export 1x=2 && echo not shown
        echo a &
        echo end of rc

        """

    /// What the start-up file above reports when it is named `name`.
    private static func reports(_ name: String) -> String {
        """
        \(name):3: cat: missing: No such file or directory
        \(name):4: export: '1x=2': not a valid identifier
        shelf: \(name):5:8: syntax error: '&' is not supported
        echo a &
               ^

        """
    }

    @Test("An interactive session runs ~/.config/shelf/rc first; its errors are FILE:LINE and it starts")
    func interactiveSessionRunsTheDefault() throws {
        let home = try Self.home([".config/shelf/rc": Self.startup])
        defer { try? FileManager.default.removeItem(at: home) }
        let result = Self.shelf(["-i"], input: "say x\nsh -c 'echo $GREETING'\n", home: home)
        let rc = home.path + "/.config/shelf/rc"
        #expect(result.stderr == Self.reports(rc))
        #expect(result.stdout.contains("end of rc\n"))
        #expect(result.stdout.contains("said x\n"))
        #expect(result.stdout.contains("hi\n"))
        #expect(result.status == 0)
    }

    @Test("XDG_CONFIG_HOME moves the default; --norc skips it")
    func configHomeAndNorc() throws {
        let home = try Self.home(["config/shelf/rc": "echo from config home\n", ".config/shelf/rc": "echo wrong\n"])
        defer { try? FileManager.default.removeItem(at: home) }
        let moved = Self.shelf(["-i"], input: "", home: home, extra: ["XDG_CONFIG_HOME=\(home.path)/config"])
        #expect(moved.stdout.contains("from config home\n"))
        #expect(!moved.stdout.contains("wrong"))
        let skipped = Self.shelf(["-i", "--norc"], input: "", home: home)
        #expect(!skipped.stdout.contains("wrong"))
        #expect(skipped.stderr == "")
    }

    @Test("A missing default start-up file is no error")
    func missingDefaultIsNoError() throws {
        let home = try Self.home([:])
        defer { try? FileManager.default.removeItem(at: home) }
        let result = Self.shelf(["-i"], input: "echo up\n", home: home)
        #expect(result.stderr == "")
        #expect(result.stdout.contains("up\n"))
        #expect(result.status == 0)
    }

    @Test("-c and scripts run no start-up file, unless --rc FILE names one")
    func scriptsRunOnlyTheNamedOne() throws {
        let home = try Self.home([".config/shelf/rc": "echo from rc\n", "named": Self.startup])
        defer { try? FileManager.default.removeItem(at: home) }
        let plain = Self.shelf(["-c", "echo main"], home: home)
        #expect(plain.stdout == "main\n")
        let named = Self.shelf(["--rc", "named", "-c", "say x; sh -c 'echo $GREETING'"], home: home)
        #expect(named.stdout == "end of rc\nsaid x\nhi\n")
        #expect(named.stderr == Self.reports("named"))
        #expect(named.status == 0)
    }

    /// As `bash -i -c` reads `~/.bashrc`: the remotes it names are places for the command.
    @Test("-i with -c or a script runs the start-up file first, its remotes included")
    func interactiveCommandsRunTheDefault() throws {
        let rc = "remote backup s3://bucket/backups\nalias say='echo said'\n"
        let home = try Self.home([".config/shelf/rc": rc, "script": "say s\nremote\n"])
        defer { try? FileManager.default.removeItem(at: home) }
        let command = Self.shelf(["-i", "-c", "remote; say c"], home: home)
        #expect(command.stdout == "remote backup 's3://bucket/backups'\nsaid c\n")
        #expect(command.stderr == "")
        #expect(command.status == 0)
        let script = Self.shelf(["-i", "script"], home: home)
        #expect(script.stdout == "said s\nremote backup 's3://bucket/backups'\n")
        #expect(Self.shelf(["-i", "--norc", "-c", "remote"], home: home).stdout == "")
    }

    @Test("A --rc FILE that cannot be read is an error before anything runs")
    func missingNamedFileIsAnError() throws {
        let home = try Self.home([:])
        defer { try? FileManager.default.removeItem(at: home) }
        let result = Self.shelf(["--rc", "nope", "-c", "echo main"], home: home)
        #expect(result.stdout == "")
        #expect(result.stderr == "shelf: --rc: nope: No such file or directory\n")
        #expect(result.status == 2)
    }

    @Test("exit in the start-up file ends the session with its status")
    func exitEndsTheSession() throws {
        let home = try Self.home(["named": "exit 4\necho never\n"])
        defer { try? FileManager.default.removeItem(at: home) }
        let result = Self.shelf(["--rc", "named", "-c", "echo main"], home: home)
        #expect(result.stdout == "")
        #expect(result.status == 4)
    }

    @Test("NAME=value before a built-in is in force for it alone (TZ=UTC stat in a shell whose zone is EST5)")
    func anAssignmentReachesABuiltIn() throws {
        let home = try Self.home([:])
        defer { try? FileManager.default.removeItem(at: home) }
        let result = Self.shelf(
            ["-c", "touch -d @0 f; TZ=UTC stat -c %y f; stat -c %y f"], home: home, extra: ["TZ=EST5"])
        #expect(result.stdout == "1970-01-01 00:00:00.000000000 +0000\n1969-12-31 19:00:00.000000000 -0500\n")
        #expect(result.stderr == "")
    }
}
