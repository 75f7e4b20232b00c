import Foundation
import ImageCodec
import Imaging
import TestSupport
@testable import WebP

/// Fixtures, reference decodes and byte surgery for the WebP tests.
enum WebPTestSupport: CodecTestSupport {
    static let codec = WebPCodec()
    static let fixtures = "webp"

    /// dwebp's decode of a file (as RGBA, `-pam`), composited over white the way the codec promises.
    static func dwebpReference(_ path: String) throws -> RGBImage {
        let pam = try ExternalCommand.output("dwebp", [path, "-pam", "-o", "-"])
        let (width, height, rgba) = try parsePAM(pam)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            let a = Int(rgba[i * 4 + 3])
            for c in 0..<3 { rgb[i * 3 + c] = UInt8((Int(rgba[i * 4 + c]) * a + 255 * (255 - a) + 127) / 255) }
        }
        return RGBImage(width: width, height: height, pixels: rgb)
    }

    /// A PAM (P7) of RGB_ALPHA tuples, as dwebp writes it.
    static func parsePAM(_ bytes: [UInt8]) throws -> (Int, Int, [UInt8]) {
        let end = Array("ENDHDR\n".utf8)
        guard let headerEnd = (0..<max(0, bytes.count - end.count)).first(where: {
            bytes[$0..<($0 + end.count)].elementsEqual(end)
        }) else { throw MalformedPAM() }
        var fields: [String: Int] = [:]
        for line in String(decoding: bytes[0..<headerEnd], as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        guard let width = fields["WIDTH"], let height = fields["HEIGHT"], fields["DEPTH"] == 4 else {
            throw MalformedPAM()
        }
        let start = headerEnd + end.count
        return (width, height, Array(bytes[start..<(start + width * height * 4)]))
    }

    struct MalformedPAM: Error {}

    /// A temporary file holding `bytes`, removed by the caller.
    static func temporaryFile(_ bytes: [UInt8], suffix: String = ".webp") throws -> String {
        let path = NSTemporaryDirectory() + "webp-test-\(UUID().uuidString)\(suffix)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The pixels of `image` under `rect`.
    static func crop(_ image: RGBImage, _ rect: PixelRegion) -> RGBImage {
        image.cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    /// A photo-sized lossy WebP made with cwebp from a fixture photo scaled to `width` x `height` (kept in the
    /// temporary folder for the rest of the run).
    static func madeLossy(width: Int, height: Int, quality: Int = 85) throws -> String {
        let path = NSTemporaryDirectory() + "webp-test-photo-\(width)x\(height)-q\(quality).webp"
        if FileManager.default.fileExists(atPath: path) { return path }
        let png = NSTemporaryDirectory() + "webp-test-photo-\(width)x\(height)-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: png) }
        _ = try ExternalCommand.output("convert", [Fixtures.path("exif-orientation/Landscape_1.jpg"), "-strip",
                                                   "-resize", "\(width)x\(height)!", png])
        let partial = path + ".part-\(UUID().uuidString)"
        _ = try ExternalCommand.output("cwebp", ["-quiet", "-q", "\(quality)", png, "-o", partial])
        // Tests run in parallel: another may have made the same file meanwhile, which is as good.
        if (try? FileManager.default.moveItem(atPath: partial, toPath: path)) == nil {
            try? FileManager.default.removeItem(atPath: partial)
        }
        return path
    }
}
