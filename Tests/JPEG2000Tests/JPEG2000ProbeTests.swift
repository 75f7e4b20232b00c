import ImageCodec
import Imaging
import Testing
import TestSupport
@testable import JPEG2000

/// What a probe reads of the JPEG 2000 conformance files (ISO/IEC 15444-4, from OpenJPEG's test data).
struct JPEG2000ProbeTests {
    @Test(arguments: [
        ("file3.jp2", 480, 640, 3, "8-bit YCbCr"),
        ("file8.jp2", 700, 400, 1, "8-bit grey"),
        ("p1_04.j2k", 1024, 1024, 1, "12-bit grey"),
        ("p0_14.j2k", 49, 49, 3, "8-bit RGB"),
        ("p1_06.j2k", 12, 12, 3, "8-bit RGB"),
        ("p0_03.j2k", 256, 256, 1, "4-bit signed grey"),
    ])
    func headers(_ name: String, _ width: Int, _ height: Int, _ components: Int, _ detail: String) throws {
        let bytes = try JPEG2000TestSupport.bytes(name)
        #expect(JPEG2000TestSupport.codec.recognises(Array(bytes.prefix(imageSignatureLength))))
        let header = try JPEG2000TestSupport.probe(bytes)
        #expect(header.width == width && header.height == height)
        #expect(header.colorComponents == components)
        #expect(header.detail == detail)
        #expect(header.orientation == .exif)
    }

    /// file8.jp2's colr box holds an ICC profile (method 2, 414 bytes): OpenJPEG gives it after the header.
    @Test func iccProfileFromTheColrBox() throws {
        let header = try JPEG2000TestSupport.probe(JPEG2000TestSupport.bytes("file8.jp2"))
        guard case .profile(let icc)? = header.colorProfile else { Issue.record("no profile"); return }
        #expect(icc.count == 414)
        #expect(String(decoding: icc[36..<40], as: UTF8.self) == "acsp")
        #expect(String(decoding: icc[16..<20], as: UTF8.self) == "GRAY")
        let plain = try JPEG2000TestSupport.probe(JPEG2000TestSupport.bytes("file3.jp2"))
        #expect(plain.colorProfile == nil)
    }

    @Test func signatures() {
        #expect(JPEG2000TestSupport.codec.recognises([0xFF, 0x4F, 0xFF, 0x51, 0, 0x2F]))
        #expect(JPEG2000TestSupport.codec.recognises([0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]))
        #expect(!JPEG2000TestSupport.codec.recognises([0xFF, 0x4F, 0xFF, 0x52]))
        #expect(JPEG2000TestSupport.codec.damageInSignature([0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0B])
                == "corrupt JPEG 2000 (damaged signature)")
    }
}

/// A probe reads the main header, not the tiles.
struct JPEG2000ProbeCostTests {
    @Test(arguments: ["file3.jp2", "file8.jp2", "p1_04.j2k"])
    func aProbeReadsLittle(_ name: String) throws {
        let source = CountingSource(try JPEG2000TestSupport.bytes(name))
        _ = try JPEG2000TestSupport.codec.probe(source)
        #expect(source.bytesRead <= 80 << 10, "\(name): \(source.bytesRead) of \(source.count) bytes")
    }
}
