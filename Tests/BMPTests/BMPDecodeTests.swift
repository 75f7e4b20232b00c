import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import BMP

/// The BMP Suite (Jason Summers; public domain), probed and decoded, against ImageMagick, or netpbm's bmptopnm
/// where ImageMagick refuses a file.
struct BMPDecodeTests {
    /// The suite's good files, and the questionable ones ImageMagick reads as the suite means them: exact, but
    /// for colours of fewer than 8 bits, which ImageMagick widens by repeating their bits (5-bit 17 -> 140)
    /// where photobook rounds v * 255 / 31 (17 -> 140, 18 -> 148 vs 148 ...): at most 1 apart.
    @Test(arguments: [
        ("g/pal1.bmp", 0), ("g/pal1bg.bmp", 0), ("g/pal1wb.bmp", 0), ("g/pal4.bmp", 0), ("g/pal4rle.bmp", 0),
        ("g/pal8-0.bmp", 0), ("g/pal8.bmp", 0), ("g/pal8nonsquare.bmp", 0), ("g/pal8os2.bmp", 0),
        ("g/pal8rle.bmp", 0), ("g/pal8topdown.bmp", 0), ("g/pal8v4.bmp", 0), ("g/pal8v5.bmp", 0),
        ("g/pal8w124.bmp", 0), ("g/pal8w125.bmp", 0), ("g/pal8w126.bmp", 0), ("g/rgb16-565.bmp", 1),
        ("g/rgb16-565pal.bmp", 1), ("g/rgb16.bmp", 1), ("g/rgb24.bmp", 0), ("g/rgb24pal.bmp", 0), ("g/rgb32.bmp", 0),
        ("g/rgb32bf.bmp", 0),
        ("q/pal1p1.bmp", 0), ("q/pal8offs.bmp", 0), ("q/pal8os2sp.bmp", 0), ("q/pal8os2v2-16.bmp", 0),
        ("q/rgb24largepal.bmp", 0), ("q/rgb24lprof.bmp", 0), ("q/rgb24prof.bmp", 0), ("q/rgb32-111110.bmp", 1),
        ("q/rgb32bf-xbgr.bmp", 0), ("q/rgb32h52.bmp", 0), ("q/rgba32.bmp", 0), ("q/rgba32h56.bmp", 0),
        ("b/badbitssize.bmp", 0), ("b/baddens1.bmp", 0), ("b/baddens2.bmp", 0),
    ])
    func decodeEqualsImageMagick(name: String, tolerance: Int) throws {
        let decoded = try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes(name))
        let reference = try BMPTestSupport.imageMagickReference(BMPTestSupport.path(name))
        #expect(decoded.image.width == reference.width && decoded.image.height == reference.height)
        guard decoded.image.width == reference.width && decoded.image.height == reference.height else { return }
        #expect(maxDifference(decoded.image.pixels, reference.pixels) <= tolerance, "\(name)")
        #expect(decoded.scale == 1 && decoded.storedHeight == reference.height)
    }

    /// Files ImageMagick refuses, against bmptopnm: a 2-bit palette, a wrong file size.
    @Test(arguments: [("q/pal2.bmp", 0), ("b/badfilesize.bmp", 0)])
    func decodeEqualsNetpbm(name: String, tolerance: Int) throws {
        let decoded = try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes(name))
        let reference = try BMPTestSupport.netpbmReference(BMPTestSupport.path(name))
        #expect(decoded.image.width == reference.width && decoded.image.height == reference.height)
        guard decoded.image.width == reference.width && decoded.image.height == reference.height else { return }
        #expect(maxDifference(decoded.image.pixels, reference.pixels) <= tolerance, "\(name)")
    }

    @Test(arguments: [
        ("g/pal8.bmp", 127, 64, "8-bit, palette"), ("g/pal4rle.bmp", 127, 64, "4-bit, RLE4"),
        ("g/pal8topdown.bmp", 127, 64, "8-bit, palette, top-down"), ("g/pal8os2.bmp", 127, 64, "8-bit, palette, OS/2 1.x"),
        ("g/rgb16-565.bmp", 127, 64, "16-bit, bit fields"), ("q/rgba32.bmp", 127, 64, "32-bit, bit fields with alpha"),
        ("g/pal8nonsquare.bmp", 127, 32, "8-bit, palette"),
    ])
    func probeReadsTheHeader(name: String, width: Int, height: Int, detail: String) throws {
        let header = try BMPTestSupport.probe(try BMPTestSupport.bytes(name))
        #expect(header.width == width && header.height == height && header.detail == detail)
        #expect(header.warnings.isEmpty && header.colorProfile == nil)
    }

    /// A V5 header's embedded profile is handed out; a linked one (a file name) is ignored with a note.
    @Test func embeddedProfileIsReadAndLinkedOneIgnored() throws {
        let embedded = try BMPTestSupport.probe(try BMPTestSupport.bytes("q/rgb24prof.bmp"))
        guard case .profile(let bytes) = embedded.colorProfile else { Issue.record("\(String(describing: embedded.colorProfile))"); return }
        #expect(bytes.count > 128 && bytes[36..<40].elementsEqual(Array("acsp".utf8)))
        let linked = try BMPTestSupport.probe(try BMPTestSupport.bytes("q/rgb24lprof.bmp"))
        #expect(linked.colorProfile == nil)
        #expect(linked.notes == ["its linked colour profile (a file elsewhere) was ignored"])
    }

    /// 2-3-1 bit fields: each colour's levels spread over 0...255 (ImageMagick shifts them up without widening:
    /// 3 of 3 -> 192, not 255; bmptopnm misreads the file), so the picture is rgb16.bmp's with fewer levels.
    @Test func fewBitsAColourAreWidenedToTheFullRange() throws {
        let decoded = try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes("q/rgb16-231.bmp")).image
        let red: [UInt8] = (0..<4).map { UInt8(($0 * 255 + 1) / 3) }
        let green: [UInt8] = (0..<8).map { UInt8(($0 * 255 + 3) / 7) }
        let levels: [[UInt8]] = [red, green, [0, 255]]
        for i in stride(from: 0, to: decoded.pixels.count, by: 3) {
            for c in 0..<3 where !levels[c].contains(decoded.pixels[i + c]) {
                Issue.record("channel \(c) of pixel \(i / 3) is \(decoded.pixels[i + c])")
                return
            }
        }
        let fine = try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes("g/rgb16.bmp")).image
        #expect(meanAbsoluteDifference(decoded.pixels, fine.pixels) < 45)  // 4 and 2 levels against 32: coarse
        let reds = Set(stride(from: 0, to: decoded.pixels.count, by: 3).map { decoded.pixels[$0] })
        #expect(reds == Set(red))
    }

    /// A 64-byte OS/2 2.x header (ImageMagick and bmptopnm misread it) gives the picture its 16-byte sibling
    /// gives, and g/pal8.bmp.
    @Test func os2Version2HeaderOfAnyLengthIsRead() throws {
        let long = try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes("q/pal8os2v2.bmp")).image
        #expect(long == (try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes("q/pal8os2v2-16.bmp"))).image)
        #expect(long == (try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes("g/pal8.bmp"))).image)
    }

    /// A 32-bit BI_RGB pixel's fourth byte is padding, whatever it holds: the picture is rgb32.bmp's, opaque.
    @Test func fourthByteOfA32BitPixelWithoutMasksIsNotAlpha() throws {
        let fake = try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes("q/rgb32fakealpha.bmp")).image
        #expect(fake == (try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes("g/rgb32.bmp"))).image)
    }

    /// An alpha mask is used (rgba32.bmp equals ImageMagick over white, above), but an alpha of zero everywhere
    /// means an opaque picture, not a white one; BI_ALPHABITFIELDS (compression 6) is read as BI_BITFIELDS.
    @Test func alphaOfZeroEverywhereIsOpaque() throws {
        var bytes = try BMPTestSupport.bytes("q/rgba32.bmp")
        let offset = Int(BMPHeader.u32(bytes, 10))
        let alphaByte = BMPHeader.u32(bytes, 14 + 52).trailingZeroBitCount / 8  // the V5 header's alpha mask
        var opaque = bytes
        for i in stride(from: offset + alphaByte, to: bytes.count, by: 4) { bytes[i] = 0; opaque[i] = 255 }
        let zero = try BMPTestSupport.decodeWhole(bytes).image
        #expect(zero == (try BMPTestSupport.decodeWhole(opaque)).image)
        #expect(zero.pixels.contains { $0 < 200 })
        let abf = try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes("q/rgba32abf.bmp")).image
        #expect(abf == (try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes("q/rgba32.bmp"))).image)
    }

    /// 4-4-4-4 with alpha: bmptopnm's colours (it ignores alpha) where the pixel is opaque, white where it is
    /// transparent, a blend between.
    @Test func sixteenBitAlphaIsCompositedOverWhite() throws {
        let bytes = try BMPTestSupport.bytes("q/rgba16-4444.bmp")
        let decoded = try BMPTestSupport.decodeWhole(bytes).image
        let colours = try BMPTestSupport.netpbmReference(BMPTestSupport.path("q/rgba16-4444.bmp"))
        let offset = Int(BMPHeader.u32(bytes, 10)), stride = (127 * 2 + 3) & ~3
        var opaque = 0, clear = 0
        for y in 0..<64 {
            for x in 0..<127 {
                let alpha = bytes[offset + (63 - y) * stride + x * 2 + 1] >> 4
                let i = (y * 127 + x) * 3
                if alpha == 15 {
                    opaque += 1
                    #expect(Array(decoded.pixels[i..<(i + 3)]) == Array(colours.pixels[i..<(i + 3)]))
                } else if alpha == 0 {
                    clear += 1
                    #expect(Array(decoded.pixels[i..<(i + 3)]) == [255, 255, 255])
                }
            }
        }
        #expect(opaque > 100 && clear > 100)
    }

    /// Pixels an RLE file skips (deltas, early ends of line) are white; the rest is pal8rle.bmp's picture.
    @Test(arguments: [("q/pal8rletrns.bmp", "g/pal8rle.bmp"), ("q/pal4rletrns.bmp", "g/pal4rle.bmp")])
    func pixelsAnRLEFileSkipsAreWhite(name: String, whole: String) throws {
        let holes = try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes(name)).image
        let full = try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes(whole)).image
        var white = 0
        for i in stride(from: 0, to: holes.pixels.count, by: 3) {
            let pixel = Array(holes.pixels[i..<(i + 3)])
            if pixel == [255, 255, 255] { white += 1 } else { #expect(pixel == Array(full.pixels[i..<(i + 3)])) }
        }
        #expect(white > 400)
    }

    /// An index past the palette's end is black (ImageMagick and bmptopnm refuse the file).
    @Test func indexPastThePaletteIsBlack() throws {
        let decoded = try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes("b/pal8badindex.bmp")).image
        let good = try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes("g/pal8.bmp")).image
        var black = 0
        for i in stride(from: 0, to: decoded.pixels.count, by: 3) where decoded.pixels[i..<(i + 3)] != good.pixels[i..<(i + 3)] {
            #expect(Array(decoded.pixels[i..<(i + 3)]) == [0, 0, 0])
            black += 1
        }
        #expect(black > 100)
    }

    /// A declared palette larger than 2^bits is cut to 256 entries (pal8oversizepal's 300; badpalettesize's
    /// 305 million is never read).
    @Test(arguments: ["q/pal8oversizepal.bmp", "b/badpalettesize.bmp"])
    func oversizedPaletteIsCut(name: String) throws {
        let decoded = try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes(name)).image
        #expect(decoded == (try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes("g/pal8.bmp"))).image)
    }

    @Test(arguments: [
        ("q/rgb24jpeg.bmp", CodecError.unsupported("BMP holding a JPEG is not supported")),
        ("q/rgb24png.bmp", CodecError.unsupported("BMP holding a PNG is not supported")),
        ("b/badbitcount.bmp", CodecError.corrupt("corrupt BMP (30000 bits a pixel)")),
        ("b/badheadersize.bmp", CodecError.corrupt("corrupt BMP (an info header of 66 bytes)")),
        ("b/badplanes.bmp", CodecError.corrupt("corrupt BMP (30000 planes)")),
        ("b/badwidth.bmp", CodecError.corrupt("corrupt BMP (a picture of -127x64 pixels)")),
        ("b/reallybig.bmp", CodecError.corrupt("corrupt BMP (truncated file)")),
        ("b/rletopdown.bmp", CodecError.corrupt("corrupt BMP (a top-down picture cannot be RLE-compressed)")),
        ("b/shortfile.bmp", CodecError.corrupt("corrupt BMP (truncated file)")),
    ])
    func unreadableFilesAreRefusedByName(name: String, reason: CodecError) throws {
        #expect(throws: reason) { try BMPTestSupport.probe(try BMPTestSupport.bytes(name)) }
    }

    /// badrle.bmp's runs reach past their rows: they are cut at the edge, the picture keeps its size.
    @Test func runsPastTheRowAreCut() throws {
        let decoded = try BMPTestSupport.decodeWhole(try BMPTestSupport.bytes("b/badrle.bmp"))
        #expect(decoded.image.width == 127 && decoded.image.height == 64)
    }

    /// Every fixture fits in what largestSoundFile allows for its pixels.
    @Test func fixturesAreSoundFiles() throws {
        for name in ["g/rgb32.bmp", "g/pal1.bmp", "g/pal8rle.bmp", "q/rgb24prof.bmp"] {
            let bytes = try BMPTestSupport.bytes(name)
            let header = try BMPTestSupport.probe(bytes)
            #expect(bytes.count <= BMPTestSupport.codec.largestSoundFile(pixels: header.width * header.height))
        }
        #expect(BMPTestSupport.codec.largestSoundFile(pixels: 1 << 30) >= 4 << 30)
    }
}
