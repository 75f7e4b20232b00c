/// A print service's page-count rule for one product (`--preset`): the fewest and the most pages it binds.
/// The count is the book's pages as built, title page and blank pages included; a cover is no page of it.
public struct PageLimits: Sendable, Equatable {
    public var minimum: Int?
    public var maximum: Int?
    /// Whose rule, as the warning names it: `Blurb's photo books`.
    public var owner: String

    public init(minimum: Int?, maximum: Int?, owner: String) {
        self.minimum = minimum
        self.maximum = maximum
        self.owner = owner
    }

    /// How a book of `pages` pages stands against the rule.
    public func check(pages: Int) -> PageCountCheck {
        PageCountCheck(pages: pages, minimum: minimum, maximum: maximum,
                       short: minimum.map { max(0, $0 - pages) } ?? 0,
                       over: maximum.map { max(0, pages - $0) } ?? 0, owner: owner)
    }
}

/// A book's page count against a preset's `PageLimits`, for the warning, the dry run and the report.
public struct PageCountCheck: Sendable, Equatable {
    public var pages: Int
    public var minimum: Int?
    public var maximum: Int?
    /// Pages missing to reach the minimum, and pages past the maximum; both 0 when the book is within.
    public var short: Int
    public var over: Int
    public var owner: String

    public var isWithin: Bool { short == 0 && over == 0 }

    /// `the book has 18 pages; Blurb's photo books need at least 20: 2 short`; nil when the book is within.
    /// Blank pages are not added to reach a minimum (a book of 2 photos is not made a 20-page book in silence):
    /// the warning says so, since `--pad-to` is the option a reader reaches for.
    public var message: String? {
        let has = "the book has \(pages) page\(pages == 1 ? "" : "s")"
        if short > 0, let minimum {
            return "\(has); \(owner) need at least \(minimum): \(short) short (add photos or pages; --pad-to "
                + "rounds up to a multiple, not to a minimum)"
        }
        if over > 0, let maximum { return "\(has); \(owner) take at most \(maximum): \(over) over" }
        return nil
    }
}
