import Foundation
import HEIF
import ImageCodec
import Imaging
import TestSupport

/// The committed HEIC and AVIF fixtures (Fixtures/heif/README.md says how each was made) and what the tests
/// need around them: whole decodes, and the reference pixels of another decoder.
enum HEIFFixtures {
    static let codec = HEIFCodec()

    static func bytes(_ name: String) throws -> [UInt8] { try Fixtures.bytes("heif/" + name) }
    static func source(_ name: String) throws -> MemorySource { MemorySource(try bytes(name)) }

    /// The whole primary image at full size.
    static func decodeWhole(_ bytes: [UInt8], maxPixels: Int = 1 << 24) throws -> DecodedImage {
        let source = MemorySource(bytes)
        let header = try codec.probe(source)[0]
        return try codec.decode(source, .whole(width: header.width, height: header.height, maxPixels: maxPixels),
                                pool: BufferPool(), shouldCancel: { false })
    }

    /// The picture as libheif's own heif-convert writes it to PNG, read by Pillow, alpha composited over white
    /// with the rounding photobook uses: `round((c * a + 255 * (255 - a)) / 255)`.
    static func reference(_ name: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        try reference(path: Fixtures.path("heif/" + name))
    }

    /// The picture of the HEIF file at `path`, as `reference(_:)` makes it.
    static func reference(path: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("heif-ref-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("out.png").path
        _ = try ExternalCommand.output("heif-convert", ["--quiet", path, png])
        return try PPM.parse(try ExternalCommand.output("/usr/bin/python3", ["-c", pillowToPPM, png]))
    }

    /// A picture file (PNG, JPEG) read by Pillow, turned upright by its EXIF Orientation when `upright`.
    static func pillow(_ path: String, upright: Bool = false) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        try PPM.parse(try ExternalCommand.output("/usr/bin/python3", ["-c", pillowToPPM, path, upright ? "upright" : ""]))
    }

    private static let pillowToPPM = """
        import sys
        from PIL import Image, ImageOps
        im = Image.open(sys.argv[1])
        if len(sys.argv) > 2 and sys.argv[2] == "upright":
            im = ImageOps.exif_transpose(im)
        if im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info:
            rgba = im.convert("RGBA").tobytes()
            out = bytearray(len(rgba) // 4 * 3)
            for i in range(len(rgba) // 4):
                a = rgba[4 * i + 3]
                for c in range(3):
                    out[3 * i + c] = (rgba[4 * i + c] * a + 255 * (255 - a) + 127) // 255
        else:
            out = im.convert("RGB").tobytes()
        sys.stdout.buffer.write(b"P6\\n%d %d\\n255\\n" % im.size + bytes(out))
        """

    /// `pixels` (RGB, `width` wide) under `region`, each output pixel the rounded mean of a `factor` box: what
    /// `BoxShrink` promises, computed the slow way.
    static func boxShrunk(_ pixels: [UInt8], width: Int, region: PixelRegion, factor: Int) -> [UInt8] {
        let outWidth = (region.width + factor - 1) / factor, outHeight = (region.height + factor - 1) / factor
        var out = [UInt8]()
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                for c in 0..<3 {
                    var sum = 0, count = 0
                    for y in (oy * factor)..<min(region.height, (oy + 1) * factor) {
                        for x in (ox * factor)..<min(region.width, (ox + 1) * factor) {
                            sum += Int(pixels[((region.y + y) * width + region.x + x) * 3 + c])
                            count += 1
                        }
                    }
                    out.append(UInt8((sum + count / 2) / count))
                }
            }
        }
        return out
    }

    /// The value of the EXIF Orientation tag (0x0112) in IFD0 of a TIFF structure; nil when there is none.
    static func exifOrientation(_ tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little = tiff[0] == 0x49
        func u16(_ i: Int) -> Int { little ? Int(tiff[i]) | Int(tiff[i + 1]) << 8 : Int(tiff[i]) << 8 | Int(tiff[i + 1]) }
        func u32(_ i: Int) -> Int { little ? u16(i) | u16(i + 2) << 16 : u16(i) << 16 | u16(i + 2) }
        let ifd = u32(4)
        guard ifd + 2 <= tiff.count else { return nil }
        for entry in 0..<u16(ifd) {
            let at = ifd + 2 + entry * 12
            guard at + 12 <= tiff.count else { return nil }
            if u16(at) == 0x0112 { return u16(at + 8) }
        }
        return nil
    }
}
