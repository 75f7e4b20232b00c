#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// A test hook for end-to-end tests of signals: with `PHOTOBOOK_TEST_PAUSE=POINT` in the environment, the build
/// announces `photobook: test: paused at POINT` on stderr the first time it reaches POINT and waits there until a
/// signal arrives (at most a minute), so a test can interrupt it at that exact moment without guessing times.
///
/// SIGUSR1 lets a paused build go on without cancelling it (so a test can change a file under it).
///
/// Points: `decode` (a decode has started), `page` (the PDF build is adding its second page, or its only one),
/// `commit` (the temporary PDF is complete, just before the rename), `committed` (just after the rename).
final class TestPause: Sendable {
    let point: String?
    private let fired = Mutex(false)
    private let signalled = DispatchSemaphore(value: 0)
    private let say: Diagnostics

    nonisolated(unsafe) private let resumeSource: DispatchSourceSignal?  // set once in init, kept alive only

    init(point: String?, say: Diagnostics) {
        self.point = point
        self.say = say
        if point != nil {
            signal(SIGUSR1, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: DispatchQueue(label: "photobook.test-pause"))
            let semaphore = signalled
            source.setEventHandler { @Sendable in semaphore.signal() }
            source.resume()
            resumeSource = source
        } else {
            resumeSource = nil
        }
    }

    func reached(_ here: String) {
        guard here == point, fired.withLock({ let first = !$0; $0 = true; return first }) else { return }
        say.status("test: paused at \(here)", evenWhenQuiet: true)
        _ = signalled.wait(timeout: .now() + 60)
    }

    /// Called for every signal: lets a paused build go on to see it.
    func release() {
        signalled.signal()
    }
}
