import Foundation
import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import WebP

/// The figures behind `WebPCodec.cost` and the choice to scale inside libwebp. Off by default (a minute of
/// CPU); run them by hand:
///
///     PHOTOBOOK_WEBP_BENCH=1 swift test --filter WebPPerformanceMeasurements
///
/// The Swift side does no per-pixel work for an opaque lossy picture decoded whole (libwebp writes into the
/// pooled buffer), and a memcpy per row for a crop, so a debug build measures what a release build does.
/// Times are the test thread's CPU time, fastest of `runs`.
///
/// Measured on the 2-core development machine, busy with other work (+-10%), 4000x3000 q85 with noise
/// (2.9 MB, made by cwebp from the fixture photo): see the report printed by `decodeCost`.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["PHOTOBOOK_WEBP_BENCH"] != nil))
struct WebPPerformanceMeasurements {
    static let runs = Int(ProcessInfo.processInfo.environment["PHOTOBOOK_WEBP_BENCH_RUNS"] ?? "") ?? 5

    static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The fastest of `runs` decodes of `region` with at least the minimum size, in milliseconds, and the size.
    static func measure(_ bytes: [UInt8], _ region: PixelRegion, _ minimumWidth: Int, _ minimumHeight: Int)
        throws -> (ms: Double, width: Int, height: Int) {
        var best = Double.infinity
        var size = (0, 0)
        // As in a build: each run's buffers go back to the pool for the next.
        let pool = BufferPool()
        for _ in 0..<runs {
            let start = threadCPUTime()
            let decoded = try WebPTestSupport.decode(bytes, region: region, minimumWidth: minimumWidth,
                                                     minimumHeight: minimumHeight, pool: pool)
            best = min(best, threadCPUTime() - start)
            size = (decoded.image.width, decoded.image.height)
            pool.giveBack(decoded.image.pixels)
        }
        return (best * 1000, size.0, size.1)
    }

    @Test func decodeCost() throws {
        let png = NSTemporaryDirectory() + "webp-bench-12mp.png", webp = NSTemporaryDirectory() + "webp-bench-12mp.webp"
        if !FileManager.default.fileExists(atPath: webp) {
            _ = try ExternalCommand.output("convert", [Fixtures.path("exif-orientation/Landscape_1.jpg"), "-strip",
                                                       "-resize", "4000x3000!", "-attenuate", "0.4", "+noise", "Gaussian", png])
            _ = try ExternalCommand.output("cwebp", ["-quiet", "-q", "85", png, "-o", webp])
        }
        let bytes = try Fixtures.read(webp)
        let whole = PixelRegion(x: 0, y: 0, width: 4000, height: 3000)
        let full = try Self.measure(bytes, whole, 4000, 3000)
        let quarter = try Self.measure(bytes, whole, 2000, 1500)
        let sixteenth = try Self.measure(bytes, whole, 1000, 750)
        let tiny = try Self.measure(bytes, whole, 100, 75)
        let centre = try Self.measure(bytes, PixelRegion(x: 1000, y: 750, width: 2000, height: 1500), 2000, 1500)
        let top = try Self.measure(bytes, PixelRegion(x: 0, y: 0, width: 4000, height: 750), 4000, 750)
        let stored = 12_000_000.0
        let perStored = tiny.ms * 1e6 / stored
        let perDecoded = (full.ms - tiny.ms) * 1e6 / stored
        print("""
            WebP 4000x3000 q85 (\(bytes.count) bytes), fastest of \(Self.runs), thread CPU ms:
              full \(full.ms); scaled to \(quarter.width)x\(quarter.height) \(quarter.ms); \
            \(sixteenth.width)x\(sixteenth.height) \(sixteenth.ms); \(tiny.width)x\(tiny.height) \(tiny.ms)
              centre 2000x1500 at full size \(centre.ms); top quarter 4000x750 \(top.ms)
              cost: per stored pixel ~\(perStored) ns, per decoded pixel ~\(perDecoded) ns
            """)
        #expect(full.width == 4000 && quarter.width >= 2000 && tiny.width >= 100)
    }
}
