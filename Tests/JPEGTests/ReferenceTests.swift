import Foundation
import Imaging
import Testing
@testable import JPEG
import TestSupport

/// Our decoder agrees with independent decoding paths: libjpeg-turbo's own djpeg, and ImageMagick.
struct ReferenceTests {
    @Test("fixtures decode like djpeg -ppm", arguments: [
        ("exif-orientation/Landscape_1.jpg", 8), ("exif-orientation/Landscape_1.jpg", 2),
        ("exif-orientation/Portrait_6.jpg", 8), ("exif-orientation/Portrait_6.jpg", 1),
    ])
    func matchesDjpeg(_ fixture: String, scale: Int) throws {
        let path = Fixtures.path(fixture)
        let jpeg = try Fixtures.bytes(fixture)
        let info = try JPEGDecoder.readInfo(jpeg)
        let size = JPEGDecoder.scaledSize(width: info.width, height: info.height, minimumWidth: 0,
                                          minimumHeight: (info.height * scale + 7) / 8)
        #expect(size.scale == scale)
        let ours = try JPEGDecoder.decode(jpeg, minimumWidth: size.width, minimumHeight: size.height,
                                          maxPixels: 10_000_000)
        let reference = try JPEGTestSupport.parsePPM(ExternalCommand.output("djpeg", ["-scale", "\(scale)/8", "-ppm", path]))
        #expect(ours.width == reference.width && ours.height == reference.height)
        // Same library, same defaults (islow IDCT, fancy upsampling): identical but for rounding, if any.
        #expect(JPEGTestSupport.maxDifference(ours, reference) <= 1)
    }

    @Test("our progressive and arithmetic files decode like djpeg does them", arguments: [
        JPEGEncoder.Options(quality: 80, progressive: true),
        JPEGEncoder.Options(quality: 80, arithmeticCoding: true),
        JPEGEncoder.Options(quality: 80, colorModel: .grayscale),
    ])
    func ourFilesMatchDjpeg(_ options: JPEGEncoder.Options) throws {
        let jpeg = try JPEGEncoder.encode(JPEGTestSupport.syntheticImage(width: 203, height: 101), options: options)
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("photobook-jpeg-\(UUID().uuidString).jpg").path
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reference = try JPEGTestSupport.parsePPM(ExternalCommand.output("djpeg", ["-rgb", "-ppm", path]))
        let ours = try JPEGDecoder.decode(jpeg, minimumWidth: 203, minimumHeight: 101, maxPixels: 1 << 20)
        #expect(JPEGTestSupport.maxDifference(ours, reference) <= 1)
    }

    static let cmykFixture = "cmyk-jpeg/pillow_pil_sample_cmyk.jpg"

    @Test("an Adobe CMYK (YCCK) JPEG decodes to the colours djpeg and ImageMagick give", arguments: [
        ["djpeg", "-ppm"], ["convert", "-colorspace", "sRGB"],
    ])
    func cmykMatchesReferences(_ command: [String]) throws {
        let path = Fixtures.path(Self.cmykFixture)
        let arguments = command[0] == "djpeg" ? Array(command.dropFirst()) + [path]
                                               : [path] + Array(command.dropFirst()) + ["ppm:-"]
        let reference = try JPEGTestSupport.parsePPM(ExternalCommand.output(command[0], arguments))
        let ours = try JPEGDecoder.decode(Fixtures.bytes(Self.cmykFixture), minimumWidth: 100,
                                          minimumHeight: 100, maxPixels: 1 << 20)
        #expect(ours.width == reference.width && ours.height == reference.height)
        // Both references apply the same naive formula R = C'K'/255 to the same libjpeg samples (inverted,
        // as the Adobe marker says); they round differently (djpeg in 8 bits, ImageMagick through 16 bits),
        // so one step of difference is rounding and anything more would be a different conversion.
        #expect(JPEGTestSupport.maxDifference(ours, reference) <= 1)
    }

    @Test("the CMYK picture is not inverted: red text and bar on black")
    func cmykIsNotInverted() throws {
        let image = try JPEGDecoder.decode(Fixtures.bytes(Self.cmykFixture), minimumWidth: 100,
                                           minimumHeight: 100, maxPixels: 1 << 20)
        let background = image.pixel(x: 50, y: 90)  // below the "RED" lettering
        #expect(background.red < 16 && background.green < 16 && background.blue < 16)
        let bar = image.pixel(x: 5, y: 1)  // the red bar in the top left corner
        #expect(bar.red > 230 && bar.green < 40 && bar.blue < 40)
    }

    @Test("CMYK conversion honours the Adobe inversion")
    func cmykFormula() {
        // Two pixels: no ink (white) and full black, stored plainly and Adobe-inverted.
        var rgb = [UInt8](repeating: 7, count: 6)
        CMYKConversion.toRGB([0, 0, 0, 0, 0, 0, 0, 255], count: 2, adobeInverted: false, into: &rgb, at: 0)
        #expect(rgb == [255, 255, 255, 0, 0, 0])
        CMYKConversion.toRGB([255, 255, 255, 255, 255, 255, 255, 0], count: 2, adobeInverted: true, into: &rgb, at: 0)
        #expect(rgb == [255, 255, 255, 0, 0, 0])
        // Half cyan, no black, Adobe-inverted: stored 128 -> red at about half.
        CMYKConversion.toRGB([128, 255, 255, 255], count: 1, adobeInverted: true, into: &rgb, at: 3)
        #expect(rgb == [255, 255, 255, 128, 255, 255])
    }
}
