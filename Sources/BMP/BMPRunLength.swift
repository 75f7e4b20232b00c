import ImageCodec

/// BI_RLE8 and BI_RLE4 data decoded into the rows of a region: runs, absolute runs, end of line, delta and end of
/// bitmap. Pixels the data skips (a delta, a line or the bitmap ended early) stay as they are in the output:
/// white, as ImageMagick shows them (transparent) over white. A run past a row's end is cut at the edge.
struct BMPRunLength {
    let header: BMPHeader
    let region: PixelRegion

    static let truncated = CodecError.corrupt("corrupt BMP (truncated RLE data)")

    /// Decodes `data` (from the pixel offset to the end of the file), writing the region's pixels as RGB, top row
    /// first, into `out` (`region.width * region.height * 3` bytes).
    func decode(_ data: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>,
                shouldCancel: () -> Bool) throws(CodecError) {
        let width = header.width, height = header.height, four = header.pixelFormat.compression == .rle4
        let palette = header.pixelFormat.palette
        let left = region.x, right = region.x + region.width
        var i = 0, x = 0, row = 0  // row: stored rows from the bottom
        var commands = 0
        // The region's row that stored row `row` is, or nil.
        func outRow(_ row: Int) -> Int? {
            let y = height - 1 - row - region.y
            return y >= 0 && y < region.height ? y : nil
        }
        func put(_ x: Int, _ index: Int, _ y: Int) {
            guard x >= left, x < right else { return }
            let o = (y * region.width + x - left) * 3
            out[o] = palette[index * 3]; out[o + 1] = palette[index * 3 + 1]; out[o + 2] = palette[index * 3 + 2]
        }
        while row < height {
            guard i + 1 < data.count else { throw Self.truncated }
            let count = Int(data[i]), value = Int(data[i + 1])
            i += 2
            commands += 1
            if commands & 0x3FFF == 0 && shouldCancel() { throw .cancelled }
            if count > 0 {
                if let y = outRow(row), x < right {
                    for k in 0..<min(count, width - x) {
                        put(x + k, four ? (k & 1 == 0 ? value >> 4 : value & 15) : value, y)
                    }
                }
                x += count
                continue
            }
            switch value {
            case 0:
                x = 0
                row += 1
            case 1:
                return
            case 2:
                guard i + 1 < data.count else { throw Self.truncated }
                x += Int(data[i])
                row += Int(data[i + 1])
                i += 2
            default:
                let bytes = four ? (value + 1) / 2 : value
                guard i + bytes <= data.count else { throw Self.truncated }
                if let y = outRow(row), x < right {
                    for k in 0..<min(value, width - x) {
                        let index = four ? (k & 1 == 0 ? Int(data[i + k / 2]) >> 4 : Int(data[i + k / 2]) & 15)
                            : Int(data[i + k])
                        put(x + k, index, y)
                    }
                }
                x += value
                i += (bytes + 1) & ~1
            }
        }
    }
}
