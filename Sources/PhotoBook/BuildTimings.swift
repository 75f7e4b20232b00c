import Dispatch
import Synchronization

/// Seconds spent in each stage of a build. A build that re-plans after a failed decode goes through plan and
/// render more than once; each stage's figure is the sum of its visits. The report (`--report`) writes it as it is.
public struct BuildTimings: Sendable, Equatable, Encodable {
    /// Reading the headers of every photo.
    public var probe = 0.0
    /// Ordering, reading captions, planning (every round).
    public var plan = 0.0
    /// Decoding, resampling and encoding the photos (every round).
    public var render = 0.0
    /// Adding the pages to the PDF, writing it and committing it.
    public var pdf = 0.0
    /// The whole build, clean-up included.
    public var total = 0.0
    /// Of plan and pdf: the words' text work, fonts found, lines shaped and broken (BookFont), wherever it ran.
    public var text = 0.0

    public init() {}

    public enum Stage: Sendable { case probe, plan, render, pdf }
}

/// Measures a build's stages with the monotonic clock: `enter` ends the stage under way and starts the next, so
/// a build that returns early from any stage still has every second it spent counted somewhere.
final class StageClock: Sendable {
    private struct State {
        var timings = BuildTimings()
        var current: BuildTimings.Stage?
        var since: UInt64 = 0
    }
    private let state = Mutex(State())

    /// Ends the stage under way, if any, and starts `stage`.
    func enter(_ stage: BuildTimings.Stage) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            Self.close(&state, at: now)
            state.current = stage
            state.since = now
        }
    }

    /// Ends the stage under way and returns every stage's figure (the caller knows the total).
    func finish() -> BuildTimings {
        let now = DispatchTime.now().uptimeNanoseconds
        return state.withLock { state in
            Self.close(&state, at: now)
            state.current = nil
            return state.timings
        }
    }

    private static func close(_ state: inout State, at now: UInt64) {
        guard let stage = state.current else { return }
        let seconds = Double(now - state.since) / 1e9
        switch stage {
        case .probe: state.timings.probe += seconds
        case .plan: state.timings.plan += seconds
        case .render: state.timings.render += seconds
        case .pdf: state.timings.pdf += seconds
        }
    }
}
