import CHaru
import Typeface

extension PDFPage {
    /// Draws the run with its left edge at x (its visual start, whatever its direction) and baseline y, in points
    /// from the page's bottom left; `gray` is the fill, 0 black to 1 white; with `turned`, the line reads down the
    /// page as `drawTextTopToBottom` does (text matrix [0 -1 1 0 x y]). The font must be the run's, of this
    /// page's document.
    ///
    /// Each glyph sits at HarfBuzz's position (pen + offset), so kerning and marks are right; the run ends
    /// `font.width(of: run, size: size)` from its start. The glyphs are written in logical order (by cluster) for
    /// a left-to-right run and left to right for a right-to-left one (`PDFGlyphRun.writingOrder`: what pdftotext
    /// reads back as typed), as one `TJ` array per stretch on one baseline: after each glyph the reader moves by its
    /// /W width, and a number in the array moves it on to where HarfBuzz put the next glyph (kerning, a mark's
    /// step back over its base, DejaVu's 2048 units to the em against /W's thousandths). A mark raised or lowered
    /// (a y offset) starts a new `Tm`.
    ///
    /// Text extraction: each glyph maps through the font's ToUnicode to the character it is the nominal glyph of,
    /// or to its cluster's characters (a ligature, a joined form); a left-to-right run whose glyphs would not read
    /// back as its text in that order (Devanagari's vowel sign drawn before its consonant, a glyph drawn before
    /// for other text) is marked with its text as /ActualText. Never a right-to-left run: pdftotext reverses it.
    /// A glyph 0 (.notdef, a character the font lacks) is drawn as the font's U+FFFD, which readers do draw.
    ///
    /// A `.topToBottom` run is a column of upright glyphs (a Japanese or Chinese spine), never `turned`: (x, y) is
    /// its TOP CENTRE, each glyph's horizontal origin sits at the pen plus its offset (Noto Sans CJK: half an em
    /// left, 0.88 em down), and the pen moves down by each advance, so the column ends `font.width(of: run, size:
    /// size)` below y. The glyphs are those of the font's ordinary horizontal (Identity-H) encoding, `vert` forms
    /// included, each with a `Tm` of its own (1 0 0 1 x y) in logical order, which is also their order down the
    /// column: poppler, Ghostscript and MuPDF draw them right and read them as typed, with no Identity-V, WMode 1
    /// or /W2 (docs/research/words.md §3.4). ActualText as for left to right.
    public func drawGlyphs(_ run: PDFGlyphRun, font: PDFFont, size: Double, x: Double, y: Double, gray: Double = 0,
                           turned: Bool = false) throws(PDFError) {
        precondition(font.document === document, "PDFPage.drawGlyphs: the font belongs to another PDFDocument")
        precondition([x, y, size].allSatisfy(\.isFinite) && size > 0, "PDFPage.drawGlyphs: bad size \(size) or place")
        precondition((0...1).contains(gray), "PDFPage.drawGlyphs: gray must be 0...1, got \(gray)")
        precondition(!(turned && run.direction == .topToBottom), "PDFPage.drawGlyphs: a top-to-bottom column cannot be turned")
        guard !run.glyphs.isEmpty else { return }
        let during = "drawing the glyphs of '\(run.text.prefix(40))' at (\(x), \(y)) in \(size) pt"
        let page = handle
        let program = font.embedded.program
        let placeholder = program.glyph(for: "\u{FFFD}") ?? 0
        let drawn = run.glyphs.map { $0.glyph == 0 ? placeholder : $0.glyph }
        let needsActualText = font.embedded.note(run, drawing: drawn) && run.direction != .rightToLeft
        let name = try document.haruObject(during) { HPDF_Page_GetLocalFontName(page, font.embedded.type0) }

        // Text space to the page: upright, along is x and across y; turned, along runs down the page and across
        // to its right. A column places its glyphs by its own pen, down from its top centre.
        let origins = program.origins(of: run, size: size)
        let column = run.direction == .topToBottom ? program.columnOrigins(of: run, size: size) : []
        func place(_ index: Int) -> (x: Double, y: Double) {
            if !column.isEmpty { return (x + column[index].x, y + column[index].y) }
            let (along, across) = origins[index]
            return turned ? (x + across, y - along) : (x + along, y + across)
        }
        let matrix = turned ? "0 -1 1 0 " : "1 0 0 1 "

        var content = "/" + String(cString: name) + " " + Self.number(size) + " Tf\n"
        if needsActualText {
            content += "/Span <</ActualText <FEFF" + run.text.utf16.map { GlyphToUnicodeCMap.hex($0) }.joined() + ">>> BDC\n"
        }
        // The reader's pen, along the line and across it, after the last glyph written (nil: no TJ open), and the
        // open TJ array.
        var pen: (along: Double, across: Double)?
        var array = ""
        for index in run.writingOrder {
            let (along, across) = origins[index]
            // A column's glyphs each have a Tm: a TJ moves along the line, across the column.
            if let current = pen, abs(current.across - across) < 0.0005, run.direction != .topToBottom {
                // TJ subtracts its numbers, in thousandths of the size: positive moves back along the line.
                let gap = (current.along - along) * 1000 / size
                if abs(gap) >= 0.0005 {
                    array += " " + Self.number(gap) + " "
                    pen = (current.along - Double(Self.number(gap))! * size / 1000, across)
                }
            } else {
                if !array.isEmpty { content += "[" + array + "] TJ\n" }
                array = ""
                let target = place(index)
                content += matrix + Self.number(Self.rounded(target.x)) + " " + Self.number(Self.rounded(target.y)) + " Tm\n"
                pen = (Self.rounded(along), across)
            }
            array += "<" + GlyphToUnicodeCMap.hex(UInt16(truncatingIfNeeded: program.code(of: drawn[index]))) + ">"
            let advance = Double(program.thousandths(of: drawn[index])) * size / 1000
            pen = pen.map { ($0.along + advance, $0.across) }
        }
        content += "[" + array + "] TJ\n"
        if needsActualText { content += "EMC\n" }

        try inTextObject(gray: gray, during: during) { stream throws(PDFError) in
            try document.haruStatus(during) { HPDF_Stream_WriteStr(stream, content) }
        }
    }

    /// A length in points to the thousandth, as the content stream holds it.
    static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }

    /// `value` to the thousandth of a point, with no exponent and no trailing zeros ("12.5", "-0.001", "300"):
    /// positions written the same on every machine, and finer than any printer's dot (0.35 µm). Beyond a billion
    /// points (no page is) it is clamped rather than trapping.
    static func number(_ value: Double) -> String {
        let thousandths = Int((min(max(value, -1e9), 1e9) * 1000).rounded())
        let magnitude = thousandths.magnitude
        var text = (thousandths < 0 ? "-" : "") + String(magnitude / 1000)
        var fraction = magnitude % 1000
        guard fraction != 0 else { return text }
        var digits = 3
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let written = String(fraction)
        text += "." + String(repeating: "0", count: digits - written.count) + written
        return text
    }
}
