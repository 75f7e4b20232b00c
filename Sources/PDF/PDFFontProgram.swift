import Typeface

/// What the PDF module needs of a font to draw with it and embed it, in glyph ids: the glyph of a character,
/// its advance, the face's metrics and names, and a subset of its glyphs that keeps their ids.
///
/// A protocol rather than Typeface's `FontFace` itself, so that the PDF writer holds glyph ids and bytes, never
/// a shaping engine: the engine's shaped runs (issue 33's later increments) come through the same seam. Only
/// `PDFDocument.loadFont(path:)` makes a `FontFace`, for the callers that give a path.
public protocol PDFFontProgram: AnyObject, Sendable {
    var path: String { get }
    var familyName: String? { get }
    var styleName: String? { get }
    /// A PDF-safe name, the font dictionaries' /BaseFont after the subset's tag.
    var postScriptName: String { get }
    var unitsPerEm: Int { get }
    var ascender: Int { get }
    var descender: Int { get }
    var capHeight: Int { get }
    var xHeight: Int { get }
    /// xMin, yMin, xMax, yMax of all glyphs, in font units.
    var boundingBox: [Int] { get }
    var italicAngle: Double { get }
    /// TrueType (a CIDFontType2) or CFF (a CIDFontType0).
    var outlines: FontOutlines { get }
    /// Bytes that tell this face from another; the subset's tag is a digest of them and the glyphs.
    var identity: [UInt8] { get }
    /// The font's glyph for `scalar`, nil when it has none.
    func glyph(for scalar: Unicode.Scalar) -> UInt32?
    /// The advance of `glyph` in font units.
    func advance(of glyph: UInt32) -> Int
    /// The code the page shows for `glyph`, and the CID /W and ToUnicode key it by: its CID in a CID-keyed CFF,
    /// else the glyph id.
    func code(of glyph: UInt32) -> UInt32
    /// The font program holding `glyphs`: a TrueType font with the glyphs at their own ids (FontFile2), or a bare
    /// CFF table (FontFile3 /CIDFontType0C) whose glyphs the codes reach; the error's reason is in words for the user.
    func subset(glyphs: [UInt32]) throws(FontFileProblem) -> [UInt8]
}

extension FontFace: PDFFontProgram {}

/// One glyph written on a page and the character it stands for (for the font's ToUnicode map).
struct DrawnGlyph: Equatable {
    let glyph: UInt32
    let scalar: Unicode.Scalar
    /// Drawn for a character the font lacks: the font's replacement character (U+FFFD), else .notdef.
    var isPlaceholder = false
}

extension PDFFontProgram {
    /// The glyphs `text` is drawn with, one per character, in one place so that measuring and drawing agree:
    /// a control character is drawn as a space (a tab is a gap), a character the font lacks as the font's
    /// replacement character �, else .notdef (0).
    ///
    /// Trap: poppler and Ghostscript draw nothing for .notdef (glyph 0) in a CID font, though DejaVu Sans's is a
    /// box: a character no font has printed blank, so it is drawn as � (U+FFFD), which they do draw.
    func drawnGlyphs(of text: String) -> [DrawnGlyph] {
        let placeholder = glyph(for: "\u{FFFD}") ?? 0
        return text.unicodeScalars.map { scalar in
            let drawn: Unicode.Scalar = scalar.value < 0x20 || scalar.value == 0x7F ? " " : scalar
            guard let found = glyph(for: drawn) else { return DrawnGlyph(glyph: placeholder, scalar: drawn, isPlaceholder: true) }
            return DrawnGlyph(glyph: found, scalar: drawn)
        }
    }

    /// A glyph's advance in whole thousandths of the em, rounded down: the number the font's /W array gives
    /// it, so a line is exactly as wide on the page as measured (libharu measured the same way).
    func thousandths(of glyph: UInt32) -> Int {
        advance(of: glyph) * 1000 / unitsPerEm
    }

    /// A font-unit metric in whole thousandths of the em, rounded toward zero, as libharu gave them.
    func thousandths(units: Int) -> Int {
        units * 1000 / unitsPerEm
    }

    /// The advance width of `text` at `size` points: the sum of its glyphs' advances, no kerning.
    func width(of text: String, size: Double) -> Double {
        Double(drawnGlyphs(of: text).reduce(0) { $0 + thousandths(of: $1.glyph) }) * size / 1000
    }

    /// True when the font has a glyph of its own for `scalar` (not .notdef); control characters never.
    func covers(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x20, scalar.value != 0x7F else { return false }
        return glyph(for: scalar) != nil
    }
}
