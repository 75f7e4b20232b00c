import Foundation
import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import WebP

/// Extended files whose chunks come in less usual places: a profile before an animation, metadata on frames.
struct WebPExtendedFileTests {
    /// An ICCP chunk between VP8X and ANIM: the profile is found, the canvas and first frame still are.
    @Test func animationWithAnICCProfile() throws {
        let animated = WebPTestSupport.path("animated.webp")
        let icc = try WebPTestSupport.temporaryFile([], suffix: ".icc")
        let output = try WebPTestSupport.temporaryFile([])
        defer { for path in [icc, output] { try? FileManager.default.removeItem(atPath: path) } }
        _ = try ExternalCommand.output("webpmux", ["-get", "icc", WebPTestSupport.path("icc.webp"), "-o", icc])
        _ = try ExternalCommand.output("webpmux", ["-set", "icc", icc, animated, "-o", output])
        let bytes = try Fixtures.read(output)
        let header = try WebPTestSupport.probe(bytes)
        #expect(header.width == 64 && header.height == 48 && header.detail == "animated")
        #expect(header.colorProfile == .profile(try Fixtures.read(icc)))
        let decoded = try WebPTestSupport.decodeWhole(bytes)
        let plain = try WebPTestSupport.decodeWhole(try WebPTestSupport.bytes("animated.webp"))
        #expect(decoded.image.pixels == plain.image.pixels)
    }

    /// The codec reads a file on disk through `FileSource` as it reads memory: the same header, the same pixels.
    @Test(arguments: ["exif-orientation-6.webp", "animated.webp", "libwebp-test-data/lossy_alpha3.webp"])
    func fileSourceReadsAsMemoryDoes(name: String) throws {
        let file = try FileSource(path: WebPTestSupport.path(name))
        let memory = MemorySource(try WebPTestSupport.bytes(name))
        let codec = WebPTestSupport.codec
        let header = try codec.probe(file)
        #expect(header == (try codec.probe(memory)))
        let request = DecodeRequest.whole(width: header[0].width, height: header[0].height, maxPixels: 1 << 26)
        let fromFile = try codec.decode(file, request, pool: BufferPool(), shouldCancel: { false })
        let fromMemory = try codec.decode(memory, request, pool: BufferPool(), shouldCancel: { false })
        #expect(fromFile.image == fromMemory.image)
    }
}
