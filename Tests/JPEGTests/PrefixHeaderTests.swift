import Imaging
import Testing
@testable import JPEG
import TestSupport

/// `readInfo(prefix:)`: a header cut by the end of the bytes asks for more instead of failing, and nothing else does.
struct PrefixHeaderTests {
    /// `jpeg` with APP2 segments of `total` bytes of payload (an ICC profile's shape) between SOI and the rest.
    static func withLargeAPP2(_ jpeg: [UInt8], total: Int) -> [UInt8] {
        var out = Array(jpeg.prefix(2))
        var left = total
        while left > 0 {
            let payload = min(65_533, left)
            out += [0xFF, 0xE2, UInt8((payload + 2) >> 8), UInt8((payload + 2) & 0xFF)]
            out += [UInt8](repeating: 0x20, count: payload)
            left -= payload
        }
        return out + jpeg.dropFirst(2)
    }

    static func small() throws -> [UInt8] {
        try JPEGEncoder.encode(JPEGTestSupport.syntheticImage(width: 40, height: 30), options: JPEGEncoder.Options(quality: 80))
    }

    @Test func aHeaderCutInsideItsAPPSegmentsNeedsMoreBytes() throws {
        let jpeg = Self.withLargeAPP2(try Self.small(), total: 300_000)
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
