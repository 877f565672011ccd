import CPseudoTerminal
import Glibc
import ObjectStorage
import ObjectVolume
import SeaweedFixture
import Testing

/// The built shelf binary: `$SHELF_BIN`, else `.build/debug/shelf` in the package.
private let shelfBinary: String = {
    if let path = getenv("SHELF_BIN") { return String(cString: path) }
    let root = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(
        separator: "/")
    return root + "/.build/debug/shelf"
}()

/// Why a pseudo-terminal session failed.
private struct SessionError: Error, CustomStringConvertible {
    let description: String
}

/// shelf running on a pseudo-terminal, as a user at a terminal would run it: its own session,
/// the terminal as its controlling terminal, a private HOME and state directory, and any
/// `environment` (`NAME=value`) besides.
private final class TerminalSession {
    let master: Int32
    let pid: pid_t
    /// Everything the terminal has shown so far.
    private(set) var output: [UInt8] = []
    /// Where the next `expect` starts looking.
    private var mark = 0
    private var exitStatus: Int32?

    init(home: String, cwd: String? = nil, arguments: [String] = [], environment extra: [String] = []) throws {
        let inputrc = home + "/.inputrc"
        let environment =
            [
                "HOME=\(home)", "XDG_STATE_HOME=\(home)/state", "INPUTRC=\(inputrc)", "TERM=xterm", "NO_COLOR=1",
                "LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin",
            ] + extra
        var descriptor: Int32 = -1
        var child: pid_t = 0
        let status = withCStrings([shelfBinary] + arguments) { argv in
            withCStrings(environment) { envp in
                pty_spawn(shelfBinary, argv, envp, cwd ?? home, 100, 30, &descriptor, &child)
            }
        }
        guard status == 0 else {
            throw SessionError(
                description: "cannot run \(shelfBinary) on a terminal: \(String(cString: strerror(status)))")
        }
        master = descriptor
        pid = child
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    /// Types `text` at the terminal.
    func send(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeMutableBytes { write(master, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
        bytes.removeAll()
    }

    /// Waits until the terminal shows `text` after what earlier expectations consumed.
    /// - Returns: what was shown from the previous mark up to and including `text`.
    @discardableResult
    func expect(_ text: String, timeout: Double = 10) throws -> String {
        let wanted = Array(text.utf8)
        let deadline = now() + timeout
        while true {
            if let range = find(wanted, from: mark) {
                let seen = String(decoding: output[mark..<range.upperBound], as: UTF8.self)
                mark = range.upperBound
                return seen
            }
            let remaining = deadline - now()
            guard remaining > 0, readSome(waitingAtMost: remaining) else {
                throw SessionError(
                    description: "timed out waiting for \(text.debugDescription); the terminal showed:\n"
                        + String(decoding: output[mark...], as: UTF8.self).debugDescription)
            }
        }
    }

    /// Types `line` and Enter, waits for `output`, then for `prompt`.
    func run(_ line: String, shows output: String, then prompt: String) throws {
        send(line + "\r")
        try expect(output)
        try expect(prompt)
    }

    /// Waits for the process to end and returns its exit status (or 128 + the signal).
    func waitForExit(timeout: Double = 10) throws -> Int32 {
        let deadline = now() + timeout
        while now() < deadline {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
                exitStatus = code
                return code
            }
            _ = readSome(waitingAtMost: 0.05)
        }
        throw SessionError(
            description: "shelf did not exit; the terminal showed:\n"
                + String(decoding: output[mark...], as: UTF8.self))
    }

    /// Everything shown after the mark, without moving it.
    var pending: String { String(decoding: output[mark...], as: UTF8.self) }

    /// Reads what is available within `seconds`; false when nothing came (or the terminal closed).
    private func readSome(waitingAtMost seconds: Double) -> Bool {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(max(1, seconds * 1000)))
        guard ready > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(master, &buffer, buffer.count)
        guard count > 0 else { return false }
        output += buffer[..<count]
        return true
    }

    private func find(_ wanted: [UInt8], from start: Int) -> Range<Int>? {
        guard wanted.count <= output.count - start else { return nil }
        var index = start
        while index + wanted.count <= output.count {
            if output[index..<(index + wanted.count)].elementsEqual(wanted) {
                return index..<(index + wanted.count)
            }
            index += 1
        }
        return nil
    }

    private func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Calls `body` with a NULL-terminated array of C strings.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    var pointers = strings.map { strdup($0) }
    pointers.append(nil)
    defer {
        for pointer in pointers { free(pointer) }
    }
    return body(pointers)
}

/// A private home directory with an inputrc that turns bracketed paste off (so typed text comes
/// back as typed), removed at the end.
private final class Home {
    let path: String

    init() {
        var template = Array("/tmp/shelf-pty-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(cString: made!)
        write("/.inputrc", "set enable-bracketed-paste off\n")
    }

    deinit {
        // The tests write only a few plain files and directories.
        remove(path)
    }

    func write(_ relative: String, _ text: String) {
        let file = path + relative
        makeParents(of: file)
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(descriptor >= 0, "cannot create \(file)")
        _ = text.utf8CString.dropLast().withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    func read(_ relative: String) -> String? {
        let descriptor = open(path + relative, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            result += buffer[..<count]
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The names in the home directory.
    func names() -> [String] { names(in: path) }

    private func names(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return names.filter { $0 != "." && $0 != ".." }
    }

    private func makeParents(of file: String) {
        var prefix = ""
        for component in file.split(separator: "/").dropLast() {
            prefix += "/" + component
            mkdir(prefix, 0o755)
        }
    }

    private func remove(_ path: String) {
        guard let directory = opendir(path) else {
            unlink(path)
            return
        }
        closedir(directory)
        for name in names(in: path) { remove(path + "/" + name) }
        rmdir(path)
    }
}

/// The prompt in the home directory with colour off.
private let prompt = "shelf:~$ "

@Suite(.serialized) struct InteractiveTests {
    @Test func aTypedCommandRunsAndPrints() throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        try shell.run("echo hello there", shows: "hello there\r\n", then: prompt)
        try shell.run("mkdir made && cd made && pwd", shows: home.path + "/made\r\n", then: "shelf:~/made$ ")
        try shell.run(
            "cat missing", shows: "cat: missing: No such file or directory", then: "shelf:~/made [1]$ ")
    }

    @Test func rmAsksOnTheTerminalWithOneBlankAfterTheQuestion() throws {
        let home = Home()
        home.write("/keep", "")
        home.write("/drop", "")
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send("rm -i keep drop\r")
        try shell.expect("rm: remove regular empty file 'keep'? ")
        shell.send("n\r")
        // The answer is echoed right after the one blank GNU rm writes.
        try shell.expect("'drop'? ")
        shell.send("y\r")
        try shell.expect(prompt)
        #expect(home.read("/keep") != nil)
        #expect(home.read("/drop") == nil)
        #expect(String(decoding: shell.output, as: UTF8.self).contains("'keep'? n\r\n"))
    }

    @Test func tabCompletesANameWithSpacesAndADirectory() throws {
        let home = Home()
        home.write("/my file.txt", "first file\n")
        home.write("/some dir/inner.txt", "inner file\n")
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send("cat my\t")
        try shell.expect("cat my\\ file.txt ")
        try shell.run("", shows: "first file\r\n", then: prompt)
        shell.send("cat so\t")
        try shell.expect("some\\ dir/")
        shell.send("in\t")
        try shell.expect("inner.txt ")
        try shell.run("", shows: "inner file\r\n", then: prompt)
    }

    @Test func insideARootThePromptAndCompletionStayInside() throws {
        let home = Home()
        home.write("/jail/sub/file one", "inside\n")
        home.write("/outside-secret", "secret\n")
        let shell = try TerminalSession(home: home.path, arguments: ["--root", home.path + "/jail"])
        try shell.expect("shelf:/$ ")
        try shell.run("cd sub/../../..", shows: "", then: "shelf:/$ ")
        shell.send("cd s\t")
        try shell.expect("cd sub/")
        try shell.run("", shows: "", then: "shelf:/sub$ ")
        shell.send("cat /sub/fi\t")
        try shell.expect("cat /sub/file\\ one ")
        try shell.run("", shows: "inside\r\n", then: "shelf:/sub$ ")
        shell.send("cat ../../outs\t")
        shell.send("\r")
        try shell.expect("shelf:/sub [1]$ ")
    }

    @Test func thePromptShowsAnObjectStoragePlace() throws {
        let server = try SeaweedServer.shared()
        try SeaweedServer.withVolume { volume in
            try volume.client.putObject(bucket: volume.bucket, key: volume.prefix + Array("photos/2024/a".utf8), bytes: [1])
            // The volume's prefix is a directory of the bucket: s3://BUCKET/tNNN.
            let top = "s3://\(volume.bucket)/" + String(decoding: volume.prefix.dropLast(), as: UTF8.self)
            let home = Home()
            let shell = try TerminalSession(
                home: home.path,
                environment: [
                    "AWS_ACCESS_KEY_ID=\(server.credentials.accessKeyID)",
                    "AWS_SECRET_ACCESS_KEY=\(server.credentials.secretAccessKey)",
                    "AWS_ENDPOINT_URL=http://127.0.0.1:\(server.port)", "AWS_REGION=us-east-1",
                ])
            try shell.expect(prompt)
            try shell.run("cd \(top)/photos", shows: "", then: "shelf:\(top)/photos$ ")
            try shell.run("cd 2024", shows: "", then: "shelf:\(top)/photos/2024$ ")
            try shell.run("cd ../..", shows: "", then: "shelf:\(top)$ ")
            try shell.run("cd nothing", shows: "No such file or directory\r\n", then: "shelf:\(top) [1]$ ")
            try shell.run("cd", shows: "", then: prompt)
        }
    }

    @Test func tabTwiceListsTheChoicesByName() throws {
        let home = Home()
        home.write("/one file", "")
        home.write("/two file", "")
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send("cat \t\t")
        try shell.expect("one file")
        try shell.expect("two file")
        try shell.expect(prompt + "cat ")
    }

    @Test func hostileNamesAreEscapedInChoicesAndThePrompt() throws {
        let home = Home()
        home.write("/new\nline", "")
        home.write("/\u{1B}[31mred", "")
        home.write("/d\u{1B}[2J/inside", "")
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send("cat \t\t")
        try shell.expect("''$'\\033''[31mred'")
        try shell.expect("'d'$'\\033''[2J'/")
        try shell.expect("'new'$'\\n''line'")
        try shell.expect(prompt + "cat ")
        try shell.run("\u{15}cd d*", shows: "", then: "shelf:~/'d'$'\\033''[2J'$ ")
        let shown = String(decoding: shell.output, as: UTF8.self)
        #expect(!shown.contains("\u{1B}[31m") && !shown.contains("\u{1B}[2J") && !shown.contains("new\nline"))
    }

    @Test func manyChoicesAskFirst() throws {
        let home = Home()
        for index in 0..<120 { home.write("/many/f\(index)", "") }
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send("cat many/f\t\t")
        try shell.expect("Display all 120 possibilities? (y or n)")
        shell.send("n")
        try shell.expect(prompt + "cat many/f")
        try shell.run("\u{15}echo still here", shows: "still here\r\n", then: prompt)
    }

    @Test func historyIsKeptAcrossSessions() throws {
        let home = Home()
        do {
            let first = try TerminalSession(home: home.path)
            try first.expect(prompt)
            try first.run("echo from-the-first-run", shows: "from-the-first-run\r\n", then: prompt)
            try first.run(" echo secret", shows: "secret\r\n", then: prompt)
            first.send("\u{04}")
            #expect(try first.waitForExit() == 0)
        }
        let saved = home.read("/state/shelf/history") ?? ""
        #expect(saved == "echo from-the-first-run\n")
        var info = stat()
        #expect(stat(home.path + "/state/shelf/history", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)

        let second = try TerminalSession(home: home.path)
        try second.expect(prompt)
        second.send("\u{1B}[A")
        try second.expect("echo from-the-first-run")
        try second.run("", shows: "from-the-first-run\r\n", then: prompt)
        second.send("history\r")
        // The repeated line is not stored twice; the line with a leading space not at all.
        let listing = try second.expect("2  history\r\n")
        #expect(listing.hasSuffix("history\r\n    1  echo from-the-first-run\r\n    2  history\r\n"))
    }

    @Test func noHistoryNeitherReadsNorWritesTheHistoryFile() throws {
        let home = Home()
        let first = try TerminalSession(home: home.path, arguments: ["--no-history"])
        try first.expect(prompt)
        try first.run("echo unrecorded", shows: "unrecorded\r\n", then: prompt)
        first.send("\u{04}")
        #expect(try first.waitForExit() == 0)
        #expect(home.read("/state/shelf/history") == nil)
    }

    @Test func ctrlCEndsACommandWaitingForTerminalInput() throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send("cat\r")
        try shell.expect("cat\r\n")
        usleep(200_000)
        shell.send("\u{3}")
        try shell.expect("shelf:~ [130]$ ")
        try shell.run("echo still here", shows: "still here\r\n", then: prompt)
    }

    @Test("Ctrl-C ends a pipeline whose built-in stages wait: one on the terminal, one on a FIFO")
    func ctrlCEndsAPipelineOfWaitingBuiltIns() throws {
        let home = Home()
        mkfifo(home.path + "/fifo", 0o600)
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        for line in ["cat | wc -c", "cat fifo | wc -c", "cat | cat fifo"] {
            shell.send(line + "\r")
            try shell.expect(line + "\r\n")
            usleep(200_000)
            shell.send("\u{3}")
            try shell.expect("shelf:~ [130]$ ")
        }
        try shell.run("echo still here", shows: "still here\r\n", then: prompt)
    }

    @Test func ctrlCAtThePromptDiscardsTheLine() throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send("echo discarded-text")
        try shell.expect("echo discarded-text")
        shell.send("\u{03}")
        try shell.expect("^C")
        try shell.expect("shelf:~ [130]$ ")
        shell.send("echo kept\r")
        let shown = try shell.expect("kept\r\n")
        #expect(!shown.contains("discarded"))
        try shell.expect(prompt)
        shell.send("\u{04}")
        #expect(try shell.waitForExit() == 0)
        #expect(home.read("/state/shelf/history") == "echo kept\n")
    }

    @Test func ctrlCAtAContinuationPromptDiscardsTheStatement() throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send("echo 'open\r")
        try shell.expect("> ")
        shell.send("\u{03}")
        try shell.expect("shelf:~ [130]$ ")
        try shell.run("echo 'two\rlines'", shows: "two\r\nlines\r\n", then: prompt)
    }

    @Test func ctrlDOnAnEmptyLineExitsWithStatusZero() throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send("\u{04}")
        #expect(try shell.waitForExit() == 0)
    }

    @Test(
        "SIGTERM and SIGHUP at the prompt end the shell with 128 + the signal",
        arguments: [("SIGTERM", SIGTERM, 143), ("SIGHUP", SIGHUP, 129)])
    func terminationAtThePrompt(_ name: String, _ signal: Int32, _ expected: Int32) throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        kill(shell.pid, signal)
        #expect(try shell.waitForExit() == expected, "\(name)")
    }

    @Test func aHangUpDuringACopyLeavesNoTemporaryFile() throws {
        let home = Home()
        // 8 GiB of holes: nothing on disk, but every byte is copied, which takes a while.
        let big = open(home.path + "/big", O_WRONLY | O_CREAT, 0o644)
        #expect(big >= 0 && ftruncate(big, 1 << 33) == 0)
        close(big)
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send("cp big copy\r")
        var copying = false
        for _ in 0..<2_000 where !copying {
            copying = home.names().contains { $0.hasSuffix(".shelf-tmp") }
            if !copying { usleep(5_000) }
        }
        #expect(copying, "the copy started")
        kill(shell.pid, SIGHUP)
        #expect(try shell.waitForExit() == 129)
        #expect(!home.names().contains { $0.hasSuffix(".shelf-tmp") || $0 == "copy" })
    }

    @Test func exitEndsTheShellWithItsStatus() throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send("exit 3\r")
        #expect(try shell.waitForExit() == 3)
    }
}

/// A program run from the interactive shell has the terminal, in a process group of its own, as
/// a job control shell runs a foreground job; the shell takes the terminal back after, with the
/// modes it had.
@Suite(.serialized) struct ForegroundProgramTests {
    /// A program that says when it has started, then waits for a signal.
    private static let waiting = "sh -c 'echo started; exec sleep 100'"

    @Test func aProgramHasTheTerminalInAProcessGroupOfItsOwn() throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        let line = "sh -c 'set -- $(cut -d\" \" -f5,8 /proc/$$/stat); [ $1 = $2 ] && [ $1 = $$ ] && echo fore''ground'"
        try shell.run(line, shows: "foreground\r\n", then: prompt)
    }

    @Test(
        "A full-screen program starts and quits, alone or at the end of a pipeline",
        arguments: ["less notes.txt", "cat notes.txt | less"])
    func aFullScreenProgramStartsAndQuits(_ line: String) throws {
        let home = Home()
        home.write("/notes.txt", "the first line of the notes\n")
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send(line + "\r")
        try shell.expect("the first line of the notes")
        shell.send("q")
        try shell.expect(prompt)
        try shell.run("echo $?", shows: "0\r\n", then: prompt)
    }

    @Test("Ctrl-C and Ctrl-\\ end the program, not the shell", arguments: [("\u{03}", 130), ("\u{1C}", 131)])
    func interruptReachesTheProgram(_ key: String, _ status: Int) throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        try shell.run(Self.waiting, shows: "started\r\n", then: "")
        shell.send(key)
        try shell.expect("shelf:~ [\(status)]$ ")
        try shell.run("echo $?", shows: "\(status)\r\n", then: prompt)
        try shell.run("echo still here", shows: "still here\r\n", then: prompt)
    }

    @Test func ctrlZIsHarmless() throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        try shell.run("sh -c 'echo started; read line; echo read $line'", shows: "started\r\n", then: "")
        shell.send("\u{1A}")
        shell.send("word\r")
        try shell.expect("read word\r\n")
        try shell.expect(prompt)
        shell.send("\u{1A}")
        try shell.run("echo after ctrl-z", shows: "after ctrl-z\r\n", then: prompt)
    }

    @Test("A pipeline of programs is one process group of its own, which has the terminal")
    func aPipelineOfProgramsIsAForegroundGroup() throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        // Each stage prints its process group and the terminal's foreground group; the shell is
        // the terminal's session leader, so its own group is its session's number.
        let stage = "cut -d\" \" -f5,6,8 /proc/$$/stat"
        let line =
            "sh -c '\(stage)' | sh -c 'cat; \(stage)' | sh -c 'read g1 s t1; read g2 s2 t2; "
            + "[ $g1 = $g2 ] && [ $g1 = $t1 ] && [ $g1 != $s ] && echo one fore''ground group'"
        try shell.run(line, shows: "one foreground group\r\n", then: prompt)
        try shell.run("echo $?", shows: "0\r\n", then: prompt)
    }

    @Test("A program with its standard input redirected still gets the terminal")
    func aProgramReadingAFileHasTheTerminal() throws {
        let home = Home()
        home.write("/notes.txt", "noted\n")
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        try shell.run("command cat < notes.txt", shows: "noted\r\n", then: prompt)
        try shell.run("echo $?", shows: "0\r\n", then: prompt)
    }

    @Test(
        "Ctrl-C ends a pipeline of programs (which had the terminal) or of a built-in and a program",
        arguments: ["sleep 100", "ls -R /"])
    func ctrlCEndsAPipeline(_ first: String) throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        try shell.run("\(first) | sh -c 'echo started; exec sleep 100'", shows: "started\r\n", then: "")
        shell.send("\u{3}")
        try shell.expect("shelf:~ [130]$ ")
        try shell.run("echo still here", shows: "still here\r\n", then: prompt)
    }

    @Test("A built-in at the start of a pipeline reads what is typed at the terminal")
    func aBuiltInStageReadsTheTerminal() throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send("cat | sort\r")
        try shell.expect("cat | sort\r\n")
        usleep(200_000)
        shell.send("pear\rapple\r\u{4}")
        try shell.expect("apple\r\npear\r\n")
        try shell.expect(prompt)
    }

    @Test(
        "Ctrl-C ends a built-in reading the terminal quietly, as it ends a program",
        arguments: ["cat", "head -n 2", "cat | wc -l"])
    func ctrlCEndsABuiltInReadingTheTerminal(_ line: String) throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        shell.send(line + "\r")
        try shell.expect(line + "\r\n")
        usleep(200_000)
        shell.send("\u{3}")
        let shown = try shell.expect("shelf:~ [130]$ ")
        #expect(!shown.contains("Interrupted"), "\(shown.debugDescription)")
        try shell.run("echo still here", shows: "still here\r\n", then: prompt)
    }

    @Test func aProgramThatLeavesTheTerminalRawLeavesThePromptSane() throws {
        let home = Home()
        let shell = try TerminalSession(home: home.path)
        try shell.expect(prompt)
        try shell.run("stty raw -echo", shows: "", then: prompt)
        // Raw output would end the line with a bare \n; the restored modes give \r\n.
        try shell.run("echo sane", shows: "echo sane\r\nsane\r\n", then: prompt)
    }
}
