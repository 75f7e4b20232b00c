import Geometry
import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import JPEG2000

/// Decodes compared with opj_decompress's: the same library's samples, converted to 8-bit RGB by other code
/// (OpenJPEG's own sYCC conversion and chroma upsampling in the tool; its PGM/PPM writer's depth).
struct JPEG2000DecodeTests {
    /// Mean absolute difference allowed per sample, out of 255. Grey and RGB samples are the same integers
    /// scaled by the same formula (exact but for rounding: 0.5 at most); sYCC chroma is upsampled by the tool
    /// with its own filter and converted in floating point, which moves edges by a level or two.
    static let tolerance = 1.5

    @Test(arguments: [("file3.jp2", false), ("p1_04.j2k", true), ("p0_14.j2k", false), ("p1_06.j2k", false),
                      ("p0_03.j2k", true)])
    func wholePictureMatchesOpjDecompress(_ name: String, _ grey: Bool) throws {
        let decoded = try JPEG2000TestSupport.decodeWhole(JPEG2000TestSupport.bytes(name))
        #expect(decoded.scale == 1)
        let reference = try JPEG2000TestSupport.opjReference(name, grey: grey)
        let difference = decoded.image.meanDifference(to: reference)
        #expect(difference <= Self.tolerance, "\(name): mean difference \(difference)")
    }

    /// A region at a reduced resolution level is OpenJPEG's decode of that area at that level
    /// (opj_decompress -d -r), and gives the cell at least the pixels it needs.
    @Test(arguments: [("p1_04.j2k", PixelRegion(x: 100, y: 200, width: 600, height: 700), 150, 170, 2, true),
                      ("file3.jp2", PixelRegion(x: 40, y: 64, width: 400, height: 512), 200, 256, 1, false),
                      ("p1_04.j2k", PixelRegion(x: 0, y: 0, width: 1024, height: 1024), 1000, 10, 0, true)])
    func regionAtAReducedLevel(_ name: String, _ region: PixelRegion, _ minimumWidth: Int, _ minimumHeight: Int,
                               _ factor: Int, _ grey: Bool) throws {
        let decoded = try JPEG2000TestSupport.decode(JPEG2000TestSupport.bytes(name), region: region,
                                                     minimumWidth: minimumWidth, minimumHeight: minimumHeight)
        #expect(decoded.scale == 1 / Double(1 << factor))
        #expect(decoded.image.width >= minimumWidth && decoded.image.height >= minimumHeight)
        #expect(decoded.covers.x <= Double(region.x) && decoded.covers.y <= Double(region.y))
        #expect(decoded.covers.x + decoded.covers.width >= Double(region.x + region.width))
        #expect(decoded.covers.y + decoded.covers.height >= Double(region.y + region.height))
        let reference = try JPEG2000TestSupport.opjReference(name, factor: factor, area: region, grey: grey)
        #expect(decoded.image.width == reference.width && decoded.image.height == reference.height)
        if decoded.image.width == reference.width && decoded.image.height == reference.height {
            let difference = decoded.image.meanDifference(to: reference)
            #expect(difference <= Self.tolerance, "\(name): mean difference \(difference)")
        }
    }

    /// file8.jp2 is grey with an ICC profile, which opj_decompress applies (through Little CMS) and the codec
    /// does not (the profile goes into the PDF with the pixels): compared with the tool told to ignore it...
    /// it has no such switch, so with the samples themselves: a 700x400 grey picture, not flat.
    @Test func greyWithProfileDecodes() throws {
        let decoded = try JPEG2000TestSupport.decodeWhole(JPEG2000TestSupport.bytes("file8.jp2"))
        #expect(decoded.image.width == 700 && decoded.image.height == 400)
        let pixels = decoded.image.pixels
        var grey = true
        for i in stride(from: 0, to: pixels.count, by: 3) where pixels[i] != pixels[i + 1] || pixels[i] != pixels[i + 2] {
            grey = false
        }
        #expect(grey)
        #expect(Set(pixels).count > 100)
    }

    @Test func buffersGoBackToThePool() throws {
        let pool = BufferPool(minimumBytes: 1)
        let decoded = try JPEG2000TestSupport.decodeWhole(JPEG2000TestSupport.bytes("file3.jp2"), pool: pool)
        pool.giveBack(decoded.image.pixels)
        #expect(pool.statistics.outstandingBytes == 0)
    }
}
