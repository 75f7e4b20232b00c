import Foundation
import Synchronization
import Testing
import HEIF
import ImageCodec
import TestSupport

/// photobook's own libheif decoder plugins (CHEIFDecoders): HEVC through libavcodec, AV1 through dav1d.
@Suite struct HEIFDecoderPluginTests {
    /// HEVC decoding is exact, so libavcodec gives libde265's picture to the last bit: the same pixels as
    /// heif-convert's (libheif's own tool, decoding with libde265), after the same conversion to RGB.
    @Test(arguments: ["photo.heic", "rotated.heic", "rotated-irot-first.heic", "icc.heic", "grid.heic"])
    func hevcPicturesAreExactlyLibde265s(_ file: String) throws {
        let decoded = try HEIFFixtures.decodeWhole(try HEIFFixtures.bytes(file))
        let reference = try HEIFFixtures.reference(file)
        try #require(decoded.image.width == reference.width && decoded.image.height == reference.height)
        #expect(maxDifference(decoded.image.pixels, reference.pixels) == 0)
    }
}

/// The threads of the whole process are counted, so the Makefile runs this suite alone, after the rest
/// (`ALONE_TESTS`): beside other suites it would count their threads too. Serialized: its two cases would
/// otherwise run at once and count each other's decode threads.
@Suite(.serialized) struct HEIFThreadTests {
    /// `--jobs` means what it says: a decode adds one thread, the one it runs on (HEIFDecodeJob), and none of
    /// the decoder's own. libheif 1.15's plugins start a libde265 worker per decode and dav1d's default of a
    /// thread per CPU; the thread count is sampled while each picture is decoded a few times.
    @Test(arguments: ["HEIC", "AVIF"])
    func aDecodeRunsOnOneThread(_ kind: String) throws {
        let made = kind == "HEIC" ? HEIFDecodeTests.largeHEIC : HEIFDecodeTests.largeAVIF
        let bytes = try #require(made, "heif-enc could not make the large \(kind)")
        let request = DecodeRequest.whole(width: 2400, height: 1600, maxPixels: 1 << 24)
        let sampling = Atomic(true)
        let most = Atomic(0)
        let running = DispatchSemaphore(value: 0)
        let sampler = Thread {
            most.max(Self.threadCount())
            running.signal()
            while sampling.load(ordering: .relaxed) {
                most.max(Self.threadCount())
                usleep(200)  // the sampling period (5 kHz), not an ordering of events
            }
        }
        sampler.start()
        // The sampler is running (and counted) once it has read the count once.
        try #require(running.wait(timeout: .now() + 30) == .success, "the sampling thread did not start")
        let before = Self.threadCount()
        try #require(before > 0, "/proc/self/status has no Threads: line")
        for _ in 0..<3 {
            let decoded = try HEIFFixtures.codec.decode(MemorySource(bytes), request, shouldCancel: { false })
            #expect(decoded.image.width == 2400)
        }
        sampling.store(false, ordering: .relaxed)
        #expect(most.load(ordering: .relaxed) <= before + 1, "\(kind): \(before) threads before, \(most.load(ordering: .relaxed)) at most")
    }

    /// The `Threads:` line of /proc/self/status.
    static func threadCount() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }),
              let count = Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) else { return 0 }
        return count
    }
}

private extension Atomic<Int> {
    func max(_ value: Int) {
        var current = load(ordering: .relaxed)
        while value > current {
            let (exchanged, original) = compareExchange(expected: current, desired: value, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}
