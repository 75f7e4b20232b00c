import CHaru

/// What a loaded TrueType font file says of itself: its names and its vertical metrics. One value for the font a
/// page draws with (`PDFFont`) and the font the planner measures with (`PDFFontMetrics`), so both read the same.
public struct PDFFontFace: Sendable, Equatable {
    /// The font file, as given.
    public let path: String
    /// The family name from the font's name table ("DejaVu Sans"), else libharu's PostScript-based name.
    public let name: String
    /// The style within the family from the name table ("Book", "Bold"), or "" when the font names none.
    public let styleName: String
    /// Vertical metrics per point of font size (multiply by the size for points): the ascender above the
    /// baseline, the descender below it (negative), the height of a capital H and of a lower-case x.
    public let ascent: Double
    public let descent: Double
    public let capHeight: Double
    public let xHeight: Double

    init(path: String, handle: HPDF_Font, file: TrueTypeFile) {
        self.path = path
        name = file.familyName ?? String(cString: HPDF_Font_GetFontName(handle))
        styleName = file.styleName ?? ""
        // libharu gives these in thousandths of the em (hhea ascender/descender, the bboxes of 'H' and 'x').
        ascent = Double(HPDF_Font_GetAscent(handle)) / 1000
        descent = Double(HPDF_Font_GetDescent(handle)) / 1000
        capHeight = Double(HPDF_Font_GetCapHeight(handle)) / 1000
        xHeight = Double(HPDF_Font_GetXHeight(handle)) / 1000
    }
}
