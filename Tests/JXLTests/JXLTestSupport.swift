import Foundation
import ImageCodec
import Imaging
import Synchronization
import TestSupport
@testable import JXL

/// Fixtures and djxl's reference decodes for the JPEG XL tests.
enum JXLTestSupport: CodecTestSupport {
    static let codec = JXLCodec()
    static let fixtures = "jxl"

    /// djxl's decode, upright (djxl applies the codestream's orientation), 8 bits, over white; an XYB picture
    /// rendered to sRGB as the codec asks libjxl to.
    static func djxlReference(_ name: String, sRGB: Bool = false) throws -> RGBImage {
        let png = NSTemporaryDirectory() + "jxl-test-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: png) }
        // Trap: djxl 0.7 cannot write a picture with alpha of other bits than its colour ("Alpha bit depth
        // does not match image bit depth"), and writes a 12-bit one with alpha as noise: those are compared
        // with the conformance suite's own references instead.
        var arguments = [path(name), png, "--bits_per_sample=8", "--quiet", "--num_threads=1"]
        if sRGB { arguments.append("--color_space=RGB_D65_SRG_Per_SRG") }
        _ = try ExternalCommand.output("djxl", arguments)
        return try overWhite(png)
    }

    /// The conformance suite's reference decode of a picture with alpha (Fixtures/jxl/reference), over white:
    /// djxl 0.7 cannot write those (see `djxlReference`).
    static func conformanceReference(_ name: String) throws -> RGBImage {
        try overWhite(path("reference/" + name.replacingOccurrences(of: ".jxl", with: ".png")))
    }

    /// A PNG read by ImageMagick, composited over white, as 8-bit RGB.
    static func overWhite(_ png: String) throws -> RGBImage {
        let ppm = try ExternalCommand.output("convert", [png, "-background", "white", "-alpha", "remove", "-alpha", "off",
                                                         "-type", "TrueColor", "-depth", "8", "ppm:-"])
        let (width, height, pixels) = try PNM.rgb(ppm)
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
