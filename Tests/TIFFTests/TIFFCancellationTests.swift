import Imaging
import ImageCodec
import Testing
import TIFF
import TestSupport

/// `shouldCancel` is asked once before the pixels and then between bands (64 rows of a strip picture, a strip
/// of a planar one, a row of tiles): a yes stops the decode right there.
@Suite struct TIFFCancellationTests {
    /// 600 x 1000 RGB in strips of 10 rows: 1 + 16 checks.
    static let strips: [UInt8] = StripTIFF(width: 600, height: 1000, rowsPerStrip: 10)
        .file(pixels: (0..<(600 * 1000 * 3)).map { UInt8(truncatingIfNeeded: $0 / 7) })

    static func source(_ name: String) throws -> MemorySource {
        name == "strips" ? MemorySource(strips) : try TIFFTestSupport.source(name)
    }

    @Test("checks a decode makes", arguments: [("strips", 17), ("rgb8-tiled-lzw.tif", 3), ("rgb8-planar-lzw.tif", 8),
                                                ("lab8.tif", 8), ("lab8-tiled-edges.tif", 3)])
    func checks(name: String, checks: Int) throws {
        var asked = 0
        _ = try TIFFTestSupport.decodeWhole(try Self.source(name)) { asked += 1; return false }
        #expect(asked == checks)
    }

    @Test(arguments: [("strips", 1), ("strips", 2), ("strips", 9), ("strips", 17), ("rgb8-tiled-lzw.tif", 3),
                      ("rgb8-planar-lzw.tif", 4), ("lab8.tif", 2)])
    func cancelsAtTheCheckThatSaysYes(name: String, at: Int) throws {
        var asked = 0
        let source = try Self.source(name)
        // A pool of this test's own that pools every buffer, however small: it sees the shrink's.
        let pool = BufferPool(minimumBytes: 1)
        #expect(throws: CodecError.cancelled) {
            try TIFFTestSupport.decodeWhole(source, pool: pool) { asked += 1; return asked >= at }
        }
        #expect(asked == at)
        // The shrink's buffer, made once the first band is read (after the check before the pixels and the one
        // before that band), went back.
        #expect(pool.statistics.allocated == (at <= 2 ? 0 : 1))
        #expect(pool.statistics.outstandingBytes == 0 && pool.statistics.kept == pool.statistics.allocated)
    }
}
