import ImageCodec
import Imaging

/// The buffer libjxl writes a whole picture into (`JxlDecoderSetImageOutBuffer`), taken from the pool, and the
/// region of it the engine gets: as rows the resampler reads (full size), or shrunk by a whole factor.
///
/// Trap: libjxl 0.7's image-out callback, which hands out runs of rows, holds the whole frame as floats besides
/// (12 bytes a pixel): 187 MB at the peak for a 12-megapixel photo, where decoding into its own 8-bit buffer
/// peaks at 81 MB, that buffer's 36 MB included (measured in C, the file fed 256 KB at a time as here).
/// @unchecked: libjxl writes the buffer during the decode, on its runner's threads; afterwards it is only read,
/// by one thread at a time (the decode hands it to the resize after it).
final class JXLPicture: PixelRows, @unchecked Sendable {
    let pictureWidth: Int
    let channels: Int
    let region: PixelRegion
    private let pool: BufferPool
    private var pixels: [UInt8]
    /// Where libjxl writes: the array is not touched while it lives, so its elements stay where they are.
    let output: UnsafeMutableRawBufferPointer

    var width: Int { region.width }
    var height: Int { region.height }

    init(width: Int, height: Int, channels: Int, region: PixelRegion, pool: BufferPool) {
        pictureWidth = width
        self.channels = channels
        self.region = region
        self.pool = pool
        pixels = pool.take(width * height * channels)
        output = pixels.withUnsafeMutableBytes { $0 }
    }

    func row(_ y: Int, from x: Int, count: Int, into rgb: UnsafeMutableBufferPointer<UInt8>) {
        precondition(y >= 0 && y < region.height && x >= 0 && x + count <= region.width && rgb.count >= count * 3,
                     "JPEG XL row out of range")
        let start = ((region.y + y) * pictureWidth + region.x + x) * channels
        let source = UnsafePointer(output.baseAddress!.assumingMemoryBound(to: UInt8.self)) + start
        if channels == 4 {
            AlphaComposite.overWhite(source, into: rgb.baseAddress!, count: count)
        } else {
            rgb.baseAddress!.update(from: source, count: count * 3)
        }
    }

    /// The region as a decoded image: rows read while the engine resamples when it takes them and no shrink is
    /// wanted, or else shrunk by `factor` into a buffer of its own (and this one goes back to the pool at once).
    func decoded(factor: Int, acceptsRows: Bool, storedWidth: Int, storedHeight: Int) -> DecodedImage {
        if factor == 1 && acceptsRows {
            return DecodedImage(rows: self, storedWidth: storedWidth, storedHeight: storedHeight, region: region)
        }
        var shrink = BoxShrink(region: region, factor: factor, pool: pool)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: region.width * 3) { line in
            for y in 0..<region.height {
                row(y, from: 0, count: region.width, into: line)
                shrink.add(row: UnsafeBufferPointer(line))
            }
        }
        release()
        return shrink.finish(storedWidth: storedWidth, storedHeight: storedHeight)
    }

    /// Gives the buffer back to the pool; the picture must not be read again.
    func release() {
        guard !pixels.isEmpty else { return }
        pool.giveBack(pixels)
        pixels = []
    }

    deinit { release() }
}
