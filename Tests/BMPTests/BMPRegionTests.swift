import Geometry
import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import BMP

/// A region at a scale is the whole decode's region, shrunk by `BoxShrink`'s factor: the same pixels, from
/// bottom-up, top-down, RLE, masked and alpha files.
struct BMPRegionTests {
    static func expected(_ whole: RGBImage, _ region: PixelRegion, factor: Int) -> RGBImage {
        var shrink = BoxShrink(region: region, factor: factor, pool: BufferPool())
        let crop = whole.cropped(x: region.x, y: region.y, width: region.width, height: region.height)
        crop.pixels.withUnsafeBufferPointer { all in
            for y in 0..<region.height {
                shrink.add(row: UnsafeBufferPointer(rebasing: all[(y * region.width * 3)..<((y + 1) * region.width * 3)]))
            }
        }
        return shrink.finish(storedWidth: whole.width, storedHeight: whole.height).image
    }

    static let regions: [(PixelRegion, Int, Int)] = [
        (PixelRegion(x: 0, y: 0, width: 127, height: 64), 40, 20),
        (PixelRegion(x: 13, y: 7, width: 77, height: 41), 77, 41),
        (PixelRegion(x: 100, y: 50, width: 27, height: 14), 9, 4),
        (PixelRegion(x: 1, y: 0, width: 3, height: 64), 1, 30),
    ]

    @Test(arguments: ["g/rgb24.bmp", "g/pal8topdown.bmp", "g/pal1.bmp", "g/pal4rle.bmp", "g/pal8rle.bmp",
                      "g/rgb16-565.bmp", "q/rgba32.bmp", "q/pal8rletrns.bmp", "q/pal2.bmp"])
    func regionAtAScaleIsTheWholeDecodeCroppedAndShrunk(name: String) throws {
        let bytes = try BMPTestSupport.bytes(name)
        let whole = try BMPTestSupport.decodeWhole(bytes).image
        for (region, minimumWidth, minimumHeight) in Self.regions {
            let decoded = try BMPTestSupport.decode(bytes, region: region, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
            let factor = BoxShrink.factor(for: region, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
            #expect(decoded.covers == Rect(x: Double(region.x), y: Double(region.y), width: Double(region.width),
                                           height: Double(region.height)))
            #expect(decoded.scale == 1 / Double(factor))
            #expect(decoded.image.width >= minimumWidth && decoded.image.height >= minimumHeight)
            #expect(decoded.image == Self.expected(whole, region, factor: factor), "\(name) \(region)")
        }
    }

    @Test func regionOutsideThePictureFails() throws {
        #expect(throws: CodecError.internalError("the region asked for lies outside the 127x64 picture")) {
            try BMPTestSupport.decode(try BMPTestSupport.bytes("g/rgb24.bmp"), region: PixelRegion(x: 100, y: 0, width: 50, height: 10),
                                      minimumWidth: 50, minimumHeight: 10)
        }
    }
}
