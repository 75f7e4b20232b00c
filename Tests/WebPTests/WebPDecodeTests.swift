import Foundation
import Geometry
import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import WebP

/// Whole pictures against dwebp (the same library, driven by its own tool through the one-shot WebPDecode), and
/// alpha and animation against decodes made without libwebp's help where that is possible.
struct WebPDecodeTests {
    static let stills = [
        "lossy.webp", "lossless.webp", "alpha-lossless.webp", "alpha-lossy.webp", "icc.webp",
        "exif-orientation-6.webp", "xmp.webp",
    ] + [
        "test.webp", "lossy_alpha3.webp", "lossy_alpha4.webp", "lossless4.webp", "lossless_vec_1_3.webp",
        "lossless_vec_1_7.webp", "lossless_vec_1_11.webp", "lossless_vec_1_15.webp", "lossless_vec_2_5.webp",
        "lossless_vec_2_13.webp", "vp80-00-comprehensive-005.webp", "vp80-05-sharpness-1438.webp", "segment01.webp",
        "alpha_color_cache.webp", "alpha_filter_2.webp", "dual_transform.webp", "small_13x1.webp", "small_1x13.webp",
        "small_31x13.webp", "very_short.webp", "bad_palette_index.webp", "bug3.webp", "alpha_no_compression.webp",
    ].map { "libwebp-test-data/" + $0 }

    /// Every still fixture decodes to dwebp's pixels exactly: the incremental decode into our buffer, and the
    /// compositing over white, change nothing.
    @Test(arguments: stills)
    func wholePictureMatchesDwebp(name: String) throws {
        let decoded = try WebPTestSupport.decodeWhole(try WebPTestSupport.bytes(name))
        let reference = try WebPTestSupport.dwebpReference(WebPTestSupport.path(name))
        #expect(decoded.image.width == reference.width && decoded.image.height == reference.height)
        #expect(decoded.image.maxDifference(to: reference) == 0)
        #expect(decoded.scale == 1)
        #expect(decoded.covers == Rect(x: 0, y: 0, width: Double(reference.width), height: Double(reference.height)))
        #expect(decoded.storedWidth == reference.width && decoded.storedHeight == reference.height)
    }

    /// PngSuite's RGBA image, stored losslessly: every pixel is its PNG value over white (Pillow reads the PNG).
    @Test func alphaIsCompositedOverWhite() throws {
        let decoded = try WebPTestSupport.decodeWhole(try WebPTestSupport.bytes("alpha-lossless.webp")).image
        let rgba = try ExternalCommand.output("/usr/bin/python3", ["-c", """
            import sys; from PIL import Image
            sys.stdout.buffer.write(Image.open(sys.argv[1]).convert("RGBA").tobytes())
            """, Fixtures.path("pngsuite/basn6a08.png")])
        #expect(rgba.count == 32 * 32 * 4)
        var expected = [UInt8](repeating: 0, count: 32 * 32 * 3)
        var transparent = 0, partial = 0
        for i in 0..<(32 * 32) {
            let a = Int(rgba[i * 4 + 3])
            if a == 0 { transparent += 1 } else if a < 255 { partial += 1 }
            for c in 0..<3 { expected[i * 3 + c] = UInt8((Int(rgba[i * 4 + c]) * a + 255 * (255 - a) + 127) / 255) }
        }
        #expect(transparent > 0 && partial > 100)
        #expect(decoded.pixels == expected)
        // basn6a08's top-left pixel is fully transparent: white, whatever colour is stored under it.
        #expect(rgba[3] == 0)
        #expect(decoded.pixel(x: 0, y: 0) == (255, 255, 255))
    }

    /// The first frame of an animation, placed at its offset on a canvas that is otherwise transparent (white
    /// here): built from webpmux's copy of frame 1 decoded by dwebp.
    @Test func animationDecodesItsFirstFrameOnTheCanvas() throws {
        let decoded = try WebPTestSupport.decodeWhole(try WebPTestSupport.bytes("animated.webp"))
        #expect(decoded.image.width == 64 && decoded.image.height == 48 && decoded.scale == 1)
        let frame = try firstFrame("animated.webp")
        #expect(frame.width == 40 && frame.height == 30)
        var expected = RGBImage(width: 64, height: 48)
        for y in 0..<30 {
            for x in 0..<40 {
                let p = frame.pixel(x: x, y: y), i = ((y + 6) * 64 + x + 10) * 3
                expected.pixels[i] = p.red; expected.pixels[i + 1] = p.green; expected.pixels[i + 2] = p.blue
            }
        }
        #expect(decoded.image.maxDifference(to: expected) == 0)
        #expect(decoded.image.pixel(x: 0, y: 0) == (255, 255, 255))
    }

    @Test func lossyAnimationDecodesItsFirstFrame() throws {
        let decoded = try WebPTestSupport.decodeWhole(try WebPTestSupport.bytes("animated-lossy.webp"))
        let frame = try firstFrame("animated-lossy.webp")
        #expect(decoded.image.maxDifference(to: frame) == 0)
    }

    /// A region of an animation at half size: BoxShrink's factor 2 over the canvas region.
    @Test func animationRegionIsShrunkByAWholeFactor() throws {
        let bytes = try WebPTestSupport.bytes("animated.webp")
        let full = try WebPTestSupport.decodeWhole(bytes).image
        let region = PixelRegion(x: 5, y: 3, width: 50, height: 40)
        let half = try WebPTestSupport.decode(bytes, region: region, minimumWidth: 25, minimumHeight: 20)
        #expect(half.scale == 0.5)
        // Lossless frames: the region is taken as asked (no even alignment).
        #expect(half.covers == Rect(x: 5, y: 3, width: 50, height: 40))
        #expect(half.image.width == 25 && half.image.height == 20)
        var expected = BoxShrink(region: PixelRegion(x: 0, y: 0, width: 50, height: 40), factor: 2, pool: BufferPool())
        let crop = WebPTestSupport.crop(full, region)
        for y in 0..<40 {
            crop.pixels.withUnsafeBufferPointer { expected.add(row: UnsafeBufferPointer(rebasing: $0[(y * 150)..<((y + 1) * 150)])) }
        }
        #expect(half.image.pixels == expected.finish(storedWidth: 50, storedHeight: 40).image.pixels)
    }

    /// Frame 1 as its own file (webpmux), decoded by dwebp.
    func firstFrame(_ name: String) throws -> RGBImage {
        let frame = try ExternalCommand.output("webpmux", ["-get", "frame", "1", WebPTestSupport.path(name), "-o", "-"])
        let path = try WebPTestSupport.temporaryFile(frame)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try WebPTestSupport.dwebpReference(path)
    }
}
