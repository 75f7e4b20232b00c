import CHaru
import Geometry

/// One page of a `PDFDocument`; keeps its document alive.
public final class PDFPage {
    let handle: HPDF_Page
    /// The page belongs to the document's memory; this strong reference keeps it from being freed under us.
    public let document: PDFDocument

    /// The page size in points, as requested from `PDFDocument.addPage`.
    public let width: Double
    public let height: Double

    init(handle: HPDF_Page, document: PDFDocument, width: Double, height: Double) {
        self.handle = handle
        self.document = document
        self.width = width
        self.height = height
    }

    /// Places a JPEG stored in EXIF `orientation` (1-8) upright into the rectangle, in points from the bottom left.
    ///
    /// The bytes are embedded unchanged (DCTDecode); the turn or mirror goes into the page's transformation
    /// matrix. The rectangle is the upright photo's: for orientations 5-8 its width matches the stored image's
    /// height. Values outside 1-8 mean "as stored".
    public func drawJPEG(_ bytes: [UInt8], in rect: Rect, orientation: Int = 1) throws(PDFError) {
        let image = try document.loadJPEG(bytes)
        try draw(image, in: rect, orientation: orientation)
    }

    /// Draws an image loaded by `PDFDocument.loadJPEG` upright into the rectangle (`HPDF_Page_GSave`,
    /// `HPDF_Page_Concat`, `HPDF_Page_ExecuteXObject`, `HPDF_Page_GRestore`).
    ///
    /// The image must belong to this page's document. `orientation` is the EXIF value of the stored image;
    /// values outside 1-8 mean "as stored".
    /// With `clip`, only the part of the image inside that rectangle (page points) is shown: a photo embedded
    /// whole can be cropped to its cell without touching its pixels.
    public func draw(_ image: PDFImage, in rect: Rect, orientation: Int = 1, clip: Rect? = nil) throws(PDFError) {
        let (x, y, width, height) = (rect.x, rect.y, rect.width, rect.height)
        precondition(image.document === document, "PDFPage.draw: the image belongs to another PDFDocument")
        precondition(
            [x, y, width, height].allSatisfy(\.isFinite),
            "PDFPage.draw: rectangle must be finite, got \(x), \(y), \(width), \(height)")
        let m = PDFTransform.placing(orientation: orientation, in: rect)
        let page = handle
        let during = "drawing a \(image.pixelWidth)x\(image.pixelHeight) image at (\(x), \(y)) size \(width)x\(height) pt"
        try document.haruStatus(during) { HPDF_Page_GSave(page) }
        do throws(PDFError) {
            if let clip {
                // A clipping path: the rectangle, W (clip), n (end the path without painting it).
                try document.haruStatus(during) {
                    HPDF_Page_Rectangle(page, HPDF_REAL(clip.x), HPDF_REAL(clip.y), HPDF_REAL(clip.width),
                                        HPDF_REAL(clip.height))
                }
                try document.haruStatus(during) { HPDF_Page_Clip(page) }
                try document.haruStatus(during) { HPDF_Page_EndPath(page) }
            }
            try document.haruStatus(during) {
                HPDF_Page_Concat(
                    page, HPDF_REAL(m.a), HPDF_REAL(m.b), HPDF_REAL(m.c), HPDF_REAL(m.d), HPDF_REAL(m.e),
                    HPDF_REAL(m.f))
            }
            try document.haruStatus(during) { HPDF_Page_ExecuteXObject(page, image.handle) }
        } catch {
            // Pop our graphics state even so, or the next drawing on this page would inherit the matrix.
            try? document.haruStatus(during) { HPDF_Page_GRestore(page) }
            throw error
        }
        try document.haruStatus(during) { HPDF_Page_GRestore(page) }
    }

    /// Writes `text` in one line with its baseline starting at (x, y), in points from the page's bottom left.
    ///
    /// The text is real PDF text: searchable and copyable (the font's ToUnicode map gives each glyph's
    /// character back). `gray` is the fill, 0 black to 1 white. One glyph per character from the font's
    /// character map, at its advance: characters the font lacks are drawn as its replacement character � (check
    /// `PDFFont.covers` first), control characters as spaces, which is also how `PDFFont.width` measures them.
    /// The font must belong to this page's document.
    public func drawText(
        _ text: String, font: PDFFont, size: Double, x: Double, y: Double, gray: Double = 0
    ) throws(PDFError) {
        try showTextLine(text, font: font, size: size, x: x, y: y, gray: gray, turned: false, what: "text")
    }

    /// One line of text in its own graphics state: the fill (`HPDF_Page_SetGrayFill`), BeginText, the font and
    /// size (`Tf`), the text matrix (`HPDF_Page_SetTextMatrix`: at (x, y), turned a quarter clockwise when
    /// `turned`), the glyph ids as one string of 2-byte codes (`Tj`), EndText; text mode is left and the state
    /// popped on every path. Checks first what every drawing of text needs (the message names `caller`, the
    /// public function called) and draws nothing for empty text; errors say "drawing the `what` '...' at (x, y)".
    ///
    /// libharu has no call that shows glyph ids: `Tf` and `Tj` go straight into the page's content stream, in
    /// page-description mode between libharu's own BT and ET, so its drawing before and after is untouched.
    func showTextLine(_ text: String, font: PDFFont, size: Double, x: Double, y: Double, gray: Double,
                      turned: Bool, what: String, caller: String = #function) throws(PDFError) {
        precondition(font.document === document, "PDFPage.\(caller): the font belongs to another PDFDocument")
        precondition([x, y, size].allSatisfy(\.isFinite) && size > 0, "PDFPage.\(caller): bad size \(size) or place")
        precondition((0...1).contains(gray), "PDFPage.\(caller): gray must be 0...1, got \(gray)")
        guard !text.isEmpty else { return }
        let during = "drawing the \(what) '\(text.prefix(40))' at (\(x), \(y)) in \(size) pt"
        let page = handle
        let glyphs = font.embedded.program.drawnGlyphs(of: text)
        let name = try document.haruObject(during) { HPDF_Page_GetLocalFontName(page, font.embedded.type0) }
        let program = font.embedded.program
        var codes = "<" + glyphs.map { GlyphToUnicodeCMap.hex(UInt16(truncatingIfNeeded: program.code(of: $0.glyph))) }.joined() + "> Tj\n"
        // Text its glyphs cannot give back through ToUnicode (.notdef for a character the font lacks was mapped
        // to the first such character, so "東京の旅" extracted as "東東東東") is marked with its own words.
        if font.embedded.note(glyphs) {
            let words = glyphs.map { String($0.scalar) }.joined().utf16.map { GlyphToUnicodeCMap.hex($0) }.joined()
            codes = "/Span <</ActualText <FEFF\(words)>>> BDC\n" + codes + "EMC\n"
        }
        try inTextObject(gray: gray, during: during) { stream throws(PDFError) in
            try document.haruStatus(during) { HPDF_Stream_WriteStr(stream, "/" + String(cString: name) + " ") }
            try document.haruStatus(during) { HPDF_Stream_WriteReal(stream, HPDF_REAL(size)) }
            try document.haruStatus(during) { HPDF_Stream_WriteStr(stream, " Tf\n") }
            // Turned: text space's x axis (the reading direction) points down the page, its y axis (up the
            // letters) to the right.
            let (a, b, c, d): (HPDF_REAL, HPDF_REAL, HPDF_REAL, HPDF_REAL) = turned ? (0, -1, 1, 0) : (1, 0, 0, 1)
            try document.haruStatus(during) { HPDF_Page_SetTextMatrix(page, a, b, c, d, HPDF_REAL(x), HPDF_REAL(y)) }
            try document.haruStatus(during) { HPDF_Stream_WriteStr(stream, codes) }
        }
    }

    /// Runs `body` inside a text object of its own (BeginText, EndText) within a graphics state of its own filled
    /// with `gray`, handing it the page's content stream to write operators into; leaves text mode and pops the
    /// state on every path, so the page's next drawing is valid whatever `body` did.
    func inTextObject(gray: Double, during: String, _ body: (HPDF_Stream?) throws(PDFError) -> Void) throws(PDFError) {
        let page = handle
        // Trap: the content stream is libharu's private page attribute (hpdf_pages.h, CHaru's shim pins 2.3).
        let stream = page.pointee.attr.assumingMemoryBound(to: HPDF_PageAttr_Rec.self).pointee.stream
        try document.haruStatus(during) { HPDF_Page_GSave(page) }
        do throws(PDFError) {
            try document.haruStatus(during) { HPDF_Page_SetGrayFill(page, HPDF_REAL(gray)) }
            try document.haruStatus(during) { HPDF_Page_BeginText(page) }
            try body(stream)
            try document.haruStatus(during) { HPDF_Page_EndText(page) }
        } catch {
            // Leave text mode and pop the state even so, or the page's next drawing would be invalid.
            try? document.haruStatus(during) { HPDF_Page_EndText(page) }
            try? document.haruStatus(during) { HPDF_Page_GRestore(page) }
            throw error
        }
        try document.haruStatus(during) { HPDF_Page_GRestore(page) }
    }
}
