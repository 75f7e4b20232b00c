import Dispatch
import Platform

/// Turns SIGINT, SIGTERM and SIGHUP into calls on a serial queue of our own: the first one asks the build to
/// stop, the second one runs `onSecond` (which removes the temporary files it knows of and exits at once).
final class SignalHandler: Sendable {
    private let queue = DispatchQueue(label: "photobook.signals")
    nonisolated(unsafe) private var sources: [DispatchSourceSignal] = []

    /// - Parameters:
    ///   - onFirst: called on the handler's queue for the first signal.
    ///   - onSecond: called for every later signal.
    init(onFirst: @escaping @Sendable (Int32) -> Void, onSecond: @escaping @Sendable (Int32) -> Void) {
        nonisolated(unsafe) var count = 0  // only touched on `queue`
        // A closed stderr pipe (`photobook ... 2>&1 | head -1`) must not kill the build between a temp file and
        // its removal; a failed write is ignored instead.
        ProcessSignal.brokenPipe.ignore()
        for stop in [ProcessSignal.interrupt, .terminate, .hangUp] {
            // Trap: without SIG_IGN the default action kills the process before the dispatch source sees it.
            stop.ignore()
            let signalNumber = stop.rawValue
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            // Trap: a handler closure inferred @MainActor (as in main.swift) crashed with SIGILL; it is @Sendable.
            nonisolated(unsafe) let merged = source  // read only on `queue`, inside its own handler
            source.setEventHandler { @Sendable in
                // Trap: signals that arrive before the handler runs are merged into one event; `data` counts them.
                for _ in 0..<max(1, Int(merged.data)) {
                    count += 1
                    if count == 1 { onFirst(signalNumber) } else { onSecond(signalNumber) }
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
