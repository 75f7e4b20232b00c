import CHaru
import Geometry

extension PDFPage {
    /// The rectangles a printer reads off a page, in points from the bottom-left corner of its MediaBox.
    public struct Boxes: Sendable, Equatable {
        /// Where the sheet is cut.
        public var trim: Rect
        /// How far printing runs past the cut (the MediaBox, less any room for crop marks).
        public var bleed: Rect
        /// What must survive the cut: the trim less the safety margin.
        public var art: Rect

        public init(trim: Rect, bleed: Rect, art: Rect) {
            self.trim = trim
            self.bleed = bleed
            self.art = art
        }
    }

    /// Writes /TrimBox, /BleedBox and /ArtBox into the page dictionary. libharu 2.3.0 has no setter for them;
    /// its object API writes the arrays (`HPDF_Box_Array_New`, `HPDF_Dict_Add`).
    ///
    /// A PDF/X document gets no ArtBox: PDF/X wants a TrimBox or an ArtBox on a page, never both.
    public func setBoxes(_ boxes: Boxes) throws(PDFError) {
        let named = [("TrimBox", boxes.trim), ("BleedBox", boxes.bleed)] + (document.pdfx == nil ? [("ArtBox", boxes.art)] : [])
        for (name, box) in named {
            // PDF boxes are [left bottom right top].
            let rect = HPDF_Box(left: HPDF_REAL(box.x), bottom: HPDF_REAL(box.y), right: HPDF_REAL(box.x + box.width),
                                top: HPDF_REAL(box.y + box.height))
            let array = try document.haruObject("making the page's \(name)") {
                HPDF_Box_Array_New(document.handle.pointee.mmgr, rect)
            }
            try document.haruStatus("setting the page's \(name)") { HPDF_Dict_Add(handle, name, array) }
        }
    }
}
