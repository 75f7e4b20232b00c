import Foundation
import Imaging
import Platform
import Synchronization

/// An operation of the book graph: it records exactly one `Outcome` when its body runs, and none when the
/// queue skipped it (cancelled before it started), which the orchestration then records as `cancelled`.
///
/// Subclasses implement `run()`; they check `shouldStop` at their safe points.
class BookOperation: Operation, @unchecked Sendable {
    /// What every operation of one build shares: its session, its pool of pixel buffers and its hooks.
    struct Context: Sendable {
        let session: BuildSession
        /// Where decoded pixels, resampled pages and libjpeg's large blocks come from and go back to.
        let pool: BufferPool
        var hooks: BuildHooks
    }

    let context: Context
    var session: BuildSession { context.session }
    var pool: BufferPool { context.pool }
    var hooks: BuildHooks { context.hooks }
    private let recorded = Mutex<Outcome?>(nil)

    init(_ context: Context) {
        self.context = context
        super.init()
    }

    /// The outcome, or nil when the body never ran.
    var outcome: Outcome? { recorded.withLock { $0 } }

    /// True once this operation, its queue or the whole build has been asked to stop.
    var shouldStop: Bool { isCancelled || session.isCancelled }

    /// The outcome the body reached. Called at most once, by `main()`.
    func run() -> Outcome { fatalError("subclasses implement run()") }

    override final func main() {
        let outcome = shouldStop ? .cancelled : run()
        recorded.withLock { $0 = outcome }
    }

    /// Sets the outcome of an operation whose body never ran; keeps one that was recorded.
    func recordIfAbsent(_ outcome: Outcome) {
        recorded.withLock { if $0 == nil { $0 = outcome } }
    }

    /// Why a dependent must not do its work, or nil when every input succeeded.
    /// A queue dependency only waits for the input to finish; it says nothing about success.
    func reasonToSkip(inputs: [(name: String, operation: BookOperation)]) -> Failure? {
        for input in inputs {
            switch input.operation.outcome {
            case .succeeded: continue
            case .failed: return .inputFailed("\(input.name) failed")
            case .skipped: return .inputFailed("\(input.name) was skipped")
            case .cancelled, nil: return Failure(.cancelled, "\(input.name) was cancelled")
            }
        }
        return nil
    }
}
