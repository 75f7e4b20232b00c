extension PDFPage {
    /// Writes `text` in one line turned a quarter clockwise, so that it reads from top to bottom with the tops of
    /// its letters facing right, as on the spine of an English-language book; the baseline starts at (x, y) and
    /// runs down (the text matrix [0 -1 1 0 x y]).
    ///
    /// Otherwise as `drawText(_:font:size:x:y:gray:)`: real text, the same glyphs drawn and measured, so the
    /// line ends `font.width(of: text, size: size)` points below `y`.
    public func drawTextTopToBottom(
        _ text: String, font: PDFFont, size: Double, x: Double, y: Double, gray: Double = 0
    ) throws(PDFError) {
        try showTextLine(text, font: font, size: size, x: x, y: y, gray: gray, turned: true, what: "turned text")
    }
}
