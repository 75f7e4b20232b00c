import CHaru
import Typeface

/// One font of a document: its program, the Type0 dictionary pages name it by, and every glyph drawn with it
/// and the character it stands for. Held by the document (not `PDFFont`, which keeps the document alive).
final class EmbeddedGlyphFont {
    let program: any PDFFontProgram
    let face: PDFFontFace
    /// Made at load, so that pages can name it in their resources; filled at save (`writeGlyphFont`).
    let type0: HPDF_Dict
    /// What each glyph drawn stands for, the first text drawn with it: the ToUnicode map. Usually one character;
    /// a ligature or a shaped form stands for its cluster's characters.
    private(set) var text: [UInt32: [Unicode.Scalar]] = [:]
    /// Every glyph drawn, mapped or not: the subset.
    private(set) var drawn: Set<UInt32> = []
    /// Set once the font's objects are complete; a second save writes them as they are.
    var isWritten = false

    init(program: any PDFFontProgram, type0: HPDF_Dict) {
        self.program = program
        face = PDFFontFace(program)
        self.type0 = type0
    }

    /// Records what each glyph drawn stands for, the first character drawn with it; .notdef (0) stands for
    /// none. Returns true when the glyphs would not extract as the characters drawn (a character the font
    /// lacks; a glyph the font draws for two characters, such as Ω for U+03A9 and U+2126): that line then
    /// carries its text as /ActualText.
    func note(_ glyphs: [DrawnGlyph]) -> Bool {
        var extractsAsDrawn = true
        for drawn in glyphs {
            self.drawn.insert(drawn.glyph)
            guard drawn.glyph != 0 else { extractsAsDrawn = false; continue }
            if drawn.isPlaceholder {
                // The replacement character stands for itself in the ToUnicode map; the line says what it replaced.
                extractsAsDrawn = false
                if text[drawn.glyph] == nil { text[drawn.glyph] = ["\u{FFFD}"] }
                continue
            }
            if let known = text[drawn.glyph] {
                if known != [drawn.scalar] { extractsAsDrawn = false }
            } else {
                text[drawn.glyph] = [drawn.scalar]
            }
        }
        return !extractsAsDrawn
    }

    /// Records a shaped run's glyphs (`glyphs`, the ids drawn, by index of the run's glyphs: .notdef already
    /// replaced by the placeholder) as `PDFGlyphRun.meanings` says, each glyph keeping the first text it was drawn
    /// for. Returns true when some cluster would not extract as its text from its glyphs alone: not plain
    /// (Devanagari's reordered vowel sign, a conjunct drawn in several glyphs), a glyph met before for other
    /// text, a placeholder. A left-to-right run then carries its text as /ActualText.
    func note(_ run: PDFGlyphRun, drawing glyphs: [UInt32]) -> Bool {
        let placeholder = program.glyph(for: "\u{FFFD}")
        let (meanings, clusters) = run.meanings(in: program)
        var extractsAsDrawn = true
        for (index, glyph) in glyphs.enumerated() {
            drawn.insert(glyph)
            if run.glyphs[index].glyph == 0 && glyph == placeholder {
                extractsAsDrawn = false
                if text[glyph] == nil { text[glyph] = ["\u{FFFD}"] }
            } else if glyph != 0, text[glyph] == nil, !meanings[index].isEmpty {
                // Trap: poppler spreads a glyph's several characters left to right across it and then reads a
                // right-to-left line from the right: lam-alef mapped to U+0644 U+0627 came out alef-lam. Such a
                // glyph is only ever drawn right to left, so its characters are mapped the other way round.
                text[glyph] = run.direction == .rightToLeft ? meanings[index].reversed() : meanings[index]
            }
        }
        // What a reader gives back: each glyph's ToUnicode text in the order written. Invisible characters
        // (joiners, bidi controls) have no glyph and none is expected of them.
        let visible = { (scalars: [Unicode.Scalar]) in scalars.filter { !$0.properties.isDefaultIgnorableCodePoint } }
        for cluster in clusters where extractsAsDrawn {
            let read = cluster.glyphs.map { text[glyphs[$0]] ?? [] }
            if !cluster.isPlain || read.contains(where: \.isEmpty) || visible(read.flatMap { $0 }) != visible(cluster.text) {
                extractsAsDrawn = false
            }
        }
        return !extractsAsDrawn
    }
}

extension PDFDocument {
    /// The TrueType font at `path`, to draw on this document's pages; loading the same path again returns the
    /// same font. Read through Typeface (HarfBuzz); embedded at save as a subset of the glyphs drawn.
    ///
    /// A file that is missing, not a TrueType font (a collection, CFF outlines), damaged, or whose licence
    /// forbids embedding throws `.font` naming the file and the reason, as `PDFFontMetrics(path:)` does.
    public func loadFont(path: String) throws(PDFError) -> PDFFont {
        if let loaded = glyphFonts.first(where: { $0.program.path == path }) { return PDFFont(loaded, document: self) }
        let program: FontFace
        do {
            program = try FontFace(path: path)
        } catch {
            throw .font(path: path, reason: error.reason)
        }
        return PDFFont(try addGlyphFont(program), document: self)
    }

    /// A face already read (one the planner measured with, found by fontconfig), to draw on this document's pages;
    /// loading the same face, or one read from the same path, again returns the same font.
    public func loadFont(face: FontFace) throws(PDFError) -> PDFFont {
        if let loaded = glyphFonts.first(where: { $0.program === face || $0.program.path == face.path }) {
            return PDFFont(loaded, document: self)
        }
        return PDFFont(try addGlyphFont(face), document: self)
    }

    /// Registers `program` as a font of this document: an empty Type0 dictionary in the cross-reference table
    /// now (`HPDF_Dict_New`, `HPDF_Xref_Add`), its contents at save.
    func addGlyphFont(_ program: any PDFFontProgram) throws(PDFError) -> EmbeddedGlyphFont {
        guard program.outlines != .colourBitmaps else {
            throw .font(path: program.path, reason: "a colour emoji font: its glyphs are pictures, not outlines a PDF "
                        + "font can hold (PDFPage.drawColourGlyphs draws them)")
        }
        let handle = self.handle
        let during = "adding the font '\(program.path)'"
        let type0 = try haruObject(during) { HPDF_Dict_New(handle.pointee.mmgr) }
        try haruStatus(during) { HPDF_Xref_Add(handle.pointee.xref, type0) }
        let font = EmbeddedGlyphFont(program: program, type0: type0)
        // In load order, never a dictionary's: the fonts' objects are written in this order, the same each run.
        glyphFonts.append(font)
        return font
    }
}
