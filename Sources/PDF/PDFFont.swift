import CHaru

/// A TrueType font embedded in a `PDFDocument` for UTF-8 text, to be drawn on that document's pages; keeps the
/// document alive.
///
/// Loaded by `PDFDocument.loadFont(path:)`. Measures text exactly as libharu lays it out: advance widths from
/// the font's `hmtx`, no kerning (libharu writes each string with one `Tj` and reads no `kern` or `GPOS`).
@dynamicMemberLookup
public final class PDFFont {
    /// Debian's DejaVu Sans (`fonts-dejavu-core`, installed by `make deps`): the default font of the book.
    public static let defaultPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// libharu's handles for the font, and what was read from its file, as `PDFDocument.loadFont` loaded them.
    let loaded: LoadedFont
    /// The document the font is embedded in; the font can only be drawn on its pages.
    public let document: PDFDocument
    /// Its file, names and vertical metrics.
    public let face: PDFFontFace

    init(_ loaded: LoadedFont, document: PDFDocument, path: String) {
        self.loaded = loaded
        self.document = document
        face = PDFFontFace(path: path, handle: loaded.font, file: loaded.file)
    }

    var handle: HPDF_Font { loaded.font }

    /// A property of the face read on the font itself: `ascent` is `face.ascent`.
    public subscript<Value>(dynamicMember member: KeyPath<PDFFontFace, Value>) -> Value { face[keyPath: member] }

    /// True when the font has a glyph of its own for `scalar`, so that drawing it shows more than the empty
    /// box (.notdef) libharu draws for a character the font lacks (`HPDF_TTFontDef_GetGlyphid`).
    ///
    /// Asks the same cmap lookup libharu uses when it writes the glyph, so the answer cannot disagree with the
    /// page. Characters beyond U+FFFF are never covered: libharu reads only the font's BMP character map and its
    /// UTF-8 encoder has 16-bit codes. Control characters are never covered.
    public func covers(_ scalar: Unicode.Scalar) -> Bool {
        guard let code = PDFDrawnText.code(of: scalar) else { return false }
        let glyph = HPDF_TTFontDef_GetGlyphid(loaded.definition, code)
        return glyph != 0 && Int(glyph) < loaded.file.glyphCount
    }

    /// The advance width of `text` set at `size` points, in points: the distance `PDFPage.drawText` moves.
    ///
    /// The sum of each character's advance (`HPDF_Font_GetUnicodeWidth`, in whole thousandths of the em, as
    /// libharu writes them into the font's /W array); no kerning. Characters drawn as a substitute (see
    /// `PDFPage.drawText`) measure as their substitute; characters the font lacks measure as .notdef.
    public func width(of text: String, size: Double) -> Double {
        var thousandths = 0
        for scalar in PDFDrawnText.scalars(of: text) {
            thousandths += Int(HPDF_Font_GetUnicodeWidth(handle, HPDF_UNICODE(scalar.value)))
        }
        return Double(thousandths) * size / 1000
    }
}

/// The characters libharu can be given for a drawn string, in one place so that measuring and drawing agree.
enum PDFDrawnText {
    /// libharu's 16-bit code for a scalar it can draw; nil for controls and for characters beyond the BMP.
    static func code(of scalar: Unicode.Scalar) -> HPDF_UINT16? {
        guard scalar.value >= 0x20, scalar.value != 0x7F, scalar.value <= 0xFFFF else { return nil }
        return HPDF_UINT16(scalar.value)
    }

    /// The scalars actually written: a control character becomes a space (a tab is a gap, and NUL would end the
    /// C string), a character beyond U+FFFF becomes U+FFFD.
    static func scalars(of text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.map { scalar in
            // Quirk: libharu's UTF-8 encoder turns a 4-byte sequence (an emoji) into a stray space, silently.
            if scalar.value > 0xFFFF { return "\u{FFFD}" }
            return code(of: scalar) == nil ? " " : scalar
        }
    }

    /// The NUL-terminated UTF-8 bytes handed to `HPDF_Page_TextOut`.
    static func cString(of text: String) -> [CChar] {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars(of: text))
        return String(view).utf8CString.map { $0 }
    }
}
