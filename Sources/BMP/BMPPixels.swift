/// Turns stored BMP rows into 8-bit RGB: palette indices of 1, 2, 4 and 8 bits, 24-bit BGR, and 16- and 32-bit
/// pixels through their masks (each colour scaled from its own number of bits to 8), alpha over white.
struct BMPPixels {
    let bitCount: Int
    let palette: [UInt8]
    private let channels: [Channel]
    /// The alpha mask is used: the file declares one and some pixel's alpha is not zero.
    let usesAlpha: Bool
    private let isDefault32: Bool

    /// One colour of a masked pixel: its bits and the scale from them to 0...255.
    struct Channel {
        let mask: UInt32, shift: UInt32, maximum: UInt32
        init(_ mask: UInt32) {
            self.mask = mask
            shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
            maximum = mask == 0 ? 0 : mask >> shift
        }
        @inline(__always) func value(_ pixel: UInt32) -> UInt8 {
            guard maximum != 0 else { return 0 }
            let v = UInt64((pixel & mask) >> shift)
            return maximum == 255 ? UInt8(v) : UInt8((v * 255 + UInt64(maximum) / 2) / UInt64(maximum))
        }
    }

    init(_ format: BMPHeader.PixelFormat, usesAlpha: Bool) {
        bitCount = format.bitCount
        palette = format.palette
        channels = format.masks.map(Channel.init)
        self.usesAlpha = usesAlpha && format.hasAlpha
        isDefault32 = format.bitCount == 32 && format.masks[0] == 0xFF_0000 && format.masks[1] == 0xFF00
            && format.masks[2] == 0xFF && !self.usesAlpha
    }

    /// True when some pixel of `row` (a stored row of `width` pixels) has an alpha other than zero.
    func hasNonZeroAlpha(_ row: UnsafeBufferPointer<UInt8>, width: Int) -> Bool {
        let alpha = channels[3]
        guard alpha.maximum != 0 else { return false }
        for x in 0..<width where alpha.value(pixel(row, x)) != 0 { return true }
        return false
    }

    @inline(__always) private func pixel(_ row: UnsafeBufferPointer<UInt8>, _ x: Int) -> UInt32 {
        if bitCount == 16 { return UInt32(row[x * 2]) | UInt32(row[x * 2 + 1]) << 8 }
        let i = x * 4
        return UInt32(row[i]) | UInt32(row[i + 1]) << 8 | UInt32(row[i + 2]) << 16 | UInt32(row[i + 3]) << 24
    }

    /// Writes pixels `x ..< x + count` of the stored row `row` as RGB into `out`.
    func convert(_ row: UnsafeBufferPointer<UInt8>, from x: Int, count: Int, into out: UnsafeMutableBufferPointer<UInt8>) {
        switch bitCount {
        case 1, 2, 4, 8:
            let bits = bitCount, mask = (1 << bits) - 1
            for i in 0..<count {
                let bit = (x + i) * bits
                let index = Int(row[bit >> 3] >> UInt8(8 - bits - (bit & 7))) & mask
                out[i * 3] = palette[index * 3]; out[i * 3 + 1] = palette[index * 3 + 1]; out[i * 3 + 2] = palette[index * 3 + 2]
            }
        case 24:
            for i in 0..<count {
                let s = (x + i) * 3
                out[i * 3] = row[s + 2]; out[i * 3 + 1] = row[s + 1]; out[i * 3 + 2] = row[s]
            }
        default:
            if isDefault32 {
                for i in 0..<count {
                    let s = (x + i) * 4
                    out[i * 3] = row[s + 2]; out[i * 3 + 1] = row[s + 1]; out[i * 3 + 2] = row[s]
                }
                return
            }
            let (red, green, blue, alpha) = (channels[0], channels[1], channels[2], channels[3])
            for i in 0..<count {
                let p = pixel(row, x + i)
                var r = UInt32(red.value(p)), g = UInt32(green.value(p)), b = UInt32(blue.value(p))
                if usesAlpha {
                    let a = UInt32(alpha.value(p)), white = 255 * (255 - a) + 127
                    r = (r * a + white) / 255; g = (g * a + white) / 255; b = (b * a + white) / 255
                }
                out[i * 3] = UInt8(r); out[i * 3 + 1] = UInt8(g); out[i * 3 + 2] = UInt8(b)
            }
        }
    }
}
