/// What a page of the book is. A page that opens a section is one of these too (its `PlannedPage.heading` says
/// which section): a section opens on a page of photos or on a spread's left half.
///
/// `description` is the one place the kinds are named, as `--verbose`, `--dry-run`, the report and description
/// files write them: `title`, the arrangement (`single`, `grid 2x2`, `[1 | 2]`), `spread, left half`, `blank`,
/// `wrap cover`.
public enum PageKind: Sendable, Equatable, CustomStringConvertible {
    /// The title page: the title, subtitle and author, over its photo (`--cover-photo`) when there is one.
    case title
    /// A page of photos, sharing it as the arrangement says.
    case photos(PageArrangement)
    /// One half of a panorama's spread: its geometry is final when planned.
    case spreadHalf(SpreadSide)
    /// A page with nothing on it: before a spread that must start on a left-hand page, or at the end to make up
    /// the page count (`--pad-to`).
    case blank
    /// The one page of a paperback's wrap cover: back, spine and front side by side (`CoverPlanner`).
    case wrapCover

    public var description: String {
        switch self {
        case .title: return "title"
        case .photos(let arrangement): return arrangement.description
        case .spreadHalf(let side): return "spread, \(side.rawValue) half"
        case .blank: return "blank"
        case .wrapCover: return "wrap cover"
        }
    }
}
