import Geometry
import Testing
@testable import Imaging
import TestSupport

/// Resampling and turning upright in one pass gives exactly what the two steps give one after the other.
@Suite("Upright resampling")
struct UprightResampleTests {
    /// Sizes around the band (32 rows) and tile (64 pixels) edges, reductions and enlargements.
    static let jobs: [(sourceWidth: Int, sourceHeight: Int, region: Rect, width: Int, height: Int)] = [
        (40, 30, Rect(x: 0, y: 0, width: 40, height: 30), 37, 28),
        (200, 150, Rect(x: 3.5, y: 1.25, width: 190, height: 140.5), 131, 97),
        (90, 300, Rect(x: 0, y: 0, width: 90, height: 300), 70, 64),
        (70, 70, Rect(x: -4, y: 6.5, width: 80, height: 50), 65, 33),
        (1, 1, Rect(x: 0, y: 0, width: 1, height: 1), 3, 5),
        (5, 3, Rect(x: 0, y: 0, width: 5, height: 3), 150, 31),
        (300, 2, Rect(x: 0, y: 0, width: 300, height: 2), 129, 1),
    ]

    @Test("equals resample(...).applying(orientation)", arguments: Orientation.allCases)
    func fusedEqualsTwoSteps(orientation: Orientation) throws {
        for (index, job) in Self.jobs.enumerated() {
            let image = TestImages.noise(width: job.sourceWidth, height: job.sourceHeight, seed: UInt64(40 + index))
            for order in Resampler.PassOrder.allCases {
                let stored = try Resampler.resample(image, region: job.region, width: job.width, height: job.height,
                                                    order: order, shouldCancel: { false })
                let upright = try Resampler.resample(image, region: job.region, width: job.width, height: job.height,
                                                     orientation: orientation, order: order, shouldCancel: { false })
                #expect(upright == stored.applying(orientation), "job \(index), \(order)")
            }
        }
    }

    @Test("the public entry turns too, and an empty result has the upright size", arguments: Orientation.allCases)
    func publicEntry(orientation: Orientation) throws {
        let image = TestImages.noise(width: 50, height: 40, seed: 3)
        let region = Rect(x: 0, y: 0, width: 50, height: 40)
        let upright = try Resampler.resample(image, region: region, width: 45, height: 36, orientation: orientation)
        #expect(upright == (try Resampler.resample(image, region: region, width: 45, height: 36)).applying(orientation))
        let empty = try Resampler.resample(image, region: region, width: 0, height: 7, orientation: orientation)
        #expect(empty.width == (orientation.swapsDimensions ? 7 : 0))
        #expect(empty.height == (orientation.swapsDimensions ? 0 : 7) && empty.pixels.isEmpty)
    }

    @Test("cancellation still stops between bands", arguments: [Orientation.topLeft, .rightTop, .bottomLeft])
    func cancellation(orientation: Orientation) {
        let image = TestImages.noise(width: 90, height: 300)
        var checks = 0
        #expect(throws: ImagingError.cancelled) {
            try Resampler.resample(image, region: Rect(x: 0, y: 0, width: 90, height: 300), width: 45,
                                   height: 200, orientation: orientation) {
                checks += 1
                return checks == 3
            }
        }
        #expect(checks == 3)
    }

    @Test("a crop turned upright in one copy equals cropped(...).applying(...)", arguments: Orientation.allCases)
    func croppedUpright(orientation: Orientation) {
        let image = TestImages.noise(width: 150, height: 97, seed: 8)
        for (x, y, width, height) in [(0, 0, 150, 97), (3, 5, 130, 70), (149, 96, 1, 1), (10, 0, 0, 4), (0, 1, 65, 0),
                                      (7, 2, 64, 66), (1, 1, 148, 95)] {
            #expect(image.cropped(x: x, y: y, width: width, height: height, applying: orientation)
                    == image.cropped(x: x, y: y, width: width, height: height).applying(orientation),
                    "\(width)x\(height) at (\(x), \(y))")
        }
    }
}
