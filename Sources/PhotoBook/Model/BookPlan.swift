/// Pages in print order, each with its photos.
public struct BookPlan: Sendable, Equatable {
    public var pages: [PlannedPage]
    /// How many blank pages were added at the end to make the count a multiple of `LayoutOptions.padTo`.
    public var blankPages = 0
    /// Blank pages left inside the book so that a spread starts on a left-hand page: the blank page's number and
    /// the photo whose spread follows it.
    public var spreadBlanks: [SpreadBlank] = []

    public init(pages: [PlannedPage]) { self.pages = pages }
}
