import Testing
import Imaging
@testable import PNG
import TestSupport

/// Decoding generated images: exact round trips, compositing over white, and cancellation between bands.
@Suite struct PNGDecodeTests {
    static let width = 600, height = 1000
    static let bands = (height + PNGDecoder.rowsPerBand - 1) / PNGDecoder.rowsPerBand

    /// A pattern in which every row and column differs, so a misplaced pixel shows.
    static let source: RGBImage = {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8(truncatingIfNeeded: x)
                pixels[i + 1] = UInt8(truncatingIfNeeded: y)
                pixels[i + 2] = UInt8(truncatingIfNeeded: x &* 3 &+ y &* 5)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }()

    static let plainFile = TestPNGEncoder.encode(width: width, height: height, colorType: 2, pixels: source.pixels)
    static let interlacedFile = TestPNGEncoder.encode(width: width, height: height, colorType: 2,
                                                      pixels: source.pixels, interlaced: true)
    static func file(interlaced: Bool) -> [UInt8] { interlaced ? interlacedFile : plainFile }

    /// Checks before the first band of every pass, plus one before decoding starts.
    static func checks(interlaced: Bool) -> Int { 1 + bands * (interlaced ? 7 : 1) }

    @Test(arguments: [false, true])
    func decodesExactlyWhatWasWritten(interlaced: Bool) throws {
        var checks = 0
        let image = try PNGDecoder.decode(Self.file(interlaced: interlaced), maxPixels: Self.width * Self.height) {
            checks += 1
            return false
        }
        #expect(image == Self.source)
        #expect(checks == Self.checks(interlaced: interlaced))
    }

    @Test func sizeExactlyAtTheLimitIsAllowed() throws {
        let file = Self.file(interlaced: false)
        #expect(throws: Never.self) { try PNGDecoder.decode(file, maxPixels: Self.width * Self.height) }
        #expect(throws: PNGError.tooLarge(width: Self.width, height: Self.height, limit: Self.width * Self.height - 1)) {
            try PNGDecoder.decode(file, maxPixels: Self.width * Self.height - 1)
        }
    }

    static let cancellations: [(interlaced: Bool, at: Int)] = [
        (false, 1), (false, 2), (false, 17), (false, checks(interlaced: false)),
        (true, 1), (true, 2), (true, 3 * bands + 5), (true, checks(interlaced: true)),
    ]

    /// `shouldCancel` answers yes at its `at`-th call: the decode stops right there, without another call.
    @Test(arguments: cancellations)
    func cancelsAtTheNextBand(interlaced: Bool, at: Int) {
        let file = Self.file(interlaced: interlaced)
        var checks = 0
        #expect(throws: PNGError.cancelled) {
            try PNGDecoder.decode(file, maxPixels: Self.width * Self.height) {
                checks += 1
                return checks >= at
            }
        }
        #expect(checks == at)
    }

    /// out = round((c * a + 255 * (255 - a)) / 255), for every colour and alpha value.
    @Test(arguments: [false, true])
    func alphaIsCompositedOverWhite(interlaced: Bool) throws {
        var rgba = [UInt8]()
        for a in 0..<256 {
            for c in 0..<256 { rgba += [UInt8(c), UInt8(255 - c), UInt8(c / 2), UInt8(a)] }
        }
        let file = TestPNGEncoder.encode(width: 256, height: 256, colorType: 6, pixels: rgba, interlaced: interlaced)
        let image = try PNGDecoder.decode(file, maxPixels: 1 << 16)
        func over(_ c: Int, _ a: Int) -> UInt8 {
            UInt8((Double(c * a + 255 * (255 - a)) / 255).rounded())
        }
        var expected = [UInt8]()
        for a in 0..<256 {
            for c in 0..<256 { expected += [over(c, a), over(255 - c, a), over(c / 2, a)] }
        }
        #expect(image.pixels == expected)
    }

    /// Grey and grey+alpha become RGB; one-pixel and one-row images take the same path.
    @Test func smallAndGreyImages() throws {
        let grey = TestPNGEncoder.encode(width: 1, height: 1, colorType: 0, pixels: [77])
        #expect(try PNGDecoder.decode(grey, maxPixels: 1).pixels == [77, 77, 77])
        let greyAlpha = TestPNGEncoder.encode(width: 2, height: 1, colorType: 4, pixels: [0, 0, 200, 255],
                                              interlaced: true)
        #expect(try PNGDecoder.decode(greyAlpha, maxPixels: 2).pixels == [255, 255, 255, 200, 200, 200])
    }
}
