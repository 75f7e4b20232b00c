import Imaging
import Testing
@testable import JPEG
import TestSupport

/// `readInfo(prefix:)`: a header cut by the end of the bytes asks for more instead of failing, and nothing else does.
struct PrefixHeaderTests {
    static func small() throws -> [UInt8] {
        try JPEGEncoder.encode(JPEGTestSupport.syntheticImage(width: 40, height: 30), options: JPEGEncoder.Options(quality: 80))
    }

    @Test func aHeaderCutInsideItsAPPSegmentsNeedsMoreBytes() throws {
        let jpeg = JPEGStructure.withLargeAPP2(try Self.small(), total: 300_000)
        let cut = Array(jpeg.prefix(200_000))
        #expect(try JPEGDecoder.readInfo(prefix: cut) == nil)
        #expect(throws: FailureTests.truncated) { try JPEGDecoder.readInfo(cut) }
        let info = try #require(try JPEGDecoder.readInfo(prefix: jpeg))
        #expect(info.width == 40 && info.height == 30)
    }

    @Test func aHeaderCutAfterTheFrameButBeforeTheScanNeedsMoreBytes() throws {
        let jpeg = try Self.small()
        let cut = Array(jpeg.prefix(JPEGStructure.frame(jpeg).offset + 20))
        #expect(try JPEGDecoder.readInfo(prefix: cut) == nil)
    }

    @Test func aCompleteHeaderIsReadEvenWhenTheScanIsCut() throws {
        let jpeg = try Self.small()
        let cut = Array(jpeg.prefix(JPEGStructure.scans(jpeg)[0].end + 10))
        #expect(try JPEGDecoder.readInfo(prefix: cut)?.width == 40)
    }

    @Test func aCorruptHeaderStillFailsWithItsReason() throws {
        // A second SOI: libjpeg stops at once ("two SOI markers"), long before the bytes run out.
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD8] + [UInt8](repeating: 0x55, count: 4096)
        #expect(throws: JPEGError.corrupt("invalid JPEG file structure: two SOI markers")) {
            try JPEGDecoder.readInfo(prefix: bytes)
        }
        #expect(throws: JPEGError.notJPEG) { try JPEGDecoder.readInfo(prefix: Array("not a photo".utf8)) }
    }
}
