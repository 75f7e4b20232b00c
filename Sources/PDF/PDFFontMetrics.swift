import Synchronization

/// A TrueType font loaded for measuring only, before the book's document exists: the planner lays out text
/// with it, the render draws with `PDFDocument.loadFont(path:)` of the same file, and both agree to the point.
///
/// Owns a private libharu document holding the font (not embedded, so the file is closed after loading).
/// Safe to share between threads: libharu is reached under a lock.
public final class PDFFontMetrics: Sendable {
    /// The font file, as given.
    public let path: String
    /// The family name from the font's name table ("DejaVu Sans").
    public let name: String
    /// The style within the family ("Book", "Bold"), or "".
    public let styleName: String
    /// Vertical metrics per point of font size: ascender (above the baseline), descender (negative), the
    /// heights of a capital H and of a lower-case x.
    public let ascent: Double
    public let descent: Double
    public let capHeight: Double
    public let xHeight: Double

    private let font: Mutex<PDFFont>

    /// Loads the font at `path`; throws `.font` naming the file and the reason, as `PDFDocument.loadFont` would.
    public init(path: String) throws(PDFError) {
        let document = try PDFDocument()
        let loaded = try document.loadFont(path: path, embedding: false)
        let font = PDFFont(
            handle: loaded.font, definition: loaded.definition, document: document, path: path, file: loaded.file)
        self.path = path
        (name, styleName) = (font.name, font.styleName)
        (ascent, descent, capHeight, xHeight) = (font.ascent, font.descent, font.capHeight, font.xHeight)
        self.font = Mutex(font)
    }

    /// The advance width of `text` at `size` points, in points; exactly what `PDFPage.drawText` advances (no
    /// kerning). See `PDFFont.width(of:size:)`.
    public func width(of text: String, size: Double) -> Double {
        font.withLock { $0.width(of: text, size: size) }
    }

    /// True when the font has a glyph for `scalar` (not the empty .notdef box). See `PDFFont.covers(_:)`.
    public func covers(_ scalar: Unicode.Scalar) -> Bool {
        font.withLock { $0.covers(scalar) }
    }
}
