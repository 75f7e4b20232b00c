/// Which page of a spread: the left-hand (even) page or the right-hand (odd) page after it.
public enum SpreadSide: String, Sendable, Equatable {
    case left, right
}

/// A blank page left inside the book so that a spread starts on a left-hand page.
public struct SpreadBlank: Sendable, Equatable {
    /// The blank page's number (1-based).
    public var page: Int
    /// The photo whose spread follows it.
    public var photo: PhotoID
}
