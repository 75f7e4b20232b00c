/// What one font of a TrueType or OpenType file (or of a collection) says about itself, read and bounds-checked in
/// Swift before HarfBuzz is given its bytes.
///
/// HarfBuzz reads fonts defensively (a damaged table reads as empty), which would make a damaged `--font` a book
/// of blank words; these checks make it a reason with a name instead: the table directory, the tables a PDF draws
/// from (glyf and loca, or CFF), the metrics' sizes, and the licence bits that forbid embedding.
struct TrueTypeFile {
    typealias Problem = FontFileProblem

    /// The family name ("DejaVu Sans"), from the name table (typographic family, else family).
    let familyName: String?
    /// The style within the family ("Book", "Bold"), from the name table.
    let styleName: String?
    /// The full name ("Noto Sans CJK JP", "DejaVu Sans Bold"), from the name table.
    let fullName: String?
    /// The number of glyphs (`maxp`); a cmap entry at or past it names no glyph.
    let glyphCount: Int
    /// True for PostScript outlines (`OTTO`, a `CFF ` table), false for TrueType (`glyf`).
    let hasCFF: Bool
    /// Where the `CFF ` table lies in the file, for CFF outlines.
    let cffTable: Range<Int>?
    /// True for a font of colour bitmaps and no outlines (Noto Color Emoji: `CBDT` and `CBLC`, no `glyf`): drawn as
    /// images, never embedded as a font.
    let hasColourBitmapsOnly: Bool

    /// The tables every font here needs: its metrics, character map and a header.
    static let requiredTables = ["head", "maxp", "hhea", "cmap", "hmtx"]

    /// The offsets of the fonts' table directories in a collection (`ttcf`: .ttc, .otc), nil when `bytes` is not
    /// a collection.
    static func collection(_ bytes: [UInt8]) throws(Problem) -> [Int]? {
        let file = Bytes(bytes)
        guard bytes.count >= 12, try file.u32(0) == 0x7474_6366 else { return nil }  // 'ttcf'
        let count = Int(try file.u32(8))
        guard (1...10_000).contains(count), 12 + 4 * count <= bytes.count else {
            throw Problem(reason: "damaged: a collection whose header lists \(count) fonts")
        }
        var offsets: [Int] = []
        for index in 0..<count { offsets.append(Int(try file.u32(12 + 4 * index))) }
        return offsets
    }

    /// Checks the font whose table directory starts at `directory` (0 for a lone font).
    init(_ bytes: [UInt8], at directory: Int = 0) throws(Problem) {
        let file = Bytes(bytes)
        guard bytes.count >= directory + 12 else {
            throw Problem(reason: "too short to be a font file (\(bytes.count) bytes)")
        }
        switch try file.u32(directory) {
        case 0x0001_0000, 0x7472_7565:  // 'true': old Apple TrueType
            hasCFF = false
        case 0x4F54_544F:  // 'OTTO'
            hasCFF = true
        default:
            let start = bytes[directory..<(directory + 4)].map { hex($0) }.joined(separator: " ")
            throw Problem(reason: "not a TrueType or OpenType font (it starts with \(start), not 00 01 00 00 or OTTO)")
        }

        let tableCount = Int(try file.u16(directory + 4))
        let directoryEnd = directory + 12 + 16 * tableCount
        guard directoryEnd <= bytes.count else {
            throw Problem(reason: "truncated: its table directory needs \(directoryEnd) bytes, the file has \(bytes.count)")
        }
        var tables: [String: Range<Int>] = [:]
        for index in 0..<tableCount {
            let entry = directory + 12 + 16 * index
            let tag = String(decoding: bytes[entry..<(entry + 4)], as: Unicode.ASCII.self)
            let offset = Int(try file.u32(entry + 8))
            let length = Int(try file.u32(entry + 12))
            guard offset + length <= bytes.count else {
                throw Problem(
                    reason: "truncated: table '\(tag)' ends at byte \(offset + length), the file has \(bytes.count)")
            }
            tables[tag] = offset..<(offset + length)
        }
        if hasCFF, tables["CFF "] == nil, tables["CFF2"] != nil {
            throw Problem(reason: "an OpenType font with CFF2 (variable) outlines, which photobook cannot embed")
        }
        // Trap: Noto Color Emoji (fonts-noto-color-emoji) is a TrueType file with no glyf or loca at all, only PNGs.
        hasColourBitmapsOnly = !hasCFF && tables["glyf"] == nil && tables["CBDT"] != nil && tables["CBLC"] != nil
        let outlineTables = hasCFF ? ["CFF "] : hasColourBitmapsOnly ? [] : ["glyf", "loca"]
        for tag in Self.requiredTables + outlineTables where tables[tag] == nil {
            throw Problem(reason: "no '\(tag)' table, which a \(hasCFF ? "CFF" : "TrueType") font needs")
        }
        cffTable = hasCFF ? tables["CFF "] : nil
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
        if !hasCFF && !hasColourBitmapsOnly {
            let longOffsets = try file.u16(head.lowerBound + 50) == 1
            _ = try table("loca", atLeast: (glyphCount + 1) * (longOffsets ? 4 : 2))
        }

        if tables["OS/2"] != nil {
            let os2 = try table("OS/2", atLeast: 10)
            let fsType = try file.u16(os2.lowerBound + 8)
            // Restricted licence (0x0002), no subsetting (0x0100), bitmaps only (0x0200): a PDF may not carry it.
            if fsType & (0x0002 | 0x0100 | 0x0200) != 0 {
                throw Problem(reason: "its licence forbids embedding it in a document (OS/2 fsType 0x\(hex(fsType)))")
            }
        }
        guard let cmap = tables["cmap"], cmap.count >= 4, try file.u16(cmap.lowerBound) == 0 else {
            throw Problem(reason: "damaged: its 'cmap' table has no valid header")
        }
        (familyName, styleName, fullName) = try tables["name"].map { range throws(Problem) in try Self.names(file, range) }
            ?? (nil, nil, nil)
    }

    /// The family and style names (IDs 16/17, else 1/2) and the full name (4), preferring Windows Unicode English records.
    private static func names(_ file: Bytes, _ name: Range<Int>) throws(Problem) -> (String?, String?, String?) {
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
            guard [1, 2, 4, 16, 17].contains(id) else { continue }
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
        return (best[16]?.text ?? best[1]?.text, best[17]?.text ?? best[2]?.text, best[4]?.text)
    }

    /// Big-endian reads that throw instead of trapping when the file is shorter than its tables claim.
    struct Bytes {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func u8(_ offset: Int) throws(Problem) -> UInt8 {
            guard offset >= 0, offset < bytes.count else {
                throw Problem(reason: "truncated: a field at byte \(offset) lies past the end of the file")
            }
            return bytes[offset]
        }

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
