import Foundation
import Imaging
@testable import JPEG
import TestSupport

/// Synthetic images and image metrics for the JPEG tests (files, tools and byte walkers are in TestSupport).
enum JPEGTestSupport {
    /// A test picture with detail: smooth gradients, hard edges and a colour checkerboard, different per seed.
    static func syntheticImage(width: Int, height: Int, seed: Int = 0) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                var r = x * 255 / max(1, width - 1)
                var g = y * 255 / max(1, height - 1)
                var b = (x + y + seed * 37) * 255 / max(1, width + height - 2) % 256
                if (x / 16 + y / 16) % 2 == 0 && y > height / 2 {  // hard-edged blocks in the lower half
                    r = 255 - r
                    b = 255 - b
                }
                if x > width * 3 / 4 && y < height / 4 {  // a flat, saturated patch
                    r = 200; g = 30; b = 40
                }
                let dx = x - width / 2, dy = y - height / 4, radius = height / 8
                if dx * dx + dy * dy < radius * radius {  // a disc, for curved edges
                    r = 20; g = 20; b = 220
                }
                pixels[i] = UInt8(clamping: r)
                pixels[i + 1] = UInt8(clamping: g)
                pixels[i + 2] = UInt8(clamping: b)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The image with each pixel replaced by its luminance (JPEG's Y, rounded) in all three channels.
    static func grey(_ image: RGBImage) -> RGBImage {
        var pixels = image.pixels
        for i in stride(from: 0, to: pixels.count, by: 3) {
            let y = (299 * Int(pixels[i]) + 587 * Int(pixels[i + 1]) + 114 * Int(pixels[i + 2]) + 500) / 1000
            pixels[i] = UInt8(y); pixels[i + 1] = UInt8(y); pixels[i + 2] = UInt8(y)
        }
        return RGBImage(width: image.width, height: image.height, pixels: pixels)
    }

    /// Peak signal-to-noise ratio in dB over all samples (infinity for identical images).
    static func psnr(_ a: RGBImage, _ b: RGBImage) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var sum = 0.0
        for i in 0..<a.pixels.count {
            let d = Double(a.pixels[i]) - Double(b.pixels[i])
            sum += d * d
        }
        if sum == 0 { return .infinity }
        return 10 * log10(255 * 255 / (sum / Double(a.pixels.count)))
    }

    /// The largest difference between two samples at the same place.
    static func maxDifference(_ a: RGBImage, _ b: RGBImage) -> Int {
        precondition(a.width == b.width && a.height == b.height)
        return TestSupport.maxDifference(a.pixels, b.pixels)
    }

    /// An area-average reduction of `image` to `width` x `height` (exact box filter over fractional pixels).
    static func boxDownscale(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        let sx = Double(image.width) / Double(width), sy = Double(image.height) / Double(height)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for oy in 0..<height {
            let y0 = Double(oy) * sy, y1 = y0 + sy
            for ox in 0..<width {
                let x0 = Double(ox) * sx, x1 = x0 + sx
                var sums = (0.0, 0.0, 0.0), total = 0.0
                for y in Int(y0)..<min(image.height, Int(y1.rounded(.up))) {
                    let wy = min(y1, Double(y + 1)) - max(y0, Double(y))
                    for x in Int(x0)..<min(image.width, Int(x1.rounded(.up))) {
                        let w = wy * (min(x1, Double(x + 1)) - max(x0, Double(x)))
                        let p = image.pixel(x: x, y: y)
                        sums.0 += w * Double(p.red); sums.1 += w * Double(p.green); sums.2 += w * Double(p.blue)
                        total += w
                    }
                }
                let i = (oy * width + ox) * 3
                pixels[i] = UInt8((sums.0 / total).rounded())
                pixels[i + 1] = UInt8((sums.1 / total).rounded())
                pixels[i + 2] = UInt8((sums.2 / total).rounded())
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// A reference decoder's binary PPM as an image.
    static func parsePPM(_ bytes: [UInt8]) throws -> RGBImage {
        let ppm = try PPM.parse(bytes)
        return RGBImage(width: ppm.width, height: ppm.height, pixels: ppm.pixels)
    }

    /// A counter of calls to a `shouldCancel` closure that starts saying yes at call `cancelAt` (1-based).
    final class CancelAfter {
        let cancelAt: Int
        private(set) var calls = 0
        init(_ cancelAt: Int) { self.cancelAt = cancelAt }
        func callAsFunction() -> Bool {
            calls += 1
            return calls >= cancelAt
        }
    }
}
