import ImageCodec
import Imaging
import TestSupport
@testable import GIF

/// Fixtures, reference decodes and a GIF writer for the GIF tests.
enum GIFTestSupport {
    static let codec = GIFCodec()

    static func path(_ name: String) -> String { Fixtures.path("gif/" + name) }
    static func bytes(_ name: String) throws -> [UInt8] { try Fixtures.bytes("gif/" + name) }

    static func probe(_ bytes: [UInt8]) throws(CodecError) -> ImageHeader {
        let headers = try codec.probe(MemorySource(bytes))
        guard headers.count == 1 else { throw .internalError("\(headers.count) headers") }
        return headers[0]
    }

    static func decodeWhole(_ bytes: [UInt8], maxPixels: Int = 100_000_000, pool: BufferPool = BufferPool(),
                            shouldCancel: () -> Bool = { false }) throws(CodecError) -> DecodedImage {
        let header = try probe(bytes)
        return try codec.decode(MemorySource(bytes), .whole(width: header.width, height: header.height,
                                                             maxPixels: maxPixels),
                                pool: pool, shouldCancel: shouldCancel)
    }

    static func decode(_ bytes: [UInt8], region: PixelRegion, minimumWidth: Int, minimumHeight: Int,
                       pool: BufferPool = BufferPool()) throws(CodecError) -> DecodedImage {
        try codec.decode(MemorySource(bytes), DecodeRequest(region: region, minimumWidth: minimumWidth,
                                                            minimumHeight: minimumHeight, maxPixels: 100_000_000),
                         pool: pool, shouldCancel: { false })
    }

    /// Where the first record after the screen descriptor and its colour table starts.
    static func firstRecord(_ bytes: [UInt8]) -> Int {
        13 + (bytes[10] & 0x80 != 0 ? 3 << (Int(bytes[10] & 7) + 1) : 0)
    }

    /// Where the first image descriptor starts (after the extensions before it).
    static func firstImage(_ bytes: [UInt8]) -> Int {
        var at = firstRecord(bytes)
        while bytes[at] == 0x21 {
            at += 2
            while bytes[at] != 0 { at += Int(bytes[at]) + 1 }
            at += 1
        }
        precondition(bytes[at] == 0x2C, "no image descriptor at \(at)")
        return at
    }

    /// ImageMagick's first frame of `path`, flattened onto its screen over white: the independent decoder.
    static func reference(_ path: String) throws -> RGBImage {
        let ppm = try ExternalCommand.output("/usr/bin/convert", [path + "[0]", "-background", "white", "-flatten",
                                                                  "-depth", "8", "ppm:-"])
        let (width, height, pixels) = try PPM.parse(ppm)
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// A GIF89a of one frame, written with a clear code before every pixel so that the LZW codes keep
    /// `minimumCodeSize + 1` bits: any index, even one past the colour table, can be stored.
    static func make(screenWidth: Int, screenHeight: Int, frame: PixelRegion, colors: [[UInt8]], indices: [UInt8],
                     minimumCodeSize: Int = 8, transparent: UInt8? = nil, frames: Int = 1) -> [UInt8] {
        var out = Array("GIF89a".utf8)
        func word(_ v: Int) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        var tableBits = 1
        while 1 << tableBits < colors.count { tableBits += 1 }
        word(screenWidth); word(screenHeight)
        out += [0x80 | UInt8(tableBits - 1), 0, 0]
        for i in 0..<(1 << tableBits) { out += i < colors.count ? colors[i] : [0, 0, 0] }
        for _ in 0..<frames {
            if let transparent { out += [0x21, 0xF9, 4, 1, 0, 0, transparent, 0] }
            out.append(0x2C)
            word(frame.x); word(frame.y); word(frame.width); word(frame.height)
            out.append(0)
            out.append(UInt8(minimumCodeSize))
            let clear = 1 << minimumCodeSize, width = minimumCodeSize + 1
            var data: [UInt8] = [], accumulator = 0, bits = 0
            func code(_ c: Int) {
                accumulator |= c << bits
                bits += width
                while bits >= 8 { data.append(UInt8(accumulator & 0xFF)); accumulator >>= 8; bits -= 8 }
            }
            for index in indices { code(clear); code(Int(index)) }
            code(clear + 1)
            if bits > 0 { data.append(UInt8(accumulator & 0xFF)) }
            var at = 0
            while at < data.count {
                let n = min(255, data.count - at)
                out.append(UInt8(n))
                out += data[at..<(at + n)]
                at += n
            }
            out.append(0)
        }
        out.append(0x3B)
        return out
    }
}
