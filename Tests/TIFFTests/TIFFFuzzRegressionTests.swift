import Foundation
import ImageCodec
import Imaging
import Testing
import TIFF
import TestSupport

/// Every input the fuzzer found a fault with (Fixtures/tiff/regressions) goes through the fuzzer's path again:
/// probe, then each picture decoded within a 4-Mpixel limit, in well under the fuzzer's 10 s.
@Suite struct TIFFFuzzRegressionTests {
    static let names: [String] = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.path("tiff/regressions")))?
        .filter { $0.hasSuffix(".tif") }.sorted() ?? []

    @Test(arguments: names)
    func replays(name: String) throws {
        let source = MemorySource(try Fixtures.bytes("tiff/regressions/" + name))
        let codec = TIFFCodec()
        let clock = ContinuousClock()
        let started = clock.now
        guard let headers = try? codec.probe(source) else { return }
        for (picture, header) in headers.enumerated().prefix(4) {
            _ = try? codec.decode(source, .whole(width: header.width, height: header.height, maxPixels: 4_000_000,
                                                 picture: picture), pool: BufferPool(), shouldCancel: { false })
        }
        // A debug build is slower than the fuzzer's: the bound is loose, the fault was 12 s of an -O build.
        #expect(clock.now - started < .seconds(5))
    }
}
