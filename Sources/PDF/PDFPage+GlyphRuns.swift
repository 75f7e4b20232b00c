import CHaru
import Typeface

extension PDFPage {
    /// Draws the run with its left edge at x (its visual start, whatever its direction) and baseline y, in points
    /// from the page's bottom left; `gray` is the fill, 0 black to 1 white; with `turned`, the line reads down the
    /// page as `drawTextTopToBottom` does (text matrix [0 -1 1 0 x y]). The font must be the run's, of this
    /// page's document.
    ///
    /// Each glyph sits at HarfBuzz's position (pen + offset), so kerning and marks are right; the run ends
    /// `font.width(of: run, size: size)` from its start. The glyphs are written in LOGICAL order (by cluster, a
    /// right-to-left run's reversed back), each group of them by one `Tm` and one `Tj`: a glyph joins its group
    /// when the reader, moving by the font's /W width of the glyph before, would put it where HarfBuzz did
    /// (within the 0.001 pt the numbers are written to). So an unkerned left-to-right line is one `Tj`, and every
    /// glyph of a right-to-left run has its own `Tm`: logical order is what pdftotext and mutool read as typed
    /// (docs/research/words.md §3.5), and a page position per glyph is what lets it differ from the visual one.
    ///
    /// Text extraction: each glyph maps through the font's ToUnicode to the character it is the nominal glyph of,
    /// or to its cluster's characters (a ligature, a joined form); a left-to-right run whose glyphs would not read
    /// back as its text in that order (Devanagari's vowel sign drawn before its consonant, a glyph drawn before
    /// for other text) is marked with its text as /ActualText. Never a right-to-left run: pdftotext reverses it.
    /// A glyph 0 (.notdef, a character the font lacks) is drawn as the font's U+FFFD, which readers do draw.
    public func drawGlyphs(_ run: PDFGlyphRun, font: PDFFont, size: Double, x: Double, y: Double, gray: Double = 0,
                           turned: Bool = false) throws(PDFError) {
        precondition(font.document === document, "PDFPage.drawGlyphs: the font belongs to another PDFDocument")
        precondition([x, y, size].allSatisfy(\.isFinite) && size > 0, "PDFPage.drawGlyphs: bad size \(size) or place")
        precondition((0...1).contains(gray), "PDFPage.drawGlyphs: gray must be 0...1, got \(gray)")
        guard !run.glyphs.isEmpty else { return }
        let during = "drawing the glyphs of '\(run.text.prefix(40))' at (\(x), \(y)) in \(size) pt"
        let page = handle
        let program = font.embedded.program
        let placeholder = program.glyph(for: "\u{FFFD}") ?? 0
        let drawn = run.glyphs.map { $0.glyph == 0 ? placeholder : $0.glyph }
        let needsActualText = font.embedded.note(run, drawing: drawn) && run.direction == .leftToRight
        let name = try document.haruObject(during) { HPDF_Page_GetLocalFontName(page, font.embedded.type0) }

        // Text space to the page: upright, along is x and across y; turned, along runs down the page and across
        // to its right.
        let origins = program.origins(of: run, size: size)
        func place(_ index: Int) -> (x: Double, y: Double) {
            let (along, across) = origins[index]
            return turned ? (x + across, y - along) : (x + along, y + across)
        }
        let matrix = turned ? "0 -1 1 0 " : "1 0 0 1 "
        let step: (x: Double, y: Double) = turned ? (0, -1) : (1, 0)

        var content = "/" + String(cString: name) + " " + Self.number(size) + " Tf\n"
        if needsActualText {
            content += "/Span <</ActualText <FEFF" + run.text.utf16.map { GlyphToUnicodeCMap.hex($0) }.joined() + ">>> BDC\n"
        }
        // Where the reader's pen is after the last glyph written, on the page (NaN: no group open), and the codes
        // of the open group.
        var pen = (x: Double.nan, y: Double.nan)
        var codes = ""
        for index in run.logicalOrder {
            let target = place(index)
            if !(abs(pen.x - target.x) < 0.0005 && abs(pen.y - target.y) < 0.0005) {
                if !codes.isEmpty { content += "<" + codes + "> Tj\n" }
                codes = ""
                pen = (Self.rounded(target.x), Self.rounded(target.y))
                content += matrix + Self.number(pen.x) + " " + Self.number(pen.y) + " Tm "
            }
            codes += GlyphToUnicodeCMap.hex(UInt16(truncatingIfNeeded: program.code(of: drawn[index])))
            let advance = Double(program.thousandths(of: drawn[index])) * size / 1000
            pen = (pen.x + step.x * advance, pen.y + step.y * advance)
        }
        content += "<" + codes + "> Tj\n"
        if needsActualText { content += "EMC\n" }

        // Trap: the content stream is libharu's private page attribute (hpdf_pages.h, CHaru's shim pins 2.3).
        let stream = page.pointee.attr.assumingMemoryBound(to: HPDF_PageAttr_Rec.self).pointee.stream
        try document.haruStatus(during) { HPDF_Page_GSave(page) }
        do throws(PDFError) {
            try document.haruStatus(during) { HPDF_Page_SetGrayFill(page, HPDF_REAL(gray)) }
            try document.haruStatus(during) { HPDF_Page_BeginText(page) }
            try document.haruStatus(during) { HPDF_Stream_WriteStr(stream, content) }
            try document.haruStatus(during) { HPDF_Page_EndText(page) }
        } catch {
            // Leave text mode and pop the state even so, or the page's next drawing would be invalid.
            try? document.haruStatus(during) { HPDF_Page_EndText(page) }
            try? document.haruStatus(during) { HPDF_Page_GRestore(page) }
            throw error
        }
        try document.haruStatus(during) { HPDF_Page_GRestore(page) }
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
