import Imaging
import Testing
@testable import JPEG
import TestSupport

/// Decoding picks libjpeg's smallest DCT scale that still covers the requested size, and that scale's output is
/// a faithful reduction of the full picture.
struct ScalingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let width, height, minimumWidth, minimumHeight: Int
        let scale, scaledWidth, scaledHeight: Int
        var testDescription: String { "\(width)x\(height) covering \(minimumWidth)x\(minimumHeight)" }

        /// `width` x `height` asked to cover `minimumWidth` x `minimumHeight` gives `scale`/8, `scaled` size.
        init(_ width: Int, _ height: Int, covering minimumWidth: Int, _ minimumHeight: Int,
             gives scale: Int, _ scaledWidth: Int, _ scaledHeight: Int) {
            (self.width, self.height) = (width, height)
            (self.minimumWidth, self.minimumHeight) = (minimumWidth, minimumHeight)
            (self.scale, self.scaledWidth, self.scaledHeight) = (scale, scaledWidth, scaledHeight)
        }
    }

    static let cases: [Case] = [
        Case(1800, 1200, covering: 0, 0, gives: 1, 225, 150),
        Case(1800, 1200, covering: 225, 150, gives: 1, 225, 150),
        Case(1800, 1200, covering: 226, 0, gives: 2, 450, 300),
        Case(1800, 1200, covering: 900, 600, gives: 4, 900, 600),
        Case(1800, 1200, covering: 900, 601, gives: 5, 1125, 750),
        Case(1800, 1200, covering: 1, 1050, gives: 7, 1575, 1050),
        Case(1800, 1200, covering: 1800, 1200, gives: 8, 1800, 1200),
        // A minimum larger than the image never upsamples: full size.
        Case(1800, 1200, covering: 4000, 10, gives: 8, 1800, 1200),
        // libjpeg rounds scaled sides up: ceil(1801 / 8) = 226, ceil(1201 * 3 / 8) = 451.
        Case(1801, 1201, covering: 226, 151, gives: 1, 226, 151),
        Case(1801, 1201, covering: 0, 451, gives: 3, 676, 451),
        Case(17, 9, covering: 3, 2, gives: 1, 3, 2),
        Case(17, 9, covering: 4, 2, gives: 2, 5, 3),
        Case(1, 1, covering: 1, 1, gives: 1, 1, 1),
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
        let jpeg = try JPEGEncoder.encode(JPEGTestSupport.syntheticImage(width: width, height: height), quality: 90)
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
        let jpeg = try Fixtures.bytes("exif-orientation/Landscape_1.jpg")
        let full = try JPEGDecoder.decode(jpeg, minimumWidth: 1800, minimumHeight: 1200, maxPixels: 10_000_000)
        let scaled = try JPEGDecoder.decode(jpeg, minimumWidth: minimum.0, minimumHeight: minimum.1,
                                            maxPixels: 10_000_000)
        let predicted = JPEGDecoder.scaledSize(width: 1800, height: 1200, minimumWidth: minimum.0,
                                               minimumHeight: minimum.1)
        #expect(scaled.width == predicted.width && scaled.height == predicted.height)
        #expect(scaled.width >= minimum.0 && scaled.height >= minimum.1)
        let reference = JPEGTestSupport.boxDownscale(full, width: scaled.width, height: scaled.height)
        let psnr = JPEGTestSupport.psnr(scaled, reference)
        // The DCT reduction is not a box filter (and the full decode upsamples chroma first), but on a photo
        // the two agree closely: about 51 dB at 1/2, 1/4, 1/8 and 37-39 dB at 5/8 and 7/8, where a fractional
        // box differs more.
        #expect(psnr > 35, "PSNR \(psnr) dB at \(scaled.width)x\(scaled.height)")
    }
}
