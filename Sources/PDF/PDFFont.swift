/// A TrueType font embedded in a `PDFDocument`, to be drawn on that document's pages; keeps the document alive.
///
/// Loaded by `PDFDocument.loadFont(path:)`. `PDFPage.drawText` draws text one glyph per character from the font's
/// character map, at its advance width (no kerning, no shaping), and `width(of:size:)` of a string measures the
/// same; `PDFPage.drawGlyphs` draws a run shaped by HarfBuzz, measured by `width(of:size:)` of the run.
/// The font goes into the file at save, as a subset of the glyphs drawn (`PDFDocument+GlyphFonts.swift`).
@dynamicMemberLookup
public final class PDFFont {
    /// Debian's DejaVu Sans (`fonts-dejavu-core`, installed by `make deps`): the default font of the book.
    public static let defaultPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// The font's PDF objects and the glyphs drawn so far, as the document keeps them.
    let embedded: EmbeddedGlyphFont
    /// The document the font is embedded in; the font can only be drawn on its pages.
    public let document: PDFDocument

    init(_ embedded: EmbeddedGlyphFont, document: PDFDocument) {
        self.embedded = embedded
        self.document = document
    }

    /// Its file, names and vertical metrics.
    public var face: PDFFontFace { embedded.face }

    /// A property of the face read on the font itself: `ascent` is `face.ascent`.
    public subscript<Value>(dynamicMember member: KeyPath<PDFFontFace, Value>) -> Value { face[keyPath: member] }

    /// True when the font has a glyph of its own for `scalar`, so that drawing it shows more than the empty
    /// box (.notdef) drawn for a character the font lacks. Characters beyond U+FFFF count like any other;
    /// control characters are never covered (they are drawn as spaces).
    public func covers(_ scalar: Unicode.Scalar) -> Bool { embedded.program.covers(scalar) }

    /// The advance width of `text` set at `size` points, in points: the distance `PDFPage.drawText` moves.
    ///
    /// The sum of each character's advance in whole thousandths of the em, as the font's /W array gives them;
    /// no kerning. Control characters measure as spaces, characters the font lacks as .notdef.
    public func width(of text: String, size: Double) -> Double { embedded.program.width(of: text, size: size) }
}
