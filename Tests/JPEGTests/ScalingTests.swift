import Imaging
import Testing
@testable import JPEG

/// Decoding picks libjpeg's smallest DCT scale that still covers the requested size, and that scale's output is
/// a faithful reduction of the full picture.
struct ScalingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let width, height, minimumWidth, minimumHeight: Int
        let scale, scaledWidth, scaledHeight: Int
        var testDescription: String { "\(width)x\(height) covering \(minimumWidth)x\(minimumHeight)" }
    }

    static let cases: [Case] = [
        Case(width: 1800, height: 1200, minimumWidth: 0, minimumHeight: 0, scale: 1, scaledWidth: 225, scaledHeight: 150),
        Case(width: 1800, height: 1200, minimumWidth: 225, minimumHeight: 150, scale: 1, scaledWidth: 225, scaledHeight: 150),
        Case(width: 1800, height: 1200, minimumWidth: 226, minimumHeight: 0, scale: 2, scaledWidth: 450, scaledHeight: 300),
        Case(width: 1800, height: 1200, minimumWidth: 900, minimumHeight: 600, scale: 4, scaledWidth: 900, scaledHeight: 600),
        Case(width: 1800, height: 1200, minimumWidth: 900, minimumHeight: 601, scale: 5, scaledWidth: 1125, scaledHeight: 750),
        Case(width: 1800, height: 1200, minimumWidth: 1, minimumHeight: 1050, scale: 7, scaledWidth: 1575, scaledHeight: 1050),
        Case(width: 1800, height: 1200, minimumWidth: 1800, minimumHeight: 1200, scale: 8, scaledWidth: 1800, scaledHeight: 1200),
        // A minimum larger than the image never upsamples: full size.
        Case(width: 1800, height: 1200, minimumWidth: 4000, minimumHeight: 10, scale: 8, scaledWidth: 1800, scaledHeight: 1200),
        // libjpeg rounds scaled sides up: ceil(1801 / 8) = 226, ceil(1201 * 3 / 8) = 451.
        Case(width: 1801, height: 1201, minimumWidth: 226, minimumHeight: 151, scale: 1, scaledWidth: 226, scaledHeight: 151),
        Case(width: 1801, height: 1201, minimumWidth: 0, minimumHeight: 451, scale: 3, scaledWidth: 676, scaledHeight: 451),
        Case(width: 17, height: 9, minimumWidth: 3, minimumHeight: 2, scale: 1, scaledWidth: 3, scaledHeight: 2),
        Case(width: 17, height: 9, minimumWidth: 4, minimumHeight: 2, scale: 2, scaledWidth: 5, scaledHeight: 3),
        Case(width: 1, height: 1, minimumWidth: 1, minimumHeight: 1, scale: 1, scaledWidth: 1, scaledHeight: 1),
    ]

    @Test("scaledSize picks the smallest covering scale", arguments: cases)
    func scaledSize(_ c: Case) {
        let chosen = JPEGDecoder.scaledSize(width: c.width, height: c.height,
                                            minimumWidth: c.minimumWidth, minimumHeight: c.minimumHeight)
        #expect(chosen.scale == c.scale && chosen.width == c.scaledWidth && chosen.height == c.scaledHeight)
    }

    @Test("every scale that scaledSize can pick is the size libjpeg produces",
          arguments: [(301, 199), (64, 48), (7, 5)], 1...8)
    func decodedSizeMatchesPrediction(_ size: (Int, Int), scale: Int) throws {
        let (width, height) = size
        let jpeg = try JPEGEncoder.encode(TestSupport.syntheticImage(width: width, height: height), quality: 90)
        let predicted = JPEGDecoder.scaledSize(width: width, height: height,
                                               minimumWidth: (width * scale + 7) / 8,
                                               minimumHeight: (height * scale + 7) / 8)
        let decoded = try JPEGDecoder.decode(jpeg, minimumWidth: (width * scale + 7) / 8,
                                             minimumHeight: (height * scale + 7) / 8, maxPixels: 1 << 20)
        #expect(predicted.scale <= scale)
        #expect(decoded.width == predicted.width && decoded.height == predicted.height)
    }

    @Test("a DCT-scaled decode is close to a box-filtered reduction of the full decode",
          arguments: [(450, 300), (225, 150), (900, 600), (901, 1), (1, 1050)])
    func scaledContent(_ minimum: (Int, Int)) throws {
        let jpeg = try TestSupport.fixture("exif-orientation/Landscape_1.jpg")
        let full = try JPEGDecoder.decode(jpeg, minimumWidth: 1800, minimumHeight: 1200, maxPixels: 10_000_000)
        let scaled = try JPEGDecoder.decode(jpeg, minimumWidth: minimum.0, minimumHeight: minimum.1,
                                            maxPixels: 10_000_000)
        let predicted = JPEGDecoder.scaledSize(width: 1800, height: 1200, minimumWidth: minimum.0,
                                               minimumHeight: minimum.1)
        #expect(scaled.width == predicted.width && scaled.height == predicted.height)
        #expect(scaled.width >= minimum.0 && scaled.height >= minimum.1)
        let reference = TestSupport.boxDownscale(full, width: scaled.width, height: scaled.height)
        let psnr = TestSupport.psnr(scaled, reference)
        // The DCT reduction is not a box filter (and the full decode upsamples chroma first), but on a photo
        // the two agree closely: about 51 dB at 1/2, 1/4, 1/8 and 37-39 dB at 5/8 and 7/8, where a fractional box differs more.
        #expect(psnr > 35, "PSNR \(psnr) dB at \(scaled.width)x\(scaled.height)")
    }
}
