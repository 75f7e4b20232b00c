import HEIF
import ImageCodec
import Imaging
import TestSupport
import Testing

/// The `thmb` item a phone writes beside its photo (`HEIFCodec.thumbnail`), which the attention map is measured on
/// instead of a decode of 12 megapixels: its size, and that it shows the same picture as the photo.
struct HEIFThumbnailTests {
    /// The mean difference, per sample, between `thumbnail` and `picture` (a larger decode of the same photo)
    /// sampled at the thumbnail's pixel centres.
    static func difference(_ thumbnail: RGBImage, _ picture: RGBImage) -> Double {
        var total = 0
        for y in 0..<thumbnail.height {
            let sy = min(picture.height - 1, (2 * y + 1) * picture.height / (2 * thumbnail.height))
            for x in 0..<thumbnail.width {
                let sx = min(picture.width - 1, (2 * x + 1) * picture.width / (2 * thumbnail.width))
                for c in 0..<3 {
                    total += abs(Int(thumbnail.pixels[(y * thumbnail.width + x) * 3 + c])
                                 - Int(picture.pixels[(sy * picture.width + sx) * 3 + c]))
                }
            }
        }
        return Double(total) / Double(thumbnail.width * thumbnail.height * 3)
    }

    /// The photo decoded box-shrunk by 8.
    static func eighth(_ bytes: [UInt8]) throws -> RGBImage {
        let source = MemorySource(bytes)
        let header = try HEIFFixtures.codec.probe(source)[0]
        let request = DecodeRequest(picture: 0, region: PixelRegion(x: 0, y: 0, width: header.width, height: header.height),
                                    minimumWidth: header.width / 8, minimumHeight: header.height / 8, maxPixels: 1 << 25)
        return try HEIFFixtures.codec.decode(source, request, pool: BufferPool(), shouldCancel: { false }).image
    }

    @Test("a Samsung phone's HEIC: its 384x512 thumbnail, upright as the photo, shows the photo")
    func phoneThumbnail() throws {
        let bytes = try HEIFFixtures.bytes("metadata-extractor-images/samsung-galaxy-s10plus.heic")
        let thumbnail = try #require(HEIFFixtures.codec.thumbnail(MemorySource(bytes), maxPixels: 1_000_000))
        #expect(thumbnail.width == 384 && thumbnail.height == 512)
        let picture = try Self.eighth(bytes)
        #expect(picture.width * 4 == picture.height * 3)
        let difference = Self.difference(thumbnail, picture)
        #expect(difference < 12, "thumbnail differs from the photo by \(difference) a sample")
        // Not the same picture turned: the comparison can fail.
        let turned = RGBImage(width: 384, height: 512, pixels: Array(thumbnail.pixels.reversed()))
        #expect(Self.difference(turned, picture) > 2 * difference + 5)
        // Larger than the caller allows: none.
        #expect(HEIFFixtures.codec.thumbnail(MemorySource(bytes), maxPixels: 100_000) == nil)
    }

    @Test("heif-enc -t writes one, read at its size; files without one (an iPhone XR's, heif-enc's default) give none")
    func encodedThumbnail() throws {
        let bytes = try #require(HEIFDecodeTests.large(["-q", "60", "-t", "240"], name: "thumb.heic"),
                                 "heif-enc could not make the HEIC")
        let thumbnail = try #require(HEIFFixtures.codec.thumbnail(MemorySource(bytes), maxPixels: 1_000_000))
        #expect(thumbnail.width == 240 && thumbnail.height == 160)
        let difference = Self.difference(thumbnail, try Self.eighth(bytes))
        #expect(difference < 20, "thumbnail differs from the photo by \(difference) a sample")
        for name in ["photo.heic", "metadata-extractor-images/iphone-xr.heic", "grid.heic"] {
            #expect(HEIFFixtures.codec.thumbnail(try HEIFFixtures.source(name), maxPixels: 1_000_000) == nil, "\(name)")
        }
        #expect(HEIFFixtures.codec.thumbnail(MemorySource(Array(bytes.prefix(100))), maxPixels: 1_000_000) == nil)
    }
}
