import Imaging
import ImageCodec
import Testing
import TIFF
import TestSupport

/// Every layout the codec reads itself (and the ones it leaves to libtiff's RGBA reader) gives the pixels
/// ImageMagick gives, within rounding.
@Suite struct TIFFReferenceTests {
    /// Fixture, and the mean absolute difference allowed per sample.
    static let fixtures: [(String, Double)] = [
        ("rgb8-none.tif", 0), ("rgb8-lzw.tif", 0), ("rgb8-deflate-predictor.tif", 0), ("rgb8-packbits.tif", 0),
        ("rgb8-jpeg-ycbcr.tif", 1.5), ("rgb8-tiled-lzw.tif", 0), ("rgb8-tiled-edges.tif", 0),
        ("rgb8-planar-lzw.tif", 0), ("rgb8-planar-tiled.tif", 0), ("rgb8-bigtiff.tif", 0),
        ("grey8.tif", 0), ("grey8-miniswhite.tif", 0), ("grey1-g4.tif", 0), ("grey1-g3.tif", 0),
        // ImageMagick truncates 16 bits to 8 (2304 is 8, not 8.97 rounded): one level apart at most.
        ("grey4.tif", 0), ("grey16.tif", 0.5), ("rgb16-lzw.tif", 0.5),
        ("palette8.tif", 0.5), ("palette4.tif", 0.5),
        ("rgba8-unassociated.tif", 0.6), ("rgba16.tif", 0.6), ("greya8.tif", 0.6),
        ("cmyk8-plain.tif", 0.6), ("cmyk16-plain.tif", 0.6),
    ]

    @Test(arguments: fixtures)
    func decodesAsImageMagickDoes(name: String, tolerance: Double) throws {
        let decoded = try TIFFTestSupport.decodeWhole(try TIFFTestSupport.source(name))
        let reference = try TIFFTestSupport.imageMagick(TIFFTestSupport.path(name))
        #expect(decoded.image.width == reference.width && decoded.image.height == reference.height)
        #expect(decoded.scale == 1)
        let difference = meanAbsoluteDifference(decoded.image.pixels, reference.pixels)
        #expect(difference <= tolerance, "\(name): mean difference \(difference), worst \(maxDifference(decoded.image.pixels, reference.pixels))")
    }
}

/// Layouts left to libtiff's RGBA reader (`TIFFReadRGBAStrip`, `TIFFReadRGBATile`): the bands are put back
/// top-down and in place, so the picture is exactly what tiff2rgba makes of the whole file at once.
@Suite struct TIFFRGBAReaderTests {
    @Test(arguments: ["lab8.tif", "lab8-tiled-edges.tif"])
    func bandsAreWhatTiff2rgbaGives(name: String) throws {
        let decoded = try TIFFTestSupport.decodeWhole(try TIFFTestSupport.source(name))
        let reference = try TIFFTestSupport.tiff2rgba(TIFFTestSupport.path(name))
        #expect(decoded.image.width == reference.width && decoded.image.height == reference.height)
        #expect(decoded.image.pixels == reference.pixels)
    }

    /// ImageMagick converts Lab with its own formulas, libtiff with a display model: close, not equal.
    @Test func labIsCloseToImageMagicksLab() throws {
        let decoded = try TIFFTestSupport.decodeWhole(try TIFFTestSupport.source("lab8.tif"))
        let reference = try TIFFTestSupport.imageMagick(TIFFTestSupport.path("lab8.tif"))
        #expect(meanAbsoluteDifference(decoded.image.pixels, reference.pixels) < 6)
    }
}
