import Foundation
import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import JXL

/// The figures behind `JXLCodec.cost`. Off by default (a minute of CPU); run them by hand:
///
///     PHOTOBOOK_JXL_BENCH=1 swift test --filter JXLPerformanceMeasurements
///
/// A 4000x3000 photo with noise made by cjxl from the fixture photo (lossy -d 1, and lossless), decoded whole,
/// shrunk to a quarter of each side, and a centre crop; times are the test thread's CPU time, fastest of
/// `runs` (libjxl runs on the calling thread: no parallel runner).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["PHOTOBOOK_JXL_BENCH"] != nil))
struct JXLPerformanceMeasurements {
    static let runs = Int(ProcessInfo.processInfo.environment["PHOTOBOOK_JXL_BENCH_RUNS"] ?? "") ?? 3

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
            let decoded = try JXLTestSupport.decode(bytes, region: region, minimumWidth: minimumWidth,
                                                    minimumHeight: minimumHeight, pool: pool)
            best = min(best, threadCPUTime() - start)
            size = (decoded.image.width, decoded.image.height)
            pool.giveBack(decoded.image.pixels)
        }
        return (best * 1000, size.0, size.1)
    }

    @Test(arguments: [("lossy", ["-d", "1"]), ("lossless", ["-d", "0", "-e", "3"])])
    func decodeCost(_ kind: String, _ options: [String]) throws {
        let png = NSTemporaryDirectory() + "jxl-bench-12mp.png", jxl = NSTemporaryDirectory() + "jxl-bench-12mp-\(kind).jxl"
        if !FileManager.default.fileExists(atPath: jxl) {
            _ = try ExternalCommand.output("convert", [Fixtures.path("exif-orientation/Landscape_1.jpg"), "-strip",
                                                       "-resize", "4000x3000!", "-attenuate", "0.4", "+noise", "Gaussian", png])
            _ = try ExternalCommand.output("cjxl", ["--quiet", "--num_threads=1"] + options + [png, jxl])
        }
        let bytes = try Fixtures.read(jxl)
        let whole = PixelRegion(x: 0, y: 0, width: 4000, height: 3000)
        let full = try Self.measure(bytes, whole, 4000, 3000)
        let quarter = try Self.measure(bytes, whole, 1000, 750)
        let eighth = try Self.measure(bytes, whole, 500, 375)
        let centre = try Self.measure(bytes, PixelRegion(x: 1000, y: 750, width: 2000, height: 1500), 2000, 1500)
        print("""
            JPEG XL 4000x3000 \(kind) (\(bytes.count) bytes), fastest of \(Self.runs), thread CPU ms:
              full \(full.ms); shrunk to \(quarter.width)x\(quarter.height) \(quarter.ms); \
            to \(eighth.width)x\(eighth.height) (the DC picture when lossy) \(eighth.ms); centre 2000x1500 \(centre.ms)
              per stored pixel ~\(full.ms * 1e6 / 12_000_000) ns
            """)
        #expect(full.width == 4000 && quarter.width >= 1000 && eighth.width == 500)
    }
}
