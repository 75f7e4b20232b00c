import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import GIF

/// Real GIFs nobody here made (Pillow's test images), probed and decoded, against ImageMagick's first frame.
struct GIFDecodeTests {
    @Test(arguments: [
        ("hopper.gif", 128, 128, "GIF89a", nil),
        ("hopper_zero_comment_subblocks.gif", 128, 128, "GIF87a, interlaced", nil),
        ("first_frame_transparency.gif", 75, 50, "GIF89a, interlaced, transparent", nil),
        ("dispose_bgnd.gif", 100, 100, "GIF89a, animated", "animated GIF (5 frames): only the first frame is used"),
        ("missing_background.gif", 32, 32, "GIF87a, transparent, animated",
         "animated GIF (4 frames): only the first frame is used"),
    ] as [(String, Int, Int, String, String?)])
    func probeReadsTheScreenAndCountsFrames(name: String, width: Int, height: Int, detail: String, warning: String?) throws {
        let header = try GIFTestSupport.probe(try GIFTestSupport.bytes(name))
        #expect(header.width == width && header.height == height)
        #expect(header.detail == detail)
        #expect(header.warnings == (warning.map { [$0] } ?? []))
    }

    /// Palette pictures: the decode is exact, frame offset, interlacing, local tables and transparency included.
    @Test(arguments: ["hopper.gif", "hopper_zero_comment_subblocks.gif", "text_mono.gif", "transparent.gif",
                      "first_frame_transparency.gif", "test.colors.gif", "dispose_bgnd.gif", "missing_background.gif",
                      "background_outside_palette.gif", "decompression_bomb_extents.gif"])
    func decodeEqualsImageMagicksFirstFrame(name: String) throws {
        let decoded = try GIFTestSupport.decodeWhole(try GIFTestSupport.bytes(name))
        let reference = try GIFTestSupport.imageMagickReference(GIFTestSupport.path(name))
        #expect(decoded.image.width == reference.width && decoded.image.height == reference.height)
        guard decoded.image.width == reference.width && decoded.image.height == reference.height else { return }
        #expect(maxDifference(decoded.image.pixels, reference.pixels) == 0, "\(name)")
        #expect(decoded.scale == 1 && decoded.storedWidth == reference.width)
    }

    /// The transparent pixels of a frame are white, and so is the screen outside the frame.
    @Test func transparencyAndBareScreenAreWhite() throws {
        let decoded = try GIFTestSupport.decodeWhole(try GIFTestSupport.bytes("first_frame_transparency.gif"))
        let image = decoded.image
        for y in 0..<50 { for x in 0..<25 { #expect(image.pixel(x: x, y: y) == (255, 255, 255)) } }
        var white = 0, other = 0
        for y in 0..<50 { for x in 25..<75 { if image.pixel(x: x, y: y) == (255, 255, 255) { white += 1 } else { other += 1 } } }
        #expect(white > 0 && other > 0)
    }

    /// The XMP application extension ("XMP DataXMP") gives back the packet, without its magic trailer.
    @Test func xmpPacketIsRead() throws {
        var bytes = try GIFTestSupport.bytes("hopper.gif")
        let packet = Array("<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'/><?xpacket end='w'?>".utf8)
        let trailer: [UInt8] = [1] + (0...255).reversed().map { UInt8($0) }
        let extensionBlock: [UInt8] = [0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + packet + trailer + [0]
        bytes.insert(contentsOf: extensionBlock, at: GIFTestSupport.firstRecord(bytes))
        let header = try GIFTestSupport.probe(bytes)
        #expect(header.xmp == packet)
        #expect(try GIFTestSupport.decodeWhole(bytes).image == (try GIFTestSupport.decodeWhole(try GIFTestSupport.bytes("hopper.gif"))).image)
    }

    /// Indices past the colour table (giflib does not check them) are black; the transparent index wins.
    @Test func indexPastTheColourTableIsBlack() throws {
        let bytes = GIFTestSupport.make(screenWidth: 4, screenHeight: 1, frame: PixelRegion(x: 0, y: 0, width: 4, height: 1),
                                        colors: [[200, 10, 10], [10, 200, 10]], indices: [0, 1, 7, 200],
                                        transparent: 200)
        let image = try GIFTestSupport.decodeWhole(bytes).image
        #expect(image.pixels == [200, 10, 10, 10, 200, 10, 0, 0, 0, 255, 255, 255])
    }

    /// A frame reaching past the screen is clipped to it; the probe says so.
    @Test func framePastTheScreenIsClipped() throws {
        let indices = (0..<16).map { UInt8($0 % 2) }
        let bytes = GIFTestSupport.make(screenWidth: 3, screenHeight: 3, frame: PixelRegion(x: 1, y: 1, width: 4, height: 4),
                                        colors: [[0, 0, 0], [255, 0, 0]], indices: indices)
        let header = try GIFTestSupport.probe(bytes)
        #expect(header.width == 3 && header.notes.contains { $0.contains("is clipped") })
        let image = try GIFTestSupport.decodeWhole(bytes).image
        #expect(image.pixel(x: 0, y: 0) == (255, 255, 255))
        #expect(image.pixel(x: 1, y: 1) == (0, 0, 0) && image.pixel(x: 2, y: 1) == (255, 0, 0))
        #expect(image.pixel(x: 1, y: 2) == (0, 0, 0) && image.pixel(x: 2, y: 2) == (255, 0, 0))
    }
}
