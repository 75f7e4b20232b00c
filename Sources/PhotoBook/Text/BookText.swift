import Geometry
import TextBreaks
import Words

/// The words of a book beyond its photos' own (`BookPhoto.caption` and `heading`), for the planner: the title
/// page, whether pages are numbered, and the font's measure to set every word with.
public struct BookText: Sendable {
    public struct Title: Sendable, Equatable {
        public var title: String
        public var subtitle: String?
        public var author: String?
        /// The photo shown on the title page (`--cover-photo`); it is not repeated in the book.
        public var photo: PhotoID?

        public init(title: String, subtitle: String? = nil, author: String? = nil, photo: PhotoID? = nil) {
            self.title = title
            self.subtitle = subtitle
            self.author = author
            self.photo = photo
        }
    }

    public var measure: any TextMeasure
    /// Nil for no title page.
    public var title: Title?
    public var pageNumbers: Bool
    /// Facing pages put the number in the outer corner (right on odd pages, left on even ones); a one-sided book
    /// centres it.
    public var facingPages: Bool

    /// Captions are set at 9 pt, readable in print, on at most three lines; a longer one is cut with an ellipsis.
    public var captionSize = 9.0
    public var captionLines = 3
    public var pageNumberSize = 9.0

    public init(measure: any TextMeasure, title: Title? = nil, pageNumbers: Bool = false, facingPages: Bool = false) {
        self.measure = measure
        self.title = title
        self.pageNumbers = pageNumbers
        self.facingPages = facingPages
    }

    public var headingSize = 16.0

    /// The photo's section heading; an empty one is none.
    func heading(of photo: BookPhoto) -> String? {
        guard let heading = photo.heading, !heading.isEmpty else { return nil }
        return heading
    }

    /// A section's heading at the top of the area inside the margins, on at most two lines.
    func heading(_ heading: String, area: Rect) -> PlacedText {
        let (lines, _) = TextLines.wrap(heading, width: area.width, size: headingSize, maxLines: 2, measure: measure)
        let leading = headingSize * measure.lineHeight
        let height = Double(max(1, lines.count)) * leading
        return PlacedText(role: .heading, lines: lines, size: headingSize, leading: leading,
                          box: Rect(x: area.x, y: area.y + area.height - height, width: area.width, height: height),
                          // A Hebrew or Arabic heading starts at the right, as its language reads.
                          alignment: Bidi.baseDirection(of: heading) == .rightToLeft ? .right : .left)
    }

    /// The space between a heading and the photos under it.
    var headingGap: Double { 4 * Length.pointsPerMillimetre }

    var captionLeading: Double { captionSize * measure.lineHeight }
    /// The space between a photo and its caption.
    var captionGap: Double { 1.5 * Length.pointsPerMillimetre }

    /// The photo's caption; an empty one is none.
    func caption(of photo: BookPhoto) -> String? {
        guard let caption = photo.caption, !caption.isEmpty else { return nil }
        return caption
    }

    /// The height a caption of `lines` lines takes from its cell, the gap above it included.
    func captionBand(lines: Int) -> Double { lines == 0 ? 0 : Double(lines) * captionLeading + captionGap }

    /// The height `caption`, in `language` when it says its own, takes from a cell `width` points wide.
    func captionBand(_ caption: String?, width: Double, language: Language? = nil) -> Double {
        guard let caption else { return 0 }
        return captionBand(lines: TextLines.wrap(caption, width: width, size: captionSize, maxLines: captionLines,
                                                 measure: measure.speaking(language)).lines.count)
    }

    /// The strip at the bottom of the area inside the margins that page numbers take from the photos.
    var footerHeight: Double { pageNumberSize * measure.lineHeight + 2 * Length.pointsPerMillimetre }

    /// The number of page `number` (1-based) in the footer of `area`.
    func pageNumber(_ number: Int, area: Rect) -> PlacedText {
        let alignment: TextAlignment = !facingPages ? .center : number % 2 == 1 ? .right : .left
        return PlacedText(role: .pageNumber, lines: [String(number)], size: pageNumberSize,
                          leading: pageNumberSize * measure.lineHeight,
                          box: Rect(x: area.x, y: area.y, width: area.width, height: pageNumberSize * measure.lineHeight),
                          alignment: alignment)
    }
}
