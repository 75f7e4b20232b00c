#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX thread running one closure, that its starter either joins (waits for its end, so that nothing of it
/// outlives the call) or leaves to finish on its own (`detach`). For work a library cannot interrupt: libheif's
/// decode, which the caller stops waiting for when the build is cancelled.
public final class DetachableThread: @unchecked Sendable {
    private var thread: pthread_t
    private var settled = false

    /// Starts `body` on a new thread; fails with the errno of `pthread_create`.
    public init(_ body: @escaping @Sendable () -> Void) throws(FileSystem.Failure) {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(ThreadBody(body))
        let started = pthread_create(&thread, nil, runThreadBody, box.toOpaque())
        guard started == 0 else {
            box.release()
            throw FileSystem.Failure(code: started)
        }
        self.thread = thread
    }

    /// Waits for the thread's end. Call `join` or `detach` once.
    public func join() {
        precondition(!settled, "a thread is joined or detached once")
        settled = true
        pthread_join(thread, nil)
    }

    /// Lets the thread finish on its own; its resources go when it ends.
    public func detach() {
        precondition(!settled, "a thread is joined or detached once")
        settled = true
        pthread_detach(thread)
    }

    deinit { if !settled { pthread_detach(thread) } }
}

private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// The thread's entry (a C function for pthread_create): takes over the body's retain. A function of its own:
/// a closure literal passed to pthread_create inside a typed-throws function crashed swift-frontend 6.3.1.
private func runThreadBody(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue().body()
    return nil
}
