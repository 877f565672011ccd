import Glibc
import SystemPackage

extension File {
    /// Which components of a path may be missing when its symlinks are resolved.
    public enum MissingComponents: Sendable, Hashable {
        /// Every component must exist (`realpath -e`).
        case none
        /// The last component may be missing (`realpath` by default).
        case last
        /// Any component may be missing; missing ones are taken as they are written (`realpath -m`).
        case any
    }

    /// The absolute path with every symlink resolved and `.`/`..` applied, as `realpath(3)` gives.
    ///
    /// A relative path is taken from the process's current directory (from the top, in a
    /// sandbox); pass an absolute path to resolve against another one. In a sandbox the result
    /// is a path inside it.
    /// - Parameter missing: which components may be missing (every one must exist by default).
    /// - Throws: `FileError` with operation `.resolve` (`ELOOP` after 40 links).
    /// Corresponds to `lstat(2)` and `readlink(2)` on each component.
    public func resolvingSymlinks(allowingMissing missing: MissingComponents = .none) throws(FileError)
        -> File
    {
        let start = isAbsolute || !isLocal ? self : File.current + self
        var pending = start.componentBytes.reversed().map { Array($0) }
        let top = File.root.on(volume)
        var resolved = top
        var links = 0
        while let component = pending.popLast() {
            if component == [0x2E] { continue }
            if component == [0x2E, 0x2E] {
                resolved = resolved.parent
                continue
            }
            let candidate = resolved.appending(entryName: component)
            let info: FileInfo
            do {
                info = try candidate.info()
            } catch
                where missing == .any
                || (missing == .last && pending.isEmpty && error.errno == .noSuchFileOrDirectory)
            {
                if missing == .any && ![.noSuchFileOrDirectory, .notDirectory].contains(error.errno) {
                    throw error.reworded(as: .resolve, self)
                }
                resolved = candidate
                continue
            } catch {
                throw error.reworded(as: .resolve, self)
            }
            guard info.kind == .symlink else {
                if !pending.isEmpty && info.kind != .directory && missing != .any {
                    throw FileError(.resolve, self, .notDirectory)
                }
                resolved = candidate
                continue
            }
            links += 1
            if links > 40 { throw FileError(.resolve, self, .tooManySymbolicLinkLevels) }
            let target: File
            do { target = try candidate.linkTarget() } catch { throw error.reworded(as: .resolve, self) }
            if target.isAbsolute { resolved = top }
            pending.append(contentsOf: target.componentBytes.reversed().map { Array($0) })
        }
        return resolved
    }

    /// The absolute path with `.` and `..` applied by syntax and symlinks kept as names, as
    /// `realpath -s` gives it; each component is still examined, following symlinks, unless
    /// `missing` is `.any`.
    ///
    /// A component with more after it must be a directory; one followed by
    /// `.` or `..` must exist, as `..` can only be taken from a directory; with `.last` any other
    /// may be missing, with `.none` none may. A relative path is taken from the process's current
    /// directory (from the top, on a volume other than the local one).
    /// - Throws: `FileError` with operation `.resolve` (`ENOENT`, `ENOTDIR`, `ELOOP`…).
    /// Corresponds to `stat(2)` on each component.
    public func resolvingDots(allowingMissing missing: MissingComponents = .none) throws(FileError) -> File {
        let start = isAbsolute || !isLocal ? self : File.current + self
        let components = start.componentBytes
        var resolved = File.root.on(volume)
        for (index, component) in components.enumerated() {
            if isDot(component) { continue }
            if isDotDot(component) {
                resolved = resolved.parent
                continue
            }
            resolved = resolved.appending(entryName: component)
            guard missing != .any else { continue }
            let next = index + 1 < components.count ? components[index + 1] : nil
            let needsDirectory = next != nil
            do throws(FileError) {
                let info = try resolved.info(followSymlinks: true)
                if needsDirectory && info.kind != .directory {
                    throw FileError(.resolve, self, .notDirectory)
                }
            } catch  where error.errno == .noSuchFileOrDirectory && missing == .last {
                if let next, isDot(next) || isDotDot(next) { throw error.reworded(as: .resolve, self) }
            } catch {
                throw error.reworded(as: .resolve, self)
            }
        }
        return resolved
    }

    /// Checks that the directory can be entered (search permission for the real user).
    /// - Throws: `FileError` with operation `.stat` (`EACCES` when it cannot).
    /// Corresponds to `access(2)` with `X_OK`.
    public func checkSearchable() throws(FileError) {
        try volume.checkAccess(of: self, write: false)
    }
}
