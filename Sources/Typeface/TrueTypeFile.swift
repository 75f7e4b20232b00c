/// What a TrueType file says about itself, read and bounds-checked in Swift before HarfBuzz is given its bytes.
///
/// HarfBuzz reads fonts defensively (a damaged table reads as empty), which would make a damaged `--font` a book
/// of blank words; these checks make it a reason with a name instead. They were written for libharu, which
/// embedded the font until issue 33 and read its tables unchecked: the same files are refused with the same
/// words, CFF outlines and collections included, until Typeface embeds those too (issue 33, increment 2).
struct TrueTypeFile {
    typealias Problem = FontFileProblem

    /// The family name ("DejaVu Sans"), from the name table (typographic family, else family).
    let familyName: String?
    /// The style within the family ("Book", "Bold"), from the name table.
    let styleName: String?
    /// The number of glyphs (`maxp`); a cmap entry at or past it names no glyph.
    let glyphCount: Int

    /// The tables a TrueType font needs: the ones libharu parsed (hpdf_fontdef_tt.c, LoadFontData), which
    /// are also the ones a PDF's CIDFontType2 draws from.
    static let tablesLibharuReads = ["head", "maxp", "hhea", "cmap", "hmtx", "loca", "name", "OS/2", "glyf"]

    init(_ bytes: [UInt8]) throws(Problem) {
        let file = Bytes(bytes)
        guard bytes.count >= 12 else {
            throw Problem(reason: "too short to be a TrueType font (\(bytes.count) bytes)")
        }
        switch try file.u32(0) {
        case 0x0001_0000, 0x7472_7565:  // 'true': old Apple TrueType
            break
        case 0x4F54_544F:  // 'OTTO'
            throw Problem(reason: "an OpenType font with PostScript (CFF) outlines; libharu embeds only TrueType outlines")
        case 0x7474_6366:  // 'ttcf'
            throw Problem(reason: "a TrueType collection (.ttc); give one font of it as a .ttf file")
        default:
            let start = bytes.prefix(4).map { hex($0) }.joined(separator: " ")
            throw Problem(reason: "not a TrueType font (it starts with \(start), not 00 01 00 00)")
        }

        let tableCount = Int(try file.u16(4))
        let directoryEnd = 12 + 16 * tableCount
        guard directoryEnd <= bytes.count else {
            throw Problem(reason: "truncated: its table directory needs \(directoryEnd) bytes, the file has \(bytes.count)")
        }
        var tables: [String: Range<Int>] = [:]
        for index in 0..<tableCount {
            let entry = 12 + 16 * index
            let tag = String(decoding: bytes[entry..<(entry + 4)], as: Unicode.ASCII.self)
            let offset = Int(try file.u32(entry + 8))
            let length = Int(try file.u32(entry + 12))
            guard offset + length <= bytes.count else {
                throw Problem(
                    reason: "truncated: table '\(tag)' ends at byte \(offset + length), the file has \(bytes.count)")
            }
            tables[tag] = offset..<(offset + length)
        }
        for tag in Self.tablesLibharuReads where tables[tag] == nil {
            throw Problem(reason: "no '\(tag)' table, which a TrueType font needs")
        }
        func table(_ tag: String, atLeast size: Int) throws(Problem) -> Range<Int> {
            let range = tables[tag]!
            guard range.count >= size else {
                throw Problem(reason: "damaged: table '\(tag)' has \(range.count) bytes, at least \(size) expected")
            }
            return range
        }

        let head = try table("head", atLeast: 54)
        let unitsPerEm = try file.u16(head.lowerBound + 18)
        guard (16...16384).contains(unitsPerEm) else {
            throw Problem(reason: "damaged: its 'head' table gives \(unitsPerEm) units per em (16...16384 expected)")
        }
        let maxp = try table("maxp", atLeast: 6)
        glyphCount = Int(try file.u16(maxp.lowerBound + 4))
        let hhea = try table("hhea", atLeast: 36)
        let longMetrics = Int(try file.u16(hhea.lowerBound + 34))
        guard glyphCount > 0, (1...glyphCount).contains(longMetrics) else {
            throw Problem(reason: "damaged: \(glyphCount) glyphs with \(longMetrics) horizontal metrics")
        }
        _ = try table("hmtx", atLeast: 4 * longMetrics + 2 * (glyphCount - longMetrics))
        let longOffsets = try file.u16(head.lowerBound + 50) == 1
        _ = try table("loca", atLeast: (glyphCount + 1) * (longOffsets ? 4 : 2))

        // libharu reads fsType (offset 8) and, for versions above 0, fields up to offset 86.
        let os2 = try table("OS/2", atLeast: 78)
        let fsType = try file.u16(os2.lowerBound + 8)
        // Quirk: libharu refuses these bits only when embedding; we refuse them always, so that measuring a font
        // (PDFFontMetrics) fails the same way as embedding it later would.
        if fsType & (0x0002 | 0x0100 | 0x0200) != 0 {
            throw Problem(reason: "its licence forbids embedding it in a document (OS/2 fsType 0x\(hex(fsType)))")
        }

        try Self.checkCharacterMap(file, tables["cmap"]!)
        (familyName, styleName) = try Self.names(file, tables["name"]!)
    }

    /// Checks the one character map libharu uses: the first Windows Unicode BMP subtable (platform 3, encoding 1)
    /// in format 4. libharu ignores every other subtable, including format 12 (characters beyond the BMP).
    private static func checkCharacterMap(_ file: Bytes, _ cmap: Range<Int>) throws(Problem) {
        guard cmap.count >= 4, try file.u16(cmap.lowerBound) == 0 else {
            throw Problem(reason: "damaged: its 'cmap' table has no valid header")
        }
        let subtableCount = Int(try file.u16(cmap.lowerBound + 2))
        guard 4 + 8 * subtableCount <= cmap.count else {
            throw Problem(reason: "damaged: its 'cmap' table lists more subtables than it holds")
        }
        var format4: Int?
        for index in 0..<subtableCount {
            let record = cmap.lowerBound + 4 + 8 * index
            let offset = cmap.lowerBound + Int(try file.u32(record + 4))
            guard offset + 2 <= cmap.upperBound else {
                throw Problem(reason: "damaged: a 'cmap' subtable lies outside the table")
            }
            if try file.u16(record) == 3, try file.u16(record + 2) == 1, try file.u16(offset) == 4 {
                format4 = offset
                break
            }
        }
        guard let start = format4 else {
            throw Problem(
                reason: "no Unicode character map of the kind libharu reads (Windows platform 3, encoding 1, format 4)")
        }

        let length = Int(try file.u16(start + 2))
        let segmentCount = Int(try file.u16(start + 6)) / 2
        let arraysEnd = 16 + 8 * segmentCount
        guard segmentCount > 0, length >= arraysEnd, start + length <= cmap.upperBound else {
            throw Problem(reason: "damaged: its Unicode character map (format 4) is cut short")
        }
        let ends = start + 14
        let starts = ends + 2 * segmentCount + 2
        let rangeOffsets = starts + 4 * segmentCount
        let glyphArrayCount = (length - arraysEnd) / 2
        // libharu's lookup scans for the first segment whose end is >= the code and then reads that segment; a
        // map whose last segment does not end at U+FFFF would let it read past its arrays.
        guard try file.u16(ends + 2 * (segmentCount - 1)) == 0xFFFF else {
            throw Problem(reason: "damaged: its Unicode character map does not end at U+FFFF")
        }
        for segment in 0..<segmentCount {
            let first = Int(try file.u16(starts + 2 * segment))
            let last = Int(try file.u16(ends + 2 * segment))
            let rangeOffset = Int(try file.u16(rangeOffsets + 2 * segment))
            guard rangeOffset != 0, first <= last else { continue }
            // The index libharu computes for the segment's last code; it checks only `index > count`, so
            // `index == count` would read one element past the array.
            let lastIndex = rangeOffset / 2 + (last - first) - (segmentCount - segment)
            guard lastIndex < glyphArrayCount else {
                throw Problem(reason: "damaged: its Unicode character map points outside its glyph array")
            }
        }
    }

    /// The family and style names (IDs 16/17, else 1/2), preferring Windows Unicode English records.
    private static func names(_ file: Bytes, _ name: Range<Int>) throws(Problem) -> (String?, String?) {
        guard name.count >= 6 else { throw Problem(reason: "damaged: its 'name' table has no header") }
        let count = Int(try file.u16(name.lowerBound + 2))
        let strings = name.lowerBound + Int(try file.u16(name.lowerBound + 4))
        guard 6 + 12 * count <= name.count else {
            throw Problem(reason: "damaged: its 'name' table lists more names than it holds")
        }
        // Best record per name ID: Windows Unicode US English, then any Windows Unicode, then Mac Roman.
        var best: [Int: (rank: Int, text: String)] = [:]
        for index in 0..<count {
            let record = name.lowerBound + 6 + 12 * index
            let platform = try file.u16(record)
            let encoding = try file.u16(record + 2)
            let language = try file.u16(record + 4)
            let id = Int(try file.u16(record + 6))
            guard [1, 2, 16, 17].contains(id) else { continue }
            let start = strings + Int(try file.u16(record + 10))
            let range = start..<(start + Int(try file.u16(record + 8)))
            guard range.upperBound <= name.upperBound else { continue }
            let text: String
            let rank: Int
            switch (platform, encoding) {
            case (3, 1), (3, 10), (0, _):
                var units: [UInt16] = []
                for offset in stride(from: range.lowerBound, to: range.upperBound - 1, by: 2) {
                    units.append(try file.u16(offset))
                }
                text = String(decoding: units, as: UTF16.self)
                rank = platform == 3 && language == 0x0409 ? 3 : 2
            case (1, 0):
                text = String(decoding: file.bytes[range], as: Unicode.ASCII.self)
                rank = 1
            default:
                continue
            }
            if !text.isEmpty, rank > best[id]?.rank ?? 0 { best[id] = (rank, text) }
        }
        return (best[16]?.text ?? best[1]?.text, best[17]?.text ?? best[2]?.text)
    }

    /// Big-endian reads that throw instead of trapping when the file is shorter than its tables claim.
    struct Bytes {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func u16(_ offset: Int) throws(Problem) -> UInt16 {
            guard offset >= 0, offset + 2 <= bytes.count else {
                throw Problem(reason: "truncated: a field at byte \(offset) lies past the end of the file")
            }
            return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
        }

        func u32(_ offset: Int) throws(Problem) -> UInt32 {
            UInt32(try u16(offset)) << 16 | UInt32(try u16(offset + 2))
        }
    }
}

private func hex<Value: BinaryInteger>(_ value: Value) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    let width = MemoryLayout<Value>.size * 2
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
