/// The ToUnicode CMap of a font drawn in glyph ids: each glyph drawn maps to the character it was drawn for, or
/// to several (a ligature: its cluster's characters, "fi", lam-alef, Devanagari's "त्र").
///
/// `bfchar` entries, at most 100 per block (the CMap specification's limit); a character beyond U+FFFF is
/// written as its UTF-16 surrogate pair, as PDF 32000 9.10.3 asks. A destination holds at most 512 bytes
/// (Adobe technical note 5411, bfchar): longer text is cut at the last whole character that fits.
enum GlyphToUnicodeCMap {
    /// The most UTF-16 code units one glyph maps to: 512 bytes.
    static let maxUnits = 256

    /// The CMap program of glyphs that each stand for one character.
    static func text(_ map: [UInt32: Unicode.Scalar]) -> String {
        text(map.mapValues { [$0] })
    }

    /// The CMap program, ASCII, lines ended by "\n", the glyphs in ascending order; glyphs that stand for no
    /// text are left out.
    static func text(_ map: [UInt32: [Unicode.Scalar]]) -> String {
        let map = map.filter { !$0.value.isEmpty }
        var lines = [
            "/CIDInit /ProcSet findresource begin",
            "12 dict begin",
            "begincmap",
            "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
            "/CMapName /Adobe-Identity-UCS def",
            "/CMapType 2 def",
            "1 begincodespacerange",
            "<0000> <FFFF>",
            "endcodespacerange",
        ]
        let glyphs = map.keys.sorted()
        var start = 0
        while start < glyphs.count {
            let block = glyphs[start..<min(start + 100, glyphs.count)]
            lines.append("\(block.count) beginbfchar")
            for glyph in block {
                var units: [UInt16] = []
                for scalar in map[glyph]! {
                    let more = Array(String(scalar).utf16)
                    guard units.count + more.count <= maxUnits else { break }
                    units += more
                }
                let digits = units.map { hex($0) }.joined()
                lines.append("<\(hex(UInt16(glyph)))> <\(digits)>")
            }
            lines.append("endbfchar")
            start += block.count
        }
        lines += [
            "endcmap",
            "CMapName currentdict /CMap defineresource pop",
            "end",
            "end",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Four upper-case hex digits.
    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
