/// How one unit of work ended. Exactly one of these is recorded for every photo stage and for the book.
///
/// An operation's lifecycle (`isFinished`, `isCancelled`) is not its outcome: a finished operation may have
/// failed, and a cancelled one may have finished its work before it noticed.
public enum Outcome: Sendable, Equatable, CustomStringConvertible {
    case succeeded
    case failed(String)
    /// The work was not attempted because an input it needed failed or was cancelled.
    case skipped(because: String)
    case cancelled

    public var isSuccess: Bool { self == .succeeded }

    public var description: String {
        switch self {
        case .succeeded: return "succeeded"
        case .failed(let reason): return "failed: \(reason)"
        case .skipped(let because): return "skipped because \(because)"
        case .cancelled: return "cancelled"
        }
    }
}
