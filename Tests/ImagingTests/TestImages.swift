import Imaging
import TestSupport

/// Deterministic test pictures.
enum TestImages {
    /// Every byte from a fixed linear congruential sequence: the hardest case for a filter.
    static func noise(width: Int, height: Int, seed: UInt64 = 1) -> RGBImage {
        var bytes = SeededBytes(state: seed)
        let pixels = (0..<width * height * 3).map { _ in bytes.next() }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// An image whose colour at (x, y) is `colour(x, y)`.
    static func image(width: Int, height: Int, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8)) -> RGBImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = colour(x, y)
                pixels += [r, g, b]
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
