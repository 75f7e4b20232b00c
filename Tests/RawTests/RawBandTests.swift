import Foundation
import ImageCodec
import Imaging
import TestSupport
import Testing
@testable import Raw

/// The full-size rendering made in bands (`RawBands`) against LibRaw's whole one: bayer-640.dng (640x426) in bands
/// of 64 rows, or the raw PHOTOBOOK_RAW_SAMPLE names in the default bands.
@Suite struct RawBandTests {
    static var path: String { RawBayerSampleTests.path }
    static var sampleGiven: Bool { ProcessInfo.processInfo.environment["PHOTOBOOK_RAW_SAMPLE"] != nil }
    static var bandHeight: Int { sampleGiven ? RawBands.defaultHeight : 64 }

    /// The region's rendering by `codec`, at full size.
    static func decode(_ codec: RawCodec, region: PixelRegion? = nil) throws -> DecodedImage {
        let source = try FileSource(path: path)
        let header = try RawTestSupport.probe(source)
        let region = region ?? PixelRegion(x: 0, y: 0, width: header.width, height: header.height)
        return try codec.decode(source, DecodeRequest(region: region, minimumWidth: region.width,
                                                      minimumHeight: region.height, maxPixels: 200_000_000),
                                pool: BufferPool(), shouldCancel: { false })
    }

    /// Each channel's mean absolute difference, in levels of 255.
    static func channelDifferences(_ a: [UInt8], _ b: [UInt8]) -> [Double] {
        var sums = [0, 0, 0]
        for i in 0..<min(a.count, b.count) { sums[i % 3] += abs(Int(a[i]) - Int(b[i])) }
        return sums.map { Double($0) / Double(max(1, a.count / 3)) }
    }

    @Test func withTheWholeWhiteLevelBandsAreTheWholeRenderingExactly() throws {
        let whole = try Self.decode(RawCodec(bandHeight: Int.max / 2))
        let banded = try Self.decode(RawCodec(bandHeight: Self.bandHeight, exactWhite: true))
        #expect(whole.notes.allSatisfy { !$0.contains("bands") }, "\(whole.notes)")
        #expect(banded.notes.contains { $0.contains("bands") }, "\(banded.notes)")
        try #require(banded.image.width == whole.image.width && banded.image.height == whole.image.height)
        // Bit for bit, seams and all: AHD's neighbourhood lies within each band's margins.
        #expect(maxDifference(banded.image.pixels, whole.image.pixels) == 0)
    }

    @Test func aRegionInBandsIsThatPartOfTheWholeRendering() throws {
        let whole = try Self.decode(RawCodec(bandHeight: Int.max / 2))
        let (width, height) = (whole.image.width, whole.image.height)
        // Odd edges away from the picture's: crops start on the Bayer pattern, the region need not.
        let region = PixelRegion(x: width / 5 + 1, y: height / 7 + 1, width: width / 2 + 1, height: height * 2 / 3 + 1)
        let banded = try Self.decode(RawCodec(bandHeight: Self.bandHeight / 2, exactWhite: true), region: region)
        try #require(banded.image.width == region.width && banded.image.height == region.height)
        #expect(banded.covers.x == Double(region.x) && banded.covers.y == Double(region.y) && banded.scale == 1)
        var expected = [UInt8]()
        for row in region.y..<(region.y + region.height) {
            let start = (row * width + region.x) * 3
            expected += whole.image.pixels[start..<(start + region.width * 3)]
        }
        #expect(maxDifference(banded.image.pixels, expected) == 0)
    }

    /// The white level from the first pass at half size is the one difference: a fraction of a level.
    @Test func bandsAreTheWholeRenderingWithinAFractionOfALevel() throws {
        let whole = try Self.decode(RawCodec(bandHeight: Int.max / 2))
        let banded = try Self.decode(RawCodec(bandHeight: Self.bandHeight))
        try #require(banded.image.width == whole.image.width && banded.image.height == whole.image.height)
        let channels = Self.channelDifferences(banded.image.pixels, whole.image.pixels)
        let largest = maxDifference(banded.image.pixels, whole.image.pixels)
        #expect(channels.allSatisfy { $0 <= 0.25 }, "mean absolute differences \(channels)")
        #expect(largest <= 2)
        let reference = try RawTestSupport.dcrawEmu(Self.path)
        let emu = Self.channelDifferences(banded.image.pixels, reference.pixels)
        #expect(emu.allSatisfy { $0 <= 0.5 }, "mean absolute differences \(emu) from dcraw_emu")
        print("raw bands: against the whole rendering \(channels), max \(largest); against dcraw_emu \(emu), max "
              + "\(maxDifference(banded.image.pixels, reference.pixels))")
    }
}
