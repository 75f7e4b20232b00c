import Testing
@testable import PNG
import TestSupport

/// `PNGDecoder.readInfo`: the header alone.
@Suite struct PNGInfoTests {
    static let headers: [(name: String, width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool)] = [
        ("basn0g01.png", 32, 32, 1, 0, false),
        ("basi0g16.png", 32, 32, 16, 0, true),
        ("basn2c08.png", 32, 32, 8, 2, false),
        ("basi3p02.png", 32, 32, 2, 3, true),
        ("basn4a16.png", 32, 32, 16, 4, false),
        ("basi6a08.png", 32, 32, 8, 6, true),
        ("s01n3p01.png", 1, 1, 1, 3, false),
        ("s39i3p04.png", 39, 39, 4, 3, true),
    ]

    @Test(arguments: headers)
    func headerIsReadAsWritten(name: String, width: Int, height: Int, bitDepth: Int, colorType: Int,
                               interlaced: Bool) throws {
        let info = try PNGDecoder.readInfo(try PngSuite.bytes(name))
        #expect(info == PNGInfo(width: width, height: height, bitDepth: bitDepth, colorType: colorType,
                                isInterlaced: interlaced, exif: nil))
    }

    @Test func exifBeforeTheImageDataIsReturned() throws {
        let info = try PNGDecoder.readInfo(try PngSuite.bytes("exif2c08.png"))
        let exif = try #require(info.exif)
        let start = Array(exif.prefix(4))
        #expect(start == Array("MM\0*".utf8) || start == Array("II*\0".utf8), "EXIF starts with \(start)")
    }

    static let tiff: [UInt8] = Array("MM\0*".utf8) + [0, 0, 0, 8, 0, 0]

    @Test func exifAfterTheImageDataIsNotSeen() throws {
        var file = TestPNGEncoder.encode(width: 1, height: 1, colorType: 0, pixels: [9])
        let iend = file.count - 12
        file.insert(contentsOf: TestPNGEncoder.chunk("eXIf", Self.tiff), at: iend)
        #expect(try PNGDecoder.readInfo(file).exif == nil)
        #expect(try PNGDecoder.decode(file, maxPixels: 1).pixels == [9, 9, 9])
    }

    @Test func exifIsReturnedWhole() throws {
        let file = TestPNGEncoder.encode(width: 1, height: 1, colorType: 0, pixels: [9],
                                         chunksBeforeIDAT: [("eXIf", Self.tiff)])
        #expect(try PNGDecoder.readInfo(file).exif == Self.tiff)
    }

    /// libpng drops an eXIf that is not TIFF ("MM" or "II") with a warning; the image is still readable.
    @Test func exifThatIsNotTIFFIsDropped() throws {
        let file = TestPNGEncoder.encode(width: 1, height: 1, colorType: 0, pixels: [9],
                                         chunksBeforeIDAT: [("eXIf", Array("Exif\0\0MM\0*".utf8))])
        #expect(try PNGDecoder.readInfo(file).exif == nil)
        #expect(try PNGDecoder.decode(file, maxPixels: 1).pixels == [9, 9, 9])
    }

    @Test func readInfoDoesNotNeedTheImageData() throws {
        let bytes = try PngSuite.bytes("basn2c08.png")
        let firstIDAT = try #require(TestPNGEncoder.chunks(of: bytes).first { $0.type == "IDAT" })
        let info = try PNGDecoder.readInfo(Array(bytes[..<(firstIDAT.offset + 8)]))
        #expect(info.width == 32 && info.height == 32)
    }

    @Test func readInfoRejectsWhatIsNotAPNG() {
        #expect(throws: PNGError.notPNG) { try PNGDecoder.readInfo(Array("GIF89a and more".utf8)) }
        #expect(throws: PNGError.notPNG) { try PNGDecoder.readInfo([0xFF, 0xD8, 0xFF, 0xE0, 0, 0, 0, 0, 0, 0]) }
    }
}
