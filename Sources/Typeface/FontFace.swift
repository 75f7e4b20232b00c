internal import CHarfBuzz
import Foundation

/// Why a font file cannot be used, in words for the user ("no such file", "a collection of 10 fonts: give one...").
public struct FontFileProblem: Error, Sendable, Equatable {
    public let reason: String
}

/// How a face's glyphs are drawn, which decides how a PDF embeds them (docs/research/words.md §4).
public enum FontOutlines: Sendable, Equatable {
    /// TrueType `glyf` outlines: a CIDFontType2 whose codes are glyph ids.
    case trueType
    /// A CFF table: a CIDFontType0 whose codes are the glyphs' CIDs (CID-keyed) or glyph ids (name-keyed).
    case cff(cidKeyed: Bool)
    /// No outlines: colour bitmaps (`CBDT`/`CBLC`, Noto Color Emoji), each glyph a PNG, drawn as an image
    /// (`colourBitmap(of:)`); such a face is never embedded as a font.
    case colourBitmaps
}

/// One font face read through HarfBuzz from a TrueType (.ttf) or OpenType CFF (.otf) file, or from a collection
/// (.ttc, .otc) as `PATH#INDEX` or `PATH#NAME`: its names, metrics, character map, advances, and subsets of its
/// glyphs for embedding.
///
/// Measuring and drawing both ask this one face (`glyph(for:)`, `advance(of:)`), so they cannot disagree.
/// Immutable after `init` (`hb_font_make_immutable`): safe to share between threads.
public final class FontFace: @unchecked Sendable {
    /// The font as given: its file, with `#INDEX` or `#NAME` for a face of a collection.
    public let path: String
    /// Its outlines: TrueType, or CFF (CID-keyed or name-keyed).
    public let outlines: FontOutlines
    /// The family ("DejaVu Sans") and style ("Book") from the name table, when it has them.
    public let familyName: String?
    public let styleName: String?
    /// The PostScript name ("DejaVuSans"), usable as a PDF name: only the characters PostScript allows.
    public let postScriptName: String
    /// Font design units per em (2048 for DejaVu Sans); every metric below is in these units.
    public let unitsPerEm: Int
    /// The number of glyphs; ids run from 0 (.notdef) to glyphCount - 1.
    public let glyphCount: Int
    /// hhea's ascender and descender (negative below the baseline).
    public let ascender: Int
    public let descender: Int
    /// The tops of the glyphs of 'H' and 'x' (0 when the font has none).
    public let capHeight: Int
    public let xHeight: Int
    /// head's bounding box of all glyphs: xMin, yMin, xMax, yMax.
    public let boundingBox: [Int]
    /// post's italic angle, degrees counter-clockwise from the vertical (negative for a slant to the right).
    public let italicAngle: Double
    /// Bytes that tell this face from another (its head table: checksum, dates) with its PostScript name: what a
    /// subset's tag is made from, so that the tag does not depend on the path or the clock.
    public let identity: [UInt8]

    private let face: OpaquePointer
    /// Internal, not private: shaping (FontFace+Shaping.swift) runs on it.
    let font: OpaquePointer
    /// The CID of each glyph id of a CID-keyed CFF whose charset is not the identity.
    private let cids: [UInt32]?

    /// Reads the font `path` names: a file, or `FILE#INDEX` (0-based) or `FILE#NAME` (the face's full name, or
    /// family and style) for one face of a collection. Throws a `FontFileProblem` naming what is wrong (missing
    /// file, not a font, a collection without a face or with no such face, a licence that forbids embedding,
    /// damaged tables).
    public init(path: String) throws(FontFileProblem) {
        let (filePath, selector) = Self.split(path)
        let bytes = try Self.read(filePath)
        let index: Int
        let file: TrueTypeFile
        if let offsets = try TrueTypeFile.collection(bytes) {
            var faces: [TrueTypeFile] = []
            for (number, offset) in offsets.enumerated() {
                do throws(FontFileProblem) {
                    faces.append(try TrueTypeFile(bytes, at: offset))
                } catch {
                    throw FontFileProblem(reason: "font \(number) of the collection: \(error.reason)")
                }
            }
            index = try Self.choose(selector, among: faces)
            file = faces[index]
        } else {
            file = try TrueTypeFile(bytes)
            if let selector, selector != "0", !Self.names(of: file).contains(where: { $0.lowercased() == selector.lowercased() }) {
                throw FontFileProblem(reason: "not a collection (.ttc, .otc) but one font (\(Self.label(file))), so '#\(selector)' names none")
            }
            index = 0
        }
        // Before HarfBuzz's objects exist: a throw after them would leak them (no deinit for a half-made object).
        if let range = file.cffTable {
            let cff = try CFFTable(Array(bytes[range]))
            outlines = .cff(cidKeyed: cff.isCIDKeyed)
            cids = cff.cids
        } else {
            outlines = file.hasColourBitmapsOnly ? .colourBitmaps : .trueType
            cids = nil
        }
        self.path = path
        familyName = file.familyName
        styleName = file.styleName
        // Mapped, not copied: a CJK collection is 20 MB, read by the measuring and the drawing font alike.
        guard let blob = hb_blob_create_from_file_or_fail(filePath) else {
            throw FontFileProblem(reason: "cannot be read (permission denied?)")
        }
        face = hb_face_create(blob, UInt32(index))
        hb_blob_destroy(blob)
        hb_face_make_immutable(face)
        font = hb_font_create(face)
        hb_font_make_immutable(font)

        unitsPerEm = Int(hb_face_get_upem(face))
        glyphCount = Int(hb_face_get_glyph_count(face))
        let head = Self.table(face, "head")
        let hhea = Self.table(face, "hhea")
        let post = Self.table(face, "post")
        // TrueTypeFile has checked head (54 bytes) and hhea (36); post is optional.
        ascender = Self.s16(hhea, 4)
        descender = Self.s16(hhea, 6)
        boundingBox = [36, 38, 40, 42].map { Self.s16(head, $0) }
        italicAngle = post.count >= 8 ? Double(Int32(bitPattern: Self.u32(post, 4))) / 65536 : 0
        var name = Self.name(face, id: 6) ?? ""
        name = String(name.unicodeScalars.filter { $0.isASCII && $0.value > 0x20 && !"[](){}<>/%#".unicodeScalars.contains($0) })
        postScriptName = name.isEmpty ? String((familyName ?? "Font").filter { $0.isLetter || $0.isNumber }) : name
        identity = head + Array(postScriptName.utf8)
        capHeight = Self.top(font, "H")
        xHeight = Self.top(font, "x")
    }

    /// The code a page shows for `glyph` and the CID a PDF's /W gives its width under: the glyph's CID in a
    /// CID-keyed CFF (whose subset does not keep glyph ids), else the glyph id itself.
    public func code(of glyph: UInt32) -> UInt32 {
        guard let cids, Int(glyph) < cids.count else { return glyph }
        return cids[Int(glyph)]
    }

    /// The file and the face asked for: the whole text when a file has that name (a '#' in a file name), else
    /// what comes before and after the last '#'.
    private static func split(_ path: String) -> (file: String, selector: String?) {
        guard !FileManager.default.fileExists(atPath: path), let hash = path.lastIndex(of: "#") else { return (path, nil) }
        return (String(path[..<hash]), String(path[path.index(after: hash)...]))
    }

    /// The names a face answers to: its full name, its family and style, its family alone.
    private static func names(of file: TrueTypeFile) -> [String] {
        var names = [file.fullName, file.familyName.map { $0 + " " + (file.styleName ?? "") }, file.familyName]
            .compactMap { $0?.trimmingCharacters(in: .whitespaces) }
        names.removeAll { $0.isEmpty }
        return names
    }

    private static func label(_ file: TrueTypeFile) -> String {
        file.fullName ?? names(of: file).first ?? "no name"
    }

    /// The face of a collection `selector` names: an index, else the first face whose full name, family and
    /// style, or family matches, ignoring case. Without a selector, or with one that names none, the reason
    /// lists the faces, so that the user can choose.
    private static func choose(_ selector: String?, among faces: [TrueTypeFile]) throws(FontFileProblem) -> Int {
        let list = faces.enumerated().map { "\($0.offset) \(label($0.element))" }.joined(separator: ", ")
        let collection = "collection of \(faces.count) fonts"
        guard let selector else {
            throw FontFileProblem(reason: "a \(collection): give one as PATH#INDEX or PATH#NAME (\(list))")
        }
        if let number = Int(selector), selector.allSatisfy(\.isASCII) {
            guard faces.indices.contains(number) else {
                throw FontFileProblem(reason: "no font #\(number) in this \(collection) (\(list))")
            }
            return number
        }
        for kind in 0..<3 {
            if let found = faces.firstIndex(where: { face in
                let names = [face.fullName, face.familyName.map { $0 + " " + (face.styleName ?? "") }, face.familyName]
                return names[kind]?.lowercased() == selector.lowercased()
            }) { return found }
        }
        throw FontFileProblem(reason: "no font named '\(selector)' in this \(collection) (\(list))")
    }

    deinit {
        hb_font_destroy(font)
        hb_face_destroy(face)
    }

    /// The font's own glyph for `scalar` from its character map (`hb_font_get_nominal_glyph`, every cmap
    /// subtable HarfBuzz reads, characters beyond U+FFFF included); nil when the font has none.
    public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0, glyph != 0 else { return nil }
        return glyph
    }

    /// The horizontal advance of `glyph` in font units (`hb_font_get_glyph_h_advance`: hmtx, the font's scale
    /// being its units per em).
    public func advance(of glyph: UInt32) -> Int {
        Int(hb_font_get_glyph_h_advance(font, glyph))
    }

    /// A font program holding `glyphs` (and .notdef), made by HarfBuzz's subsetter (`hb_subset_or_fail`):
    /// - TrueType: the whole subset font, each glyph at its own id (`HB_SUBSET_FLAGS_RETAIN_GIDS`), what a PDF
    ///   embeds as a CIDFontType2's FontFile2 with /CIDToGIDMap /Identity. Composite glyphs keep their components
    ///   (libharu's own subset did not).
    /// - CFF: the bare `CFF ` table of the subset, a FontFile3 /CIDFontType0C. Name-keyed, glyph ids retained (a
    ///   reader takes the codes as glyph ids); CID-keyed, not retained (the padding would be 250 KB for a page of
    ///   Japanese) and the page shows CIDs (`code(of:)`), which the subset's charset keeps.
    ///
    /// The unused slots are empty and compress to almost nothing; the layout tables (GSUB, GPOS...) are
    /// dropped: a PDF reader draws outlines at the positions the page gives.
    public func subset(glyphs: [UInt32]) throws(FontFileProblem) -> [UInt8] {
        guard let input = hb_subset_input_create_or_fail() else {
            throw FontFileProblem(reason: "out of memory making a subset of it")
        }
        defer { hb_subset_input_destroy(input) }
        let set = hb_subset_input_glyph_set(input)
        hb_set_add(set, 0)
        for glyph in glyphs where Int(glyph) < glyphCount { hb_set_add(set, glyph) }
        let drop = hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG)
        for tag in ["GSUB", "GPOS", "GDEF", "BASE", "JSTF", "MATH", "vhea", "vmtx", "VORG", "DSIG"] {
            hb_set_add(drop, Self.tag(tag))
        }
        if outlines != .cff(cidKeyed: true) {
            hb_subset_input_set_flags(input, HB_SUBSET_FLAGS_RETAIN_GIDS.rawValue)
        }
        guard let subset = hb_subset_or_fail(face, input) else {
            throw FontFileProblem(reason: "HarfBuzz could not make a subset of it")
        }
        defer { hb_face_destroy(subset) }
        let blob = outlines == .trueType ? hb_face_reference_blob(subset) : hb_face_reference_table(subset, Self.tag("CFF "))
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else {
            throw FontFileProblem(reason: "HarfBuzz made an empty subset of it")
        }
        return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }

    /// The top of the glyph of `scalar` (`hb_font_get_glyph_extents`' y bearing), 0 when there is none.
    private static func top(_ font: OpaquePointer, _ scalar: Unicode.Scalar) -> Int {
        var glyph: hb_codepoint_t = 0
        var extents = hb_glyph_extents_t()
        guard hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0,
              hb_font_get_glyph_extents(font, glyph, &extents) != 0 else { return 0 }
        return Int(extents.y_bearing)
    }

    private static func read(_ path: String) throws(FontFileProblem) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FontFileProblem(reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw FontFileProblem(reason: "is a directory, not a font file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FontFileProblem(reason: "cannot be read (permission denied?)")
        }
        return [UInt8](data)
    }

    /// A table's bytes (empty when the face has none). Trap: `HB_TAG` is a macro Swift cannot call.
    private static func table(_ face: OpaquePointer, _ name: String) -> [UInt8] {
        let blob = hb_face_reference_table(face, tag(name))
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }

    private static func tag(_ name: String) -> hb_tag_t {
        name.utf8.reduce(0) { $0 << 8 | hb_tag_t($1) }
    }

    /// A name table entry in UTF-8 (`hb_ot_name_get_utf8`, the default language).
    private static func name(_ face: OpaquePointer, id: hb_ot_name_id_t) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        var length = UInt32(buffer.count)
        let total = hb_ot_name_get_utf8(face, id, nil, &length, &buffer)
        guard total > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func s16(_ bytes: [UInt8], _ offset: Int) -> Int {
        guard offset + 2 <= bytes.count else { return 0 }
        return Int(Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])))
    }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        guard offset + 4 <= bytes.count else { return 0 }
        return bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
