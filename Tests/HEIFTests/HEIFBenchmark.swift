import Foundation
import Testing
import HEIF
import ImageCodec
import Imaging
import TestSupport

/// Times one decode of a large photo through the codec: `HEIF_BENCH_FILE=IMG.heic swift test --filter
/// HEIFBenchmark` (off otherwise: no photo that large is committed).
@Suite struct HEIFBenchmark {
    static let path = ProcessInfo.processInfo.environment["HEIF_BENCH_FILE"]

    @Test(.enabled(if: path != nil)) func decodeTimes() throws {
        let source = try FileSource(path: try #require(Self.path))
        let clock = ContinuousClock()
        var header: ImageHeader?
        let probe = try clock.measure { header = try HEIFFixtures.codec.probe(source)[0] }
        let width = header!.width, height = header!.height
        // As in a build: each decode's buffer goes back to the pool for the next.
        let pool = BufferPool()
        for factor in [1, 4] {
            for _ in 0..<3 {
                let request = DecodeRequest(region: PixelRegion(x: 0, y: 0, width: width, height: height),
                                            minimumWidth: width / factor, minimumHeight: height / factor,
                                            maxPixels: 1 << 26)
                var decoded: DecodedImage?
                let time = try clock.measure {
                    decoded = try HEIFFixtures.codec.decode(source, request, pool: pool) { false }
                }
                print("HEIF bench: \(width)x\(height) probe \(probe), decode at 1/\(factor) \(time)")
                pool.giveBack(decoded!.image.pixels)
            }
        }
    }
}
