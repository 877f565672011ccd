import PathModel
import Synchronization

/// Feeds a program's standard input from a file that has no descriptor to hand over (a file of
/// object storage: `sort < s3://bucket/key`): a thread of its own copies the file into a pipe,
/// whose reading end the program gets.
final class InputFeeder {
    /// The pipe's reading end: the program's standard input, closed by `closeProgramEnd()`.
    let programEnd: OpenFile
    private let thread: StageThread
    private let failure: Failure

    private init(programEnd: OpenFile, thread: StageThread, failure: Failure) {
        self.programEnd = programEnd
        self.thread = thread
        self.failure = failure
    }

    /// Starts copying `input` into a new pipe.
    /// - Throws: `FileError` when no pipe or thread can be made.
    static func start(from input: OpenFile) throws(FileError) -> InputFeeder {
        let pipe = try OpenFile.pipe()
        let failure = Failure()
        let started = StageThread.start {
            // A program that ends without reading everything closes the pipe: EPIPE, not SIGPIPE.
            ProcessLauncher.blockBrokenPipeSignalOnThisThread()
            do throws(FileError) {
                try input.copyAll(to: pipe.output)
            } catch where error.operation == .write && error.errno == .brokenPipe {
                // The program stopped reading; what it did not take is not an error.
            } catch {
                failure.error.withLock { $0 = error }
            }
            pipe.output.close()
        }
        switch started {
        case .success(let thread):
            return InputFeeder(programEnd: pipe.input, thread: thread, failure: failure)
        case .failure(let errno):
            pipe.input.close()
            pipe.output.close()
            throw FileError(.read, input.file, errno)
        }
    }

    /// Closes the shell's copy of the program's end: once the program has its own, or when it
    /// never started (the copy then meets a closed pipe and ends).
    func closeProgramEnd() { programEnd.close() }

    /// Waits for the copy to end (the program has ended or closed its input) and gives what
    /// reading the file failed with, if anything.
    func finish() -> FileError? {
        thread.join()
        return failure.error.withLock { $0 }
    }

    /// What the copying thread met, read once it has been joined.
    private final class Failure: Sendable {
        let error = Mutex<FileError?>(nil)
    }
}
