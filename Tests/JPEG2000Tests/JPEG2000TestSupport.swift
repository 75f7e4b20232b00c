import Foundation
import ImageCodec
import Imaging
import Synchronization
import TestSupport
@testable import JPEG2000

/// Fixtures and opj_decompress's reference decodes for the JPEG 2000 tests.
enum JPEG2000TestSupport: CodecTestSupport {
    static let codec = JPEG2000Codec()
    static let fixtures = "jpeg2000"

    /// `codestream` in a minimal .jp2: signature, ftyp, a jp2h with ihdr and an sRGB colr, then jp2c.
    static func inJP2(_ codestream: [UInt8]) -> [UInt8] {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = payload.count + 8
            return [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                + Array(type.utf8) + payload
        }
        let ihdr = box("ihdr", [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 7, 7, 0, 0])
        let colr = box("colr", [1, 0, 0, 0, 0, 0, 17])
        return [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
            + box("ftyp", Array("jp2 ".utf8) + [0, 0, 0, 0] + Array("jp2 ".utf8))
            + box("jp2h", ihdr + colr) + box("jp2c", codestream)
    }

    /// opj_decompress's decode (PGM or PPM, any depth, brought to 8 bits as the codec does), of the whole
    /// picture or of `area` (full-resolution pixels) at reduction `factor`.
    static func opjReference(_ name: String, factor: Int = 0, area: PixelRegion? = nil, grey: Bool) throws -> RGBImage {
        let output = NSTemporaryDirectory() + "j2k-test-\(UUID().uuidString)" + (grey ? ".pgm" : ".ppm")
        defer { try? FileManager.default.removeItem(atPath: output) }
        var arguments = ["-i", path(name), "-o", output, "-quiet"]
        if factor > 0 { arguments += ["-r", "\(factor)"] }
        if let area { arguments += ["-d", "\(area.x),\(area.y),\(area.x + area.width),\(area.y + area.height)"] }
        _ = try ExternalCommand.output("opj_decompress", arguments)
        let (width, height, pixels) = try PNM.rgb(Fixtures.read(output))
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
