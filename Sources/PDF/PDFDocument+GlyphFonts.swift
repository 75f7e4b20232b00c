import CHaru

/// Our own font objects, written with libharu's object API because its own TrueType embedding has no way to
/// show a glyph id, reads only the BMP, and loses nested composite glyphs' components from its subset
/// (issue 33: "Βόλτα το απόγευμα" printed every ο blank). See docs/research/words.md §4.
///
///     Type0 /Identity-H --DescendantFonts--> CIDFontType2 /CIDToGIDMap /Identity /W [...]
///       \--ToUnicode (code -> character)           \--FontDescriptor --FontFile2 (HarfBuzz's subset)
///
/// CFF outlines: CIDFontType0 (no CIDToGIDMap) and FontFile3 /Subtype /CIDFontType0C, the subset's bare CFF table;
/// codes are CIDs for a CID-keyed CFF (`PDFFontProgram.code(of:)`), glyph ids otherwise.
extension PDFDocument {
    /// Completes every font's objects before the file is written: called by `save(to:)`.
    func writeGlyphFonts() throws(PDFError) {
        for font in glyphFonts where !font.isWritten {
            try writeGlyphFont(font)
            font.isWritten = true
        }
    }

    private func writeGlyphFont(_ font: EmbeddedGlyphFont) throws(PDFError) {
        let program = font.program
        let handle = self.handle
        let (mmgr, xref) = (handle.pointee.mmgr, handle.pointee.xref)
        let during = "writing the font '\(program.path)'"
        // .notdef too: a reader draws it for a code it cannot map, and it is every subset's glyph 0.
        let glyphs = font.drawn.union([0]).sorted()
        let bytes: [UInt8]
        do {
            bytes = try program.subset(glyphs: glyphs)
        } catch {
            throw .font(path: program.path, reason: error.reason)
        }
        let baseFont = Self.subsetTag(program, glyphs) + "+" + program.postScriptName

        func status(_ call: () -> HPDF_STATUS) throws(PDFError) { try haruStatus(during, call) }
        func dict() throws(PDFError) -> HPDF_Dict {
            let made = try haruObject(during) { HPDF_Dict_New(mmgr) }
            try status { HPDF_Xref_Add(xref, made) }
            return made
        }
        func array(_ numbers: [Int]) throws(PDFError) -> HPDF_Array {
            let made = try haruObject(during) { HPDF_Array_New(mmgr) }
            for number in numbers { try status { HPDF_Array_AddNumber(made, HPDF_INT32(number)) } }
            return made
        }
        func stream(_ write: (HPDF_Stream) -> HPDF_STATUS) throws(PDFError) -> HPDF_Dict {
            let made = try haruObject(during) { HPDF_DictStream_New(mmgr, xref) }
            try status { write(made.pointee.stream) }
            // Trap: libharu sets the Flate filter only on streams it made for its own fonts and pages; a stream
            // made by hand would go out uncompressed.
            made.pointee.filter = HPDF_UINT(HPDF_STREAM_FILTER_FLATE_DECODE)
            return made
        }

        let isCFF = program.outlines != .trueType
        let file = try stream { out in bytes.withUnsafeBufferPointer { HPDF_Stream_Write(out, $0.baseAddress, HPDF_UINT($0.count)) } }
        if isCFF {
            try status { HPDF_Dict_AddName(file, "Subtype", "CIDFontType0C") }
        } else {
            try status { HPDF_Dict_AddNumber(file, "Length1", HPDF_INT32(bytes.count)) }
        }

        let descriptor = try dict()
        try status { HPDF_Dict_AddName(descriptor, "Type", "FontDescriptor") }
        try status { HPDF_Dict_AddName(descriptor, "FontName", baseFont) }
        // Symbolic (4): the font's glyphs are reached by id, not through a standard encoding.
        try status { HPDF_Dict_AddNumber(descriptor, "Flags", 4) }
        let box = try array(program.boundingBox.map { program.thousandths(units: $0) })
        try status { HPDF_Dict_Add(descriptor, "FontBBox", box) }
        try status { HPDF_Dict_AddReal(descriptor, "ItalicAngle", HPDF_REAL(program.italicAngle)) }
        try status { HPDF_Dict_AddNumber(descriptor, "Ascent", HPDF_INT32(program.thousandths(units: program.ascender))) }
        try status { HPDF_Dict_AddNumber(descriptor, "Descent", HPDF_INT32(program.thousandths(units: program.descender))) }
        try status { HPDF_Dict_AddNumber(descriptor, "CapHeight", HPDF_INT32(program.thousandths(units: program.capHeight))) }
        // Required, and unknown for a TrueType font; 80 is what libharu and most writers give.
        try status { HPDF_Dict_AddNumber(descriptor, "StemV", 80) }
        try status { HPDF_Dict_Add(descriptor, isCFF ? "FontFile3" : "FontFile2", file) }

        let cidFont = try dict()
        try status { HPDF_Dict_AddName(cidFont, "Type", "Font") }
        try status { HPDF_Dict_AddName(cidFont, "Subtype", isCFF ? "CIDFontType0" : "CIDFontType2") }
        try status { HPDF_Dict_AddName(cidFont, "BaseFont", baseFont) }
        let system = try haruObject(during) { HPDF_Dict_New(mmgr) }
        let registry = try haruObject(during) { HPDF_String_New(mmgr, "Adobe", nil) }
        let ordering = try haruObject(during) { HPDF_String_New(mmgr, "Identity", nil) }
        try status { HPDF_Dict_Add(system, "Registry", registry) }
        try status { HPDF_Dict_Add(system, "Ordering", ordering) }
        try status { HPDF_Dict_AddNumber(system, "Supplement", 0) }
        try status { HPDF_Dict_Add(cidFont, "CIDSystemInfo", system) }
        try status { HPDF_Dict_Add(cidFont, "FontDescriptor", descriptor) }
        // The TrueType subset keeps every glyph at its id (HB_SUBSET_FLAGS_RETAIN_GIDS): the code on the page, the
        // CID and the glyph id are one number. A CIDFontType0 has no such map: the CFF's charset is it.
        if !isCFF { try status { HPDF_Dict_AddName(cidFont, "CIDToGIDMap", "Identity") } }
        try status { HPDF_Dict_AddNumber(cidFont, "DW", HPDF_INT32(program.thousandths(of: 0))) }
        let widths = try haruObject(during) { HPDF_Array_New(mmgr) }
        // /W as runs of consecutive codes: [first [w w w] first [w] ...], the widths PDFFont.width measures with.
        let coded = glyphs.map { (code: program.code(of: $0), width: program.thousandths(of: $0)) }.sorted { $0.code < $1.code }
        var index = 0
        while index < coded.count {
            var end = index + 1
            while end < coded.count, coded[end].code == coded[end - 1].code + 1 { end += 1 }
            let run = try array(coded[index..<end].map(\.width))
            try status { HPDF_Array_AddNumber(widths, HPDF_INT32(coded[index].code)) }
            try status { HPDF_Array_Add(widths, run) }
            index = end
        }
        try status { HPDF_Dict_Add(cidFont, "W", widths) }

        let text = Dictionary(font.text.map { (program.code(of: $0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        let toUnicode = try stream { HPDF_Stream_WriteStr($0, GlyphToUnicodeCMap.text(text)) }

        let type0 = font.type0
        try status { HPDF_Dict_AddName(type0, "Type", "Font") }
        try status { HPDF_Dict_AddName(type0, "Subtype", "Type0") }
        try status { HPDF_Dict_AddName(type0, "BaseFont", baseFont) }
        try status { HPDF_Dict_AddName(type0, "Encoding", "Identity-H") }
        let descendants = try haruObject(during) { HPDF_Array_New(mmgr) }
        try status { HPDF_Array_Add(descendants, cidFont) }
        try status { HPDF_Dict_Add(type0, "DescendantFonts", descendants) }
        try status { HPDF_Dict_Add(type0, "ToUnicode", toUnicode) }
    }

    /// The six capital letters before a subset's name (PDF 32000 9.6.4), from an MD5 of the face and the glyph
    /// set: the same book gives the same tag, and another subset of the same face another tag.
    static func subsetTag(_ program: any PDFFontProgram, _ glyphs: [UInt32]) -> String {
        var digest = PDFDigest()
        digest.add(program.identity)
        for glyph in glyphs { digest.add(String(glyph)) }
        let letters = digest.finish().prefix(6).map { Character(Unicode.Scalar(UInt8(ascii: "A") + $0 % 26)) }
        return String(letters)
    }
}
