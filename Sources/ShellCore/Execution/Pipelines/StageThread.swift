import Glibc
import SystemPackage

/// A thread that runs one built-in of a pipeline, joined once the pipeline's last command is done.
final class StageThread {
    private let thread: pthread_t

    private init(_ thread: pthread_t) { self.thread = thread }

    /// Starts `body` on a new thread; nil with the errno when none can be made (`EAGAIN`).
    /// Corresponds to `pthread_create(3)`.
    static func start(_ body: @escaping () -> Void) -> Result<StageThread, Errno> {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
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
        return .success(StageThread(thread))
    }

    /// Waits for the thread to end. Corresponds to `pthread_join(3)`.
    func join() { pthread_join(thread, nil) }

    /// The work, carried through `pthread_create`'s context pointer.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
