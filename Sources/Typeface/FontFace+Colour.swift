internal import CHarfBuzz

/// One glyph of a colour bitmap face as a picture: its PNG, and the box it fills, in font units from the glyph's
/// origin (y up), as `hb_font_get_glyph_extents` gives it.
public struct ColourGlyph: Sendable, Equatable {
    /// The PNG file the font holds for the glyph, at its largest size (Noto Color Emoji: 136 x 128 pixels at 109
    /// pixels to the em).
    public let png: [UInt8]
    /// Left edge, from the origin.
    public let left: Int
    /// Top edge, above the baseline.
    public let top: Int
    public let width: Int
    /// Downwards from `top`: positive here (HarfBuzz gives it negative).
    public let height: Int
}

extension FontFace {
    /// True for a face whose glyphs are colour pictures and not outlines (`FontOutlines.colourBitmaps`).
    public var drawsInColour: Bool { outlines == .colourBitmaps }

    /// `glyph` as a picture: the PNG of the face's largest strike (`hb_ot_color_glyph_reference_png` on a font with
    /// no ppem set takes the largest) and the box it is drawn in; nil for a glyph with no picture (a space), or a
    /// face with no colour bitmaps.
    public func colourBitmap(of glyph: UInt32) -> ColourGlyph? {
        guard drawsInColour else { return nil }
        let blob = hb_ot_color_glyph_reference_png(font, glyph)
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        var extents = hb_glyph_extents_t()
        guard let data = hb_blob_get_data(blob, &length), length > 8,
              hb_font_get_glyph_extents(font, glyph, &extents) != 0, extents.width > 0, extents.height < 0 else {
            return nil
        }
        let png = data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
        return ColourGlyph(png: png, left: Int(extents.x_bearing), top: Int(extents.y_bearing),
                           width: Int(extents.width), height: Int(-extents.height))
    }
}
