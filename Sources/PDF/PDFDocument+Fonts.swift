import CHaru
import Foundation

/// libharu's handles for one loaded TrueType font, and what we read from its file.
struct LoadedFont {
    let font: HPDF_Font
    let definition: HPDF_FontDef
    let file: TrueTypeFile
}

extension PDFDocument {
    /// Embeds the TrueType font at `path` for UTF-8 text (`HPDF_UseUTFEncodings`, `HPDF_LoadTTFontFromFile`,
    /// `HPDF_GetFont` with encoding "UTF-8"); loading the same path again returns the same embedded font.
    ///
    /// Only the glyphs the document uses are embedded (a subset). A file that is missing, not a TrueType font,
    /// damaged or refused by libharu throws `.font` naming the file and the reason.
    public func loadFont(path: String) throws(PDFError) -> PDFFont {
        PDFFont(try loadFont(path: path, embedding: true), document: self, path: path)
    }

    /// `embedding: false` is for measuring only (`PDFFontMetrics`): libharu then closes the file after loading.
    func loadFont(path: String, embedding: Bool) throws(PDFError) -> LoadedFont {
        if let loaded = loadedFonts[path] { return loaded }
        let file: TrueTypeFile
        do {
            file = try TrueTypeFile(Self.readFontFile(path))
        } catch {
            throw .font(path: path, reason: error.reason)
        }
        try useUTF8Encoder()
        let handle = self.handle
        let loaded: LoadedFont
        do {
            // Quirk: a font libharu cannot read may come back NULL with no error set (a truncated file did);
            // TrueTypeFile catches those cases first, and the silent status names any that remain.
            let name = try haruObject("loading the font", silentStatus: HPDF_TTF_INVALID_FOMAT) {
                HPDF_LoadTTFontFromFile(handle, path, embedding ? HPDF_TRUE : HPDF_FALSE)
            }
            let font = try haruObject("selecting the font") { HPDF_GetFont(handle, name, "UTF-8") }
            try replaceToUnicode(of: font)
            let definition = try haruObject("reading the font") { HPDF_GetFontDef(handle, name) }
            loaded = LoadedFont(font: font, definition: definition, file: file)
        } catch {
            throw .font(path: path, reason: Self.fontReason(error))
        }
        loadedFonts[path] = loaded
        return loaded
    }

    /// Points the font's /ToUnicode at a new stream holding `IdentityToUnicodeCMap` (`HPDF_DictStream_New`,
    /// `HPDF_Stream_WriteStr`, `HPDF_Dict_Add`), compressed as libharu compresses the font's own streams.
    ///
    /// Quirk: libharu 2.3.0 gives a font of its "UTF-8" encoder, as /ToUnicode, the encoding CMap it writes for
    /// that encoder (`1 begincidrange <0000> <FFFF> 0`), which maps codes to CIDs, not to Unicode: poppler warns
    /// "Invalid 'begincidrange' operator in ToUnicode CMap" and guesses, other readers may find no text at all.
    /// The old stream is still written, unreferenced: libharu cannot take an object back out of the file.
    private func replaceToUnicode(of font: HPDF_Font) throws(PDFError) {
        let handle = self.handle
        let during = "writing the font's ToUnicode map"
        let cmap = try haruObject(during) { HPDF_DictStream_New(handle.pointee.mmgr, handle.pointee.xref) }
        try haruStatus(during) { HPDF_Stream_WriteStr(cmap.pointee.stream, IdentityToUnicodeCMap.text) }
        // Trap: libharu sets the Flate filter only on streams it made itself, just before writing the font; a
        // stream added by hand would go out uncompressed unless it takes the font's filter here.
        cmap.pointee.filter = font.pointee.filter
        try haruStatus(during) { HPDF_Dict_Add(font, "ToUnicode", cmap) }
    }

    private static func readFontFile(_ path: String) throws(TrueTypeFile.Problem) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw TrueTypeFile.Problem(reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw TrueTypeFile.Problem(reason: "is a directory, not a font file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TrueTypeFile.Problem(reason: "cannot be read (permission denied?)")
        }
        return [UInt8](data)
    }

    /// A libharu font failure in words; the code stays in the text for whoever reports a bug.
    private static func fontReason(_ error: PDFError) -> String {
        let code = "libharu error 0x\(String(error.status, radix: 16, uppercase: true))"
        switch Int32(truncatingIfNeeded: error.status) {
        case HPDF_FILE_OPEN_ERROR: return "cannot be opened (\(code))"
        case HPDF_TTF_CANNOT_EMBEDDING_FONT: return "its licence forbids embedding it (\(code))"
        case HPDF_TTF_INVALID_CMAP: return "its character map is invalid (\(code))"
        case HPDF_TTF_INVALID_FOMAT: return "a TrueType font libharu cannot read (\(code))"
        case HPDF_TTF_MISSING_TABLE: return "a table libharu needs is missing or cut short (\(code))"
        default: return error.description
        }
    }
}
