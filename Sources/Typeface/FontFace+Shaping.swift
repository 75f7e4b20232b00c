internal import CHarfBuzz

/// The direction a run of text is set in: what HarfBuzz shapes it as (Arabic joins and Hebrew reads only right
/// to left), and which way its glyphs are read back (`PDFPage.drawGlyphs` writes them in logical order).
public enum TextDirection: Sendable, Equatable {
    case leftToRight, rightToLeft
    /// Vertical writing, a column read top to bottom with upright glyphs (a Japanese or Chinese spine): HarfBuzz's
    /// `HB_DIRECTION_TTB`, which picks the `vert`/`vrt2` forms (「 turned for a column, 、 and 。 moved to the top
    /// right of their cell) and advances each glyph down the column.
    case topToBottom
}

/// One glyph of shaped text, placed as HarfBuzz placed it: what a page draws, in font units.
public struct ShapedGlyph: Sendable, Equatable {
    public let glyph: UInt32
    /// The offset, in Unicode scalars of the text shaped, of the first scalar of the glyph's cluster.
    public let cluster: Int
    /// HarfBuzz's advances and offsets, in font units. Horizontal text advances along x only (`yAdvance` 0);
    /// a top-to-bottom column along y only, downward, so `yAdvance` is negative (-1000 for an ideograph of Noto
    /// Sans CJK), and the offsets then place the glyph's horizontal origin from the pen, which is the top centre
    /// of its cell (-500, -880 in Noto Sans CJK).
    public let xAdvance: Int
    public let xOffset: Int
    public let yOffset: Int
    public let yAdvance: Int

    public init(glyph: UInt32, cluster: Int, xAdvance: Int, xOffset: Int = 0, yOffset: Int = 0, yAdvance: Int = 0) {
        self.glyph = glyph
        self.cluster = cluster
        self.xAdvance = xAdvance
        self.xOffset = xOffset
        self.yOffset = yOffset
        self.yAdvance = yAdvance
    }
}

extension FontFace {
    /// The most combining marks (non-starters) kept in a row after a base: UAX #15's stream-safe limit. HarfBuzz 6
    /// takes time quadratic in the marks of one cluster ("a" + 100,000 U+0301: 12.7 s, docs/research/words.md §3.6);
    /// no script writes more than a handful, so `shape` drops the rest and `capMarks` says how many went.
    public static let maxMarksPerCluster = 30

    /// `text` with at most `maxMarksPerCluster` non-starters in a row, the rest dropped, and how many were dropped:
    /// what `shape` shapes, for a caller that warns about it.
    ///
    /// A non-starter is a scalar of canonical combining class other than 0 or of general category Mn or Me. A
    /// default-ignorable scalar (ZWSP, ZWJ, WJ...) between non-starters counts as one of them rather than ending
    /// the row: HarfBuzz attaches a mark across it to the same base, so "a" + 10,000 × (U+0301 U+200B) is as slow
    /// as 10,000 marks in a row (2 s, measured with hb-shape 6.0), and it is invisible anyway.
    public static func capMarks(_ text: String) -> (text: String, dropped: Int) {
        let kept = markCapped(text)
        let dropped = text.unicodeScalars.count - kept.scalars.count
        guard dropped > 0 else { return (text, 0) }
        var capped = String.UnicodeScalarView()
        for value in kept.scalars { capped.append(Unicode.Scalar(value)!) }
        return (String(capped), dropped)
    }

    /// The scalars of `text` that `capMarks` keeps, and each one's offset in `text`: clusters are given in the
    /// offsets of the text as typed, whatever the cap dropped.
    private static func markCapped(_ text: String) -> (scalars: [UInt32], offsets: [Int]) {
        var scalars: [UInt32] = []
        var offsets: [Int] = []
        var row = 0
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if isNonStarter(scalar) || (row > 0 && scalar.properties.isDefaultIgnorableCodePoint) {
                row += 1
                if row > maxMarksPerCluster { continue }
            } else {
                row = 0
            }
            scalars.append(scalar.value)
            offsets.append(offset)
        }
        return (scalars, offsets)
    }

    /// Canonical combining class other than 0, or a nonspacing or enclosing mark.
    private static func isNonStarter(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.canonicalCombiningClass.rawValue != 0
            || properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark
    }

    /// `text` shaped with HarfBuzz (hb_shape, default features: kerning, ligatures, Arabic joining, Indic reordering,
    /// mark positioning) in `direction`, with `script` (ISO 15924, e.g. "Arab"; nil: the script of the first
    /// character that has one of its own, as HarfBuzz would guess it) and `language` (BCP 47, e.g. "ja", "zh-Hant";
    /// it selects `locl` forms; nil: none, never the process's locale, so that a book does not change with `LANG`).
    ///
    /// Glyphs in VISUAL order, left to right (as HarfBuzz returns them for both horizontal directions), or top to
    /// bottom for `.topToBottom`, in font units.
    /// The text is shaped whole, as a paragraph of its own (`HB_BUFFER_FLAG_BOT | EOT`: a leading mark gets a
    /// dotted circle), with HarfBuzz's default cluster level (monotone graphemes: clusters ascend for left to
    /// right and top to bottom, descend for right to left).
    /// Default ignorables (bidi controls, ZWJ as a glyph) are removed from the output
    /// (`HB_BUFFER_FLAG_REMOVE_DEFAULT_IGNORABLES`), and marks beyond `maxMarksPerCluster` in a row dropped before
    /// shaping (`capMarks`); clusters still index the scalars of `text` as given.
    /// Thread-safe: the font is immutable and each call has its own `hb_buffer_t`.
    ///
    /// Top to bottom, HarfBuzz takes the vertical metrics (vhea, vmtx, VORG) when the font has them: Noto Sans CJK
    /// advances an ideograph (0, -1000) with its horizontal origin at (-500, -880) from the pen. A font without
    /// them still shapes: HarfBuzz 6 synthesises an advance of the font's line height (hhea ascender - descender,
    /// DejaVu Sans 2384 of 2048 units, whatever the glyph) and an offset that centres the glyph's ink in that
    /// cell: minus half its horizontal advance across, and down by its top plus half the room its ink leaves
    /// (DejaVu Sans: "A" (-700, -1938) = -(1493 + (2384 - 1493) / 2), "b" (-650, -1955)): a Latin letter upright
    /// in a roomy cell, readable but not how a book sets it.
    public func shape(_ text: String, direction: TextDirection, script: String? = nil, language: String? = nil) -> [ShapedGlyph] {
        let (scalars, offsets) = Self.markCapped(text)
        guard !scalars.isEmpty, scalars.count <= Int(Int32.max) else { return [] }

        guard let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_codepoints(buffer, scalars, Int32(scalars.count), 0, Int32(scalars.count))
        hb_buffer_set_direction(buffer, Self.harfBuzzDirection(direction))
        hb_buffer_set_script(buffer, Self.script(script, of: text))
        if let language, !language.isEmpty {
            hb_buffer_set_language(buffer, hb_language_from_string(language, Int32(language.utf8.count)))
        }
        hb_buffer_set_flags(buffer, hb_buffer_flags_t(HB_BUFFER_FLAG_BOT.rawValue | HB_BUFFER_FLAG_EOT.rawValue
                                                      | HB_BUFFER_FLAG_REMOVE_DEFAULT_IGNORABLES.rawValue))
        hb_shape(font, buffer, nil, 0)
        // hb_shape leaves an empty buffer when it runs out of memory (its "in error" state).
        guard hb_buffer_allocation_successful(buffer) != 0 else { return [] }

        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), count > 0 else { return [] }
        guard let positions = hb_buffer_get_glyph_positions(buffer, nil) else { return [] }
        return (0..<Int(count)).map { index in
            let info = infos[index], position = positions[index]
            let shaped = Int(info.cluster)
            return ShapedGlyph(glyph: info.codepoint, cluster: shaped < offsets.count ? offsets[shaped] : text.unicodeScalars.count,
                               xAdvance: Int(position.x_advance), xOffset: Int(position.x_offset), yOffset: Int(position.y_offset),
                               yAdvance: Int(position.y_advance))
        }
    }

    /// How wide a column of this face is, per point of size, in em: the horizontal advance of an ideograph (水,
    /// U+6C34, the glyph CSS's `ic` unit measures) over the units per em, or 1 em when the face has none. What a
    /// layout gives a vertical title's column across (Noto Sans CJK: exactly 1.0).
    public var verticalColumnWidth: Double {
        guard let ideograph = glyph(for: "\u{6C34}"), unitsPerEm > 0 else { return 1 }
        let advance = advance(of: ideograph)
        return advance > 0 ? Double(advance) / Double(unitsPerEm) : 1
    }

    private static func harfBuzzDirection(_ direction: TextDirection) -> hb_direction_t {
        switch direction {
        case .leftToRight: HB_DIRECTION_LTR
        case .rightToLeft: HB_DIRECTION_RTL
        case .topToBottom: HB_DIRECTION_TTB
        }
    }

    /// The HarfBuzz script of an ISO 15924 code, or else of the first scalar of `text` that is not common,
    /// inherited or unknown (what `hb_buffer_guess_segment_properties` does, without its guess of the language).
    private static func script(_ code: String?, of text: String) -> hb_script_t {
        if let code, code.utf8.count == 4 {
            let script = hb_script_from_string(code, 4)
            if script != HB_SCRIPT_UNKNOWN && script != HB_SCRIPT_INVALID { return script }
        }
        let functions = hb_unicode_funcs_get_default()
        for scalar in text.unicodeScalars {
            let script = hb_unicode_script(functions, scalar.value)
            if script != HB_SCRIPT_COMMON && script != HB_SCRIPT_INHERITED && script != HB_SCRIPT_UNKNOWN { return script }
        }
        return HB_SCRIPT_COMMON
    }
}
