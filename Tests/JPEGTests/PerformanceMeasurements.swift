import Foundation
import Imaging
import Testing
@testable import JPEG

/// Figures that guide the engine: region decodes against full decodes, the decoder's speed settings and the
/// encoder's options. Off by default (minutes of CPU); run them in a release build:
///
///     PHOTOBOOK_JPEG_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter PerformanceMeasurements
///
/// Times are the test thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so other work on the machine barely moves
/// them; each figure is the fastest of several runs, with the median beside it.
///
/// Measured on the 2-core development machine under heavy load from other work (so +-10%), fastest of 15:
/// - 4000x3000 q92 4:2:0 (4.1 MB): full decode 101 ms at 8/8, 100 ms at 6/8, 77 ms at 4/8. Entropy decoding
///   alone is about 45-50 ms of that at every scale (the "16 rows at the top" case): skipping rows saves only
///   the IDCT, upsampling and colour conversion of them, and cropping columns the same for those columns.
/// - Region 2058x3000 (centre, portrait cell): 74% of the full decode at 8/8, 80% at 6/8, 91% at 4/8.
///   Region 4000x2740: 90%, 95%, 99%. Checking the tail (reading its entropy-coded data) costs what skipping
///   the rows below costs: ~2-3 ms here, ~30 ms for a region in the top third.
/// - 6/8 is no faster than 8/8: libjpeg-turbo has SIMD IDCTs for 8/8, 4/8, 2/8 and 1/8 only
///   (callgrind on djpeg: 906 M instructions at 6/8 against 581 M at 8/8).
/// - JDCT_IFAST saves ~3% at 8/8 (45.3 dB from the default decode, 0.16 dB lower against the original) and
///   nothing below 8/8 except the 8x8 chroma IDCT at 4/8; simple upsampling saves ~5% at 8/8 for 0.5 dB
///   against the original (39.3 dB from the default). Neither is worth it; the defaults stay.
/// - Encoding 2244x3272 at q90: 4:4:4 141 ms / 2.72 MB optimized, 49 ms / 2.83 MB standard tables;
///   4:2:0 99 ms / 2.26 MB optimized, 33 ms / 2.33 MB standard tables (4:2:0 loses 3.3 dB on this picture).
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["PHOTOBOOK_JPEG_BENCH"] != nil))
struct PerformanceMeasurements {
    static let repetitions = Int(ProcessInfo.processInfo.environment["PHOTOBOOK_JPEG_BENCH_RUNS"] ?? "") ?? 7

    /// A photo-like picture: smooth colour fields, fine texture, sensor-like noise and some hard edges.
    static func detailedImage(width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let columnWave = (0..<width).map { x in
            (sin(Double(x) * 0.0031), sin(Double(x) * 0.047), cos(Double(x) * 0.21))
        }
        let rowWave = (0..<height).map { y in
            (cos(Double(y) * 0.0023), cos(Double(y) * 0.041), sin(Double(y) * 0.19))
        }
        var noise: UInt64 = 0x9E37_79B9_7F4A_7C15
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            for y in 0..<height {
                let (ry0, ry1, ry2) = rowWave[y]
                for x in 0..<width {
                    let (cx0, cx1, cx2) = columnWave[x]
                    noise = noise &* 6364136223846793005 &+ 1442695040888963407
                    let n = Double(Int(truncatingIfNeeded: (noise >> 58)) - 32) * 0.4  // about +-13
                    let field = 70 * cx0 * ry0, texture = 28 * cx1 * ry1 + 14 * cx2 * ry2
                    var r = 128 + field + texture + n
                    var g = 120 - field * 0.6 + texture * 0.8 + n
                    var b = 110 + 50 * ry0 - texture * 0.5 + n
                    if (x / 61 + y / 47) % 5 == 0 {  // hard-edged patches
                        r = 255 - r * 0.5; g *= 0.4; b = 40 + b * 0.2
                    }
                    p[i] = UInt8(clamping: Int(r)); p[i + 1] = UInt8(clamping: Int(g)); p[i + 2] = UInt8(clamping: Int(b))
                    i += 3
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    static func threadCPUms() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1_000_000
    }

    /// Median and fastest CPU milliseconds of each body over `repetitions` rounds (after one warm-up round).
    /// The bodies take turns within each round, so a burst of load elsewhere hits them alike.
    static func measure(_ bodies: [() throws -> Void]) throws -> [(median: Double, fastest: Double)] {
        for body in bodies { try body() }
        var times = [[Double]](repeating: [], count: bodies.count)
        for _ in 0..<repetitions {
            for (i, body) in bodies.enumerated() {
                let start = threadCPUms()
                try body()
                times[i].append(threadCPUms() - start)
            }
        }
        return times.map { t in
            let sorted = t.sorted()
            return (sorted[sorted.count / 2], sorted[0])
        }
    }

    static func measure(_ body: () throws -> Void) throws -> (median: Double, fastest: Double) {
        try withoutActuallyEscaping(body) { body in try measure([body])[0] }
    }

    static func format(_ t: (median: Double, fastest: Double)) -> String {
        String(format: "%6.1f ms (median %6.1f)", t.fastest, t.median)
    }

    static let photo: [UInt8] = try! JPEGEncoder.encode(detailedImage(width: 4000, height: 3000),
                                                        options: .init(quality: 92, chromaSubsampling: .both))

    static func decodeRegion(_ region: JPEGRegion, scale: Int, tuning base: JPEGDecoder.RegionTuning = .init())
        throws -> JPEGDecodedRegion {
        var tuning = base
        tuning.scale = scale
        return try JPEGDecoder.decode(photo, region: region, minimumWidth: 0, minimumHeight: 0, maxPixels: 1 << 26,
                                      tuning: tuning, shouldCancel: { false })
    }

    @Test("region decode against full decode, 4000x3000 q92 4:2:0")
    func regionDecode() throws {
        print("source: 4000x3000 q92 4:2:0, \(Self.photo.count) bytes; fastest of \(Self.repetitions) runs each")
        if let path = ProcessInfo.processInfo.environment["PHOTOBOOK_JPEG_BENCH_SAVE"] {  // for djpeg, valgrind
            try Data(Self.photo).write(to: URL(fileURLWithPath: path))
        }
        let regions = [
            ("2058x3000 centre", JPEGRegion(x: 971, y: 0, width: 2058, height: 3000)),
            ("4000x2740 centre", JPEGRegion(x: 0, y: 130, width: 4000, height: 2740)),
            ("4000x1000 top", JPEGRegion(x: 0, y: 0, width: 4000, height: 1000)),
            ("16 rows at the top", JPEGRegion(x: 0, y: 0, width: 4000, height: 16)),
        ]
        var unchecked = JPEGDecoder.RegionTuning()
        unchecked.checksTail = false
        for scale in [8, 6, 4] {
            var bodies: [() throws -> Void] = [{
                _ = try JPEGDecoder.decode(Self.photo, minimumWidth: (4000 * scale + 7) / 8,
                                           minimumHeight: (3000 * scale + 7) / 8, maxPixels: 1 << 26)
            }]
            for (_, region) in regions {
                bodies.append { _ = try Self.decodeRegion(region, scale: scale) }
                bodies.append { _ = try Self.decodeRegion(region, scale: scale, tuning: unchecked) }
            }
            let times = try Self.measure(bodies)
            let full = times[0].fastest
            print("\(scale)/8 full decode                   \(Self.format(times[0]))")
            for (i, (name, region)) in regions.enumerated() {
                let size = try Self.decodeRegion(region, scale: scale).image
                let checked = times[1 + 2 * i], skipped = times[2 + 2 * i]
                print("\(scale)/8 \(name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(size.width)x\(size.height)"
                      + "  \(Self.format(checked))" + String(format: " = %3.0f%% of full", 100 * checked.fastest / full)
                      + "; tail unchecked \(Self.format(skipped))")
            }
        }
    }

    @Test("decoder speed settings: fast IDCT, simple upsampling; time and PSNR")
    func decoderSettings() throws {
        let whole = JPEGRegion(x: 0, y: 0, width: 4000, height: 3000)
        let original = Self.detailedImage(width: 4000, height: 3000)
        let variants: [(String, Bool, Bool)] = [("ISLOW fancy (default)", false, true), ("IFAST fancy", true, true),
                                                ("ISLOW simple upsampling", false, false),
                                                ("IFAST simple upsampling", true, false)]
        for scale in [8, 6, 4] {
            let tunings = variants.map { (_, fast, fancy) in
                var tuning = JPEGDecoder.RegionTuning()
                tuning.fastIDCT = fast
                tuning.fancyUpsampling = fancy
                return tuning
            }
            let times = try Self.measure(tunings.map { tuning in
                { _ = try Self.decodeRegion(whole, scale: scale, tuning: tuning) }
            })
            let reference = try Self.decodeRegion(whole, scale: scale).image
            for (i, (name, _, _)) in variants.enumerated() {
                let image = try Self.decodeRegion(whole, scale: scale, tuning: tunings[i]).image
                var line = "\(scale)/8 \(name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(Self.format(times[i]))"
                line += String(format: "  PSNR vs default %6.2f dB", JPEGTestSupport.psnr(image, reference))
                if scale == 8 { line += String(format: ", vs original %6.2f dB", JPEGTestSupport.psnr(image, original)) }
                print(line)
            }
        }
    }

    @Test("encoder options at quality 90, 2244x3272")
    func encoderOptions() throws {
        let image = Self.detailedImage(width: 2244, height: 3272)
        let variants: [(String, JPEGEncoder.Options.ChromaSubsampling, Bool)] = [
            ("4:4:4 optimized", .none, true), ("4:4:4 standard tables", .none, false),
            ("4:2:0 optimized", .both, true), ("4:2:0 standard tables", .both, false),
        ]
        let optionsList = variants.map { (_, subsampling, optimize) in
            JPEGEncoder.Options(quality: 90, optimizeCoding: optimize, chromaSubsampling: subsampling)
        }
        let times = try Self.measure(optionsList.map { options in { _ = try JPEGEncoder.encode(image, options: options) } })
        for (i, (name, _, _)) in variants.enumerated() {
            let jpeg = try JPEGEncoder.encode(image, options: optionsList[i])
            let decoded = try JPEGDecoder.decode(jpeg, minimumWidth: .max, minimumHeight: .max, maxPixels: 1 << 26)
            print("\(name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(Self.format(times[i]))"
                  + String(format: "  %.2f MB  PSNR %.2f dB", Double(jpeg.count) / 1_000_000,
                           JPEGTestSupport.psnr(decoded, image)))
        }
    }
}
