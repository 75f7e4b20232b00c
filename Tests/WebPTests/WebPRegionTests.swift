import Geometry
import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import WebP

/// Regions cropped and scaled by libwebp while it decodes, against the same part of a full decode.
struct WebPRegionTests {
    /// A lossy crop at odd offsets: widened to even ones (libwebp's 4:2:0 crops), `covers` says so exactly,
    /// and the pixels are the full decode's (the margin keeps libwebp's edge upsampling out of them).
    @Test(arguments: [
        PixelRegion(x: 31, y: 17, width: 60, height: 40),
        PixelRegion(x: 0, y: 0, width: 151, height: 1),
        PixelRegion(x: 150, y: 100, width: 1, height: 1),
        PixelRegion(x: 1, y: 1, width: 149, height: 99),
        PixelRegion(x: -20, y: 90, width: 60, height: 40),  // clamped to the picture
    ])
    func lossyCropEqualsTheFullDecodesRegion(region: PixelRegion) throws {
        let bytes = try WebPTestSupport.bytes("lossy.webp")
        let full = try WebPTestSupport.decodeWhole(bytes).image
        let clamped = try #require(region.clamped(width: 151, height: 101))
        let part = try WebPTestSupport.decode(bytes, region: region, minimumWidth: clamped.width,
                                              minimumHeight: clamped.height)
        let covers = PixelRegion(x: clamped.x & ~1, y: clamped.y & ~1,
                                 width: clamped.width + (clamped.x & 1), height: clamped.height + (clamped.y & 1))
        #expect(part.covers == Rect(x: Double(covers.x), y: Double(covers.y),
                                    width: Double(covers.width), height: Double(covers.height)))
        #expect(part.scale == 1)
        #expect(part.image.width == covers.width && part.image.height == covers.height)
        #expect(part.image.maxDifference(to: WebPTestSupport.crop(full, covers)) == 0)
    }

    /// Lossless crops are taken where asked, odd or not, and are exact.
    @Test func losslessCropIsExactAtOddOffsets() throws {
        let bytes = try WebPTestSupport.bytes("lossless.webp")
        let full = try WebPTestSupport.decodeWhole(bytes).image
        let region = PixelRegion(x: 7, y: 3, width: 21, height: 17)
        let part = try WebPTestSupport.decode(bytes, region: region, minimumWidth: 21, minimumHeight: 17)
        #expect(part.covers == Rect(x: 7, y: 3, width: 21, height: 17))
        #expect(part.image.pixels == WebPTestSupport.crop(full, region).pixels)
    }

    @Test func alphaCropIsCompositedLikeTheFullDecode() throws {
        let bytes = try WebPTestSupport.bytes("alpha-lossy.webp")
        let full = try WebPTestSupport.decodeWhole(bytes).image
        let part = try WebPTestSupport.decode(bytes, region: PixelRegion(x: 4, y: 6, width: 20, height: 18),
                                              minimumWidth: 20, minimumHeight: 18)
        #expect(part.image.maxDifference(to: WebPTestSupport.crop(full, PixelRegion(x: 4, y: 6, width: 20, height: 18))) == 0)
    }

    /// A scaled decode reaches the size asked for, reports one scale both sides agree with, and looks like the
    /// full decode downscaled with the engine's resampler (libwebp skips its deblocking filter and fancy
    /// upsampling when it scales, so it is close, not equal).
    @Test(arguments: [(1200, 800, 300, 200), (1200, 800, 397, 263), (640, 480, 100, 100), (333, 211, 111, 70)])
    func scaledDecodeReachesTheMinimumAndLooksLikeAFullDecodeDownscaled(width: Int, height: Int,
                                                                        minimumWidth: Int, minimumHeight: Int) throws {
        let bytes = try Fixtures.read(try WebPTestSupport.madeLossy(width: width, height: height))
        let region = PixelRegion(x: 0, y: 0, width: width, height: height)
        let scaled = try WebPTestSupport.decode(bytes, region: region, minimumWidth: minimumWidth,
                                                minimumHeight: minimumHeight)
        let image = scaled.image
        #expect(image.width >= minimumWidth && image.height >= minimumHeight)
        #expect(image.width < width && image.height < height)
        #expect(scaled.scale < 1)
        // The one scale is within a tenth of a pixel of both decoded sides.
        #expect(abs(Double(image.width) - Double(width) * scaled.scale) < 0.1)
        #expect(abs(Double(image.height) - Double(height) * scaled.scale) < 0.1)
        #expect(scaled.covers == Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        let full = try WebPTestSupport.decodeWhole(bytes).image
        let reference = try Resampler.resample(full, region: Rect(x: 0, y: 0, width: Double(width), height: Double(height)),
                                               width: image.width, height: image.height)
        // Measured 1.7 to 2.4: libwebp's rescaler averages areas (a box filter), the engine's is Lanczos-3, and
        // the two filters alone differ by 1.8 at 1200x800 to 300x200; against a box downscale of the full
        // decode libwebp's scaled decode differs by 0.9 (no deblocking filter, no fancy upsampling).
        let difference = image.meanDifference(to: reference)
        #expect(difference < 3, "mean difference \(difference)")
    }

    /// A region scaled: libwebp crops, then scales the crop.
    @Test func scaledRegionLooksLikeTheFullDecodesRegionDownscaled() throws {
        let bytes = try Fixtures.read(try WebPTestSupport.madeLossy(width: 1200, height: 800))
        let region = PixelRegion(x: 301, y: 151, width: 600, height: 400)
        let scaled = try WebPTestSupport.decode(bytes, region: region, minimumWidth: 200, minimumHeight: 100)
        #expect(scaled.covers == Rect(x: 300, y: 150, width: 601, height: 401))
        #expect(scaled.image.width >= 200 && scaled.image.height >= 133)
        #expect(abs(Double(scaled.image.width) - 601 * scaled.scale) < 0.1)
        #expect(abs(Double(scaled.image.height) - 401 * scaled.scale) < 0.1)
        let full = try WebPTestSupport.decodeWhole(bytes).image
        let reference = try Resampler.resample(full, region: Rect(x: 300, y: 150, width: 601, height: 401),
                                               width: scaled.image.width, height: scaled.image.height)
        #expect(scaled.image.meanDifference(to: reference) < 3)
    }

    /// The plan's scaled sizes: never below the minimum, never above the region, one scale for both sides.
    @Test func scaledSizesAgreeAndReachTheMinimum() {
        var worst = 0.0
        for (width, height) in [(4000, 3000), (3000, 4000), (601, 401), (1, 5000), (5000, 1), (4032, 3024), (999, 997), (1000, 1001), (1001, 500)] {
            for divisor in [1.3, 2, 2.7, 3, 4, 7.5, 16, 100] {
                let minimumWidth = max(1, Int(Double(width) / divisor)), minimumHeight = max(1, Int(Double(height) / divisor))
                let region = PixelRegion(x: 0, y: 0, width: width, height: height)
                guard let (w, h, scale) = WebPDecodePlan.scaledSize(of: region, minimumWidth: minimumWidth,
                                                                    minimumHeight: minimumHeight) else {
                    #expect(minimumWidth >= width - 1 || minimumHeight >= height - 1 || width == 1 || height == 1)
                    continue
                }
                #expect(w >= minimumWidth && h >= minimumHeight && w <= width && h <= height)
                let mismatch = max(abs(Double(w) - Double(width) * scale), abs(Double(h) - Double(height) * scale))
                #expect(mismatch < 0.25)
                worst = max(worst, mismatch)
            }
        }
        #expect(worst < 0.25)
    }

    @Test func minimumAtOrAboveTheRegionDecodesFullSize() {
        let region = PixelRegion(x: 0, y: 0, width: 640, height: 480)
        #expect(WebPDecodePlan.scaledSize(of: region, minimumWidth: 640, minimumHeight: 10) == nil)
        #expect(WebPDecodePlan.scaledSize(of: region, minimumWidth: 10_000, minimumHeight: 10_000) == nil)
        let plan = WebPDecodePlan.make(width: 640, height: 480, region: region, minimumWidth: 640, minimumHeight: 480,
                                       lossy: true)
        #expect(plan?.crop == region && plan?.scale == 1 && plan?.scaledWidth == nil)
    }

    @Test func regionOutsideThePictureFails() throws {
        let bytes = try WebPTestSupport.bytes("lossy.webp")
        #expect(throws: CodecError.internalError("the region asked for lies outside the 151x101 picture")) {
            try WebPTestSupport.decode(bytes, region: PixelRegion(x: 151, y: 0, width: 10, height: 10),
                                       minimumWidth: 10, minimumHeight: 10)
        }
    }
}
