import Geometry

/// Where the parts of a paperback's wrap cover lie on its one PDF page: back, spine and front side by side, the
/// bleed round the outside. Points, origin at the page's bottom left, as every `Rect` of the package.
///
/// The cover is cut at the TrimBox (back + spine + front) and folded at the two edges of the spine. The photos run
/// out to the bleed on the outer edges but stop at the folds, so that the spine stays the spine's.
///
/// A hardcover's case wrap (`hinge` > 0 or `isCase`) is the same sheet with a hinge between the spine and each
/// board, and the bleed is the turn-in (`wrap`) that is folded round the boards' edges and glued inside:
/// sheet = 2 x (board + wrap) + 2 x hinge + spine across, board + 2 x wrap down; the TrimBox is the visible case
/// (boards, hinges, spine). docs/research/hardcover.md gives the figures and their sources.
public struct CoverGeometry: Sendable, Equatable {
    /// One panel (the book's trim size, as its pages are cut).
    public var panel: PageSize
    /// The spine's width: the thickness of the book block.
    public var spine: Double
    public var bleed: Double
    /// How far inside the trim edges and the folds text must stay.
    public var safety: Double
    /// A case wrap's hinge: the strip between the spine and each board, where the case bends; 0 on a paperback.
    public var hinge: Double = 0
    /// A hardcover's case wrap: `bleed` is then the turn-in round the boards.
    public var isCase = false

    public init(panel: PageSize, spine: Double, bleed: Double, safety: Double) {
        self.panel = panel
        self.spine = spine
        self.bleed = bleed
        self.safety = safety
    }

    /// A hardcover's case wrap: boards of `board`, `wrap` turned in round every edge, a `hinge` each side of
    /// the spine.
    public static func caseWrap(board: PageSize, spine: Double, wrap: Double, hinge: Double, safety: Double) -> CoverGeometry {
        var geometry = CoverGeometry(panel: board, spine: spine, bleed: wrap, safety: safety)
        geometry.hinge = hinge
        geometry.isCase = true
        return geometry
    }

    /// The turn-in of a case wrap (its bleed).
    public var wrap: Double { isCase ? bleed : 0 }

    /// A hardcover's spine: the book block's thickness (pages / PPI) and the two boards' thickness, which the
    /// case's spine wraps round (docs/research/hardcover.md).
    public static func caseSpineWidth(interiorPages pages: Int, pagesPerInch: Double, board: Double) -> Double {
        spineWidth(interiorPages: pages, pagesPerInch: pagesPerInch) + 2 * board
    }

    /// The x of each fold and board edge across the trim, left to right: the back board's outer edge, its hinge
    /// side, the spine's two edges, the front board's hinge side, its outer edge (the hinge sides only on a case).
    public var foldLines: [Double] {
        let x0 = bleed, spineLeft = bleed + panel.width + hinge, spineRight = spineLeft + spine
        let edges = [x0, bleed + panel.width, spineLeft, spineRight, spineRight + hinge, trimBox.x + trimBox.width]
        return hinge > 0 ? edges : [edges[0], edges[2], edges[3], edges[5]]
    }

    /// Short marks in the turn-in, outside the trim, where the boards' edges, the hinges and the spine fall: half
    /// the wrap long from the sheet's edge, so the binder can line the boards up. None on a paperback.
    public var caseMarks: [LineSegment] {
        guard isCase, bleed > 0 else { return [] }
        let media = mediaSize, length = bleed / 2
        var marks: [LineSegment] = []
        for x in foldLines {
            marks.append(LineSegment(x0: x, y0: 0, x1: x, y1: length))
            marks.append(LineSegment(x0: x, y0: media.height - length, x1: x, y1: media.height))
        }
        for y in [bleed, bleed + panel.height] {
            marks.append(LineSegment(x0: 0, y0: y, x1: length, y1: y))
            marks.append(LineSegment(x0: media.width - length, y0: y, x1: media.width, y1: y))
        }
        return marks
    }

    /// The spine of a book of `pages` interior pages on paper of `pagesPerInch` (the paper's PPI, as print services
    /// quote it: pages, not sheets, per inch of thickness): pages / PPI inches, in points.
    public static func spineWidth(interiorPages pages: Int, pagesPerInch: Double) -> Double {
        Double(pages) / pagesPerInch * 72
    }

    /// The PDF page: two panels and the spine, plus the bleed on every side.
    public var mediaSize: PageSize {
        PageSize(width: 2 * panel.width + 2 * hinge + spine + 2 * bleed, height: panel.height + 2 * bleed)
    }

    /// Where the cover is cut: back, spine and front.
    public var trimBox: Rect { Rect(x: bleed, y: bleed, width: 2 * panel.width + 2 * hinge + spine, height: panel.height) }

    /// What must survive the cut: the trim less the safety margin.
    public var artBox: Rect { Self.shrink(trimBox, by: safety) }

    /// The back panel as cut (on the left when the outside of the cover faces the reader).
    public var back: Rect { Rect(x: bleed, y: bleed, width: panel.width, height: panel.height) }
    /// The spine as cut, between the two folds.
    public var spineStrip: Rect { Rect(x: bleed + panel.width + hinge, y: bleed, width: spine, height: panel.height) }
    /// The front panel as cut (on the right).
    public var front: Rect {
        Rect(x: bleed + panel.width + 2 * hinge + spine, y: bleed, width: panel.width, height: panel.height)
    }

    /// The back photo's cell: the back panel grown into the bleed at the left, top and bottom, up to the fold
    /// (over a case's hinge, which shows on the outside, up to the spine).
    public var backPhotoCell: Rect {
        Rect(x: 0, y: 0, width: bleed + panel.width + hinge, height: panel.height + 2 * bleed)
    }
    /// The front photo's cell: the front panel grown into the bleed at the right, top and bottom, from the fold.
    public var frontPhotoCell: Rect {
        Rect(x: bleed + panel.width + hinge + spine, y: 0, width: hinge + panel.width + bleed,
             height: panel.height + 2 * bleed)
    }

    /// Where the front's words may go: the front panel less the safety margin from its edges and from the fold.
    public var frontSafeArea: Rect { Self.shrink(front, by: safety) }

    /// What makes the cover impossible to print, or nil when it can be made.
    public var problem: CoverProblem? {
        guard [panel.width, panel.height, spine, bleed, safety, hinge].allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            return .notFinite
        }
        guard panel.isWithinPDFLimits else { return .panelOutOfRange }
        guard mediaSize.isWithinPDFLimits else {
            return .tooWide(largestSpine: max(0, PageSize.sideRange.upperBound - 2 * panel.width - 2 * hinge - 2 * bleed))
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
