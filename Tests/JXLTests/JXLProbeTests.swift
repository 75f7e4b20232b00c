import Foundation
import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import JXL

/// What a probe reads of real JPEG XL files (libjxl's conformance suite and test data), without pixels.
struct JXLProbeTests {
    @Test(arguments: [
        // name, width, height (stored), orientation, colour components, detail
        ("bench_oriented_brg.jxl", 500, 606, Orientation.leftTop, 3, "8-bit, a recompressed JPEG"),
        ("bicycles.jxl", 1024, 631, .topLeft, 3, "8-bit"),
        ("lz77_flower.jxl", 834, 244, .topLeft, 3, "8-bit"),
        ("grayscale.jxl", 200, 200, .topLeft, 1, "8-bit grey"),
        ("alpha_premultiplied.jxl", 1024, 1024, .topLeft, 3, "12-bit with alpha"),
        ("alpha_nonpremultiplied.jxl", 1024, 1024, .topLeft, 3, "12-bit with alpha"),
        ("sunset_logo.jxl", 1386, 924, .rightBottom, 3, "10-bit with alpha"),
        ("1x1_exif_xmp.jxl", 1, 1, .topLeft, 3, "8-bit, a recompressed JPEG"),
    ])
    func headers(_ name: String, _ width: Int, _ height: Int, _ orientation: Orientation, _ components: Int,
                 _ detail: String) throws {
        let bytes = try JXLTestSupport.bytes(name)
        #expect(JXLTestSupport.codec.recognises(Array(bytes.prefix(imageSignatureLength))))
        let header = try JXLTestSupport.probe(bytes)
        #expect(header.width == width && header.height == height)
        #expect(header.orientation == .fixed(orientation))
        #expect(header.colorComponents == components)
        #expect(header.detail == detail)
        guard case .profile(let icc)? = header.colorProfile else {
            Issue.record("\(name): no ICC profile of the decoded pixels")
            return
        }
        // An ICC profile's colour space field (bytes 16-19): what the pixels handed out are.
        #expect(String(decoding: icc[16..<20], as: UTF8.self) == (components == 1 ? "GRAY" : "RGB "))
    }

    /// The conformance file's Exif box holds a TIFF structure (after the 4-byte offset) that says orientation
    /// 5, as the codestream does; the engine takes the codestream's (`.fixed`), never both.
    @Test func exifBoxIsATIFFStructure() throws {
        let header = try JXLTestSupport.probe(JXLTestSupport.bytes("bench_oriented_brg.jxl"))
        let exif = try #require(header.exif)
        #expect(exif.starts(with: [0x49, 0x49, 0x2A, 0x00]) || exif.starts(with: [0x4D, 0x4D, 0x00, 0x2A]))
        #expect(header.orientation == .fixed(.leftTop))
        // Its own profile (2712 bytes, CMM "argl"), given since the pixels are the original's values.
        guard case .profile(let icc)? = header.colorProfile else { Issue.record("no profile"); return }
        #expect(icc.count == 2712)
        #expect(String(decoding: icc[4..<8], as: UTF8.self) == "argl")
    }

    @Test func exifAndXMPBoxes() throws {
        let header = try JXLTestSupport.probe(JXLTestSupport.bytes("1x1_exif_xmp.jxl"))
        let exif = try #require(header.exif)
        #expect(exif.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) || exif.starts(with: [0x49, 0x49, 0x2A, 0x00]))
        let xmp = String(decoding: try #require(header.xmp), as: UTF8.self)
        #expect(xmp.contains("x:xmpmeta"))
    }

    /// An XYB (lossy) grey picture whose original space is an ICC profile: libjxl would hand out linear grey;
    /// the codec asks for sRGB grey, and the profile given is that of the pixels, not the file's own.
    @Test func xybPicturesComeOutInSRGB() throws {
        let header = try JXLTestSupport.probe(JXLTestSupport.bytes("grayscale.jxl"))
        guard case .profile(let icc)? = header.colorProfile else { Issue.record("no profile"); return }
        #expect(icc.count != 912, "the file's own 912-byte profile does not describe sRGB pixels")
    }

    @Test func aBareCodestreamAndAContainerAreRecognised() {
        #expect(JXLTestSupport.codec.recognises([0xFF, 0x0A, 0xFA, 0x1F]))
        #expect(JXLTestSupport.codec.recognises([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]))
        #expect(!JXLTestSupport.codec.recognises([0xFF, 0xD8, 0xFF, 0xE0]))
        #expect(JXLTestSupport.codec.damageInSignature([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0B])
                == "corrupt JPEG XL (damaged signature)")
    }
}

/// A JPEG recompressed by cjxl keeps its EXIF in a Brotli-compressed box (`brob`): read through libjxl, the
/// same TIFF structure as the JPEG's APP1 holds.
struct JXLCompressedBoxTests {
    @Test func brotliCompressedExifIsRead() throws {
        let jpeg = Fixtures.path("exif-orientation/Landscape_6.jpg")
        let jxl = NSTemporaryDirectory() + "jxl-test-\(UUID().uuidString).jxl"
        defer { try? FileManager.default.removeItem(atPath: jxl) }
        _ = try ExternalCommand.output("cjxl", ["--quiet", jpeg, jxl])
        let bytes = try Fixtures.read(jxl)
        #expect(bytes.starts(with: JXLContainer.signatureBox))
        #expect(bytes.indices.contains { bytes[$0...].starts(with: Array("brob".utf8)) }, "cjxl wrote no brob box")
        let header = try JXLTestSupport.probe(bytes)
        let exif = try #require(header.exif)
        let original = try Fixtures.read(jpeg)
        let app1 = try #require(original.indices.first { original[$0...].starts(with: Array("Exif\0\0".utf8)) })
        let length = Int(original[app1 - 2]) << 8 | Int(original[app1 - 1])
        #expect(exif == Array(original[(app1 + 6)..<(app1 - 2 + length)]))
        // The recompressed JPEG's codestream says orientation 6 as its EXIF did.
        #expect(header.orientation == .fixed(.rightTop))
        #expect(header.detail == "8-bit, a recompressed JPEG")
    }
}

/// A probe reads the headers, not the picture: a few chunks of the file at most.
struct JXLProbeCostTests {
    @Test(arguments: ["bench_oriented_brg.jxl", "bicycles.jxl", "lz77_flower.jxl"])
    func aProbeReadsLittle(_ name: String) throws {
        let source = CountingSource(try JXLTestSupport.bytes(name))
        _ = try JXLTestSupport.codec.probe(source)
        #expect(source.bytesRead <= 2 * JXLSession.headerChunk + 4096, "\(name): \(source.bytesRead) of \(source.count) bytes")
        #expect(source.bytesRead < source.count / 2)
    }
}
