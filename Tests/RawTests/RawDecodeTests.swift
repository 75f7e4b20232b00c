import Foundation
import ImageCodec
import Imaging
import JPEG
import TestSupport
import Testing
@testable import Raw

/// Pixels against LibRaw's own dcraw_emu and, for the preview, djpeg.
@Suite struct RawDecodeTests {
    /// The codec asks LibRaw for what `dcraw_emu -w -o 1 -t 0` asks (camera white balance, sRGB, unturned,
    /// 8 bits, AHD): the same library with the same settings gives the same pixels, bar rounding.
    @Test(arguments: [false, true])
    func theWholeRawIsLibRawsOwnRendering(fromFile: Bool) throws {
        let path = RawTestSupport.path(RawTestSupport.dng)
        let source: any ByteSource = fromFile ? try FileSource(path: path) : MemorySource(try Fixtures.read(path))
        let decoded = try RawTestSupport.decodeWhole(source)
        let reference = try RawTestSupport.dcrawEmu(path)
        try #require(decoded.image.width == reference.width && decoded.image.height == reference.height)
        #expect(decoded.storedWidth == 600 && decoded.storedHeight == 338 && decoded.scale == 1)
        let mad = meanAbsoluteDifference(decoded.image.pixels, reference.pixels)
        // The same library with the same settings: measured identical (0.0, max 0); a rounding step allowed.
        #expect(mad <= 0.5, "mean absolute difference \(mad) from dcraw_emu")
        #expect(maxDifference(decoded.image.pixels, reference.pixels) <= 1)
        #expect(decoded.notes.contains { $0.hasPrefix("decoded by LibRaw at full size") }, "\(decoded.notes)")
        // Not a black or white frame: a real picture, with light and shade.
        let mean = Double(decoded.image.pixels.reduce(0) { $0 + Int($1) }) / Double(decoded.image.pixels.count)
        #expect(mean > 40 && mean < 215, "mean \(mean)")
    }

    /// A region is the same pixels as the whole decode's under it.
    @Test func aRegionIsTheWholeDecodesPixelsUnderIt() throws {
        let source = MemorySource(try RawTestSupport.bytes(RawTestSupport.dng))
        let whole = try RawTestSupport.decodeWhole(source)
        let region = PixelRegion(x: 301, y: 17, width: 200, height: 150)
        let part = try RawTestSupport.decode(source, region: region, minimumWidth: 200, minimumHeight: 150)
        #expect(part.covers.x == 301 && part.covers.y == 17 && part.covers.width == 200 && part.covers.height == 150)
        #expect(part.image.width == 200 && part.image.height == 150)
        for row in [0, 77, 149] {
            let start = ((17 + row) * 600 + 301) * 3
            #expect(Array(part.image.pixels[(row * 200 * 3)..<((row + 1) * 200 * 3)])
                    == Array(whole.image.pixels[start..<(start + 200 * 3)]))
        }
    }

    /// A cell that needs no more than the preview's pixels gets the camera's own rendering, decoded at a DCT
    /// scale: the pixels djpeg gives the same JPEG at that scale.
    @Test func aSmallCellGetsThePreviewAtADCTScale() throws {
        let path = RawTestSupport.path(RawTestSupport.dng)
        let decoded = try RawTestSupport.decode(FileSource(path: path), region: PixelRegion(x: 0, y: 0, width: 600, height: 338),
                                                minimumWidth: 120, minimumHeight: 60)
        #expect(decoded.notes.contains("decoded from its 256x144 embedded JPEG preview (the camera's rendering)"),
                "\(decoded.notes)")
        // 256x144 at 4/8 is 128x72: at least 120x60.
        #expect(decoded.image.width == 128 && decoded.image.height == 72)
        #expect(decoded.storedWidth == 600 && decoded.storedHeight == 338)
        #expect(abs(decoded.covers.width - 600) < 0.01 && abs(decoded.covers.height - 338) < 0.01)
        #expect(abs(decoded.scale - 128.0 / 600) < 0.01, "\(decoded.scale)")
        let reference = try RawTestSupport.djpeg(RawTestSupport.previewJPEG(path), scale: 4)
        try #require(reference.width == decoded.image.width && reference.height == decoded.image.height)
        let mad = meanAbsoluteDifference(decoded.image.pixels, reference.pixels)
        #expect(mad <= 1, "mean absolute difference \(mad) from djpeg")
    }

    /// The preview is the camera's rendering of the same picture as LibRaw's: side by side at one size they
    /// agree roughly (a different tone curve and sharpening, not another picture).
    @Test func thePreviewShowsTheSamePictureAsTheRaw() throws {
        let source = MemorySource(try RawTestSupport.bytes(RawTestSupport.dng))
        let preview = try RawTestSupport.decode(source, region: PixelRegion(x: 0, y: 0, width: 600, height: 338),
                                                minimumWidth: 256, minimumHeight: 144)
        try #require(preview.image.width == 256 && preview.image.height == 144)
        let raw = try RawTestSupport.decodeWhole(source).image
        // The raw's rendering shrunk to the preview's 256x144 by nearest pixels.
        var shrunk = [UInt8](repeating: 0, count: 256 * 144 * 3)
        for y in 0..<144 {
            for x in 0..<256 {
                let from = ((y * 338 / 144) * 600 + x * 600 / 256) * 3
                for c in 0..<3 { shrunk[(y * 256 + x) * 3 + c] = raw.pixels[from + c] }
            }
        }
        let mad = meanAbsoluteDifference(preview.image.pixels, shrunk)
        #expect(mad < 40, "mean absolute difference \(mad) between preview and raw")
    }

    /// The attention map's cheap picture is the preview at its smallest DCT scale, unturned like the raw.
    @Test func theThumbnailIsThePreviewAtAnEighth() throws {
        let source = try FileSource(path: RawTestSupport.path(RawTestSupport.dng))
        let thumbnail = try #require(RawTestSupport.codec.thumbnail(source, maxPixels: 10_000))
        #expect(thumbnail.width == 32 && thumbnail.height == 18)
        #expect(RawTestSupport.codec.thumbnail(source, maxPixels: 100) == nil)
    }

    /// Through the engine's header cache (a PrefixCachedSource over the file) the raw is read from its file.
    @Test func aCachedFileIsProbedFromTheFile() throws {
        let file = try FileSource(path: RawTestSupport.path(RawTestSupport.dng))
        let cached = try PrefixCachedSource(file, length: 64)
        #expect(try RawTestSupport.probe(cached) == RawTestSupport.probe(file))
    }

    @Test func aCellThatNeedsMoreThanThePreviewGetsTheRaw() throws {
        let source = MemorySource(try RawTestSupport.bytes(RawTestSupport.dng))
        let decoded = try RawTestSupport.decode(source, region: PixelRegion(x: 0, y: 0, width: 600, height: 338),
                                                minimumWidth: 257, minimumHeight: 100)
        #expect(decoded.image.width == 600 && decoded.image.height == 338)
        #expect(!decoded.notes.contains { $0.contains("preview") }, "\(decoded.notes)")
    }

    // MARK: - The plan

    static func facts(width: Int = 6000, height: Int = 4000, preview: (Int, Int)? = (6000, 4000),
                      filters: Bool = true) -> RawFacts {
        RawFacts(rawWidth: width + 16, rawHeight: height + 16, width: width, height: height, flip: 0, make: "Nikon",
                 model: "Z", isDNG: false, hasFilters: filters, timestamp: 0,
                 preview: preview.map { ($0.0, $0.1, 3_000_000) }, xmp: nil)
    }

    @Test func thePlanTakesThePreviewHalfOrFullSize() {
        let whole = PixelRegion(x: 0, y: 0, width: 6000, height: 4000)
        #expect(RawDecodePlan.make(facts: Self.facts(), region: whole, minimumWidth: 6000, minimumHeight: 4000) == .preview)
        #expect(RawDecodePlan.make(facts: Self.facts(preview: (1620, 1080)), region: whole, minimumWidth: 1600,
                                   minimumHeight: 1000) == .preview)
        #expect(RawDecodePlan.make(facts: Self.facts(preview: (1620, 1080)), region: whole, minimumWidth: 1700,
                                   minimumHeight: 1000) == .halfSize)
        #expect(RawDecodePlan.make(facts: Self.facts(preview: (1620, 1080)), region: whole, minimumWidth: 3001,
                                   minimumHeight: 1000) == .fullSize)
        #expect(RawDecodePlan.make(facts: Self.facts(preview: nil), region: whole, minimumWidth: 3000,
                                   minimumHeight: 2000) == .halfSize)
        // A crop of a quarter of the picture needs the preview's pixels under it, not the whole preview's.
        let quarter = PixelRegion(x: 3000, y: 2000, width: 3000, height: 2000)
        #expect(RawDecodePlan.make(facts: Self.facts(preview: (1620, 1080)), region: quarter, minimumWidth: 800,
                                   minimumHeight: 500) == .preview)
        #expect(RawDecodePlan.make(facts: Self.facts(preview: (1620, 1080)), region: quarter, minimumWidth: 900,
                                   minimumHeight: 500) == .halfSize)
        // A linear DNG is not halved by LibRaw.
        #expect(RawDecodePlan.make(facts: Self.facts(preview: nil, filters: false), region: whole, minimumWidth: 100,
                                   minimumHeight: 100) == .fullSize)
    }

    @Test func aPreviewOfAnotherShapeIsNotUsed() {
        // Turned already, or letterboxed to 16:9: it does not show the stored picture pixel for pixel.
        #expect(!RawDecodePlan.previewMatches(Self.facts(preview: (4000, 6000))))
        #expect(!RawDecodePlan.previewMatches(Self.facts(preview: (1920, 1080))))
        // A few pixels short of the rendering (6000x4000 for 6016x4016) is the same picture.
        #expect(RawDecodePlan.previewMatches(Self.facts(width: 6016, height: 4016, preview: (6000, 4000))))
    }

    @Test func libRawsFlipIsTheEXIFOrientation() {
        let expected: [Int: Orientation] = [0: .topLeft, 1: .topRight, 2: .bottomLeft, 3: .bottomRight,
                                            4: .leftTop, 5: .leftBottom, 6: .rightTop, 7: .rightBottom]
        for (flip, orientation) in expected {
            var facts = Self.facts()
            facts.flip = flip
            #expect(facts.orientation == orientation, "flip \(flip)")
        }
    }

    @Test func aTurnedRawDecodesUnturned() throws {
        let source = MemorySource(try RawTestSupport.dngTurned(6))
        let decoded = try RawTestSupport.decodeWhole(source)
        #expect(decoded.image.width == 600 && decoded.image.height == 338)
        let plain = try RawTestSupport.decodeWhole(MemorySource(RawTestSupport.bytes(RawTestSupport.dng)))
        #expect(decoded.image.pixels == plain.image.pixels)
        let preview = try RawTestSupport.decode(source, region: PixelRegion(x: 0, y: 0, width: 600, height: 338),
                                                minimumWidth: 100, minimumHeight: 50)
        #expect(preview.image.width > preview.image.height, "the preview is stored unturned as the raw is")
    }
}

/// A Bayer raw, full and half size against dcraw_emu's: Fixtures/raw/bayer-640.dng (made here by Bench/raw_dng.py:
/// no small camera raw with a licence to copy was found, Fixtures/raw/README.md), or the raw PHOTOBOOK_RAW_SAMPLE
/// names (a camera's, kept outside the repository).
@Suite struct RawBayerSampleTests {
    static var path: String {
        ProcessInfo.processInfo.environment["PHOTOBOOK_RAW_SAMPLE"] ?? RawTestSupport.path("bayer-640.dng")
    }

    @Test(arguments: [false, true])
    func aBayerRawIsLibRawsOwnRenderingAtFullAndHalfSize(halfSize: Bool) throws {
        let source = try FileSource(path: Self.path)
        let header = try RawTestSupport.probe(source)
        let whole = PixelRegion(x: 0, y: 0, width: header.width, height: header.height)
        let decoded = try RawTestSupport.decode(source, region: whole,
                                                minimumWidth: halfSize ? header.width / 2 : header.width,
                                                minimumHeight: halfSize ? header.height / 2 : header.height,
                                                maxPixels: 200_000_000)
        let reference = try RawTestSupport.dcrawEmu(Self.path, halfSize: halfSize)
        try #require(decoded.image.width == reference.width && decoded.image.height == reference.height,
                     "\(decoded.image.width)x\(decoded.image.height) against \(reference.width)x\(reference.height)")
        #expect(decoded.scale == (halfSize ? 0.5 : 1))
        let mad = meanAbsoluteDifference(decoded.image.pixels, reference.pixels)
        #expect(mad <= 0.5, "mean absolute difference \(mad) from dcraw_emu\(halfSize ? " -h" : "")")
        #expect(maxDifference(decoded.image.pixels, reference.pixels) <= 1)
        print("raw sample \(halfSize ? "half" : "full") size: \(decoded.image.width)x\(decoded.image.height), "
              + "mean absolute difference \(mad), max \(maxDifference(decoded.image.pixels, reference.pixels))")
    }
}
