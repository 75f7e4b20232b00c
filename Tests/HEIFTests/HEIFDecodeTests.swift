import Foundation
import Geometry
import Testing
import HEIF
import ImageCodec
import Imaging
import TestSupport

/// Decoded pixels against other decoders, regions and shrinking, the pixel limit, and cancellation.
@Suite struct HEIFDecodeTests {
    /// The same pixels as heif-convert's PNG (libheif's own tool: the same YCbCr conversion), alpha over white.
    @Test(arguments: ["photo.heic", "photo.avif", "rotated.heic", "rotated-irot-first.heic", "transposed.avif",
                      "alpha.heic", "alpha.avif", "deep10.heic", "icc.heic", "p3.avif", "pq.avif", "grid.heic"])
    func pixelsMatchHeifConvert(_ file: String) throws {
        let decoded = try HEIFFixtures.decodeWhole(try HEIFFixtures.bytes(file))
        let reference = try HEIFFixtures.reference(file)
        #expect(decoded.image.width == reference.width && decoded.image.height == reference.height)
        #expect(decoded.storedWidth == reference.width && decoded.storedHeight == reference.height)
        #expect(decoded.scale == 1)
        guard decoded.image.pixels.count == reference.pixels.count else { return }
        #expect(meanAbsoluteDifference(decoded.image.pixels, reference.pixels) < 0.5)
        #expect(maxDifference(decoded.image.pixels, reference.pixels) <= 2)
    }

    /// An independent check of the pixels: the JPEG each HEIC and AVIF was encoded from, read by Pillow.
    /// rotated.heic came from a portrait JPEG with EXIF Orientation 6 (irot 270 in the HEIC): the decode must
    /// match that JPEG turned upright once, and not the JPEG as stored nor turned twice. grid.heic's four 64x64
    /// tiles are cropped to the 120x100 of its JPEG: tiles out of place or the padding shown would differ.
    @Test(arguments: [("photo.heic", "photo.jpg"), ("photo.avif", "photo.jpg"), ("rotated.heic", "rotated.jpg"),
                      ("rotated-irot-first.heic", "rotated.jpg"), ("grid.heic", "grid.jpg")])
    func pixelsMatchTheSourceTurnedOnce(_ file: String, _ source: String) throws {
        let decoded = try HEIFFixtures.decodeWhole(try HEIFFixtures.bytes(file))
        let upright = try HEIFFixtures.pillow(Fixtures.path("heif/sources/" + source), upright: true)
        try #require(decoded.image.width == upright.width && decoded.image.height == upright.height)
        let difference = meanAbsoluteDifference(decoded.image.pixels, upright.pixels)
        #expect(difference < 6, "mean difference \(difference) from the upright source")
        // Turned twice (EXIF Orientation applied on top of irot) would be 80x120, the size checked above; turned
        // the wrong way would be the upright picture upside down.
        let upsideDown = RGBImage(width: upright.width, height: upright.height, pixels: upright.pixels)
            .applying(.bottomRight)
        #expect(meanAbsoluteDifference(decoded.image.pixels, upsideDown.pixels) > 4 * difference)
    }

    /// Transparent parts come out white, opaque parts as they are.
    @Test(arguments: ["alpha.heic", "alpha.avif"])
    func alphaIsCompositedOverWhite(_ file: String) throws {
        let decoded = try HEIFFixtures.decodeWhole(try HEIFFixtures.bytes(file))
        let source = try HEIFFixtures.pillow(Fixtures.path("heif/sources/alpha.png"))
        #expect(meanAbsoluteDifference(decoded.image.pixels, source.pixels) < 4)
        // basn6a08's top left corner is fully transparent.
        #expect(Array(decoded.image.pixels[0..<3]).allSatisfy { $0 >= 250 })
    }

    /// A region, shrunk by the largest whole factor that still gives the minimum size, box by box.
    @Test(arguments: [(PixelRegion(x: 10, y: 20, width: 100, height: 60), 50, 30, 2),
                      (PixelRegion(x: 0, y: 0, width: 160, height: 107), 40, 20, 4),
                      (PixelRegion(x: 150, y: 100, width: 40, height: 40), 1, 1, 7),
                      (PixelRegion(x: 3, y: 5, width: 21, height: 11), 21, 11, 1)])
    func regionIsShrunkByTheLargestFactor(_ region: PixelRegion, _ minimumWidth: Int, _ minimumHeight: Int,
                                          _ factor: Int) throws {
        let source = try HEIFFixtures.source("photo.heic")
        let request = DecodeRequest(region: region, minimumWidth: minimumWidth, minimumHeight: minimumHeight,
                                    maxPixels: 1 << 20)
        let decoded = try HEIFFixtures.codec.decode(source, request, pool: BufferPool(), shouldCancel: { false })
        let whole = try HEIFFixtures.decodeWhole(source.bytes)
        let clamped = try #require(region.clamped(width: 160, height: 107))
        #expect(decoded.scale == 1 / Double(factor))
        #expect(decoded.covers == Rect(x: Double(clamped.x), y: Double(clamped.y),
                                             width: Double(clamped.width), height: Double(clamped.height)))
        #expect(decoded.storedWidth == 160 && decoded.storedHeight == 107)
        let expected = HEIFFixtures.boxShrunk(whole.image.pixels, width: 160, region: clamped, factor: factor)
        #expect(decoded.image.width == (clamped.width + factor - 1) / factor)
        #expect(decoded.image.pixels == expected)
    }

    /// --max-pixels is applied to the picture before libheif decodes anything.
    @Test func picturesOverTheLimitAreRefused() throws {
        let source = try HEIFFixtures.source("photo.heic")
        #expect(throws: Never.self) {
            try HEIFFixtures.codec.decode(source, .whole(width: 160, height: 107, maxPixels: 160 * 107),
                                          pool: BufferPool(), shouldCancel: { false })
        }
        #expect(throws: CodecError.tooLarge("HEIC image is 160x107 pixels, more than the limit of 17119")) {
            try HEIFFixtures.codec.decode(source, .whole(width: 160, height: 107, maxPixels: 160 * 107 - 1),
                                          pool: BufferPool(), shouldCancel: { false })
        }
    }

    @Test func onlyPictureZeroExists() throws {
        let source = try HEIFFixtures.source("photo.heic")
        #expect(throws: CodecError.internalError("HEIC file has no picture 2")) {
            try HEIFFixtures.codec.decode(source, .whole(width: 160, height: 107, maxPixels: 1 << 20, picture: 1),
                                          pool: BufferPool(), shouldCancel: { false })
        }
    }

    /// rotated.heic has 80 rows: asked before the file is opened, right before libheif decodes, right after,
    /// and before the second band of 64 rows: 4 times at least (and once more for every 25 ms libheif takes).
    static let checksInAFullDecode = 4

    @Test func asksToCancelAtEverySafePoint() throws {
        var checks = 0
        _ = try HEIFFixtures.codec.decode(try HEIFFixtures.source("rotated.heic"),
                                          .whole(width: 120, height: 80, maxPixels: 1 << 20), pool: BufferPool()) {
            checks += 1
            return false
        }
        #expect(checks >= Self.checksInAFullDecode)
    }

    /// `shouldCancel` says yes at its `at`-th call: the decode stops right there, without another call.
    @Test(arguments: 1...checksInAFullDecode)
    func cancelsAtTheNextSafePoint(_ at: Int) throws {
        var checks = 0
        #expect(throws: CodecError.cancelled) {
            try HEIFFixtures.codec.decode(try HEIFFixtures.source("rotated.heic"),
                                          .whole(width: 120, height: 80, maxPixels: 1 << 20), pool: BufferPool()) {
                checks += 1
                return checks >= at
            }
        }
        #expect(checks == at)
    }

    /// A 4-megapixel HEIC made by heif-enc from a generated picture (no fixture of that size is committed).
    static let largeHEIC: [UInt8]? = large(["-q", "60"], name: "out.heic")

    /// The same picture as an AVIF (aom at its fastest).
    static let largeAVIF: [UInt8]? = large(["-A", "-q", "40", "-p", "speed=9"], name: "out.avif")

    /// A 2400x1600 picture of gradients and noise, encoded by heif-enc with `options`.
    static func large(_ options: [String], name: String) -> [UInt8]? {
        let width = 2400, height = 1600
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var noise = SeededBytes(state: 12)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8(truncatingIfNeeded: x / 12 + Int(noise.next() >> 4))
                pixels[i + 1] = UInt8(truncatingIfNeeded: y / 8 + Int(noise.next() >> 4))
                pixels[i + 2] = UInt8(truncatingIfNeeded: (x + y) / 20 + Int(noise.next() >> 4))
            }
        }
        let png = TestPNGEncoder.encode(width: width, height: height, colorType: 2, pixels: pixels)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("heif-large-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil,
              FileManager.default.createFile(atPath: directory.appendingPathComponent("in.png").path,
                                             contents: Data(png)),
              (try? ExternalCommand.output("heif-enc", options + [directory.appendingPathComponent("in.png").path,
                                                        "-o", directory.appendingPathComponent(name).path]))
                != nil else { return nil }
        return try? Fixtures.read(directory.appendingPathComponent(name).path)
    }

    /// libheif cannot be interrupted, so a stop asked for while it works is answered within a poll interval
    /// (25 ms) instead of after the whole decode: the decode goes on alone on its thread and frees itself.
    @Test func aStopDuringLibheifsDecodeIsAnsweredAtOnce() throws {
        let bytes = try #require(Self.largeHEIC, "heif-enc could not make the large HEIC")
        let request = DecodeRequest.whole(width: 2400, height: 1600, maxPixels: 1 << 24)
        let clock = ContinuousClock()
        let fullStart = clock.now
        _ = try HEIFFixtures.codec.decode(MemorySource(bytes), request, pool: BufferPool(), shouldCancel: { false })
        let full = clock.now - fullStart

        var stopWanted: ContinuousClock.Instant?
        var checks = 0
        let start = clock.now
        #expect(throws: CodecError.cancelled) {
            try HEIFFixtures.codec.decode(MemorySource(bytes), request, pool: BufferPool()) {
                checks += 1
                // The third question is the first one asked while libheif decodes.
                if checks == 3 { stopWanted = clock.now }
                return checks >= 3
            }
        }
        let delay = clock.now - (stopWanted ?? start)
        print("HEIF: 4-megapixel decode \(full), stop answered after \(delay)")
        #expect(stopWanted != nil)
        #expect(delay < .milliseconds(100))
        #expect(clock.now - start < full)
        // The abandoned decode does not disturb the next one.
        let again = try HEIFFixtures.codec.decode(MemorySource(bytes), request,
                                                  pool: BufferPool(), shouldCancel: { false })
        #expect(again.image.width == 2400 && again.image.height == 1600)
    }
}
