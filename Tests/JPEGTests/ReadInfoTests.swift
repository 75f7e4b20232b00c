import Imaging
import Testing
@testable import JPEG
import TestSupport

/// readInfo reports what the header says, without decoding pixels.
struct ReadInfoTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        let fixture: String
        let width, height, components: Int
        let colorSpace: JPEGColorSpace
        let exifPrefix: [UInt8]?
        var testDescription: String { fixture }
    }

    static let bigEndianTIFF: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]  // "MM\0*"
    static let littleEndianTIFF: [UInt8] = [0x49, 0x49, 0x2A, 0x00]  // "II*\0"

    static let fixtures: [Expectation] = [
        Expectation(fixture: "exif-orientation/Landscape_1.jpg", width: 1800, height: 1200, components: 3,
                    colorSpace: .ycbcr, exifPrefix: bigEndianTIFF),
        Expectation(fixture: "exif-orientation/Landscape_6.jpg", width: 1200, height: 1800, components: 3,
                    colorSpace: .ycbcr, exifPrefix: bigEndianTIFF),
        Expectation(fixture: "exif-orientation/Portrait_8.jpg", width: 1800, height: 1200, components: 3,
                    colorSpace: .ycbcr, exifPrefix: bigEndianTIFF),
        Expectation(fixture: "cmyk-jpeg/pillow_pil_sample_cmyk.jpg", width: 100, height: 100, components: 4,
                    colorSpace: .ycck, exifPrefix: nil),
    ]

    @Test("fixture headers", arguments: fixtures)
    func header(_ expected: Expectation) throws {
        let info = try JPEGDecoder.readInfo(Fixtures.bytes(expected.fixture))
        #expect(info.width == expected.width && info.height == expected.height)
        #expect(info.components == expected.components)
        #expect(info.colorSpace == expected.colorSpace)
        #expect(info.isProgressive == false)
        if let prefix = expected.exifPrefix {
            let exif = try #require(info.exif)
            #expect(Array(exif.prefix(4)) == prefix)
        }
    }

    @Test("EXIF of Landscape_6: the whole TIFF structure, orientation 6 in IFD0")
    func exifBytes() throws {
        let exif = try #require(try JPEGDecoder.readInfo(Fixtures.bytes("exif-orientation/Landscape_6.jpg")).exif)
        #expect(exif.count == 0x62 - 2 - 6)  // APP1 length field, minus itself and "Exif\0\0"
        #expect(Array(exif.prefix(4)) == Self.bigEndianTIFF || Array(exif.prefix(4)) == Self.littleEndianTIFF)
        // IFD0 at offset 8: one entry count, then tag 0x0112 (Orientation), type SHORT, count 1, value 6.
        #expect(Array(exif[10..<20]) == [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06])
    }

    @Test("the CMYK fixture's EXIF (its first APP1, before an XMP one) is found")
    func cmykExif() throws {
        let info = try JPEGDecoder.readInfo(Fixtures.bytes("cmyk-jpeg/pillow_pil_sample_cmyk.jpg"))
        let exif = try #require(info.exif)
        #expect(Array(exif.prefix(4)) == Self.bigEndianTIFF || Array(exif.prefix(4)) == Self.littleEndianTIFF)
    }

    /// `jpeg` with marker segments inserted right after SOI.
    static func inserting(_ segments: [(marker: UInt8, payload: [UInt8])], into jpeg: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        for segment in segments {
            let length = segment.payload.count + 2
            bytes += [0xFF, segment.marker, UInt8(length >> 8), UInt8(length & 0xFF)] + segment.payload
        }
        return bytes + jpeg.dropFirst(2)
    }

    @Test("the first APP1 that is Exif counts, after an XMP APP1; a later Exif APP1 does not")
    func exifAfterXMP() throws {
        let plain = try JPEGEncoder.encode(JPEGTestSupport.syntheticImage(width: 16, height: 16), quality: 80)
        #expect(try JPEGDecoder.readInfo(plain).exif == nil)
        let xmp = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)
        let first: [UInt8] = Array("Exif\0\0".utf8) + Self.littleEndianTIFF + [8, 0, 0, 0, 0, 0]
        let second: [UInt8] = Array("Exif\0\0".utf8) + Self.bigEndianTIFF + [0, 0, 0, 8, 0, 0]
        let jpeg = Self.inserting([(0xE1, xmp), (0xE1, first), (0xE1, second)], into: plain)
        #expect(try JPEGDecoder.readInfo(jpeg).exif == Array(first.dropFirst(6)))
        // The markers we saved do not disturb decoding.
        #expect(try JPEGDecoder.decode(jpeg, minimumWidth: 16, minimumHeight: 16, maxPixels: 256).width == 16)
    }

    @Test("progressive and arithmetic flags and colour spaces of our own files", arguments: [
        (JPEGEncoder.Options(progressive: true), true, JPEGColorSpace.ycbcr, 3),
        (JPEGEncoder.Options(arithmeticCoding: true), false, .ycbcr, 3),
        (JPEGEncoder.Options(colorModel: .grayscale), false, .grayscale, 1),
        (JPEGEncoder.Options(progressive: true, colorModel: .cmyk), true, .cmyk, 4),
    ])
    func ownFiles(_ options: JPEGEncoder.Options, progressive: Bool, colorSpace: JPEGColorSpace,
                  components: Int) throws {
        let jpeg = try JPEGEncoder.encode(JPEGTestSupport.syntheticImage(width: 40, height: 30), options: options)
        let info = try JPEGDecoder.readInfo(jpeg)
        var expected = JPEGInfo(width: 40, height: 30, components: components, colorSpace: colorSpace,
                                isProgressive: progressive, exif: nil)
        expected.isArithmetic = options.arithmeticCoding
        #expect(info == expected)
    }
}

@Test("readInfo tells arithmetic coding apart, which PDF readers cannot decode")
func readInfoArithmeticFlag() throws {
    let image = JPEGTestSupport.syntheticImage(width: 64, height: 48)
    let huffman = try JPEGEncoder.encode(image, options: .init(quality: 80))
    let arithmetic = try JPEGEncoder.encode(image, options: .init(quality: 80, arithmeticCoding: true))
    #expect(try JPEGDecoder.readInfo(huffman).isArithmetic == false)
    #expect(try JPEGDecoder.readInfo(arithmetic).isArithmetic == true)
}
