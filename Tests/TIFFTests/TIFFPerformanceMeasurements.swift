import Foundation
import Imaging
import ImageCodec
import Testing
import TIFF
import TestSupport

/// The figure behind `TIFFCodec.cost`: a 12-MP 8-bit RGB TIFF (a photo scaled up to 4000 x 3000, in strips of
/// 16 rows) as LZW with and without horizontal differencing, Deflate with it, and uncompressed.
/// Off by default; run in a release build:
///
///     PHOTOBOOK_TIFF_BENCH=1 swift test -c release --filter TIFFPerformanceMeasurements
///
/// Times are the test thread's CPU time, fastest of five. Measured on the 2-core development machine while
/// other builds ran (two runs): LZW with differencing 189-214 ms (16-18 ns a pixel), LZW 234-264 ms, Deflate
/// with differencing 302-348 ms, uncompressed 45-62 ms.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["PHOTOBOOK_TIFF_BENCH"] != nil))
struct TIFFPerformanceMeasurements {
    static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    @Test(arguments: [["-c", "lzw:2"], ["-c", "lzw"], ["-c", "none"], ["-c", "zip:2"]])
    func twelveMegapixelDecode(compression: [String]) throws {
        let base = NSTemporaryDirectory() + "photobook-tiff-bench-\(UInt64.random(in: 0...UInt64.max))"
        defer {
            try? FileManager.default.removeItem(atPath: base + "-raw.tif")
            try? FileManager.default.removeItem(atPath: base + ".tif")
        }
        _ = try ExternalCommand.output(TIFFTestSupport.imageMagick, [
            Fixtures.path("exif-orientation/Landscape_1.jpg"), "-strip", "-resize", "4000x3000!", "-depth", "8",
            "-compress", "none", base + "-raw.tif"])
        _ = try ExternalCommand.output("/usr/bin/tiffcp", compression + ["-r", "16", base + "-raw.tif", base + ".tif"])
        let source = try FileSource(path: base + ".tif")
        let codec = TIFFCodec()
        var times: [Double] = []
        // As in a build: each run's buffer goes back to the pool for the next.
        let pool = BufferPool()
        for _ in 0..<5 {
            let start = Self.threadCPUTime()
            let image = try codec.decode(source, .whole(width: 4000, height: 3000, maxPixels: 1 << 30), pool: pool,
                                         shouldCancel: { false })
            times.append(Self.threadCPUTime() - start)
            pool.giveBack(image.image.pixels)
        }
        let best = times.min()!
        print("TIFF 12 MP \(compression.joined(separator: " ")) (\(source.count >> 10) KB): \(Int(best * 1000)) ms, "
              + "\(String(format: "%.1f", best * 1e9 / 12e6)) ns a pixel")
    }
}
