/// The ToUnicode CMap of a font drawn through libharu's "UTF-8" encoder: every 2-byte code is its own Unicode
/// value, because that encoder writes each character as its UTF-16 code unit (U+FFFD as <FFFD>).
///
/// Mapped in `bfrange`s of 256 codes that share their first byte, as PDF 32000 9.10.3 asks of a range, at most
/// 100 ranges per block (the CMap specification's limit). The surrogates D800–DFFF are left out: they are never
/// drawn alone, and libharu's encoder has no characters above U+FFFF to pair them into.
enum IdentityToUnicodeCMap {
    /// The first bytes of the codes that are mapped: all but the surrogate area.
    static let mappedFirstBytes: [Int] = (0x00...0xFF).filter { !(0xD8...0xDF).contains($0) }

    /// The CMap program, ASCII, lines ended by "\n".
    static let text: String = {
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
        var start = 0
        while start < mappedFirstBytes.count {
            let block = mappedFirstBytes[start..<min(start + 100, mappedFirstBytes.count)]
            lines.append("\(block.count) beginbfrange")
            for first in block {
                lines.append("<\(hex(first))00> <\(hex(first))FF> <\(hex(first))00>")
            }
            lines.append("endbfrange")
            start += block.count
        }
        lines += [
            "endcmap",
            "CMapName currentdict /CMap defineresource pop",
            "end",
            "end",
        ]
        return lines.joined(separator: "\n") + "\n"
    }()

    private static func hex(_ byte: Int) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
