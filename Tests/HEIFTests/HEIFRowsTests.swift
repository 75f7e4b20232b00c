import Foundation
import Imaging
import Testing
@testable import HEIF
import ImageCodec
import TestSupport

/// A decode for a caller that reads rows (`DecodeRequest.acceptsRows`, the engine's) keeps the picture as libheif
/// or the decoder left it and hands out the region's rows from it: the same pixels as the buffer of a decode
/// that does not accept rows, with no RGB copy of the region made.
@Suite struct HEIFRowsTests {
    static func request(_ region: PixelRegion, minimum: (Int, Int)? = nil, acceptsRows: Bool) -> DecodeRequest {
        var request = DecodeRequest(region: region, minimumWidth: minimum?.0 ?? region.width,
                                    minimumHeight: minimum?.1 ?? region.height, maxPixels: 1 << 24)
        request.acceptsRows = acceptsRows
        return request
    }

    @Test(arguments: ["photo.heic", "rotated.heic", "grid.heic", "alpha.heic", "deep10.heic", "photo.avif",
                      "transposed.avif", "plain"])
    func rowsAreTheBuffersPixels(_ name: String) throws {
        let bytes: [UInt8]
        if name == "plain" {
            // One picture libheif would only convert: kept as the decoder's YCbCr planes (HEIFYCbCrPicture).
            let path = try HEIFDecoderPluginTests.plainHEIC([])
            defer { try? FileManager.default.removeItem(atPath: path) }
            bytes = try Fixtures.read(path)
        } else {
            bytes = try HEIFFixtures.bytes(name)
        }
        let source = MemorySource(bytes)
        let header = try HEIFFixtures.codec.probe(source)[0]
        let whole = PixelRegion(x: 0, y: 0, width: header.width, height: header.height)
        let part = PixelRegion(x: header.width / 3, y: header.height / 4, width: header.width / 2, height: header.height / 2)
        for region in [whole, part] {
            let buffer = try HEIFFixtures.codec.decode(source, Self.request(region, acceptsRows: false),
                                                       pool: BufferPool(), shouldCancel: { false })
            #expect(buffer.rows == nil)
            let decoded = try HEIFFixtures.codec.decode(source, Self.request(region, acceptsRows: true),
                                                        pool: BufferPool(), shouldCancel: { false })
            let rows = try #require(decoded.rows, "\(name) \(region)")
            #expect(decoded.image.pixels.isEmpty && decoded.scale == 1)
            #expect(decoded.covers == buffer.covers && decoded.storedWidth == buffer.storedWidth
                    && decoded.storedHeight == buffer.storedHeight)
            #expect(RGBImage(rows: rows, pool: BufferPool()) == buffer.image, "\(name) \(region)")
        }
    }

    /// A decode shrunk by a whole factor is already small: it comes as a buffer (BoxShrink) as before.
    @Test func aShrunkDecodeIsABuffer() throws {
        let source = try HEIFFixtures.source("photo.heic")
        let region = PixelRegion(x: 0, y: 0, width: 160, height: 107)
        let decoded = try HEIFFixtures.codec.decode(source, Self.request(region, minimum: (40, 26), acceptsRows: true),
                                                    pool: BufferPool(), shouldCancel: { false })
        #expect(decoded.rows == nil && decoded.scale == 0.25 && decoded.image.width == 40)
    }
}
