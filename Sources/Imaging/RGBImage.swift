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
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 3,
                     "RGBImage \(width)x\(height) needs \(width * height * 3) bytes, got \(pixels.count)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image of one colour.
    public init(width: Int, height: Int, red: UInt8 = 255, green: UInt8 = 255, blue: UInt8 = 255) {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var i = 0
        while i < pixels.count {
            pixels[i] = red; pixels[i + 1] = green; pixels[i + 2] = blue
            i += 3
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    public var bytesPerRow: Int { width * 3 }

    /// The colour at column `x`, row `y` (for tests and diagnostics; kernels index `pixels` directly).
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}
