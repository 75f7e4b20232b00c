import Geometry
import Imaging
import ImageCodec
import Testing
import TIFF
import TestSupport

/// A region at a scale: the rows of the region only, shrunk by the largest whole factor that still covers the
/// minimum size; the same pixels as shrinking the whole decode, for every way of reading.
@Suite struct TIFFRegionTests {
    @Test(arguments: ["rgb8-lzw.tif", "rgb8-jpeg-ycbcr.tif", "rgb8-planar-lzw.tif", "rgb8-tiled-edges.tif",
                      "rgb8-planar-tiled.tif", "lab8-tiled-edges.tif", "lab8.tif", "grey1-g4.tif"])
    func regionAtAScaleIsTheWholeDecodeShrunk(name: String) throws {
        let source = try TIFFTestSupport.source(name)
        let whole = try TIFFTestSupport.decodeWhole(source).image
        let region = PixelRegion(x: 5, y: 3, width: 30, height: 20)
        let request = DecodeRequest(region: region, minimumWidth: 10, minimumHeight: 6, maxPixels: 1 << 20)
        let decoded = try TIFFCodec().decode(source, request, pool: BufferPool(), shouldCancel: { false })
        #expect(decoded.scale == 1.0 / 3)
        #expect(decoded.covers == Rect(x: 5, y: 3, width: 30, height: 20))
        #expect(decoded.storedWidth == whole.width && decoded.storedHeight == whole.height)
        #expect(decoded.image == TIFFTestSupport.boxShrink(whole, region: region, factor: 3))
    }

    @Test func regionIsClampedToThePicture() throws {
        let source = try TIFFTestSupport.source("rgb8-tiled-lzw.tif")
        let whole = try TIFFTestSupport.decodeWhole(source).image
        let request = DecodeRequest(region: PixelRegion(x: 40, y: 20, width: 100, height: 100), minimumWidth: 8,
                                    minimumHeight: 12, maxPixels: 1 << 20)
        let decoded = try TIFFCodec().decode(source, request, pool: BufferPool(), shouldCancel: { false })
        #expect(decoded.covers == Rect(x: 40, y: 20, width: 8, height: 12))
        #expect(decoded.image == TIFFTestSupport.boxShrink(whole, region: PixelRegion(x: 40, y: 20, width: 8, height: 12),
                                                           factor: 1))
        #expect(throws: CodecError.internalError("the part of the picture asked for lies outside it")) {
            try TIFFCodec().decode(source, DecodeRequest(region: PixelRegion(x: 48, y: 0, width: 5, height: 5),
                                                         minimumWidth: 5, minimumHeight: 5, maxPixels: 1 << 20),
                                   pool: BufferPool(), shouldCancel: { false })
        }
    }
}
