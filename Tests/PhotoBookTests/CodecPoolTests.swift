import Imaging
import ImageCodec
import Platform
import Testing
import TestSupport
@testable import PhotoBook

/// Every codec of the registry takes the buffers of a decode from the pool it is handed, gives back to it all but
/// the pixels it hands out, and never touches another pool: a build's pool is the build's alone.
struct CodecPoolTests {
    /// A file of each format the registry knows.
    static let files = ["exif-orientation/Landscape_6.jpg", "pngsuite/basi6a08.png", "heif/photo.heic",
                        "webp/alpha-lossy.webp", "tiff/rgb8-lzw.tif"]

    /// A pool that pools every buffer, however small, so that it counts each one a decode takes.
    static func countingPool() -> BufferPool { BufferPool(minimumBytes: 1, maxBuffers: 8) }

    @Test(arguments: files)
    func aDecodeTakesFromThePoolItIsHandedAndNoOther(_ name: String) throws {
        let source = try FileSource(path: Fixtures.path(name))
        let codec = try #require(ImageFormat(sniffing: try source.prefix(ImageFormat.signatureLength))).codec
        let header = try #require(try codec.probe(source).first)
        let request = DecodeRequest.whole(width: header.width, height: header.height, maxPixels: 1 << 26)
        func decode(_ pool: BufferPool) throws -> DecodedImage {
            try codec.decode(source, request, pool: pool, shouldCancel: { false })
        }
        // The other pool keeps a buffer of each size the decode asks for.
        let other = Self.countingPool(), given = Self.countingPool()
        other.giveBack(try decode(other).image.pixels)
        let kept = other.statistics
        #expect(kept.kept >= 1 && kept.outstandingBytes == 0)

        // Held in optionals and moved out when given back: a test's own reference to a buffer it gave back (a
        // debug build keeps a local alive to the end of its scope) made the next take copy it, to a new buffer
        // whose capacity malloc may round 16 bytes differently (a flaky 16 outstanding bytes, 1 run in 10).
        var decoded: DecodedImage? = try decode(given)
        #expect(other.statistics == kept, "\(name): the other pool lent nothing and was given nothing")
        #expect(given.statistics.reused == 0 && given.statistics.allocated >= 1)
        #expect(given.statistics.outstandingBytes == decoded?.image.pixels.capacity,
                "\(name): everything but the pixels went back")
        given.giveBack(decoded.take()!.image.pixels)
        var again: DecodedImage? = try decode(given)
        #expect(given.statistics.reused >= 1, "\(name): the pool's own buffers serve it")
        given.giveBack(again.take()!.image.pixels)
        #expect(given.statistics.outstandingBytes == 0)
    }

    /// A JPEG proven sound and a lossless crop of one: libjpeg's buffers come from the pool handed, all go back.
    @Test func jpegsOtherRendersUseThePoolHanded() throws {
        let source = try FileSource(path: Fixtures.path("exif-orientation/Landscape_6.jpg"))
        let codec = try #require(ImageFormat(sniffing: try source.prefix(ImageFormat.signatureLength))).codec
        let header = try #require(try codec.probe(source).first)
        let blocks = try #require(codec.blocks, "a JPEG's blocks go into the PDF as they are")
        let pool = Self.countingPool()
        _ = try #require(try blocks.verifiedOriginal(source, maxPixels: 1 << 26, pool: pool, shouldCancel: { false }))
        let proven = pool.statistics
        #expect(proven.allocated >= 1 && proven.outstandingBytes == 0)
        let region = PixelRegion(x: 16, y: 16, width: header.width / 2, height: header.height / 2)
        _ = try #require(try blocks.losslessCrop(source, region: region, orientation: .topLeft, maxPixels: 1 << 26,
                                                pool: pool, shouldCancel: { false }))
        #expect(pool.statistics.allocated + pool.statistics.reused > proven.allocated + proven.reused)
        #expect(pool.statistics.outstandingBytes == 0)
    }
}
