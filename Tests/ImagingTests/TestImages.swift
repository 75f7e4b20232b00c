import Imaging

/// Deterministic test pictures.
enum TestImages {
    /// Every byte from a fixed linear congruential sequence: the hardest case for a filter.
    static func noise(width: Int, height: Int, seed: UInt64 = 1) -> RGBImage {
        var state = seed
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in pixels.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
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

/// The largest difference between corresponding bytes.
func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    precondition(a.count == b.count)
    return zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
}
