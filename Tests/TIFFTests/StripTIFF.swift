/// Writes uncompressed little-endian TIFFs laid out the way a scanner does (directory first, then the strips),
/// of any size, for tests that need a picture no fixture has: a big scan, exact 16-bit values, a header that
/// lies about its size.
struct StripTIFF {
    var width: Int, height: Int
    var bitsPerSample = 8
    var samplesPerPixel = 3
    var photometric: UInt16 = 2
    var rowsPerStrip = 16
    /// More directory entries: tag, type, count and the 4-byte value (inline values only).
    var extraEntries: [(tag: UInt16, type: UInt16, count: UInt32, value: UInt32)] = []
    /// What StripByteCounts says for each strip; the true size when nil.
    var declaredByteCount: ((Int) -> UInt32)?

    var rowBytes: Int { (width * samplesPerPixel * bitsPerSample + 7) / 8 }
    var stripCount: Int { (height + rowsPerStrip - 1) / rowsPerStrip }
    func stripBytes(_ strip: Int) -> Int { min(rowsPerStrip, height - strip * rowsPerStrip) * rowBytes }

    /// Header, directory and strip tables; the strips' bytes follow directly, in order.
    func header() -> [UInt8] {
        var entries: [(UInt16, UInt16, UInt32, UInt32)] = [
            (256, 4, 1, UInt32(width)), (257, 4, 1, UInt32(height)),
            (258, 3, UInt32(samplesPerPixel), 0), (259, 3, 1, 1), (262, 3, 1, UInt32(photometric)),
            (273, 4, UInt32(stripCount), 0), (277, 3, 1, UInt32(samplesPerPixel)),
            (278, 4, 1, UInt32(rowsPerStrip)), (279, 4, UInt32(stripCount), 0), (284, 3, 1, 1),
        ]
        entries += extraEntries.map { ($0.tag, $0.type, $0.count, $0.value) }
        entries.sort { $0.0 < $1.0 }
        let directorySize = 2 + entries.count * 12 + 4
        let bitsAt = 8 + directorySize
        let offsetsAt = bitsAt + samplesPerPixel * 2
        let countsAt = offsetsAt + stripCount * 4
        let dataAt = countsAt + stripCount * 4
        var out: [UInt8] = [0x49, 0x49, 42, 0]
        func u16(_ v: UInt16) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        u32(8)
        u16(UInt16(entries.count))
        var offset = dataAt
        let offsets = (0..<stripCount).map { strip -> UInt32 in
            defer { offset += stripBytes(strip) }
            return UInt32(truncatingIfNeeded: offset)
        }
        let counts = (0..<stripCount).map { declaredByteCount?($0) ?? UInt32(truncatingIfNeeded: stripBytes($0)) }
        for (tag, type, count, value) in entries {
            u16(tag); u16(type); u32(count)
            switch tag {
            case 258:
                if samplesPerPixel <= 2 {
                    u16(UInt16(bitsPerSample)); u16(samplesPerPixel == 2 ? UInt16(bitsPerSample) : 0)
                } else {
                    u32(UInt32(bitsAt))
                }
            case 273: u32(stripCount == 1 ? offsets[0] : UInt32(offsetsAt))
            case 279: u32(stripCount == 1 ? counts[0] : UInt32(countsAt))
            case _ where type == 3 && count == 1: u16(UInt16(value)); u16(0)
            default: u32(value)
            }
        }
        u32(0)
        for _ in 0..<samplesPerPixel { u16(UInt16(bitsPerSample)) }
        for value in offsets { u32(value) }
        for value in counts { u32(value) }
        precondition(out.count == dataAt)
        return out
    }

    /// The whole file in memory, with `pixels` (every row, `rowBytes` each) after the header.
    func file(pixels: [UInt8]) -> [UInt8] {
        precondition(pixels.count == rowBytes * height)
        return header() + pixels
    }
}
