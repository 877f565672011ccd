import Glibc
import Synchronization
import SystemPackage

/// A thread that runs one built-in of a pipeline, joined once the pipeline's last command is done.
final class StageThread {
    private let thread: pthread_t
    /// The work, which says when it is done.
    private let body: Body

    private init(_ thread: pthread_t, _ body: Body) {
        self.thread = thread
        self.body = body
    }

    /// Starts `body` on a new thread; nil with the errno when none can be made (`EAGAIN`).
    /// Corresponds to `pthread_create(3)`.
    static func start(_ body: @escaping () -> Void) -> Result<StageThread, Errno> {
        let work = Body(body)
        let box = Unmanaged.passRetained(work).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, box)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return .failure(Errno(rawValue: status))
        }
        return .success(StageThread(thread, work))
    }

    /// Waits for the thread to end. Corresponds to `pthread_join(3)`.
    func join() { pthread_join(thread, nil) }

    /// Waits for the thread to end after Ctrl-C, interrupting every 20 ms what it may be blocked
    /// in (a built-in reading the terminal or a FIFO) until it has ended; a plain `join` where
    /// the process does not catch SIGINT. Corresponds to `pthread_join(3)`.
    func joinInterrupting() {
        if ProcessLauncher.catchesInterrupts {
            while !body.isFinished.load(ordering: .acquiring) {
                ProcessLauncher.interrupt(thread)
                usleep(20_000)
            }
        }
        join()
    }

    /// The work, carried through `pthread_create`'s context pointer.
    private final class Body {
        private let work: () -> Void
        /// Set once the work has returned.
        let isFinished = Atomic(false)

        init(_ work: @escaping () -> Void) { self.work = work }

        func run() {
            work()
            isFinished.store(true, ordering: .releasing)
        }
    }
}
