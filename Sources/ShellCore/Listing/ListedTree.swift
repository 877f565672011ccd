import PathModel

/// A tree built from a flat list of paths, one per line, the way `tree --fromfile` draws cloud
/// storage listings: every name with something below it is a directory, the others are files.
/// Empty components (a leading `/`, `a//b`) are skipped; a trailing `/` marks a directory.
struct ListedTree {
    /// One name of the tree.
    final class Entry {
        var children: [[UInt8]: Entry] = [:]
        var markedDirectory = false
        var isDirectory: Bool { markedDirectory || !children.isEmpty }

        /// The children in tree(1)'s order: by the bytes of their names.
        var sortedChildren: [(name: [UInt8], entry: Entry)] {
            children.map { ($0.key, $0.value) }.sorted { bytesPrecede($0.name, $1.name) }
        }
    }

    /// The unnamed top of the tree.
    let root = Entry()

    /// Adds every line of `text` as a path.
    mutating func add(lines text: [UInt8]) {
        for line in text.split(separator: 0x0A, omittingEmptySubsequences: true) {
            var entry = root
            let components = line.split(separator: 0x2F, omittingEmptySubsequences: true)
            for component in components {
                let name = Array(component)
                if let existing = entry.children[name] {
                    entry = existing
                } else {
                    let created = Entry()
                    entry.children[name] = created
                    entry = created
                }
            }
            if line.last == 0x2F && !components.isEmpty { entry.markedDirectory = true }
        }
    }
}
