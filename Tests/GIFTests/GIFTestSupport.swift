import ImageCodec
import Imaging
import TestSupport
@testable import GIF

/// Fixtures, reference decodes and a GIF writer for the GIF tests.
enum GIFTestSupport: CodecTestSupport {
    static let codec = GIFCodec()
    static let fixtures = "gif"

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
