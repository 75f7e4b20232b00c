import Testing
@testable import PNG

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
