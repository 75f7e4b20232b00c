import Geometry
import Testing
@testable import Imaging
import TestSupport

/// The fast kernels compute exactly what `FloatOrderResampler` computes: the same bytes, not bytes within 1.
/// A restructured loop that changes one rounding (a reordered sum, a fused multiply-add) fails here.
@Suite("Resampler exactness")
struct ResamplerExactnessTests {
    /// A random job: source size, a region that may be fractional, tiny or partly (even wholly) outside the
    /// image, and an output size that reduces or enlarges each axis.
    struct RandomJob: CustomTestStringConvertible {
        var sourceWidth: Int, sourceHeight: Int, region: Rect, width: Int, height: Int, seed: UInt64
        var testDescription: String {
            "seed \(seed): \(sourceWidth)x\(sourceHeight) (\(region.x), \(region.y), \(region.width), \(region.height)) -> \(width)x\(height)"
        }

        init(seed: UInt64) {
            var random = SplitMix64(seed: seed)
            self.seed = seed
            func side() -> Int {
                switch Int.random(in: 0..<6, using: &random) {
                case 0: Int.random(in: 1...4, using: &random)
                case 1: Int.random(in: 60...400, using: &random)
                default: Int.random(in: 5...70, using: &random)
                }
            }
            sourceWidth = side()
            sourceHeight = side()
            func axis(_ length: Int) -> (origin: Double, length: Double, outputs: Int) {
                let whole = Double(length)
                let kind = Int.random(in: 0..<5, using: &random)
                let regionLength = kind == 0 ? whole : Double.random(in: 0.3...(whole * 1.3 + 1), using: &random)
                let origin = switch kind {
                case 0: 0.0
                case 1: Double(Int.random(in: 0...max(0, length - 1), using: &random))  // whole-pixel origin
                case 2: Double.random(in: -whole...whole, using: &random)               // may leave the image
                default: Double.random(in: 0...max(0, whole - regionLength), using: &random)
                }
                let factor = [0.1, 0.35, 0.7, 0.93, 1, 1.08, 1.6, 3.5][Int.random(in: 0..<8, using: &random)]
                let outputs = min(600, max(1, Int((regionLength * factor).rounded()) + Int.random(in: -1...1, using: &random)))
                return (origin, regionLength, outputs)
            }
            let x = axis(sourceWidth), y = axis(sourceHeight)
            region = Rect(x: x.origin, y: y.origin, width: x.length, height: y.length)
            width = x.outputs
            height = y.outputs
        }
    }

    static let randomJobs = (1...160).map { RandomJob(seed: UInt64($0)) }

    @Test("every pass order gives the Float-order reference's bytes", arguments: randomJobs)
    func randomJobsMatch(job: RandomJob) throws {
        let image = TestImages.noise(width: job.sourceWidth, height: job.sourceHeight, seed: job.seed)
        for order in Resampler.PassOrder.allCases {
            let fast = try Resampler.resample(image, region: job.region, width: job.width, height: job.height,
                                              order: order, shouldCancel: { false })
            let reference = FloatOrderResampler.resample(image, region: job.region, width: job.width,
                                                         height: job.height, order: order)
            #expect(fast == reference, "\(order)")
        }
    }

    /// Extremes the random jobs rarely hit: constant images at the clamp (0 and 255, where the kernel's lobes
    /// overshoot), one-pixel sources, and photo-like scales.
    @Test("edge cases give the reference's bytes", arguments: Resampler.PassOrder.allCases)
    func edgeCases(order: Resampler.PassOrder) throws {
        let jobs: [(RGBImage, Rect, Int, Int)] = [
            (RGBImage(width: 9, height: 7, red: 255, green: 0, blue: 255), Rect(x: 0.3, y: 0.7, width: 8, height: 5), 13, 4),
            (TestImages.image(width: 40, height: 30) { x, y in (x % 2 == 0 ? 255 : 0, y % 3 == 0 ? 0 : 255, 128) },
             Rect(x: 1.5, y: 2.25, width: 33, height: 21), 37, 19),
            (TestImages.noise(width: 1, height: 1), Rect(x: 0, y: 0, width: 1, height: 1), 5, 3),
            (TestImages.noise(width: 1, height: 40), Rect(x: -3, y: 2, width: 7, height: 35), 3, 11),
            (TestImages.noise(width: 263, height: 186, seed: 9), Rect(x: 0, y: 0, width: 263, height: 186), 231, 163),
            (TestImages.noise(width: 186, height: 263, seed: 10), Rect(x: 3.4, y: 1.1, width: 180, height: 255.5), 162, 230),
        ]
        for (image, region, width, height) in jobs {
            let fast = try Resampler.resample(image, region: region, width: width, height: height, order: order,
                                              shouldCancel: { false })
            #expect(fast == FloatOrderResampler.resample(image, region: region, width: width, height: height, order: order),
                    "\(image.width)x\(image.height) \(region) -> \(width)x\(height)")
        }
    }

    /// FNV-1a (64 bits) of the output bytes.
    static func fingerprint(_ image: RGBImage) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in image.pixels { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }

    /// Fingerprints of the kernels' output recorded before they were restructured (commit "Resampler: pin
    /// today's output bit for bit"): a second witness besides the reference, independent of it.
    static let recorded: [(job: String, image: RGBImage, region: Rect, width: Int, height: Int,
                           fingerprints: [Resampler.PassOrder: UInt64])] = [
        ("photo-like 1.14x reduction", TestImages.noise(width: 400, height: 283, seed: 21),
         Rect(x: 0, y: 10.5, width: 400, height: 262), 351, 230,
         [.cheaper: 0x4d1eb33d5604e884, .horizontalFirst: 0xd3b7c0dfbfee6799, .verticalFirst: 0x4d1eb33d5604e884]),
        ("grid-like 1.08x reduction, fractional", TestImages.noise(width: 263, height: 375, seed: 22),
         Rect(x: 0.75, y: 3.25, width: 262, height: 372.5), 243, 345,
         [.cheaper: 0x1d3a4c3e520ef573, .horizontalFirst: 0x86e58c0730bd0398, .verticalFirst: 0x1d3a4c3e520ef573]),
        ("enlargement", TestImages.noise(width: 37, height: 29, seed: 23),
         Rect(x: 0, y: 0, width: 37, height: 29), 100, 80,
         [.cheaper: 0xf6a55d3ce6e7d35c, .horizontalFirst: 0xf6a55d3ce6e7d35c, .verticalFirst: 0xf6a55d3ce6e7d35c]),
        ("large reduction, partly outside", TestImages.noise(width: 900, height: 40, seed: 24),
         Rect(x: -20, y: -3, width: 930, height: 45), 31, 5,
         [.cheaper: 0x3982f7b1d3821a70, .horizontalFirst: 0x3982f7b1d3821a70, .verticalFirst: 0x3982f7b1d3821a70]),
    ]

    @Test("fingerprints recorded before the kernels were restructured", arguments: 0..<recorded.count)
    func fingerprints(index: Int) throws {
        let job = Self.recorded[index]
        for order in Resampler.PassOrder.allCases {
            let output = try Resampler.resample(job.image, region: job.region, width: job.width, height: job.height,
                                                order: order, shouldCancel: { false })
            #expect(Self.fingerprint(output) == job.fingerprints[order], "\(job.job), \(order)")
        }
    }
}
