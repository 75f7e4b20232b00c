/// Transparency over white paper: what every codec that meets an alpha channel does with it (PNG, HEIF, WebP).
public enum AlphaComposite {
    /// Writes `count` RGBA pixels from `rgba` as RGB into `rgb`, each over white:
    /// `round((c * a + 255 * (255 - a)) / 255)` for a colour sample `c` with alpha `a`, or `min(255, c + 255 - a)`
    /// when the colour is `premultiplied` by its alpha already. The caller owns both ranges (4 and 3 bytes a pixel).
    public static func overWhite(_ rgba: UnsafePointer<UInt8>, into rgb: UnsafeMutablePointer<UInt8>, count: Int,
                                 premultiplied: Bool = false) {
        guarantee(count >= 0, "AlphaComposite of \(count) pixels")
        var s = 0, d = 0
        for _ in 0..<count {
            let a = UInt32(rgba[s + 3])
            if a == 255 {
                rgb[d] = rgba[s]; rgb[d + 1] = rgba[s + 1]; rgb[d + 2] = rgba[s + 2]
            } else if premultiplied {
                // Colour already multiplied by alpha: white shows through by (255 - a).
                let white = 255 - a
                rgb[d] = UInt8(min(255, UInt32(rgba[s]) + white))
                rgb[d + 1] = UInt8(min(255, UInt32(rgba[s + 1]) + white))
                rgb[d + 2] = UInt8(min(255, UInt32(rgba[s + 2]) + white))
            } else {
                // 255 is odd, so the exact quotient is never halfway: adding 127 before dividing rounds.
                let white = 255 * (255 - a) + 127
                rgb[d] = UInt8((UInt32(rgba[s]) * a + white) / 255)
                rgb[d + 1] = UInt8((UInt32(rgba[s + 1]) * a + white) / 255)
                rgb[d + 2] = UInt8((UInt32(rgba[s + 2]) * a + white) / 255)
            }
            s += 4
            d += 3
        }
    }
}
