import ImageCodec
import Imaging
import TestSupport
@testable import BMP

/// Fixtures (the BMP Suite) and reference decodes for the BMP tests (ImageMagick's: `imageMagickReference`).
enum BMPTestSupport: CodecTestSupport {
    static let codec = BMPCodec()
    static let fixtures = "bmp"
}

extension BMPTestSupport {
    /// netpbm's bmptopnm, a second independent decoder (for files ImageMagick refuses), as RGB.
    static func netpbmReference(_ path: String) throws -> RGBImage {
        let ppm = try ExternalCommand.output("/bin/sh", ["-c", "bmptopnm -quiet \"$0\" | ppmtoppm", path])
        let (width, height, pixels) = try PPM.parse(ppm)
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// A BITMAPINFOHEADER file: `bitCount` 24 (the pixels given as RGB, top row first) or 8 with RLE8 `data`.
    static func make(width: Int, height: Int, rgb: [UInt8]) -> [UInt8] {
        let stride = (width * 3 + 3) & ~3
        var pixels = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                let s = (y * width + x) * 3, d = (height - 1 - y) * stride + x * 3
                pixels[d] = rgb[s + 2]; pixels[d + 1] = rgb[s + 1]; pixels[d + 2] = rgb[s]
            }
        }
        return header(width: width, height: height, bitCount: 24, compression: 0, palette: [], dataSize: pixels.count) + pixels
    }

    /// An RLE8 file of `data` with a palette of `palette` RGB entries.
    static func makeRLE8(width: Int, height: Int, palette: [[UInt8]], data: [UInt8]) -> [UInt8] {
        header(width: width, height: height, bitCount: 8, compression: 1, palette: palette, dataSize: data.count) + data
    }

    static func header(width: Int, height: Int, bitCount: Int, compression: Int, palette: [[UInt8]], dataSize: Int) -> [UInt8] {
        var out: [UInt8] = []
        func u16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: Int) { u16(v & 0xFFFF); u16((v >> 16) & 0xFFFF) }
        let offset = 14 + 40 + palette.count * 4
        out += [0x42, 0x4D]; u32(offset + dataSize); u32(0); u32(offset)
        u32(40); u32(width); u32(height); u16(1); u16(bitCount); u32(compression); u32(dataSize)
        u32(2835); u32(2835); u32(palette.count); u32(0)
        for entry in palette { out += [entry[2], entry[1], entry[0], 0] }
        return out
    }

    static func put32(_ bytes: inout [UInt8], at i: Int, _ value: UInt32) {
        for k in 0..<4 { bytes[i + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
    }
}
