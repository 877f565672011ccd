import PathModel

/// The standard streams of one command after its redirections, applied left to right as in sh:
/// `> f 2>&1` sends both to `f`, `2>&1 > f` sends standard error where standard output went
/// before. Every file named is opened before the command runs; each `>` target is atomic as
/// `OutputTarget` makes it.
struct CommandStreams {
    /// Standard input: the stage's, or the file of the last `<`.
    let stdin: OpenFile
    /// Standard output.
    let stdout: OutputStream
    /// Standard error.
    let stderr: OutputStream
    /// The files opened for writing, in order; each is finished or abandoned once.
    private let targets: [OutputTarget]
    /// The file `<` opened, to be closed.
    private let input: OpenFile?

    /// Why the redirections could not be put in place; whatever they opened has been closed
    /// and no target replaced.
    struct Failure: Error {
        /// The file that could not be opened, as written after expansion.
        let spelled: [UInt8]
        /// Why.
        let error: FileError
    }

    /// Opens `redirections`, whose targets are `files` (expanded; nil for `2>&1`), over the
    /// streams the command would otherwise have.
    /// - Throws: `Failure` for the first file that cannot be opened.
    static func open(
        _ redirections: [Redirection], files: [Argument?], state: ShellState, stdin: OpenFile,
        stdout: OutputStream,
        stderr: OutputStream
    ) throws(Failure) -> CommandStreams {
        var input: OpenFile?
        var targets: [OutputTarget] = []
        var (output, errors) = (stdout, stderr)
        for (redirection, file) in zip(redirections, files) {
            if redirection.kind == .errorsToOutput {
                errors = output
                continue
            }
            if redirection.kind == .outputToErrors {
                output = errors
                continue
            }
            guard let file else { continue }
            let path = state.resolve(file.file)
            do {
                switch redirection.kind {
                case .input:
                    input?.close()
                    input = nil
                    input = try path.open(.read)
                case .output(let append), .errors(let append), .outputAndErrors(let append):
                    let target = try OutputTarget.open(
                        path, append: append, directoryOnly: file.hasTrailingSlash)
                    targets.append(target)
                    if redirection.kind != .errors(append: append) { output = target.stream }
                    if redirection.kind != .output(append: append) { errors = target.stream }
                case .errorsToOutput, .outputToErrors:
                    break
                }
            } catch {
                input?.close()
                for target in targets { target.abandon() }
                throw Failure(spelled: file.bytes, error: error)
            }
        }
        // A file of messages takes what standard output holds first, as the terminal does.
        if errors !== output, targets.contains(where: { $0.stream === errors }) {
            errors.flushedFirst = output
        }
        return CommandStreams(
            stdin: input ?? stdin, stdout: output, stderr: errors, targets: targets, input: input)
    }

    /// Flushes the streams and puts each written file in place, or with `abandoned` (the command
    /// was stopped half way) leaves every `>` target with its old contents.
    /// - Returns: the first error met putting a file in place; the other files are still done.
    func finish(abandoned: Bool) -> FileError? {
        input?.close()
        var first: FileError?
        for target in targets {
            if abandoned {
                target.stream.flush()
                target.abandon()
                continue
            }
            do { try target.finish() } catch { first = first ?? error }
        }
        return first
    }
}
