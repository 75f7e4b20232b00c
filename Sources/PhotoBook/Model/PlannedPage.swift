import Geometry

/// One page of the book: its size, the photos on it in reading order, and its text.
public struct PlannedPage: Sendable, Equatable {
    public var kind: PageKind
    public var size: PageSize
    public var photos: [PlacedPhoto]
    /// The words above the photos: the title page's title, subtitle and author, or the heading of the section
    /// the page opens. Real text, set in the book's font, as are the captions (each with its photo) and the number.
    public var words: [PlacedText] = []
    /// The words take white or black, whichever reads better over the part of the page's first photo under them
    /// (a wrap cover's title over its front photo); false for black words.
    public var wordsTakeShadeFromPhoto = false
    /// Lines turned a quarter clockwise, drawn after the other texts: a wrap cover's spine.
    public var spineTexts: [SpineText] = []
    /// The page's number in its footer, when it is printed.
    public var pageNumber: PlacedText?
    /// The number a printer gives the page (the title page counts, unprinted), and whether it is printed.
    public var number: Int = 0
    /// The heading of the section this page starts, when it starts one.
    public var heading: String?
    /// Where the sheet is cut and what must survive the cut, on this page (`size` is the whole PDF page).
    public var trimBox = Rect(x: 0, y: 0, width: 0, height: 0)
    public var artBox = Rect(x: 0, y: 0, width: 0, height: 0)
    /// How far printing may run: the trim plus the bleed. With crop marks it is smaller than the PDF page.
    public var bleedBox = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The trim marks drawn outside the bleed (`--crop-marks`), none without.
    public var cropMarks: [LineSegment] = []

    init(kind: PageKind, size: PageSize, photos: [PlacedPhoto] = []) {
        self.kind = kind
        self.size = size
        self.photos = photos
    }

    /// Every text on the page, in the order it is drawn: the words above, the captions, the number.
    public var texts: [PlacedText] { words + photos.compactMap(\.caption) + (pageNumber.map { [$0] } ?? []) }

    /// The kind's name (`single`, `grid 2x2`, `[1 / [2 | 3]]`, `title`), for listings and reports.
    public var arrangement: String { kind.description }

    /// Which half of a spread this page holds, for a page that holds one.
    public var spread: SpreadSide? {
        if case .spreadHalf(let side) = kind { return side }
        return nil
    }
}
