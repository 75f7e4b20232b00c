import Testing
@testable import PNG
import TestSupport

/// `PNGDecoder.readInfo(prefix:)`: a header cut by the end of the bytes asks for more instead of failing.
@Suite struct PNGPrefixHeaderTests {
    /// A 2x1 grey PNG with a private ancillary chunk of `size` bytes between IHDR and the image data.
    static func withLargeChunk(size: Int) -> [UInt8] {
        let file = TestPNGEncoder.encode(width: 2, height: 1, colorType: 0, pixels: [10, 20])
        let afterIHDR = 8 + 25
        var out = Array(file.prefix(afterIHDR))
        out += TestPNGEncoder.chunk("prVt", [UInt8](repeating: 7, count: size))
        return out + file.dropFirst(afterIHDR)
    }

    @Test func aHeaderCutInsideALargeChunkNeedsMoreBytes() throws {
        let png = Self.withLargeChunk(size: 100_000)
        let cut = Array(png.prefix(50_000))
        #expect(try PNGDecoder.readInfo(prefix: cut) == nil)
        #expect(throws: PNGError.self) { try PNGDecoder.readInfo(cut) }
        let info = try #require(try PNGDecoder.readInfo(prefix: png))
        #expect(info.width == 2 && info.height == 1)
    }

    @Test func aCompleteHeaderIsReadEvenWhenTheImageDataIsCut() throws {
        let png = Self.withLargeChunk(size: 1000)
        let idat = try #require(TestPNGEncoder.chunks(of: png).first { $0.type == "IDAT" })
        #expect(try PNGDecoder.readInfo(prefix: Array(png.prefix(idat.offset + 10)))?.width == 2)
    }

    @Test func aDamagedHeaderStillFailsWithItsReason() throws {
        var png = Self.withLargeChunk(size: 1000)
        png[16 + 9] ^= 0xFF  // the colour type inside IHDR: the CRC no longer matches
        #expect(throws: PNGError.corrupt("IHDR: CRC error")) { try PNGDecoder.readInfo(prefix: png) }
    }
}
