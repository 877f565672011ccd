import PathModel

/// `tail -f` and `tail -F`: after the last lines, writes what is added to each file as it
/// comes, checking every `interval` seconds, until Ctrl-C.
///
/// By descriptor (`-f`), a file is followed through what was opened, wherever it is renamed. By
/// name (`-F`), the name is checked each round: a file put in its place (a rotated log) is opened
/// and followed from its start, one that goes away is waited for. A file that shrinks was
/// truncated: it is followed again from its start, as GNU tail does.
struct TailFollower {
    /// How files are followed.
    struct Mode: Sendable {
        /// By name (`-F`, `--follow=name`), else by descriptor.
        var byName: Bool
        /// Keep trying a file that cannot be opened or goes away (`--retry`, `-F`).
        var retry: Bool
        /// Seconds between checks (`-s`).
        var interval: Double
    }

    /// A followed operand: its open file (nil while it cannot be opened) and how far it was read.
    private struct Followed {
        /// Which operand it is, counted from 0.
        let number: Int
        let operand: Argument
        var input: OpenFile?
        var position: UInt64
        /// The identity of what is open, to notice a file put in place of it (by name).
        var identity: FileIdentity?
    }

    let mode: Mode
    let headers: Bool
    let context: CommandContext
    private var files: [Followed] = []
    /// The operand whose bytes were written last, for `==> NAME <==` when another's come; at
    /// first the last operand, as in GNU tail (so the first to grow but that one gets a header).
    private var lastWritten: Int?
    private var status = ExitStatus.success
    /// Whether an operand could not be opened at first.
    private var missingAtStart = false
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(mode: Mode, headers: Bool, operandCount: Int, context: CommandContext) {
        self.mode = mode
        self.headers = headers
        self.context = context
        lastWritten = operandCount - 1
    }

    /// Follows `input`, opened for operand `number` and read up to `position`.
    mutating func add(_ operand: Argument, number: Int, input: OpenFile, position: UInt64) {
        let identity = try? input.info().identity
        files.append(Followed(number: number, operand: operand, input: input, position: position, identity: identity))
    }

    /// Notes operand `number`, which could not be opened: waited for with `--retry`, else dropped.
    mutating func add(missing operand: Argument, number: Int) {
        missingAtStart = true
        if mode.retry && operand.bytes != [0x2D] {
            files.append(Followed(number: number, operand: operand, input: nil, position: 0, identity: nil))
        }
    }

    /// Follows every file until Ctrl-C or a closed output; returns `status` unless nothing is
    /// left to follow (`tail: no files remaining`, status 1). Only regular files are followed:
    /// with nothing but standard input (a pipe), there is nothing to follow and tail ends.
    mutating func run(status: ExitStatus) -> ExitStatus {
        self.status = status
        if files.isEmpty && !missingAtStart { return status }
        defer { for file in files { file.input?.close() } }
        while !context.isCancelled {
            if files.isEmpty || (!mode.retry && files.allSatisfy({ $0.input == nil })) {
                context.stdout.flush()
                context.error(Messages.noFilesRemaining)
                return .failure
            }
            for index in files.indices {
                if mode.byName { check(name: index) }
                readAdded(index)
                if context.stdout.isBroken { return self.status }
            }
            context.stdout.flush()
            Clock.sleep(seconds: mode.interval, unless: { context.isCancelled })
        }
        return .interrupted
    }

    /// By name: reopens the file when another is in its place or it came back; notes when it went.
    private mutating func check(name index: Int) {
        let operand = files[index].operand
        let shown = Quoting.always(operand.bytes)
        let now: FileInfo
        do {
            now = try context.resolve(operand).info(followSymlinks: true)
        } catch {
            if files[index].input != nil {
                files[index].input?.close()
                files[index].input = nil
                files[index].identity = nil
                say("\(shown) \(Messages.becameInaccessible): \(error.reason)")
            }
            return
        }
        if files[index].identity == now.identity && files[index].input != nil { return }
        let wasOpen = files[index].input != nil
        files[index].input?.close()
        files[index].input = nil
        do {
            let input = try context.openForReading(operand)
            files[index].input = input
            files[index].identity = try input.info().identity
            files[index].position = 0
            say("\(shown) \(wasOpen ? Messages.replaced : Messages.appeared);  \(Messages.followingNew)")
        } catch {
            files[index].identity = nil
        }
    }

    /// Writes what was added to file `index` since it was last read (from its start when it shrank).
    private mutating func readAdded(_ index: Int) {
        guard let input = files[index].input else { return }
        do {
            let size = try input.info().size
            if size < files[index].position {
                say("\(files[index].operand.text): \(Messages.truncated)")
                files[index].position = 0
            }
            while true {
                let read = try input.read(into: &buffer, at: files[index].position)
                if read == 0 { break }
                if headers && lastWritten != files[index].number {
                    context.stdout.write("\n==> \(files[index].operand.text) <==\n")
                }
                lastWritten = files[index].number
                context.stdout.write(bytes: buffer[..<read])
                files[index].position += UInt64(read)
                if context.isCancelled { return }
            }
        } catch {
            say("\(Messages.errorReading) \(Quoting.always(files[index].operand.bytes)): \(error.reason)")
            status = .failure
            input.close()
            files[index].input = nil
            files[index].identity = nil
        }
    }

    /// A message between what was written, in order with it.
    private func say(_ message: String) {
        context.stdout.flush()
        context.error(message)
    }

    private enum Messages {
        static let noFilesRemaining = "no files remaining"
        static let truncated = "file truncated"
        static let becameInaccessible = "has become inaccessible"
        static let replaced = "has been replaced"
        static let appeared = "has appeared"
        static let followingNew = "following new file"
        static let errorReading = "error reading"
    }
}
