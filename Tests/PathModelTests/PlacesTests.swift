import Glibc
import Testing

@testable import PathModel

// The environment is process-wide and tests run in parallel, so nothing here calls setenv:
// the parser is tested on its own, and the places' shapes are checked against what is set.
@Suite("Places")
struct PlacesTests {
    struct UserDirectoryCase: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let key: String
        let expected: File?
        var testDescription: String { name }
    }

    static let sample = """
        # This file is written by xdg-user-dirs-update
        # If you want to change or add directories, just edit the line you're
        # interested in.
        XDG_DESKTOP_DIR="$HOME/Desktop"
        XDG_DOWNLOAD_DIR="$HOME/Téléchargements"
        XDG_TEMPLATES_DIR="$HOME/"
        XDG_PUBLICSHARE_DIR="$HOME"
        XDG_DOCUMENTS_DIR="/srv/documents"
        XDG_MUSIC_DIR=$HOME/Music
        XDG_PICTURES_DIR="relative/Pictures"
          XDG_VIDEOS_DIR="$HOME/My Videos"
        """

    @Test(
        "parseUserDirectory reads user-dirs.dirs lines",
        arguments: [
            UserDirectoryCase(
                name: "$HOME/Desktop", text: sample, key: "DESKTOP", expected: "/home/ann/Desktop"),
            UserDirectoryCase(
                name: "non-ASCII name", text: sample, key: "DOWNLOAD", expected: "/home/ann/Téléchargements"),
            UserDirectoryCase(name: "$HOME/ is home", text: sample, key: "TEMPLATES", expected: "/home/ann"),
            UserDirectoryCase(name: "$HOME alone", text: sample, key: "PUBLICSHARE", expected: "/home/ann"),
            UserDirectoryCase(name: "absolute", text: sample, key: "DOCUMENTS", expected: "/srv/documents"),
            UserDirectoryCase(name: "unquoted is ignored", text: sample, key: "MUSIC", expected: nil),
            UserDirectoryCase(name: "relative is ignored", text: sample, key: "PICTURES", expected: nil),
            UserDirectoryCase(
                name: "leading blanks", text: sample, key: "VIDEOS", expected: "/home/ann/My Videos"),
            UserDirectoryCase(name: "missing key", text: sample, key: "NOPE", expected: nil),
            UserDirectoryCase(name: "empty text", text: "", key: "DESKTOP", expected: nil),
            UserDirectoryCase(
                name: "commented out", text: "# XDG_DESKTOP_DIR=\"$HOME/Desk\"\n", key: "DESKTOP",
                expected: nil),
            UserDirectoryCase(
                name: "first valid line wins",
                text: "XDG_DESKTOP_DIR=\"x\"\nXDG_DESKTOP_DIR=\"/a\"\nXDG_DESKTOP_DIR=\"/b\"",
                key: "DESKTOP", expected: "/a"),
            UserDirectoryCase(name: "lone quote", text: "XDG_DESKTOP_DIR=\"", key: "DESKTOP", expected: nil),
            UserDirectoryCase(
                name: "$HOME must be a whole component", text: "XDG_DESKTOP_DIR=\"$HOMEless\"",
                key: "DESKTOP",
                expected: nil),
        ])
    func parseUserDirectory(_ row: UserDirectoryCase) {
        #expect(File.parseUserDirectory(row.text, key: row.key, home: "/home/ann") == row.expected)
    }

    /// An environment variable's value when it is set and absolute.
    static func absolute(_ name: String) -> File? {
        guard let value = getenv(name), value.pointee == 0x2F else { return nil }
        return File(cString: value)
    }

    @Test("home is absolute and matches $HOME when that is absolute")
    func home() {
        #expect(File.home.isAbsolute)
        if let home = Self.absolute("HOME") { #expect(File.home == home) }
    }

    @Test(
        "XDG base directories: the absolute variable, else a fixed place under home",
        arguments: [
            ("XDG_DATA_HOME", ".local/share"),
            ("XDG_CONFIG_HOME", ".config"),
            ("XDG_CACHE_HOME", ".cache"),
            ("XDG_STATE_HOME", ".local/state"),
        ])
    func baseDirectories(_ variable: String, _ fallback: String) {
        let places: [String: File] = [
            "XDG_DATA_HOME": .dataHome, "XDG_CONFIG_HOME": .configHome,
            "XDG_CACHE_HOME": .cacheHome, "XDG_STATE_HOME": .stateHome,
        ]
        #expect(places[variable] == (Self.absolute(variable) ?? File.home + fallback))
    }

    @Test("temporary is $TMPDIR when absolute, else /tmp")
    func temporary() {
        #expect(File.temporary == (Self.absolute("TMPDIR") ?? "/tmp"))
    }

    @Test("Places given a volume are paths on it, and user-dirs.dirs is read there")
    func placesOnAVolume() throws {
        let volume = MemoryVolume()
        let config = volume.file("/home/ann/cfg/user-dirs.dirs")
        try config.parent.makeDirectory(intermediates: true)
        try config.write(text: "XDG_DOCUMENTS_DIR=\"$HOME/Papers\"\n")
        let places = WellKnownPlaces(
            environment: ["HOME": "/home/ann", "XDG_CONFIG_HOME": "/home/ann/cfg"], on: volume)
        #expect(places.home == volume.file("/home/ann"))
        #expect(places.config == volume.file("/home/ann/cfg"))
        #expect(places.documents == volume.file("/home/ann/Papers"))
        #expect(places.temporary == volume.file("/tmp"))
    }

    @Test("root is /")
    func root() {
        #expect(File.root == "/")
        #expect(File.root.isRoot)
    }

    @Test("current and currentDirectory() agree with getcwd")
    func current() throws {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        try #require(getcwd(&buffer, buffer.count) != nil)
        let expected = File(cString: buffer)
        #expect(try File.currentDirectory() == expected)
        #expect(File.current == expected)
        #expect(File.current.isAbsolute)
    }
}
