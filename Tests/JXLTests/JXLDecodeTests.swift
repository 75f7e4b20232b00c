import Geometry
import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import JXL

/// Decodes compared with djxl's (libjxl's own tool, the same library through another path: its PNG writer,
/// its orientation, ImageMagick's compositing over white).
struct JXLDecodeTests {
    /// Mean absolute difference allowed per sample, out of 255. Same library, so the pixels are libjxl's either
    /// way; what may differ is rounding: djxl rounds its float output to 8 bits in its PNG writer, the codec
    /// asks libjxl for 8 bits, and alpha is composited once by ImageMagick and once by the codec.
    static let tolerance = 1.0

    @Test(arguments: [("bench_oriented_brg.jxl", false), ("bicycles.jxl", true), ("lz77_flower.jxl", false),
                      ("grayscale.jxl", true)])
    func wholePictureMatchesDjxl(_ name: String, _ xyb: Bool) throws {
        let bytes = try JXLTestSupport.bytes(name)
        let header = try JXLTestSupport.probe(bytes)
        let decoded = try JXLTestSupport.decodeWhole(bytes)
        #expect(decoded.scale == 1)
        #expect(decoded.image.width == header.width && decoded.image.height == header.height)
        guard case .fixed(let orientation) = header.orientation else { Issue.record("orientation"); return }
        let upright = decoded.image.applying(orientation)
        let reference = try JXLTestSupport.djxlReference(name, sRGB: xyb)
        #expect(upright.width == reference.width && upright.height == reference.height)
        let difference = upright.meanDifference(to: reference)
        #expect(difference <= Self.tolerance, "\(name): mean difference \(difference)")
    }

    /// Alpha over white, straight (modular, 12-bit) and premultiplied (VarDCT, 16-bit alpha), against the
    /// conformance suite's reference decodes: the same tolerance, ImageMagick compositing their 16-bit PNGs.
    @Test(arguments: ["alpha_nonpremultiplied.jxl", "alpha_premultiplied.jxl"])
    func alphaIsOverWhite(_ name: String) throws {
        let decoded = try JXLTestSupport.decodeWhole(JXLTestSupport.bytes(name))
        let reference = try JXLTestSupport.conformanceReference(name)
        let difference = decoded.image.meanDifference(to: reference)
        #expect(difference <= Self.tolerance, "\(name): mean difference \(difference)")
        // Not white all over: the comparison means something.
        #expect(decoded.image.pixels.filter { $0 < 128 }.count > 10_000)
    }

    /// A region, shrunk by a whole factor, is the whole picture's pixels under it, box-averaged: the same
    /// rows go through the same `BoxShrink`.
    @Test(arguments: [("bicycles.jxl", PixelRegion(x: 100, y: 50, width: 601, height: 400), 150, 100),
                      ("lz77_flower.jxl", PixelRegion(x: 0, y: 0, width: 834, height: 244), 834, 244),
                      ("alpha_premultiplied.jxl", PixelRegion(x: 511, y: 3, width: 300, height: 700), 100, 100)])
    func regionAtAReducedScale(_ name: String, _ region: PixelRegion, _ minimumWidth: Int, _ minimumHeight: Int) throws {
        let bytes = try JXLTestSupport.bytes(name)
        let whole = try JXLTestSupport.decodeWhole(bytes).image
        let decoded = try JXLTestSupport.decode(bytes, region: region, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
        let factor = BoxShrink.factor(for: region, minimumWidth: minimumWidth, minimumHeight: minimumHeight)
        #expect(decoded.scale == 1 / Double(factor))
        #expect(decoded.image.width >= minimumWidth && decoded.image.height >= minimumHeight)
        var expected = BoxShrink(region: region, factor: factor, pool: BufferPool())
        let cut = whole.cropped(x: region.x, y: region.y, width: region.width, height: region.height)
        cut.pixels.withUnsafeBufferPointer { rows in
            for y in 0..<region.height {
                expected.add(row: UnsafeBufferPointer(rebasing: rows[(y * region.width * 3)..<((y + 1) * region.width * 3)]))
            }
        }
        let reference = expected.finish(storedWidth: whole.width, storedHeight: whole.height).image
        #expect(decoded.image == reference)
    }

    @Test func buffersGoBackToThePool() throws {
        let pool = BufferPool(minimumBytes: 1)
        var decoded = try JXLTestSupport.decodeWhole(JXLTestSupport.bytes("bicycles.jxl"), pool: pool)
        pool.giveBack(decoded.image.pixels)
        decoded.image = RGBImage(width: 0, height: 0, pixels: [])
        #expect(pool.statistics.outstandingBytes == 0)
    }
}

/// A cell that needs 1/16 of each side of a lossy picture or less gets it from the frame's DC picture (libjxl's
/// progressive flush at 1/8); the final filter's 2x more gives the picture the whole decode gives.
struct JXLDCPictureTests {
    /// `image` box-shrunk by `factor` (as the whole of it).
    static func shrunk(_ image: RGBImage, by factor: Int) -> RGBImage {
        let region = PixelRegion(x: 0, y: 0, width: image.width, height: image.height)
        var shrink = BoxShrink(region: region, factor: factor, pool: BufferPool())
        image.pixels.withUnsafeBufferPointer { rows in
            for y in 0..<image.height {
                shrink.add(row: UnsafeBufferPointer(rebasing: rows[(y * image.width * 3)..<((y + 1) * image.width * 3)]))
            }
        }
        return shrink.finish(storedWidth: image.width, storedHeight: image.height).image
    }

    /// The DC picture shrunk 2x more against the whole decode's region shrunk by 16: the same picture. A lossless
    /// picture has no DC step: its whole decode, shrunk, exactly.
    /// Tolerances: measured 1.2 for the whole picture (32x38 at 1/16) and 2.3 for a crop off the 8x8 grid
    /// (25x22 at 1/16, where each pixel's share of smoothed block edges weighs more); a wrong region, turn or
    /// colour gives tens.
    @Test(arguments: [("bench_oriented_brg.jxl", PixelRegion(x: 0, y: 0, width: 500, height: 606), 1.5),
                      ("bench_oriented_brg.jxl", PixelRegion(x: 101, y: 203, width: 397, height: 350), 2.5),
                      ("lz77_flower.jxl", PixelRegion(x: 17, y: 9, width: 800, height: 230), 0.0)])
    func aSixteenthFromTheDC(_ name: String, _ region: PixelRegion, _ tolerance: Double) throws {
        let bytes = try JXLTestSupport.bytes(name)
        let decoded = try JXLTestSupport.decode(bytes, region: region, minimumWidth: region.width / 16,
                                                minimumHeight: region.height / 16)
        #expect(decoded.scale == 1.0 / 8)
        #expect(decoded.covers == Rect(x: Double(region.x), y: Double(region.y), width: Double(region.width),
                                       height: Double(region.height)))
        let whole = try JXLTestSupport.decodeWhole(bytes).image
        let cut = whole.cropped(x: region.x, y: region.y, width: region.width, height: region.height)
        let eighth = Self.shrunk(cut, by: 8)
        #expect(decoded.image.width == eighth.width && decoded.image.height == eighth.height)
        let difference = Self.shrunk(decoded.image, by: 2).meanDifference(to: Self.shrunk(eighth, by: 2))
        print("\(name) \(region): DC picture vs whole decode at 1/16: mean difference \(difference); at 1/8 "
              + "\(decoded.image.meanDifference(to: eighth))")
        #expect(difference <= tolerance, "\(name): mean difference \(difference)")
        if tolerance > 0 { #expect(decoded.image != eighth, "the DC picture was not used") }
    }

    /// Nearer 1/8 the whole decode is used: the pixels are exactly the whole decode's, shrunk.
    @Test func aCellNearAnEighthIsNotDrawnFromTheDC() throws {
        let bytes = try JXLTestSupport.bytes("bench_oriented_brg.jxl")
        let region = PixelRegion(x: 0, y: 0, width: 500, height: 606)
        let decoded = try JXLTestSupport.decode(bytes, region: region, minimumWidth: 60, minimumHeight: 70)
        #expect(decoded.scale == 1.0 / 8)
        #expect(decoded.image == Self.shrunk(try JXLTestSupport.decodeWhole(bytes).image, by: 8))
    }
}
