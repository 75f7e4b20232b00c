import Testing
import HEIF
import ImageCodec
import Imaging
import TestSupport

/// What a probe reads without decoding: the primary image's size after its transformations, its colour, its
/// EXIF and XMP, and what kind of file it is.
@Suite struct HEIFProbeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String, width: Int, height: Int, detail: String
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(file: "photo.heic", width: 160, height: 107, detail: "HEIC"),
        Case(file: "photo.avif", width: 160, height: 107, detail: "AVIF"),
        Case(file: "rotated.heic", width: 120, height: 80, detail: "HEIC"),
        Case(file: "rotated-irot-first.heic", width: 120, height: 80, detail: "HEIC"),
        Case(file: "transposed.avif", width: 120, height: 80, detail: "AVIF"),
        Case(file: "alpha.heic", width: 64, height: 64, detail: "HEIC, alpha"),
        Case(file: "alpha.avif", width: 64, height: 64, detail: "AVIF, alpha"),
        Case(file: "deep10.heic", width: 96, height: 64, detail: "HEIC, 10-bit"),
        Case(file: "icc.heic", width: 64, height: 48, detail: "HEIC"),
        Case(file: "p3.avif", width: 64, height: 48, detail: "AVIF"),
        Case(file: "pq.avif", width: 64, height: 48, detail: "AVIF"),
        Case(file: "grid.heic", width: 120, height: 100, detail: "HEIC"),
    ]

    /// The size is the decoded picture's, and libheif's transformations are the only turn: never EXIF's on top.
    @Test(arguments: cases)
    func sizeKindAndFixedOrientation(_ c: Case) throws {
        let headers = try HEIFFixtures.codec.probe(try HEIFFixtures.source(c.file))
        #expect(headers.count == 1)
        let header = try #require(headers.first)
        #expect(header.width == c.width && header.height == c.height)
        #expect(header.detail == c.detail)
        #expect(header.orientation == .fixed(.topLeft))
        #expect(header.colorComponents == 3)
    }

    /// An iPhone's HEIC says its turn twice: irot 270 and EXIF Orientation 6. The EXIF still goes to the engine
    /// (dates, captions) but the orientation is the codec's own.
    @Test(arguments: ["rotated.heic", "rotated-irot-first.heic"])
    func exifOrientationIsCarriedButNotApplied(_ file: String) throws {
        let header = try HEIFFixtures.codec.probe(try HEIFFixtures.source(file))[0]
        let exif = try #require(header.exif)
        #expect(exif.starts(with: [0x4D, 0x4D, 0x00, 0x2A]))
        #expect(HEIFFixtures.exifOrientation(exif) == 6)
        #expect(header.orientation == .fixed(.topLeft))
        #expect(String(decoding: exif, as: UTF8.self).contains("2020:01:02 03:04:05"))
    }

    /// heif-enc copied the JPEG's APP1 block: the item starts with the 4-byte offset, the TIFF structure follows.
    @Test(arguments: ["photo.heic", "photo.avif"])
    func exifAndXMPAreHandedOn(_ file: String) throws {
        let header = try HEIFFixtures.codec.probe(try HEIFFixtures.source(file))[0]
        let exif = try #require(header.exif)
        #expect(exif.starts(with: [0x49, 0x49, 0x2A, 0x00]) || exif.starts(with: [0x4D, 0x4D, 0x00, 0x2A]))
        #expect(String(decoding: exif, as: UTF8.self).contains("2021:07:14 09:30:05"))
        let xmp = String(decoding: try #require(header.xmp), as: UTF8.self)
        #expect(xmp.contains("<x:xmpmeta") && xmp.contains("Harbour at dawn"))
    }

    /// A phone's grid HEIC: the Exif item describes the grid (`cdsc` to the primary item, not to a tile), and
    /// says Orientation 1 (the tiles are stored upright).
    @Test func aGridsExifIsHandedOn() throws {
        let header = try HEIFFixtures.codec.probe(try HEIFFixtures.source("grid.heic"))[0]
        let exif = try #require(header.exif)
        #expect(exif.starts(with: [0x4D, 0x4D, 0x00, 0x2A]))
        #expect(HEIFFixtures.exifOrientation(exif) == 1)
        #expect(String(decoding: exif, as: UTF8.self).contains("2022:08:20 16:45:10"))
        #expect(header.xmp == nil)
    }

    @Test func iccProfileIsTheFilesOwn() throws {
        let header = try HEIFFixtures.codec.probe(try HEIFFixtures.source("icc.heic"))[0]
        #expect(header.colorProfile == .profile(try HEIFFixtures.bytes("sources/icc-profile.icc")))
        #expect(header.profileDescribesDecodedPixels)
    }

    /// nclx Display P3 (primaries 12, transfer 13) becomes an ICC profile that says so.
    @Test func displayP3NclxBecomesAProfile() throws {
        let header = try HEIFFixtures.codec.probe(try HEIFFixtures.source("p3.avif"))[0]
        guard case .profile(let bytes)? = header.colorProfile else {
            Issue.record("no profile made: \(String(describing: header.colorProfile))")
            return
        }
        #expect(bytes.count > 128 && Array(bytes[36..<40]) == Array("acsp".utf8))
        #expect(Array(bytes[16..<20]) == Array("RGB ".utf8))
        // The description tag holds UTF-16BE text.
        var utf16: [UInt8] = []
        for byte in "Display P3".utf8 { utf16 += [0, byte] }
        let described = bytes.indices.contains { bytes[$0...].starts(with: utf16) }
        #expect(described)
        #expect(header.warnings.isEmpty)
    }

    /// nclx 1/13 or 2/2 is sRGB: no profile at all (DeviceRGB is sRGB).
    @Test(arguments: ["photo.avif", "alpha.avif", "photo.heic"])
    func sRGBNeedsNoProfile(_ file: String) throws {
        let header = try HEIFFixtures.codec.probe(try HEIFFixtures.source(file))[0]
        #expect(header.colorProfile == nil)
        #expect(header.warnings.isEmpty)
    }

    @Test func hdrIsShownAsSDRWithAWarning() throws {
        let header = try HEIFFixtures.codec.probe(try HEIFFixtures.source("pq.avif"))[0]
        #expect(header.colorProfile == nil)
        #expect(header.warnings.count == 1)
        #expect(header.warnings.first?.contains("HDR (PQ") == true)
    }

    /// A file on disk through `FileSource` reads the same as from memory.
    @Test func fileSourceReadsTheSame() throws {
        let fromFile = try HEIFFixtures.codec.probe(try FileSource(path: Fixtures.path("heif/photo.heic")))
        #expect(fromFile == (try HEIFFixtures.codec.probe(try HEIFFixtures.source("photo.heic"))))
    }
}
