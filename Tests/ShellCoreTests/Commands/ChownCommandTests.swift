import Glibc
import PathModel
import Testing

@testable import ShellCore

/// chown and chgrp against GNU's: each row runs in a fresh pair of twin fixtures, once in shelf
/// and once in bash with coreutils, then compares output, messages, status and every entry's
/// owner, group and mode. Real ownership changes need root, which the tests run as here and in CI.
///
///     f root:root   g nobody:nogroup   s root:root 6755   n\xff root:root
///     d/ d/e/ d/h d/e/i   d/lf -> ../f   lf -> f   ld -> d   dl -> nowhere
@Suite(
    .serialized,
    .enabled(if: ReferenceTool.isInstalled("/usr/bin/chown"), "needs GNU coreutils"),
    .enabled(if: getuid() == 0, "changing owners needs root"),
    .enabled(
        if: Accounts.user(named: "nobody") != nil && Accounts.group(named: "nogroup") != nil, "needs nobody"))
struct ChownCommandTests {
    static let rows: [(name: String, line: String)] = [
        ("a user name", "chown -v nobody f"),
        ("already the owner", "chown -v nobody g"),
        ("user and group names", "chown -v nobody:nogroup f"),
        ("a group alone", "chown -v :nogroup f"),
        ("a numeric owner", "chown -v 65534 f"),
        ("numeric owner and group", "chown -v 65534:65534 g"),
        ("ids nobody has", "chown -v 4000:4001 f"),
        ("OWNER: takes the login group", "chown -v nobody: f"),
        ("NUMBER: is invalid", "chown 4000: f"),
        ("a numeric owner and a group name", "chown -v 4000:nogroup f"),
        ("an unknown user", "chown -v xyz f"),
        ("an unknown group", "chown -v root:xyz f"),
        ("an empty spec changes nothing", "chown -v '' f"),
        ("a colon alone", "chown -v : g"),
        ("a missing file and a good one", "chown -v nobody nope f"),
        ("-f silences a missing file", "chown -f nobody nope"),
        ("a dangling symlink", "chown nobody dl"),
        ("-h on a dangling symlink", "chown -hv nobody dl"),
        ("a symlink operand is followed", "chown -v nobody lf"),
        ("-h changes the link itself", "chown -hv nobody lf"),
        ("-c", "chown -c nobody f g"),
        ("set-id bits are dropped", "chown nobody s"),
        ("-R", "chown -Rv nobody:nogroup d"),
        ("-R on a symlink operand changes the link", "chown -Rv nobody ld"),
        ("-Rc with a trailing slash", "chown -Rc :nogroup d/"),
        ("--from selects by owner", "chown -v --from=nobody root f g"),
        ("--from selects by group", "chown -v --from=:nogroup 4000 f g"),
        ("--from with an unknown user", "chown --from=xyz root f"),
        ("--reference", "chown -v --reference=g f"),
        ("--reference to a missing file", "chown --reference=nope f"),
        ("a name that is not UTF-8", "chown -v nobody n?"),
        ("chgrp a name", "chgrp -v nogroup f"),
        ("chgrp a number", "chgrp -v 4001 f g"),
        ("chgrp an unknown group", "chgrp xyz f"),
        ("chgrp an empty group", "chgrp -v '' f"),
        ("chgrp -R", "chgrp -Rv nogroup d"),
        ("chgrp -h", "chgrp -hv nogroup lf"),
        ("chgrp --reference", "chgrp -v --reference=g f"),
        ("chgrp -c", "chgrp -c nogroup f g"),
        ("chgrp a missing file", "chgrp -v nogroup nope"),
        ("chgrp -f silences a missing file", "chgrp -f nogroup nope f"),
        ("chgrp drops set-id bits", "chgrp 4001 s"),
    ]

    /// Builds the fixture below `root`.
    static func build(in root: File) throws {
        for path in ["f", "g", "s", "d/h", "d/e/i"] {
            let file = root + path
            try file.parent.makeDirectory(intermediates: true)
            try file.write(text: "x\n")
        }
        try root.appending(name: [0x6E, 0xFF]).write(text: "x\n")
        try (root + "s").setPermissions(0o6755)
        try (root + "d/lf").makeSymlink(to: "../f")
        try (root + "lf").makeSymlink(to: "f")
        try (root + "ld").makeSymlink(to: "d")
        try (root + "dl").makeSymlink(to: "nowhere")
        try (root + "g").volume.setAttributes(
            of: root + "g", .owner(user: 65534, group: 65534), following: false)
    }

    /// Runs `line` on twin fixtures, snapshotting each entry's owner, group and mode.
    static func twins(_ line: String) throws -> TwinRun {
        try TwinRun(line, build: build) { "\($0.userID):\($0.groupID) \(String($0.permissions, radix: 8))" }
    }

    @Test(arguments: rows)
    func matchesGNU(_ name: String, _ line: String) throws {
        try Self.twins(line).expectSame(line, name)
    }

    @Test(arguments: ["chown", "chown root", "chgrp", "chgrp root", "chown --reference=f"])
    func usageErrorsMatchGNU(_ line: String) throws {
        try Self.twins(line).expectSameUsageError(line)
    }

    /// The verbose line for a dangling symlink: GNU prints an owner from memory it never filled
    /// in; shelf leaves the old owner out.
    @Test func danglingSymlinkVerbosely() {
        let shell = TestShell(interactive: false)
        #expect(throws: Never.self) { try shell.path("dl").makeSymlink(to: "nowhere") }
        let result = shell.runConfined("chown -v root:root dl")
        #expect(result.stdout == "failed to change ownership of 'dl' to root:root\n")
        #expect(result.stderr == "chown: cannot dereference 'dl': No such file or directory\n")
        #expect(result.status == .failure)
    }

    @Test(arguments: [
        ("chown -R nobody /", "chown: it is dangerous to operate recursively on '/'\n"),
        ("chgrp -R nogroup /..", "chgrp: it is dangerous to operate recursively on '/..' (same as '/')\n"),
    ])
    func recursiveRootIsRefused(_ line: String, _ message: String) {
        let result = TestShell(interactive: false).runConfined(line)
        let name = line.prefix(5)
        #expect(result.stderr == message + "\(name): use --no-preserve-root to override this failsafe\n")
        #expect(result.status == .failure)
    }
}
