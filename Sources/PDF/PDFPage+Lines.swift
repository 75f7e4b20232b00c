import CHaru
import Geometry

/// A colour in the printer's four inks, each 0 (none) to 1 (full).
public struct PDFCMYK: Sendable, Equatable {
    public var cyan: Double
    public var magenta: Double
    public var yellow: Double
    public var black: Double

    public init(cyan: Double, magenta: Double, yellow: Double, black: Double) {
        self.cyan = cyan; self.magenta = magenta; self.yellow = yellow; self.black = black
    }

    /// Every ink at full strength: what print shops call registration colour, so that a mark shows on every plate.
    public static let registration = PDFCMYK(cyan: 1, magenta: 1, yellow: 1, black: 1)
}

extension PDFPage {
    /// Strokes each line, from (x0, y0) to (x1, y1) in points from the page's bottom left, in a DeviceCMYK colour
    /// (`HPDF_Page_SetCMYKStroke`, `HPDF_Page_SetLineWidth`, `HPDF_Page_MoveTo`, `HPDF_Page_LineTo`,
    /// `HPDF_Page_Stroke`), within its own graphics state.
    public func strokeLines(_ lines: [LineSegment], width: Double,
                            color: PDFCMYK) throws(PDFError) {
        precondition(width.isFinite && width > 0, "PDFPage.strokeLines: width must be positive, got \(width)")
        precondition([color.cyan, color.magenta, color.yellow, color.black].allSatisfy { (0...1).contains($0) },
                     "PDFPage.strokeLines: each ink must be 0...1, got \(color)")
        guard !lines.isEmpty else { return }
        let page = handle
        let during = "stroking \(lines.count) lines of \(width) pt"
        try document.haruStatus(during) { HPDF_Page_GSave(page) }
        do throws(PDFError) {
            try document.haruStatus(during) {
                HPDF_Page_SetCMYKStroke(page, HPDF_REAL(color.cyan), HPDF_REAL(color.magenta), HPDF_REAL(color.yellow),
                                        HPDF_REAL(color.black))
            }
            try document.haruStatus(during) { HPDF_Page_SetLineWidth(page, HPDF_REAL(width)) }
            for line in lines {
                precondition([line.x0, line.y0, line.x1, line.y1].allSatisfy(\.isFinite),
                              "PDFPage.strokeLines: a line must be finite, got \(line)")
                try document.haruStatus(during) { HPDF_Page_MoveTo(page, HPDF_REAL(line.x0), HPDF_REAL(line.y0)) }
                try document.haruStatus(during) { HPDF_Page_LineTo(page, HPDF_REAL(line.x1), HPDF_REAL(line.y1)) }
            }
            try document.haruStatus(during) { HPDF_Page_Stroke(page) }
        } catch {
            // Pop the state even so, or the page's next drawing would inherit the colour and width.
            try? document.haruStatus(during) { HPDF_Page_GRestore(page) }
            throw error
        }
        try document.haruStatus(during) { HPDF_Page_GRestore(page) }
    }
}
