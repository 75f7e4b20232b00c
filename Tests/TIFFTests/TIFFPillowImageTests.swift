import Imaging
import ImageCodec
import Testing
import TIFF
import TestSupport

/// TIFFs nobody here made, from Pillow's test images (Fixtures/tiff/pillow, with Pillow's licence): CMYK and
/// YCbCr JPEG in strips and tiles, old-style JPEG, 12-bit and 2-bit grey, 16-bit premultiplied alpha, a G4 fax
/// stored with the other bit order, LZMA and WebP compression, a 1-bit palette.
@Suite struct TIFFPillowImageTests {
    /// Fixture, its detail, and the mean absolute difference from the reference allowed per sample. The
    /// reference is ImageMagick, except where it fails: it cannot read tiled CMYK JPEG ("Can not read scanlines
    /// from a tiled image") and shows old-style JPEG's YCbCr as if it were RGB (green); there libtiff's own
    /// whole-file RGBA reading (tiff2rgba) is the reference.
    static let images: [(String, String, Double)] = [
        ("tiff_strip_cmyk_jpeg.tif", "8-bit CMYK, JPEG", 0.6),
        ("tiff_tiled_cmyk_jpeg.tif", "8-bit CMYK, tiled, JPEG", 0.6),
        ("tiff_tiled_ycbcr_jpeg_2x2_sampling.tif", "8-bit YCbCr, tiled, JPEG", 1.5),
        ("tiff_strip_ycbcr_jpeg_1x1_sampling.tif", "8-bit YCbCr, JPEG", 1.5),
        ("old-style-jpeg-compression.tif", "8-bit YCbCr, old-style JPEG", 0),
        ("12bit.cropped.tif", "12-bit grey, uncompressed", 0.5),
        ("hopper2.tif", "2-bit grey, uncompressed", 0),
        ("tiff_16bit_RGBa.tiff", "16-bit RGB with alpha, LZW", 0.6),
        ("g4-fillorder-test.tif", "1-bit grey, CCITT G4", 0),
        ("hopper_lzma.tif", "8-bit RGB, LZMA", 0),
        ("hopper_webp.tif", "8-bit RGB, WebP", 0),
        ("multipage-lastframe.tif", "1-bit palette, uncompressed", 0),
        ("tiff_strip_planar_raw_with_overviews.tif", "8-bit RGB, planar, uncompressed", 0),
    ]

    /// GDAL's overviews follow the picture in the main chain, marked reduced-resolution: not photos.
    @Test func overviewsAreNotPages() throws {
        let headers = try TIFFCodec().probe(try TIFFTestSupport.source("pillow/tiff_strip_planar_raw_with_overviews.tif"))
        #expect(headers.map { [$0.width, $0.height] } == [[278, 374]])
    }

    static let byLibtiff: Set = ["tiff_tiled_cmyk_jpeg.tif", "old-style-jpeg-compression.tif"]

    @Test(arguments: images)
    func decodesAsImageMagickDoes(name: String, detail: String, tolerance: Double) throws {
        let source = try TIFFTestSupport.source("pillow/" + name)
        let headers = try TIFFCodec().probe(source)
        #expect(headers.first?.detail == detail)
        for (page, header) in headers.enumerated() {
            let decoded = try TIFFTestSupport.decodeWhole(source, picture: page)
            let path = TIFFTestSupport.path("pillow/" + name)
            let reference = Self.byLibtiff.contains(name) ? try TIFFTestSupport.tiff2rgba(path)
                                                          : try TIFFTestSupport.imageMagick(path, page: page)
            #expect(decoded.image.width == reference.width && decoded.image.height == reference.height)
            #expect(header.width == reference.width)
            let difference = meanAbsoluteDifference(decoded.image.pixels, reference.pixels)
            #expect(difference <= tolerance, "\(name) page \(page): mean difference \(difference), worst \(maxDifference(decoded.image.pixels, reference.pixels))")
        }
    }
}
