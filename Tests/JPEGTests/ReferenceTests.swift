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

    /// Pillow's decode of a CMYK JPEG converted to sRGB through `profile` with its Little CMS binding: relative
    /// colorimetric with black-point compensation, Pillow's own CMYK unpacking (the Adobe inversion undone by
    /// Pillow, not by us).
    static func pillowThroughProfile(_ jpeg: String, profile: String) throws -> RGBImage {
        try JPEGTestSupport.parsePPM(ExternalCommand.output("/usr/bin/python3", ["-c", """
            import sys, io
            from PIL import Image, ImageCms
            image = Image.open(sys.argv[1])
            assert image.mode == "CMYK", image.mode
            transform = ImageCms.buildTransform(ImageCms.getOpenProfile(sys.argv[2]), ImageCms.createProfile("sRGB"),
                "CMYK", "RGB", renderingIntent=1, flags=ImageCms.FLAGS["BLACKPOINTCOMPENSATION"])
            out = io.BytesIO()
            ImageCms.applyTransform(image, transform).save(out, "PPM")
            sys.stdout.buffer.write(out.getvalue())
            """, Fixtures.path(jpeg), profile]))
    }

    static let cmykProfile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"

    @Test("a CMYK JPEG with a profile is converted through it as Pillow and Little CMS convert it, whole and cropped")
    func cmykThroughItsProfileMatchesPillow() throws {
        let jpeg = try Fixtures.bytes(Self.cmykFixture)
        let profile = try Array(Data(contentsOf: URL(fileURLWithPath: Self.cmykProfile)))
        let reference = try Self.pillowThroughProfile(Self.cmykFixture, profile: Self.cmykProfile)
        let whole = try JPEGDecoder.decode(jpeg, minimumWidth: 100, minimumHeight: 100, maxPixels: 1 << 20,
                                           cmykProfile: profile)
        #expect(whole.width == reference.width && whole.height == reference.height)
        #expect(JPEGTestSupport.maxDifference(whole, reference) <= 1)
        // The same picture as the naive formula gives is not it: the press profile moves every colour.
        let naive = try JPEGDecoder.decode(jpeg, minimumWidth: 100, minimumHeight: 100, maxPixels: 1 << 20)
        #expect(JPEGTestSupport.maxDifference(whole, naive) > 20)
        let bar = whole.pixel(x: 5, y: 1)  // the red bar: a press red is less pure than R = 255 - C
        #expect(bar.red > 220 && bar.red < 250 && bar.green > 30 && bar.green < 80)

        // A region, as a cropped page asks for it: the columns libjpeg crops convert the same way.
        let region = try JPEGDecoder.decode(jpeg, region: JPEGRegion(x: 40, y: 16, width: 48, height: 64),
                                            minimumWidth: 48, minimumHeight: 64, maxPixels: 1 << 20,
                                            cmykProfile: profile)
        let covers = region.covers
        var worst = 0
        for y in 0..<region.image.height {
            for x in 0..<region.image.width {
                let a = region.image.pixel(x: x, y: y), b = reference.pixel(x: covers.x + x, y: covers.y + y)
                worst = max(worst, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)),
                            abs(Int(a.blue) - Int(b.blue)))
            }
        }
        #expect(region.scale == 8 && worst <= 1)
    }

    @Test("a CMYK JPEG whose profile Little CMS refuses is converted with the naive formula")
    func aCMYKJPEGWithAnRGBProfileFallsBackToTheFormula() throws {
        let jpeg = try Fixtures.bytes(Self.cmykFixture)
        let rgbProfile = try Array(Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/srgb.icc")))
        let naive = try JPEGDecoder.decode(jpeg, minimumWidth: 100, minimumHeight: 100, maxPixels: 1 << 20)
        for profile in [rgbProfile, [UInt8](repeating: 7, count: 500)] {
            let decoded = try JPEGDecoder.decode(jpeg, minimumWidth: 100, minimumHeight: 100, maxPixels: 1 << 20,
                                                 cmykProfile: profile)
            #expect(decoded.pixels == naive.pixels)
        }
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
