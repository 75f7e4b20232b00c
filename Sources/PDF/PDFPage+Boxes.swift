import CHaru

extension PDFPage {
    /// The rectangles a printer reads off a page, in points from the bottom-left corner of its MediaBox.
    public struct Boxes: Sendable, Equatable {
        /// Where the sheet is cut.
        public var trim: (x: Double, y: Double, width: Double, height: Double)
        /// How far printing runs past the cut (the MediaBox, less any room for crop marks).
        public var bleed: (x: Double, y: Double, width: Double, height: Double)
        /// What must survive the cut: the trim less the safety margin.
        public var art: (x: Double, y: Double, width: Double, height: Double)

        public init(trim: (x: Double, y: Double, width: Double, height: Double),
                    bleed: (x: Double, y: Double, width: Double, height: Double),
                    art: (x: Double, y: Double, width: Double, height: Double)) {
            self.trim = trim
            self.bleed = bleed
            self.art = art
        }

        public static func == (a: Boxes, b: Boxes) -> Bool {
            [a.trim, a.bleed, a.art].elementsEqual([b.trim, b.bleed, b.art]) { $0 == $1 }
        }
    }

    /// Writes /TrimBox, /BleedBox and /ArtBox into the page dictionary. libharu 2.3.0 has no setter for them;
    /// its object API writes the arrays (`HPDF_Box_Array_New`, `HPDF_Dict_Add`).
    public func setBoxes(_ boxes: Boxes) throws(PDFError) {
        for (name, box) in [("TrimBox", boxes.trim), ("BleedBox", boxes.bleed), ("ArtBox", boxes.art)] {
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
