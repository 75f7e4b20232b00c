/// What a loaded TrueType font file says of itself: its names and its vertical metrics. One value for the font a
/// page draws with (`PDFFont`) and the font the planner measures with (`PDFFontMetrics`), so both read the same.
public struct PDFFontFace: Sendable, Equatable {
    /// The font file, as given.
    public let path: String
    /// The family name from the font's name table ("DejaVu Sans"), else its PostScript name.
    public let name: String
    /// The style within the family from the name table ("Book", "Bold"), or "" when the font names none.
    public let styleName: String
    /// Vertical metrics per point of font size (multiply by the size for points): the ascender above the
    /// baseline, the descender below it (negative), the height of a capital H and of a lower-case x.
    public let ascent: Double
    public let descent: Double
    public let capHeight: Double
    public let xHeight: Double

    init(_ program: some PDFFontProgram) {
        path = program.path
        name = program.familyName ?? program.postScriptName
        styleName = program.styleName ?? ""
        // In whole thousandths of the em (hhea ascender/descender, the tops of 'H' and 'x'), as the font
        // descriptor gives them and as libharu gave them before: layouts did not move when it went.
        ascent = Double(program.thousandths(units: program.ascender)) / 1000
        descent = Double(program.thousandths(units: program.descender)) / 1000
        capHeight = Double(program.thousandths(units: program.capHeight)) / 1000
        xHeight = Double(program.thousandths(units: program.xHeight)) / 1000
    }
}
