import Geometry
import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import GIF

/// A region at a scale is the whole decode's region, shrunk by `BoxShrink`'s factor: the same pixels.
struct GIFRegionTests {
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

    @Test(arguments: [
        ("test.colors.gif", PixelRegion(x: 0, y: 0, width: 807, height: 606), 200, 150),
        ("test.colors.gif", PixelRegion(x: 101, y: 77, width: 403, height: 301), 403, 301),
        ("test.colors.gif", PixelRegion(x: 500, y: 400, width: 307, height: 206), 60, 40),
        ("first_frame_transparency.gif", PixelRegion(x: 10, y: 5, width: 40, height: 30), 13, 10),
        ("first_frame_transparency.gif", PixelRegion(x: 30, y: 21, width: 45, height: 29), 45, 29),
        ("first_frame_transparency.gif", PixelRegion(x: 0, y: 0, width: 20, height: 50), 5, 12),
        ("hopper_zero_comment_subblocks.gif", PixelRegion(x: 3, y: 90, width: 125, height: 38), 30, 9),
    ])
    func regionAtAScaleIsTheWholeDecodeCroppedAndShrunk(name: String, region: PixelRegion, minimumWidth: Int,
                                                        minimumHeight: Int) throws {
        let bytes = try GIFTestSupport.bytes(name)
        let whole = try GIFTestSupport.decodeWhole(bytes).image
        let decoded = try GIFTestSupport.decode(bytes, region: region, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
        let factor = BoxShrink.factor(for: region, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
        #expect(decoded.covers == Rect(x: Double(region.x), y: Double(region.y), width: Double(region.width),
                                       height: Double(region.height)))
        #expect(decoded.scale == 1 / Double(factor))
        #expect(decoded.image.width >= minimumWidth && decoded.image.height >= minimumHeight)
        #expect(decoded.image == Self.expected(whole, region, factor: factor))
        if minimumWidth < region.width / 2 { #expect(factor > 1) }
    }

    @Test func regionOutsideThePictureFails() throws {
        #expect(throws: CodecError.internalError("the region asked for lies outside the 128x128 picture")) {
            try GIFTestSupport.decode(try GIFTestSupport.bytes("hopper.gif"), region: PixelRegion(x: 100, y: 0, width: 50, height: 10),
                                      minimumWidth: 50, minimumHeight: 10)
        }
    }
}
