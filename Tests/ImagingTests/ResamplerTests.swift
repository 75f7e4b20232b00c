import Geometry
import Testing
@testable import Imaging
import TestSupport

/// A resampling job for table-driven tests.
struct ResampleCase: Sendable, CustomTestStringConvertible {
    var sourceWidth: Int, sourceHeight: Int
    var region: Rect?
    var width: Int, height: Int
    var note: String

    var testDescription: String { "\(note): \(sourceWidth)x\(sourceHeight) \(regionUsed) -> \(width)x\(height)" }
    var regionUsed: Rect {
        region ?? Rect(x: 0, y: 0, width: Double(sourceWidth), height: Double(sourceHeight))
    }
}

private func resample(_ image: RGBImage, _ region: Rect, _ width: Int, _ height: Int,
                      _ order: Resampler.PassOrder) throws -> RGBImage {
    try Resampler.resample(image, region: region, width: width, height: height, order: order, shouldCancel: { false })
}

private func whole(_ image: RGBImage) -> Rect {
    Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
}

@Suite("Resampler")
struct ResamplerTests {
    static let orders = Resampler.PassOrder.allCases

    static let cases: [ResampleCase] = [
        ResampleCase(sourceWidth: 16, sourceHeight: 12, width: 7, height: 5, note: "non-integer reduction"),
        ResampleCase(sourceWidth: 40, sourceHeight: 30, region: Rect(x: 3.25, y: 2.5, width: 30.5, height: 20.75),
                     width: 11, height: 9, note: "fractional region"),
        ResampleCase(sourceWidth: 1, sourceHeight: 50, width: 1, height: 10, note: "one pixel wide"),
        ResampleCase(sourceWidth: 50, sourceHeight: 1, width: 9, height: 1, note: "one pixel high"),
        ResampleCase(sourceWidth: 1, sourceHeight: 1, width: 3, height: 2, note: "single pixel"),
        ResampleCase(sourceWidth: 9, sourceHeight: 7, region: Rect(x: 0.5, y: 0.5, width: 8, height: 6),
                     width: 8, height: 6, note: "half-pixel shift"),
        ResampleCase(sourceWidth: 10, sourceHeight: 10, width: 25, height: 25, note: "enlargement"),
        ResampleCase(sourceWidth: 5, sourceHeight: 3, width: 17, height: 11, note: "odd enlargement"),
        ResampleCase(sourceWidth: 60, sourceHeight: 20, width: 13, height: 20, note: "horizontal only"),
        ResampleCase(sourceWidth: 20, sourceHeight: 60, width: 20, height: 7, note: "vertical only"),
        ResampleCase(sourceWidth: 30, sourceHeight: 8, width: 7, height: 19, note: "reduce one axis, enlarge other"),
        ResampleCase(sourceWidth: 10, sourceHeight: 10, region: Rect(x: -2, y: -1, width: 14, height: 12),
                     width: 6, height: 6, note: "region beyond the edges"),
        ResampleCase(sourceWidth: 4000, sourceHeight: 3, width: 100, height: 1, note: "40x reduction"),
        ResampleCase(sourceWidth: 3, sourceHeight: 999, width: 2, height: 37, note: "27x reduction, odd"),
    ]

    @Test("matches a direct 2-D evaluation in Double within 1", arguments: cases, orders)
    func matchesReference(job: ResampleCase, order: Resampler.PassOrder) throws {
        let image = TestImages.noise(width: job.sourceWidth, height: job.sourceHeight, seed: 3)
        let fast = try resample(image, job.regionUsed, job.width, job.height, order)
        let reference = ReferenceResampler.resample(image, region: job.regionUsed, width: job.width, height: job.height)
        #expect(fast.width == job.width && fast.height == job.height)
        #expect(maxDifference(fast.pixels, reference.pixels) <= 1)
    }

    @Test("the whole image at its own size is the same image", arguments: orders)
    func identity(order: Resampler.PassOrder) throws {
        for (width, height) in [(37, 23), (1, 1), (1, 9), (64, 3)] {
            let image = TestImages.noise(width: width, height: height, seed: 5)
            #expect(try resample(image, whole(image), width, height, order) == image)
        }
        let image = TestImages.noise(width: 30, height: 20, seed: 6)
        let crop = try resample(image, Rect(x: 4, y: 3, width: 17, height: 11), 17, 11, order)
        #expect(crop == image.cropped(x: 4, y: 3, width: 17, height: 11))
    }

    @Test("a constant image stays exactly constant", arguments: cases, orders)
    func constant(job: ResampleCase, order: Resampler.PassOrder) throws {
        for colour: (UInt8, UInt8, UInt8) in [(0, 0, 0), (255, 255, 255), (17, 200, 99), (1, 254, 128)] {
            let image = RGBImage(width: job.sourceWidth, height: job.sourceHeight,
                                 red: colour.0, green: colour.1, blue: colour.2)
            let result = try resample(image, job.regionUsed, job.width, job.height, order)
            #expect(result == RGBImage(width: job.width, height: job.height,
                                       red: colour.0, green: colour.1, blue: colour.2))
        }
    }

    /// A checkerboard finer than the output's pixels must average out to grey, not alias to black or white.
    /// In the 8x8 -> 2x2 case the 4x-stretched kernel (radius 12) is wider than the image, so the clamped
    /// edge pixels weigh in and the result is only near the block averages (aliasing would give 0 or 255).
    @Test("fine checkerboards reduce to their average",
          arguments: [(8, 2, 2, 12.0), (16, 1, 4, 4), (64, 2, 8, 4), (60, 3, 6, 4), (400, 1, 10, 1)], orders)
    func checkerboard(geometry: (size: Int, cell: Int, output: Int, tolerance: Double),
                      order: Resampler.PassOrder) throws {
        let image = TestImages.image(width: geometry.size, height: geometry.size) { x, y in
            let white = (x / geometry.cell + y / geometry.cell) % 2 == 0
            return white ? (255, 255, 255) : (0, 0, 0)
        }
        let result = try resample(image, whole(image), geometry.output, geometry.output, order)
        #expect(result.pixels.allSatisfy { abs(Double($0) - 127.5) <= geometry.tolerance }, "\(result.pixels)")
    }

    @Test("a horizontal ramp stays a ramp", arguments: [64, 100, 37, 255], orders)
    func ramp(width: Int, order: Resampler.PassOrder) throws {
        let image = TestImages.image(width: 256, height: 4) { x, _ in (UInt8(x), UInt8(255 - x), 128) }
        let result = try resample(image, whole(image), width, 3, order)
        let scale = 256 / Double(width)
        for y in 0..<3 {
            let row = (0..<width).map { result.pixel(x: $0, y: y) }
            #expect(zip(row, row.dropFirst()).allSatisfy { $0.red <= $1.red && $0.green >= $1.green })
            #expect(row.allSatisfy { $0.blue == 128 })
            // Away from the ends the ramp's value at each output pixel's centre; at the ends the clamped
            // edge pulls it by up to a quarter of the scale.
            for (x, pixel) in row.enumerated() {
                let ideal = (Double(x) + 0.5) * scale - 0.5
                let tolerance = (x < 3 || x >= width - 3) ? max(1, scale / 4) : 1
                #expect(abs(Double(pixel.red) - ideal) <= tolerance, "x \(x): \(pixel.red) vs \(ideal)")
                #expect(abs(Double(pixel.green) - (255 - ideal)) <= tolerance, "x \(x)")
            }
        }
    }

    /// Stripes 30 pixels wide, each its own colour; a region picks some of them.
    static func stripes(vertical: Bool) -> RGBImage {
        TestImages.image(width: vertical ? 360 : 6, height: vertical ? 6 : 360) { x, y in
            stripeColour((vertical ? x : y) / 30)
        }
    }

    static func stripeColour(_ k: Int) -> (UInt8, UInt8, UInt8) {
        (UInt8(k * 20), UInt8(255 - k * 20), k % 2 == 0 ? 0 : 255)
    }

    @Test("a region picks the right stripes", arguments: [false, true], orders)
    func regionStripes(vertical: Bool, order: Resampler.PassOrder) throws {
        let image = Self.stripes(vertical: vertical)
        for (origin, length, count) in [(90.0, 90.0, 90), (90.0, 90.0, 45), (121.5, 120.0, 40), (60.0, 180.0, 60),
                                        (100.25, 89.5, 37)] {
            let region = vertical ? Rect(x: origin, y: 0, width: length, height: 6)
                                  : Rect(x: 0, y: origin, width: 6, height: length)
            let result = try resample(image, region, vertical ? count : 6, vertical ? 6 : count, order)
            let scale = length / Double(count)
            let reach = 3 * max(scale, 1)
            var checked = 0
            for i in 0..<count {
                // Only pixels whose whole kernel lies inside one stripe have a known exact value.
                let centre = origin + (Double(i) + 0.5) * scale
                let first = Int((centre - reach).rounded(.down)) / 30, last = Int((centre + reach).rounded(.up) - 1) / 30
                guard first == last else { continue }
                let pixel = vertical ? result.pixel(x: i, y: 2) : result.pixel(x: 2, y: i)
                #expect(pixel == Self.stripeColour(first), "region \(origin)+\(length) pixel \(i)")
                checked += 1
            }
            #expect(checked >= count / 3)
        }
        let inner = vertical ? Rect(x: 75, y: 0, width: 50, height: 6) : Rect(x: 0, y: 75, width: 6, height: 50)
        let same = try resample(image, inner, vertical ? 50 : 6, vertical ? 6 : 50, order)
        #expect(same == (vertical ? image.cropped(x: 75, y: 0, width: 50, height: 6)
                                  : image.cropped(x: 0, y: 75, width: 6, height: 50)))
    }

    @Test("odd sizes and big reductions give the asked size")
    func sizes() throws {
        for (sw, sh, w, h) in [(7, 5, 3, 2), (1, 1, 1, 1), (4000, 30, 100, 1), (333, 1, 7, 1), (1, 333, 1, 7)] {
            let image = TestImages.noise(width: sw, height: sh)
            let result = try Resampler.resample(image, region: whole(image), width: w, height: h)
            #expect(result.width == w && result.height == h && result.pixels.count == w * h * 3)
        }
        let empty = try Resampler.resample(TestImages.noise(width: 4, height: 4), region: Rect(x: 0, y: 0, width: 4, height: 4),
                                           width: 0, height: 3)
        #expect(empty.width == 0 && empty.height == 3 && empty.pixels.isEmpty)
    }

    @Test("cancellation on the Nth check throws and stops checking", arguments: orders, 1...7)
    func cancellation(order: Resampler.PassOrder, cancelAt: Int) {
        let image = TestImages.noise(width: 90, height: 300)
        // 200 output rows are 7 bands of 32.
        var checks = 0
        #expect(throws: ImagingError.cancelled) {
            try Resampler.resample(image, region: whole(image), width: 45, height: 200, order: order) {
                checks += 1
                return checks == cancelAt
            }
        }
        #expect(checks == cancelAt)
    }

    @Test("an uncancelled run checks once per band of rows", arguments: orders)
    func checksPerBand(order: Resampler.PassOrder) throws {
        let image = TestImages.noise(width: 90, height: 300)
        for (height, bands) in [(200, 7), (32, 1), (33, 2), (1, 1)] {
            var checks = 0
            _ = try Resampler.resample(image, region: whole(image), width: 45, height: height, order: order) {
                checks += 1
                return false
            }
            #expect(checks == bands, "height \(height)")
        }
    }
}
