import CHaru

extension PDFPage {
    /// Writes `text` in one line turned a quarter clockwise, so that it reads from top to bottom with the tops of
    /// its letters facing right, as on the spine of an English-language book; the baseline starts at (x, y) and
    /// runs down (`HPDF_Page_BeginText`, `HPDF_Page_SetFontAndSize`, `HPDF_Page_SetTextMatrix` with
    /// [0 -1 1 0 x y], `HPDF_Page_ShowText`, `HPDF_Page_EndText`).
    ///
    /// Otherwise as `drawText(_:font:size:x:y:gray:)`: real text, the same characters drawn and measured, so the
    /// line ends `font.width(of: text, size: size)` points below `y`.
    public func drawTextTopToBottom(
        _ text: String, font: PDFFont, size: Double, x: Double, y: Double, gray: Double = 0
    ) throws(PDFError) {
        try showTextLine(text, font: font, size: size, x: x, y: y, gray: gray, what: "turned text") { page, line in
            // The text matrix turns text space -90 degrees: its x axis (the reading direction) points down the page,
            // its y axis (up the letters) to the right.
            let turned = HPDF_Page_SetTextMatrix(page, 0, -1, 1, 0, HPDF_REAL(x), HPDF_REAL(y))
            return turned == HPDF_OK ? HPDF_Page_ShowText(page, line) : turned
        }
    }
}
