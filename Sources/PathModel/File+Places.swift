import Glibc

extension File {
    /// The root directory, `/`.
    public static let root = File(path: "/")

    /// The user's home: `$HOME` when set and absolute, else the user database's entry, else `/`.
    /// Reads the environment and `getpwuid_r(3)`.
    public static var home: File { WellKnownPlaces.process.home }

    /// The process's current directory, from `getcwd(3)`.
    /// - Throws: `FileError` (`.resolve`) when the directory has been removed or cannot be reached.
    public static func currentDirectory() throws(FileError) -> File {
        do {
            return File(bytes: try Sys.currentDirectory())
        } catch {
            throw FileError(.resolve, File(path: "."), error)
        }
    }

    /// The process's current directory, or `.` when `getcwd(3)` cannot name it (it was removed);
    /// `.` still reaches it for relative calls. Use `currentDirectory()` to see the error.
    public static var current: File {
        do { return try currentDirectory() } catch { return File(path: ".") }
    }

    /// The directory for temporary files: `$TMPDIR` when set and absolute, else `/tmp`.
    public static var temporary: File { WellKnownPlaces.process.temporary }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public static var dataHome: File { WellKnownPlaces.process.data }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public static var configHome: File { WellKnownPlaces.process.config }

    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    public static var cacheHome: File { WellKnownPlaces.process.cache }

    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    public static var stateHome: File { WellKnownPlaces.process.state }

    /// The desktop directory from `user-dirs.dirs` (`XDG_DESKTOP_DIR`), else `~/Desktop`.
    public static var desktop: File { WellKnownPlaces.process.desktop }

    /// The documents directory (`XDG_DOCUMENTS_DIR`), else `~/Documents`.
    public static var documents: File { WellKnownPlaces.process.documents }

    /// The downloads directory (`XDG_DOWNLOAD_DIR`), else `~/Downloads`.
    public static var downloads: File { WellKnownPlaces.process.downloads }

    /// The music directory (`XDG_MUSIC_DIR`), else `~/Music`.
    public static var music: File { userDirectory("MUSIC", fallback: "Music") }

    /// The pictures directory (`XDG_PICTURES_DIR`), else `~/Pictures`.
    public static var pictures: File { userDirectory("PICTURES", fallback: "Pictures") }

    /// The videos directory (`XDG_VIDEOS_DIR`), else `~/Videos`.
    public static var videos: File { userDirectory("VIDEOS", fallback: "Videos") }

    /// Looks `XDG_<key>_DIR` up in `$XDG_CONFIG_HOME/user-dirs.dirs`, the format xdg-user-dirs
    /// writes: `XDG_DOCUMENTS_DIR="$HOME/Documents"`. A missing or unreadable file means the
    /// defaults, as xdg-user-dir(1) behaves.
    static func userDirectory(
        _ key: String, fallback: String, home: File = .home, config configHome: File = .configHome
    ) -> File {
        let config = configHome + "user-dirs.dirs"
        let text: String
        do {
            text = try config.readText()
        } catch {
            // No readable user-dirs.dirs (the usual case outside a desktop): the defaults apply,
            // as xdg-user-dir(1) does.
            return home + fallback
        }
        return parseUserDirectory(text, key: key, home: home) ?? home + fallback
    }

    /// The value of `XDG_<key>_DIR` in the text of a `user-dirs.dirs` file, if present and valid.
    /// An absolute value is a path in `home`'s sandbox, if it has one.
    static func parseUserDirectory(_ text: String, key: String, home: File) -> File? {
        let prefix = "XDG_\(key)_DIR="
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix(prefix) else { continue }
            var value = trimmed.dropFirst(prefix.count)
            guard value.first == "\"", value.last == "\"", value.count >= 2 else { continue }
            value = value.dropFirst().dropLast()
            if value == "$HOME" || value.hasPrefix("$HOME/") {
                let rest = value.dropFirst("$HOME".count)
                return rest.isEmpty ? home : home + String(rest)
            }
            if value.first == "/" { return File(path: String(value)).on(home.volume) }
        }
        return nil
    }
}

/// A user's well-known places, resolved from an environment: the XDG base directories, the
/// user directories of `user-dirs.dirs`, home and the temporary directory. A shell resolves them
/// from its own variables, on its own volume; `File.dataHome` and its siblings from the
/// process's, on the local file system.
public struct WellKnownPlaces: Sendable {
    /// The home directory: `HOME` when absolute, else the user database's entry.
    public let home: File
    private let variables: @Sendable (String) -> [UInt8]?

    /// The places as the environment `environment` describes them, as paths on `volume`, where
    /// `user-dirs.dirs` is read too.
    public init(environment: Environment, on volume: any Volume = LocalVolume.shared) {
        self.init(on: volume) { environment[$0] }
    }

    private init(on volume: any Volume, lookup: @escaping @Sendable (String) -> [UInt8]?) {
        variables = lookup
        if let value = lookup("HOME"), value.first == 0x2F {
            home = File(bytes: value).on(volume)
        } else {
            home = (Sys.homeDirectory(Sys.userID()).map { File(bytes: $0) } ?? .root).on(volume)
        }
    }

    /// The places of the process's own environment.
    static var process: WellKnownPlaces { WellKnownPlaces(on: LocalVolume.shared, lookup: Sys.environment) }

    /// `TMPDIR` when absolute, else `/tmp`.
    public var temporary: File { absolute("TMPDIR") ?? File(path: "/tmp").on(home.volume) }
    /// `XDG_DATA_HOME`, else `~/.local/share`.
    public var data: File { absolute("XDG_DATA_HOME") ?? home + ".local/share" }
    /// `XDG_CONFIG_HOME`, else `~/.config`.
    public var config: File { absolute("XDG_CONFIG_HOME") ?? home + ".config" }
    /// `XDG_CACHE_HOME`, else `~/.cache`.
    public var cache: File { absolute("XDG_CACHE_HOME") ?? home + ".cache" }
    /// `XDG_STATE_HOME`, else `~/.local/state`.
    public var state: File { absolute("XDG_STATE_HOME") ?? home + ".local/state" }
    /// `XDG_DESKTOP_DIR` from `user-dirs.dirs`, else `~/Desktop`.
    public var desktop: File { File.userDirectory("DESKTOP", fallback: "Desktop", home: home, config: config) }
    /// `XDG_DOCUMENTS_DIR` from `user-dirs.dirs`, else `~/Documents`.
    public var documents: File { File.userDirectory("DOCUMENTS", fallback: "Documents", home: home, config: config) }
    /// `XDG_DOWNLOAD_DIR` from `user-dirs.dirs`, else `~/Downloads`.
    public var downloads: File { File.userDirectory("DOWNLOAD", fallback: "Downloads", home: home, config: config) }

    /// The short names shelf gives the places (`@docs`), in the order `help places` lists them.
    public static let names = ["home", "docs", "downloads", "desktop", "data", "config", "cache", "state", "tmp"]

    /// The place with one of `names`, or nil.
    public func place(named name: String) -> File? {
        switch name {
        case "home": return home
        case "docs": return documents
        case "downloads": return downloads
        case "desktop": return desktop
        case "data": return data
        case "config": return config
        case "cache": return cache
        case "state": return state
        case "tmp": return temporary
        default: return nil
        }
    }

    private func absolute(_ name: String) -> File? {
        guard let value = variables(name), value.first == 0x2F else { return nil }
        return File(bytes: value).on(home.volume)
    }
}
