import PathModel
import Testing

@testable import ShellCore

/// Named places: `@docs` and friends resolved from the shell's own variables and user-dirs.dirs.
@Suite struct NamedPlacesTests {
    /// A shell whose home is its directory, with a config directory of its own whose
    /// user-dirs.dirs puts documents in ~/Papers.
    private func makeShell() throws -> TestShell {
        let shell = TestShell()
        let home = shell.directory.file.string
        shell.state.environment.set("XDG_CONFIG_HOME", home + "/cfg")
        shell.state.environment.set("XDG_CACHE_HOME", home + "/cache-here")
        shell.state.environment.set("TMPDIR", home + "/t")
        try shell.write("cfg/user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"$HOME/Papers\"\n")
        return shell
    }

    @Test(
        "An unquoted word starting with a known @name and / or its end is the place",
        arguments: [
            ("echo @docs", "HOME/Papers"), ("echo @config/shelf", "HOME/cfg/shelf"), ("echo @cache", "HOME/cache-here"),
            ("echo @home", "HOME"), ("echo @tmp/x", "HOME/t/x"), ("echo @downloads", "HOME/Downloads"),
            ("echo @data @state", "HOME/.local/share HOME/.local/state"), ("echo @desktop/", "HOME/Desktop/"),
            ("echo @foo", "@foo"), ("echo @docs.txt", "@docs.txt"), ("echo '@docs'", "@docs"), ("echo \\@docs", "@docs"),
            ("echo x@docs", "x@docs"), ("echo @docs$HOME", "@docs" + "HOME"),
        ])
    func expansion(_ line: String, _ expected: String) throws {
        let shell = try makeShell()
        let home = shell.directory.file.string
        #expect(shell.run(line).stdout == expected.replacingOccurrences(of: "HOME", with: home) + "\n", "\(line)")
    }

    @Test("Places work wherever a path does")
    func anywhereAPathGoes() throws {
        let shell = try makeShell()
        try shell.write("report.pdf", "pdf")
        let result = shell.run("mkdir -p @docs @downloads; cp report.pdf @downloads/; cd @docs; pwd; ls @downloads")
        #expect(result.status == .success)
        #expect(result.stdout == shell.path("Papers").string + "\nreport.pdf\n")
    }

    @Test("help places lists every place with where it points")
    func helpPlaces() throws {
        let shell = try makeShell()
        let lines = shell.run("help places").stdout.split(separator: "\n").dropFirst()
        let home = shell.directory.file.string
        #expect(lines.map { $0.split(separator: " ", omittingEmptySubsequences: true)[0] } == WellKnownPlaces.names.map { "@\($0)"[...] })
        #expect(lines.contains { $0.hasSuffix(home + "/Papers") && $0.hasPrefix("  @docs") })
    }

    @Test("Completion offers the places, then what is in them")
    func completion() throws {
        let shell = try makeShell()
        try shell.write("Papers/thesis.tex")
        let line = Array("cd @d".utf8)
        let names = Completer.complete(line: line, cursor: line.count, state: shell.state).candidates.map {
            String(decoding: $0.display, as: UTF8.self)
        }
        #expect(names == ["@docs/", "@downloads/", "@desktop/", "@data/"])
        let inside = Array("cat @docs/th".utf8)
        let completion = Completer.complete(line: inside, cursor: inside.count, state: shell.state)
        #expect(completion.applied(to: inside).map { String(decoding: $0, as: UTF8.self) } == "cat @docs/thesis.tex ")
    }

    @Test("In a --root sandbox the places are inside it, and user-dirs.dirs is never read outside")
    func placesInASandbox() throws {
        let outside = TemporaryDirectory(onLocalDisk: true)
        defer { outside.remove() }
        let home = outside.file.string
        try (outside.file + "cfg").makeDirectory()
        try (outside.file + "cfg/user-dirs.dirs").write(text: "XDG_DOCUMENTS_DIR=\"$HOME/Secret\"\n")
        try (outside.file + "jail").makeDirectory()
        let sandbox = try Sandbox(outside.file + "jail")
        let state = ShellState(
            cwd: sandbox.root, environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/cfg"])
        #expect(state.places.documents == sandbox.file(home + "/Documents"))
        #expect(state.places.config == sandbox.file(home + "/cfg"))
    }

    @Test("WellKnownPlaces reads the environment it is given, not the process's")
    func placesFromAnEnvironment() {
        let places = WellKnownPlaces(environment: ["HOME": "/home/ann", "XDG_STATE_HOME": "/var/ann", "XDG_DATA_HOME": "relative"])
        #expect(places.home == File(path: "/home/ann"))
        #expect(places.state == File(path: "/var/ann"))
        #expect(places.data == File(path: "/home/ann/.local/share"), "a relative XDG value is ignored")
        #expect(places.place(named: "docs") == File(path: "/home/ann/Documents"))
        #expect(places.place(named: "nope") == nil)
    }
}
