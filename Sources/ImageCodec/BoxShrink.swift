import Geometry
import Imaging

/// Makes the decoded image of a region from its rows, shrunk by a whole factor on the way (each output pixel
/// the mean of a `factor` x `factor` box), so that a codec that hands out rows (a TIFF's strips, a HEIF's
/// planes) never holds more than the shrunk region: libvips' shrink-on-load for formats without DCT scaling.
///
/// Rows are given top to bottom, each the region's own columns as 8-bit RGB. The last column and row of the
/// result may average a partial box (the region's side need not be a multiple of the factor), as libjpeg
/// rounds a scaled side up: `scale` is `1 / factor` all the same.
public struct BoxShrink {
    public let region: PixelRegion
    public let factor: Int
    public let width: Int, height: Int
    /// Where the result's buffer comes from, and goes back to when the decode stops short.
    public let pool: BufferPool
    private var pixels: [UInt8]
    private var sums: [UInt32]
    private var rowsIn = 0

    /// The largest factor (at most `limit`) that still gives `region` at least `minimumWidth` x `minimumHeight`
    /// pixels; 1 when the minimum is the region's size or more.
    public static func factor(for region: PixelRegion, minimumWidth: Int, minimumHeight: Int, limit: Int = 8) -> Int {
        var factor = 1
        while factor < limit,
              region.width / (factor + 1) >= max(1, minimumWidth), region.height / (factor + 1) >= max(1, minimumHeight) {
            factor += 1
        }
        return factor
    }

    public init(region: PixelRegion, factor: Int, pool: BufferPool) {
        precondition(region.width > 0 && region.height > 0 && factor >= 1, "BoxShrink of an empty region")
        self.region = region
        self.factor = factor
        self.pool = pool
        width = (region.width + factor - 1) / factor
        height = (region.height + factor - 1) / factor
        // Every byte is written by `add` before `finish` hands the image out: a pooled buffer.
        pixels = pool.take(width * height * 3)
        sums = factor == 1 ? [] : [UInt32](repeating: 0, count: width * 3)
    }

    /// True once every row of the region has been added.
    public var isComplete: Bool { rowsIn == region.height }

    /// Adds the region's next row: `row` holds at least `region.width * 3` bytes of 8-bit RGB.
    public mutating func add(row: UnsafeBufferPointer<UInt8>) {
        precondition(row.count >= region.width * 3 && rowsIn < region.height, "BoxShrink row out of place")
        let outRow = rowsIn / factor
        if factor == 1 {
            pixels.withUnsafeMutableBufferPointer { out in
                let base = out.baseAddress! + outRow * width * 3
                base.update(from: row.baseAddress!, count: width * 3)
            }
            rowsIn += 1
            return
        }
        sums.withUnsafeMutableBufferPointer { sum in
            var x = 0
            while x < region.width {
                let o = (x / factor) * 3, i = x * 3
                sum[o] += UInt32(row[i]); sum[o + 1] += UInt32(row[i + 1]); sum[o + 2] += UInt32(row[i + 2])
                x += 1
            }
        }
        rowsIn += 1
        if rowsIn % factor == 0 || rowsIn == region.height { flush(outRow: outRow) }
    }

    private mutating func flush(outRow: Int) {
        let rows = rowsIn - outRow * factor
        let lastWidth = region.width - (width - 1) * factor
        let width = self.width, factor = self.factor
        pixels.withUnsafeMutableBufferPointer { out in
            sums.withUnsafeMutableBufferPointer { sum in
                let base = outRow * width * 3
                for column in 0..<width {
                    let count = UInt32(rows * (column == width - 1 ? lastWidth : factor))
                    for channel in 0..<3 {
                        let i = column * 3 + channel
                        out[base + i] = UInt8((sum[i] + count / 2) / count)
                        sum[i] = 0
                    }
                }
            }
        }
    }

    /// The shrunk region, for a picture of `storedWidth` x `storedHeight`. Call once every row is in.
    public consuming func finish(storedWidth: Int, storedHeight: Int) -> DecodedImage {
        precondition(isComplete, "BoxShrink finished before its last row")
        return DecodedImage(image: RGBImage(width: width, height: height, pixels: pixels),
                            storedWidth: storedWidth, storedHeight: storedHeight,
                            covers: Rect(x: Double(region.x), y: Double(region.y),
                                         width: Double(region.width), height: Double(region.height)),
                            scale: 1 / Double(factor))
    }

    /// Gives the buffer back to the pool when the decode stops before the end (failure or cancel).
    public consuming func abandon() { pool.giveBack(pixels) }
}
