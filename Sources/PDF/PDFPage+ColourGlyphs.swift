import CHaru
import Geometry
import Typeface

/// A colour glyph's picture in a document: one per face and glyph.
struct ColourGlyphKey: Hashable {
    let face: String
    let glyph: UInt32
}

/// A colour glyph embedded in a document, and the box it fills in font units (`ColourGlyph`'s, without its PNG).
struct ColourGlyphPicture {
    let image: PDFImage
    let left: Int, top: Int, width: Int, height: Int
}

extension PDFPage {
    /// Draws a run of a colour bitmap face (Noto Color Emoji) as pictures: each glyph's PNG, embedded once per
    /// document (libharu's PNG loader: its alpha becomes a soft mask, so an emoji over a photo shows the photo
    /// round it), in the box the font gives it at HarfBuzz's position, where `drawGlyphs` would have drawn an
    /// outline: from (x, y) along the baseline, turned down the page with `turned`, or down a column from its top
    /// centre for a `.topToBottom` run. The run ends `PDFPage.colourRunWidth(run, face:, size:)` from its start.
    ///
    /// Pictures are no text: so that the words still copy and search as typed, the run's text goes over them as
    /// /ActualText of one invisible (render mode 3) space of `textFont` stretched across the run (poppler gives an
    /// ActualText back only for text drawn inside its span). Under PDF/X the pictures take the output intent's RGB
    /// profile, as photos do; a book that may hold no soft mask (PDF/X-1a) must not draw colour glyphs at all.
    public func drawColourGlyphs(_ run: PDFGlyphRun, face: FontFace, size: Double, x: Double, y: Double,
                                 turned: Bool = false, textFont: PDFFont? = nil) throws(PDFError) {
        precondition(face.drawsInColour, "PDFPage.drawColourGlyphs: \(face.path) has outlines, draw it as text")
        precondition([x, y, size].allSatisfy(\.isFinite) && size > 0, "PDFPage.drawColourGlyphs: bad size or place")
        guard !run.glyphs.isEmpty else { return }
        let scale = size / Double(face.unitsPerEm)
        let column = run.direction == .topToBottom
        var pen = (x: 0, y: 0)
        for glyph in run.glyphs {
            defer { pen = (pen.x + glyph.xAdvance, pen.y + glyph.yAdvance) }
            guard let box = try colourGlyphPicture(face, glyph.glyph) else { continue }
            // The glyph's origin in text space: along the line and across it (a column: x and y from its top centre).
            let along = Double(pen.x + glyph.xOffset) * scale
            let across = Double(pen.y + glyph.yOffset) * scale
            let left = Double(box.left) * scale, top = Double(box.top) * scale
            let width = Double(box.width) * scale, height = Double(box.height) * scale
            if turned {
                // Text space [0 -1 1 0 x y]: along runs down the page, up is to the right; the picture turned a
                // quarter clockwise (EXIF orientation 6).
                let rect = Rect(x: x + across + top - height, y: y - along - left - width, width: height, height: width)
                try draw(box.image, in: rect, orientation: 6)
            } else {
                try draw(box.image, in: Rect(x: x + along + left, y: y + across + top - height, width: width, height: height))
            }
        }
        if let textFont {
            let length = Self.colourRunWidth(run, face: face, size: size)
            try writeInvisibleText(run.text, font: textFont, size: size, x: x, y: y, length: length,
                                   down: turned || column)
        }
    }

    /// The width of a colour run at `size` (its length, for a column): the sum of its advances, as for outlines.
    public static func colourRunWidth(_ run: PDFGlyphRun, face: FontFace, size: Double) -> Double {
        let units = run.direction == .topToBottom ? -run.glyphs.reduce(0) { $0 + $1.yAdvance }
            : run.glyphs.reduce(0) { $0 + $1.xAdvance }
        return Double(units) * size / Double(face.unitsPerEm)
    }

    /// The picture of `glyph` and its box, read from the font and embedded on first use; nil for a glyph without
    /// one (a space).
    private func colourGlyphPicture(_ face: FontFace, _ glyph: UInt32) throws(PDFError) -> ColourGlyphPicture? {
        let key = ColourGlyphKey(face: face.path, glyph: glyph)
        if let known = document.colourGlyphImages[key] { return known }
        var picture: ColourGlyphPicture?
        if let bitmap = face.colourBitmap(of: glyph) {
            let image = try document.loadPNG(bitmap.png, during: "embedding glyph \(glyph) of \(face.path)")
            picture = ColourGlyphPicture(image: image, left: bitmap.left, top: bitmap.top, width: bitmap.width,
                                         height: bitmap.height)
        }
        document.colourGlyphImages[key] = .some(picture)
        return picture
    }

    /// `text` as /ActualText of one invisible space of `font` that spans `length` points from (x, y), along the
    /// baseline or (`down`) down the page.
    private func writeInvisibleText(_ text: String, font: PDFFont, size: Double, x: Double, y: Double,
                                    length: Double, down: Bool) throws(PDFError) {
        let program = font.embedded.program
        guard let space = program.glyph(for: " "), length > 0 else { return }
        let advance = Double(program.thousandths(of: space)) * size / 1000
        guard advance > 0 else { return }
        _ = font.embedded.note([DrawnGlyph(glyph: space, scalar: " ")])
        let during = "writing the text of the pictures of '\(text.prefix(40))'"
        let page = handle
        let name = try document.haruObject(during) { HPDF_Page_GetLocalFontName(page, font.embedded.type0) }
        let stretch = Self.number(length / advance * 100)
        let matrix = down ? "0 -1 1 0 " : "1 0 0 1 "
        let content = "/Span <</ActualText <FEFF" + text.utf16.map { GlyphToUnicodeCMap.hex($0) }.joined() + ">>> BDC\n"
            + "/" + String(cString: name) + " " + Self.number(size) + " Tf 3 Tr " + stretch + " Tz\n"
            + matrix + Self.number(Self.rounded(x)) + " " + Self.number(Self.rounded(y)) + " Tm\n"
            + "<" + GlyphToUnicodeCMap.hex(UInt16(truncatingIfNeeded: program.code(of: space))) + "> Tj\nEMC\n"
        try inTextObject(gray: 0, during: during) { stream throws(PDFError) in
            try document.haruStatus(during) { HPDF_Stream_WriteStr(stream, content) }
        }
    }
}

extension PDFDocument {
    /// A PNG embedded as an image (`HPDF_LoadPngImageFromMem`: its alpha or transparent palette entries become a
    /// soft mask); under PDF/X an RGB one takes the output intent's RGB profile, as photos do.
    func loadPNG(_ bytes: [UInt8], during: String) throws(PDFError) -> PDFImage {
        guard let count = HPDF_UINT(exactly: bytes.count),
              bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw .libharu(status: UInt(HPDF_INVALID_PNG_IMAGE), detail: 0, during: during + ": not a PNG")
        }
        let handle = self.handle
        let image = try haruObject(during) {
            bytes.withUnsafeBufferPointer { HPDF_LoadPngImageFromMem(handle, $0.baseAddress, count) }
        }
        let width = try haru(during, { HPDF_Image_GetWidth(image) }, succeeded: { $0 > 0 })
        let height = try haru(during, { HPDF_Image_GetHeight(image) }, succeeded: { $0 > 0 })
        let colorSpace = try haruObject(during) { HPDF_Image_GetColorSpace(image) }
        let space = String(cString: colorSpace)
        let loaded = PDFImage(handle: image, document: self, pixelWidth: Int(width), pixelHeight: Int(height),
                              colorSpace: space)
        if space == "Indexed", let profile = pdfx?.rgbProfile {
            try profileIndexedBase(loaded, profile, during: during)
            return loaded
        }
        return try attach(nil, to: loaded)
    }

    /// Gives a palette image's base colour space (libharu writes `[/Indexed /DeviceRGB hival lookup]`) the RGB
    /// profile: PDF/X allows no device RGB. Trap: Noto Color Emoji's PNGs are palette images, and libharu's
    /// array API cannot replace an item, so the name is taken out of the array's list by hand.
    private func profileIndexedBase(_ image: PDFImage, _ profile: [UInt8], during: String) throws(PDFError) {
        let stream = try iccStream(profile, components: 3, alternate: "DeviceRGB", during: during)
        let array = try haruObject(during) {
            OpaquePointer(HPDF_Dict_GetItem(image.handle, "ColorSpace", HPDF_UINT16(HPDF_OCLASS_ARRAY)))
        }
        let items = HPDF_Array(array)!
        guard items.pointee.list.pointee.count == 4,
              let base = HPDF_Array_GetItem(items, 1, HPDF_UINT16(HPDF_OCLASS_NAME)) else {
            throw .libharu(status: UInt(HPDF_INVALID_COLOR_SPACE), detail: 0, during: during + " (an unexpected palette)")
        }
        // Trap: HPDF_Array_Insert of an indirect object never finds its target (it reads the new object's header
        // where it means the list item's) and fails with HPDF_ITEM_NOT_FOUND; so [/ICCBased profile] is added at
        // the end and moved into the name's place.
        let list = items.pointee.list!
        let handle = self.handle
        let profiled = try haruObject(during) { HPDF_Array_New(handle.pointee.mmgr) }
        try haruStatus(during) { HPDF_Array_AddName(profiled, "ICCBased") }
        try haruStatus(during) { HPDF_Array_Add(profiled, stream) }
        try haruStatus(during) { HPDF_Array_Add(items, profiled) }
        let moved = HPDF_List_RemoveByIndex(list, 4)
        HPDF_List_RemoveByIndex(list, 1)
        HPDF_Obj_Free(handle.pointee.mmgr, base)
        try haruStatus(during) { HPDF_List_Insert(list, HPDF_List_ItemAt(list, 1), moved) }
    }
}
