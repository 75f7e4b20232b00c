import Foundation
import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import JPEG2000

/// The figures behind `JPEG2000Codec.cost`. Off by default (a minute of CPU); run them by hand:
///
///     PHOTOBOOK_J2K_BENCH=1 swift test --filter JPEG2000PerformanceMeasurements
///
/// A 4000x3000 photo with noise made by opj_compress from the fixture photo (lossless 5/3 and lossy 9/7 at
/// 20:1, 6 levels), decoded whole and at reduced levels; thread CPU time, fastest of `runs`.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["PHOTOBOOK_J2K_BENCH"] != nil))
struct JPEG2000PerformanceMeasurements {
    static let runs = Int(ProcessInfo.processInfo.environment["PHOTOBOOK_J2K_BENCH_RUNS"] ?? "") ?? 3

    static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func measure(_ bytes: [UInt8], _ region: PixelRegion, _ minimumWidth: Int, _ minimumHeight: Int)
        throws -> (ms: Double, width: Int, height: Int) {
        var best = Double.infinity
        var size = (0, 0)
        let pool = BufferPool()
        for _ in 0..<runs {
            let start = threadCPUTime()
            let decoded = try JPEG2000TestSupport.decode(bytes, region: region, minimumWidth: minimumWidth,
                                                         minimumHeight: minimumHeight, pool: pool)
            best = min(best, threadCPUTime() - start)
            size = (decoded.image.width, decoded.image.height)
            pool.giveBack(decoded.image.pixels)
        }
        return (best * 1000, size.0, size.1)
    }

    @Test(arguments: [("lossless", [String]()), ("lossy", ["-r", "20", "-I"])])
    func decodeCost(_ kind: String, _ options: [String]) throws {
        let ppm = NSTemporaryDirectory() + "j2k-bench-12mp.ppm", jp2 = NSTemporaryDirectory() + "j2k-bench-12mp-\(kind).jp2"
        if !FileManager.default.fileExists(atPath: jp2) {
            _ = try ExternalCommand.output("convert", [Fixtures.path("exif-orientation/Landscape_1.jpg"), "-strip",
                                                       "-resize", "4000x3000!", "-attenuate", "0.4", "+noise", "Gaussian", ppm])
            _ = try ExternalCommand.output("opj_compress", ["-i", ppm, "-o", jp2] + options)
        }
        let bytes = try Fixtures.read(jp2)
        let whole = PixelRegion(x: 0, y: 0, width: 4000, height: 3000)
        let full = try Self.measure(bytes, whole, 4000, 3000)
        let half = try Self.measure(bytes, whole, 2000, 1500)
        let eighth = try Self.measure(bytes, whole, 500, 375)
        let centre = try Self.measure(bytes, PixelRegion(x: 1000, y: 750, width: 2000, height: 1500), 2000, 1500)
        print("""
            JPEG 2000 4000x3000 \(kind) (\(bytes.count) bytes), fastest of \(Self.runs), thread CPU ms:
              full \(full.ms); level 1 \(half.width)x\(half.height) \(half.ms); level 3 \(eighth.width)x\(eighth.height) \(eighth.ms)
              centre 2000x1500 at full size \(centre.ms); per stored pixel ~\(full.ms * 1e6 / 12_000_000) ns
            """)
        #expect(full.width == 4000 && half.width == 2000 && eighth.width == 500)
    }
}
