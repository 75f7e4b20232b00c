import Dispatch
import Foundation
import Platform
import PhotoBookCLI
import Synchronization

/// The harness's pause, for end-to-end tests of signals: with `PHOTOBOOK_TEST_PAUSE=POINT` in the environment, the build
/// announces `photobook: test: paused at POINT` on stderr the first time it reaches POINT and waits there until a
/// signal arrives (at most a minute), so a test can interrupt it at that exact moment without guessing times.
///
/// SIGUSR1 lets a paused build go on without cancelling it (so a test can change a file under it). With
/// `PHOTOBOOK_TEST_PAUSE_HOLD=1` the first SIGINT/SIGTERM/SIGHUP cancels but does not release the pause, so a test
/// can send a second one to a build that is certainly still running.
///
/// Points: `measure` (the choice of photos has started measuring a photo), `decode` (a decode has started), `page` (the PDF build is adding its second page, or its only one),
/// `save` (the temporary PDF is being written and the first page file is about to be copied into it),
/// `commit` (the temporary PDF is complete, just before the rename), `committed` (just after the rename).
final class TestPause: Sendable {
    let point: RunHarness.Point
    private let fired = Mutex(false)
    private let signalled = DispatchSemaphore(value: 0)
    /// Signals still to come before a cancelling signal releases the pause.
    private let held = Mutex(0)

    nonisolated(unsafe) private let resumeSource: DispatchSourceSignal  // set once in init, kept alive only
    nonisolated(unsafe) private var armSource: DispatchSourceSignal?  // set once by arm(), kept alive only

    init(point: RunHarness.Point, holdFirstSignal: Bool = false) {
        self.point = point
        held.withLock { $0 = holdFirstSignal ? 1 : 0 }
        ProcessSignal.user1.ignore()
        let source = DispatchSource.makeSignalSource(signal: ProcessSignal.user1.rawValue,
                                                     queue: DispatchQueue(label: "photobook.test-pause"))
        let semaphore = signalled
        source.setEventHandler { @Sendable in semaphore.signal() }
        source.resume()
        resumeSource = source
    }

    /// Returns once every signal source made so far listens. Trap: `DispatchSource.resume()` returns before
    /// libdispatch has registered the source with the kernel, and a signal sent meanwhile to a disposition of
    /// SIG_IGN is lost; a test that signals right after "paused at" raced it and hung now and then. So the
    /// pause sends itself SIGUSR2, through a source made last, until that one is heard: the sources register in
    /// order, so the earlier ones are listening by then.
    func arm() {
        ProcessSignal.user2.ignore()
        let heard = DispatchSemaphore(value: 0)
        let source = DispatchSource.makeSignalSource(signal: ProcessSignal.user2.rawValue,
                                                     queue: DispatchQueue(label: "photobook.test-pause-arm"))
        source.setEventHandler { @Sendable in heard.signal() }
        source.resume()
        armSource = source
        for _ in 0..<500 {
            ProcessSignal.user2.raise()
            if heard.wait(timeout: .now() + .milliseconds(10)) == .success { return }
        }
    }

    func reached(_ here: RunHarness.Point) {
        guard here == point, fired.withLock({ let first = !$0; $0 = true; return first }) else { return }
        FileHandle.standardError.write(Data("photobook: test: paused at \(here.rawValue)\n".utf8))
        _ = signalled.wait(timeout: .now() + 60)
    }

    /// Called for every signal: lets a paused build go on to see it.
    func release() {
        let hold = held.withLock { count in defer { count = max(0, count - 1) }; return count > 0 }
        if !hold { signalled.signal() }
    }
}
