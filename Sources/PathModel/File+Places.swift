import Glibc

extension File {
    /// The root directory, `/`.
    public static let root = File(path: "/")

    /// The user's home: `$HOME` when set and absolute, else the user database's entry, else `/`.
    /// Reads the environment and `getpwuid_r(3)`.
    public static var home: File {
        if let value = Sys.environment("HOME"), value.first == 0x2F { return File(bytes: value) }
        return Sys.homeDirectory(Sys.userID()).map { File(bytes: $0) } ?? .root
    }

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
    public static var temporary: File { absoluteVariable("TMPDIR") ?? File(path: "/tmp") }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public static var dataHome: File { absoluteVariable("XDG_DATA_HOME") ?? home + ".local/share" }
    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public static var configHome: File { absoluteVariable("XDG_CONFIG_HOME") ?? home + ".config" }
    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    public static var cacheHome: File { absoluteVariable("XDG_CACHE_HOME") ?? home + ".cache" }
    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    public static var stateHome: File { absoluteVariable("XDG_STATE_HOME") ?? home + ".local/state" }

    /// The desktop directory from `user-dirs.dirs` (`XDG_DESKTOP_DIR`), else `~/Desktop`.
    public static var desktop: File { userDirectory("DESKTOP", fallback: "Desktop") }
    /// The documents directory (`XDG_DOCUMENTS_DIR`), else `~/Documents`.
    public static var documents: File { userDirectory("DOCUMENTS", fallback: "Documents") }
    /// The downloads directory (`XDG_DOWNLOAD_DIR`), else `~/Downloads`.
    public static var downloads: File { userDirectory("DOWNLOAD", fallback: "Downloads") }
    /// The music directory (`XDG_MUSIC_DIR`), else `~/Music`.
    public static var music: File { userDirectory("MUSIC", fallback: "Music") }
    /// The pictures directory (`XDG_PICTURES_DIR`), else `~/Pictures`.
    public static var pictures: File { userDirectory("PICTURES", fallback: "Pictures") }
    /// The videos directory (`XDG_VIDEOS_DIR`), else `~/Videos`.
    public static var videos: File { userDirectory("VIDEOS", fallback: "Videos") }

    private static func absoluteVariable(_ name: String) -> File? {
        guard let value = Sys.environment(name), value.first == 0x2F else { return nil }
        return File(bytes: value)
    }

    /// Looks `XDG_<key>_DIR` up in `$XDG_CONFIG_HOME/user-dirs.dirs`, the format xdg-user-dirs
    /// writes: `XDG_DOCUMENTS_DIR="$HOME/Documents"`. A missing or unreadable file means the
    /// defaults, as xdg-user-dir(1) behaves.
    static func userDirectory(_ key: String, fallback: String, home: File = .home) -> File {
        let config = File.configHome + "user-dirs.dirs"
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
            if value.first == "/" { return File(path: String(value)) }
        }
        return nil
    }
}
