/// What happened to one photo.
public struct PhotoReport: Sendable {
    public var path: String
    /// `succeeded` when its page is in the book (if the book was written).
    public var outcome: Outcome
    /// Pixel size embedded and the density it prints at, when it was planned.
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var effectiveDPI: Double?
}

/// What a build did, for the summary line, the exit status and tests.
public struct BuildReport: Sendable {
    public var photos: [PhotoReport]
    /// The book's outcome: `succeeded` means the output file was committed.
    public var book: Outcome
    public var pagesWritten: Int
    public var seconds: Double

    public var leftOut: [PhotoReport] {
        photos.filter { if case .failed = $0.outcome { return true } else { return false } }
    }
    public var photosDone: Int {
        photos.filter { $0.outcome != .cancelled }.count
    }
}
