import Foundation
import ImageCodec
import Testing
import TestSupport
@testable import WebP

/// What a probe reads of a WebP without decoding it: size, kind, metadata, the animation warning.
struct WebPProbeTests {
    @Test func recognisesRIFFWebPOnly() throws {
        let codec = WebPTestSupport.codec
        #expect(codec.name == "WebP" && codec.fileExtensions == ["webp"])
        let lossy = try WebPTestSupport.bytes("lossy.webp")
        #expect(codec.recognises(Array(lossy.prefix(64))))
        #expect(!codec.recognises(Array(lossy.prefix(11))))
        #expect(!codec.recognises(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)))
        var damaged = Array(lossy.prefix(64))
        damaged[9] = UInt8(ascii: "X")
        #expect(!codec.recognises(damaged))
        #expect(codec.damageInSignature(damaged) == "corrupt WebP (damaged signature)")
        #expect(codec.damageInSignature(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == nil)
    }

    @Test(arguments: [
        ("lossy.webp", 151, 101, "lossy"),
        ("lossless.webp", 45, 31, "lossless"),
        ("alpha-lossless.webp", 32, 32, "lossless with alpha"),
        ("alpha-lossy.webp", 32, 32, "lossy with alpha"),
        ("icc.webp", 151, 101, "lossy"),
        ("animated.webp", 64, 48, "animated"),
        ("libwebp-test-data/test.webp", 128, 128, "lossy"),
        ("libwebp-test-data/lossy_alpha3.webp", 1000, 307, "lossy with alpha"),
        ("libwebp-test-data/small_13x1.webp", 13, 1, "lossy"),
    ])
    func sizeAndKind(name: String, width: Int, height: Int, detail: String) throws {
        let header = try WebPTestSupport.probe(try WebPTestSupport.bytes(name))
        #expect(header.width == width && header.height == height)
        #expect(header.detail == detail)
        #expect(header.orientation == .exif)
        #expect(header.colorComponents == 3)
    }

    @Test func iccProfileIsTheICCPChunk() throws {
        let header = try WebPTestSupport.probe(try WebPTestSupport.bytes("icc.webp"))
        let expected = try ExternalCommand.output("webpmux", ["-get", "icc", WebPTestSupport.path("icc.webp"), "-o", "-"])
        #expect(expected.count > 128)
        #expect(header.colorProfile == .profile(expected))
        #expect(try WebPTestSupport.probe(try WebPTestSupport.bytes("lossy.webp")).colorProfile == nil)
    }

    /// The TIFF structure is what exiftool reads back: Orientation 6 (Rotate 90 CW) and the capture date.
    @Test(arguments: ["exif-orientation-6.webp", "exif-prefixed.webp"])
    func exifIsATIFFStructureWithOrientationAndDate(name: String) throws {
        let header = try WebPTestSupport.probe(try WebPTestSupport.bytes(name))
        let exif = try #require(header.exif)
        #expect(exif.starts(with: [0x49, 0x49, 0x2A, 0]) || exif.starts(with: [0x4D, 0x4D, 0, 0x2A]))
        let path = try WebPTestSupport.temporaryFile(exif, suffix: ".tiff")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tags = try ExternalCommand.output("exiftool", ["-s", "-s", "-s", "-n", "-Orientation",
                                                           "-DateTimeOriginal", path])
        #expect(String(decoding: tags, as: UTF8.self) == "6\n2021:07:14 09:26:53\n")
        // The same TIFF structure whether or not its writer put "Exif\0\0" before it.
        let plain = try WebPTestSupport.probe(try WebPTestSupport.bytes("exif-orientation-6.webp"))
        #expect(exif == plain.exif)
    }

    @Test func xmpPacketIsTheXMPChunk() throws {
        let header = try WebPTestSupport.probe(try WebPTestSupport.bytes("xmp.webp"))
        let expected = try ExternalCommand.output("webpmux", ["-get", "xmp", WebPTestSupport.path("xmp.webp"), "-o", "-"])
        #expect(header.xmp == expected)
        #expect(String(decoding: header.xmp ?? [], as: UTF8.self).contains("Harbour at dawn"))
    }

    @Test(arguments: [("animated.webp", 3), ("animated-lossy.webp", 2)])
    func animationWarnsThatOnlyTheFirstFrameIsUsed(name: String, frames: Int) throws {
        let header = try WebPTestSupport.probe(try WebPTestSupport.bytes(name))
        #expect(header.warnings == ["animated WebP (\(frames) frames): only the first frame is used"])
        #expect(header.detail == "animated")
    }

    /// The probe reads chunk headers and metadata, not the image: a few hundred bytes of a 4 KB file.
    @Test func probeReadsNoImageData() throws {
        let bytes = try WebPTestSupport.bytes("exif-orientation-6.webp")
        let source = CountingSource(MemorySource(bytes))
        _ = try WebPTestSupport.codec.probe(source)
        #expect(source.bytesRead < 500 && bytes.count > 4000)  // headers, the EXIF chunk and 32 bytes of VP8
    }
}
