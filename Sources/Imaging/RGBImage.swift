/// An 8-bit sRGB image in memory: rows top to bottom, three bytes (R, G, B) per pixel, no padding.
///
/// Every stage of the pipeline speaks this one type: the decoders produce it, the resampler and the
/// orientation kernels transform it, and the encoder consumes it.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        guarantee(Self.byteCount(width: width, height: height) == pixels.count,
                  "RGBImage \(width)x\(height) needs 3 bytes a pixel, got \(pixels.count) bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image of one colour, in a buffer from `pool`.
    public init(width: Int, height: Int, red: UInt8 = 255, green: UInt8 = 255, blue: UInt8 = 255,
                pool: BufferPool = BufferPool()) {
        guard let count = Self.byteCount(width: width, height: height) else {
            fatalError("RGBImage \(width)x\(height): no such image")
        }
        // Every byte is written below: a pooled buffer.
        var pixels = pool.take(count)
        var i = 0
        while i < pixels.count {
            pixels[i] = red; pixels[i + 1] = green; pixels[i + 2] = blue
            i += 3
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    public var bytesPerRow: Int { width * 3 }

    /// `width * height * 3`, or nil when a side is negative or the product does not fit in an `Int`.
    static func byteCount(width: Int, height: Int) -> Int? {
        guard width >= 0 && height >= 0 else { return nil }
        let (area, areaOverflows) = width.multipliedReportingOverflow(by: height)
        let (bytes, bytesOverflow) = area.multipliedReportingOverflow(by: 3)
        return areaOverflows || bytesOverflow ? nil : bytes
    }

    /// True while `pixels` holds exactly `width * height * 3` bytes. `init` checks it, but `pixels` is
    /// settable, so every kernel that indexes it through a pointer checks it again.
    var hasValidPixelCount: Bool { Self.byteCount(width: width, height: height) == pixels.count }

    /// The colour at column `x`, row `y` (for tests and diagnostics; kernels index `pixels` directly).
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        guarantee(x >= 0 && x < width && y >= 0 && y < height && hasValidPixelCount,
                  "pixel (\(x), \(y)) is outside the \(width)x\(height) image")
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}
