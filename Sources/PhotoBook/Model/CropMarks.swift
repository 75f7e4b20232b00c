import Geometry

/// Trim marks as print shops draw them: at each corner of the trim, two hairlines that continue its edges outward,
/// starting a gap outside the bleed so that a slightly missed cut never leaves a piece of a mark on the page.
/// The figures and where they come from: docs/crop-marks.md.
public enum CropMarks {
    /// The gap between the bleed edge and the start of a mark: 3 mm, the usual offset of a mark from the trim when
    /// there is no bleed, and never less than the bleed itself (the mark starts outside it).
    public static let offset = 3 * Length.pointsPerMillimetre
    /// The length of each mark: 6 mm, the Ghent Workgroup's figure.
    public static let length = 6 * Length.pointsPerMillimetre
    /// The stroke width: 0.25 pt, the hairline most layout programs default to.
    public static let lineWidth = 0.25
    /// How far the PDF page grows on every side to hold the marks, beyond the bleed.
    public static var room: Double { offset + length }
}

extension LayoutOptions {
    /// The room for crop marks on each side of the bleed: `CropMarks.room` with `--crop-marks`, else 0.
    public var marksRoom: Double { cropMarks ? CropMarks.room : 0 }

    /// Where the trim box sits on the PDF page: how far its left and bottom edges are from the page's, the same on
    /// the right and top. Everything planned on the page is placed from it, so that a page with more around its
    /// trim (marks today; a spread or a cover later) only changes this.
    public var trimOffset: Double { bleed + marksRoom }

    /// How far printing may run: the trim plus the bleed on every side.
    public var bleedBox: Rect {
        let trim = trimBox
        return Rect(x: trim.x - bleed, y: trim.y - bleed, width: trim.width + 2 * bleed, height: trim.height + 2 * bleed)
    }

    /// The eight lines of the crop marks, two at each corner of the trim, outside the bleed; none without
    /// `--crop-marks`. Each line lies on an edge of the trim box, extended.
    public var cropMarkLines: [LineSegment] {
        guard cropMarks else { return [] }
        let trim = trimBox
        let start = bleed + CropMarks.offset, end = bleed + CropMarks.room
        let left = trim.x, right = trim.x + trim.width, bottom = trim.y, top = trim.y + trim.height
        var lines: [LineSegment] = []
        for (x, outX) in [(left, -1.0), (right, 1.0)] {
            for (y, outY) in [(bottom, -1.0), (top, 1.0)] {
                // Horizontal: along the trim's bottom or top edge, out beyond its left or right side.
                lines.append(LineSegment(x0: x + outX * start, y0: y, x1: x + outX * end, y1: y))
                // Vertical: along the trim's left or right edge, out beyond its bottom or top.
                lines.append(LineSegment(x0: x, y0: y + outY * start, x1: x, y1: y + outY * end))
            }
        }
        return lines
    }
}
