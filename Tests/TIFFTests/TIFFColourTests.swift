import Imaging
import ImageCodec
import Testing
import TIFF
import TestSupport

/// CMYK through its ICC profile, and samples of more than 8 bits scaled (not clipped) to 8.
@Suite struct TIFFColourTests {
    /// Ghostscript's default_cmyk.icc embedded: Little CMS's conversion to sRGB, compared with ImageMagick's
    /// (its own Little CMS, relative colorimetric with black-point compensation, into Ghostscript's sRGB).
    @Test func cmykConvertsThroughItsEmbeddedProfile() throws {
        let decoded = try TIFFTestSupport.decodeWhole(try TIFFTestSupport.source("cmyk8-icc.tif"))
        let managed = try TIFFTestSupport.imageMagick(TIFFTestSupport.path("cmyk8-icc.tif"), options: [
            "-intent", "relative", "-black-point-compensation", "-profile", TIFFTestSupport.srgbProfile])
        let naive = try TIFFTestSupport.imageMagick(TIFFTestSupport.path("cmyk8-icc.tif"), options: ["-strip"])
        let toManaged = meanAbsoluteDifference(decoded.image.pixels, managed.pixels)
        let toNaive = meanAbsoluteDifference(decoded.image.pixels, naive.pixels)
        #expect(toManaged < 2, "mean difference to the profile conversion \(toManaged)")
        // The profile matters: without it the colours are far off.
        #expect(toNaive > 3 * toManaged + 3, "mean difference to the naive conversion \(toNaive)")
    }

    /// A 16-bit grey ramp: 65535 is white (255), not a clipped 65535 -> 255 of everything above 255.
    @Test func sixteenBitGreyIsScaled() throws {
        let values: [UInt16] = [0, 127, 128, 257, 2304, 32767, 32896, 65279, 65280, 65535]
        var tiff = StripTIFF(width: values.count, height: 1)
        tiff.bitsPerSample = 16
        tiff.samplesPerPixel = 1
        tiff.photometric = 1
        let pixels = values.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let decoded = try TIFFTestSupport.decodeWhole(MemorySource(tiff.file(pixels: pixels)))
        let expected = values.map { UInt8((Double($0) / 257).rounded()) }
        #expect(decoded.image.pixels == expected.flatMap { [$0, $0, $0] })
    }

    /// 16-bit RGB with unassociated alpha over white, checked against the formula in 8 bits.
    @Test func sixteenBitAlphaIsCompositedOverWhite() throws {
        var tiff = StripTIFF(width: 2, height: 1)
        tiff.bitsPerSample = 16
        tiff.samplesPerPixel = 4
        tiff.extraEntries = [(tag: 338, type: 3, count: 1, value: 2)]
        let samples: [UInt16] = [65535, 0, 0, 65535, /* opaque red */ 0, 0, 65535, 32896 /* half blue */]
        let decoded = try TIFFTestSupport.decodeWhole(MemorySource(tiff.file(pixels: samples.flatMap {
            [UInt8($0 & 0xFF), UInt8($0 >> 8)] })))
        #expect(decoded.image.pixels == [255, 0, 0, 127, 127, 255])
    }
}
