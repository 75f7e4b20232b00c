import Platform

/// How one unit of work ended. Exactly one of these is recorded for every photo stage and for the book.
///
/// An operation's lifecycle (`isFinished`, `isCancelled`) is not its outcome: a finished operation may have
/// failed, and a cancelled one may have finished its work before it noticed.
/// A failure and a skip carry a `Failure`: its kind for programs (the report's `failureKind`), its words for
/// people.
public enum Outcome: Sendable, Equatable, CustomStringConvertible {
    case succeeded
    case failed(Failure)
    /// The work was not attempted: an input it needed failed or was cancelled, or a decision left it out.
    case skipped(because: Failure)
    case cancelled

    public var isSuccess: Bool { self == .succeeded }

    /// What went wrong, for an outcome that failed or was skipped; a cancel is a kind of its own.
    public var failure: Failure? {
        switch self {
        case .succeeded: return nil
        case .failed(let failure), .skipped(because: let failure): return failure
        case .cancelled: return Failure(.cancelled, "cancelled")
        }
    }

    public var description: String {
        switch self {
        case .succeeded: return "succeeded"
        case .failed(let failure): return "failed: \(failure.message)"
        case .skipped(let because): return "skipped because \(because.message)"
        case .cancelled: return "cancelled"
        }
    }
}
