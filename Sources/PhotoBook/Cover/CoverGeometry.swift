import Geometry

/// Where the parts of a paperback's wrap cover lie on its one PDF page: back, spine and front side by side, the
/// bleed round the outside. Points, origin at the page's bottom left, as every `Rect` of the package.
///
/// The cover is cut at the TrimBox (back + spine + front) and folded at the two edges of the spine. The photos run
/// out to the bleed on the outer edges but stop at the folds, so that the spine stays the spine's.
public struct CoverGeometry: Sendable, Equatable {
    /// One panel (the book's trim size, as its pages are cut).
    public var panel: PageSize
    /// The spine's width: the thickness of the book block.
    public var spine: Double
    public var bleed: Double
    /// How far inside the trim edges and the folds text must stay.
    public var safety: Double

    public init(panel: PageSize, spine: Double, bleed: Double, safety: Double) {
        self.panel = panel
        self.spine = spine
        self.bleed = bleed
        self.safety = safety
    }

    /// The spine of a book of `pages` interior pages on paper of `pagesPerInch` (the paper's PPI, as print services
    /// quote it: pages, not sheets, per inch of thickness): pages / PPI inches, in points.
    public static func spineWidth(interiorPages pages: Int, pagesPerInch: Double) -> Double {
        Double(pages) / pagesPerInch * 72
    }

    /// The PDF page: two panels and the spine, plus the bleed on every side.
    public var mediaSize: PageSize {
        PageSize(width: 2 * panel.width + spine + 2 * bleed, height: panel.height + 2 * bleed)
    }

    /// Where the cover is cut: back, spine and front.
    public var trimBox: Rect { Rect(x: bleed, y: bleed, width: 2 * panel.width + spine, height: panel.height) }

    /// What must survive the cut: the trim less the safety margin.
    public var artBox: Rect { Self.shrink(trimBox, by: safety) }

    /// The back panel as cut (on the left when the outside of the cover faces the reader).
    public var back: Rect { Rect(x: bleed, y: bleed, width: panel.width, height: panel.height) }
    /// The spine as cut, between the two folds.
    public var spineStrip: Rect { Rect(x: bleed + panel.width, y: bleed, width: spine, height: panel.height) }
    /// The front panel as cut (on the right).
    public var front: Rect { Rect(x: bleed + panel.width + spine, y: bleed, width: panel.width, height: panel.height) }

    /// The back photo's cell: the back panel grown into the bleed at the left, top and bottom, up to the fold.
    public var backPhotoCell: Rect { Rect(x: 0, y: 0, width: bleed + panel.width, height: panel.height + 2 * bleed) }
    /// The front photo's cell: the front panel grown into the bleed at the right, top and bottom, from the fold.
    public var frontPhotoCell: Rect {
        Rect(x: bleed + panel.width + spine, y: 0, width: panel.width + bleed, height: panel.height + 2 * bleed)
    }

    /// Where the front's words may go: the front panel less the safety margin from its edges and from the fold.
    public var frontSafeArea: Rect { Self.shrink(front, by: safety) }

    /// What makes the cover impossible to print, or nil when it can be made.
    public var problem: CoverProblem? {
        guard [panel.width, panel.height, spine, bleed, safety].allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            return .notFinite
        }
        guard panel.isWithinPDFLimits else { return .panelOutOfRange }
        guard mediaSize.isWithinPDFLimits else {
            return .tooWide(largestSpine: max(0, PageSize.sideRange.upperBound - 2 * panel.width - 2 * bleed))
        }
        guard 2 * safety < min(panel.width, panel.height) else { return .safetyLeavesNoRoom }
        return nil
    }
}

/// Why a wrap cover cannot be made.
public enum CoverProblem: Sendable, Equatable {
    /// A length is negative, infinite or not a number (the command line's parsers refuse these).
    case notFinite
    /// A panel side is outside what a PDF page allows.
    case panelOutOfRange
    /// Two panels, the spine and the bleed make the page wider (or higher) than a PDF page may be; `largestSpine`
    /// would still fit, with the same panels and bleed.
    case tooWide(largestSpine: Double)
    /// The safety margin takes half a panel or more.
    case safetyLeavesNoRoom
}

extension CoverGeometry {
    /// `rect` shrunk by `inset` on every side.
    static func shrink(_ rect: Rect, by inset: Double) -> Rect {
        Rect(x: rect.x + inset, y: rect.y + inset, width: rect.width - 2 * inset, height: rect.height - 2 * inset)
    }
}
