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
        precondition(font.document === document, "PDFPage.drawTextTopToBottom: the font belongs to another PDFDocument")
        precondition([x, y, size].allSatisfy(\.isFinite) && size > 0, "PDFPage.drawTextTopToBottom: bad size \(size) or place")
        precondition((0...1).contains(gray), "PDFPage.drawTextTopToBottom: gray must be 0...1, got \(gray)")
        guard !text.isEmpty else { return }
        try showTextLine(text, font: font, size: size, gray: gray,
                         during: "drawing the turned text '\(text.prefix(40))' at (\(x), \(y)) in \(size) pt") { page, line in
            // The text matrix turns text space -90 degrees: its x axis (the reading direction) points down the page,
            // its y axis (up the letters) to the right.
            let turned = HPDF_Page_SetTextMatrix(page, 0, -1, 1, 0, HPDF_REAL(x), HPDF_REAL(y))
            return turned == HPDF_OK ? HPDF_Page_ShowText(page, line) : turned
        }
    }
}
