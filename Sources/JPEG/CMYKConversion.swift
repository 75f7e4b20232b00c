import Colour

/// Converts between 8-bit CMYK samples, as stored in a JPEG, and RGB: through the photo's own ICC profile with
/// Little CMS when it has one, else with the naive device formula R = (1 - C)(1 - K) and so on, as djpeg and
/// ImageMagick do for an untagged file (there is no telling which press an untagged CMYK was separated for).
///
/// Adobe applications write CMYK JPEGs inverted (0 = full ink); libjpeg passes the samples through as stored,
/// and the Adobe APP14 marker is how a reader knows. Non-Adobe CMYK files store plain ink amounts.
enum CMYKConversion {
    /// The conversion into sRGB through `profile`, a CMYK photo's own: nil (the naive formula) without one, or
    /// when Little CMS cannot use it (the probe has already said so for a profile that is not a CMYK one).
    static func throughProfile(_ profile: [UInt8]?, adobeInverted: Bool) -> ConversionToSRGB? {
        profile.flatMap { try? ConversionToSRGB(profile: $0, layout: .cmyk(inverted: adobeInverted)) }
    }

    /// Converts `count` CMYK pixels at `cmyk` into RGB at `rgb`: through `profile` when there is one.
    static func toRGB(_ cmyk: UnsafePointer<UInt8>, count: Int, adobeInverted: Bool, through profile: ConversionToSRGB?,
                      into rgb: UnsafeMutablePointer<UInt8>) {
        if let profile {
            profile.convert(cmyk, into: rgb, pixels: count)
        } else {
            toRGB(cmyk, count: count, adobeInverted: adobeInverted, into: rgb)
        }
    }

    /// `round(a * b / 255)` for bytes, without a division.
    @inline(__always) static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        let t = UInt32(a) * UInt32(b) + 128
        return UInt8((t + (t >> 8)) >> 8)
    }

    /// Converts `count` CMYK pixels from `cmyk` into RGB in `rgb`, starting at byte `offset`: through `profile`
    /// when there is one.
    static func toRGB(_ cmyk: [UInt8], count: Int, adobeInverted: Bool, through profile: ConversionToSRGB? = nil,
                      into rgb: inout [UInt8], at offset: Int) {
        guard count > 0 else { return }
        precondition(cmyk.count >= 4 * count && rgb.count >= offset + 3 * count)
        cmyk.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                toRGB(source.baseAddress!, count: count, adobeInverted: adobeInverted, through: profile,
                      into: target.baseAddress! + offset)
            }
        }
    }

    /// Converts `count` CMYK pixels at `cmyk` into RGB at `rgb` (one row of a band, for cropped decodes).
    static func toRGB(_ cmyk: UnsafePointer<UInt8>, count: Int, adobeInverted: Bool,
                      into rgb: UnsafeMutablePointer<UInt8>) {
        var s = 0, t = 0
        for _ in 0..<count {
            var c = cmyk[s], m = cmyk[s + 1], y = cmyk[s + 2], k = cmyk[s + 3]
            if !adobeInverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
            // Now every sample is "paper left": 255 means no ink.
            rgb[t] = multiply(c, k)
            rgb[t + 1] = multiply(m, k)
            rgb[t + 2] = multiply(y, k)
            s += 4
            t += 3
        }
    }

    /// The Adobe-inverted CMYK that `toRGB(adobeInverted: true)` turns back into these RGB pixels
    /// (full grey component replacement: K carries the darkness, the inks only the colour).
    static func toAdobeCMYK(_ rgb: UnsafeBufferPointer<UInt8>, count: Int, into cmyk: inout [UInt8]) {
        cmyk.withUnsafeMutableBufferPointer { target in
            var s = 0, t = 0
            for _ in 0..<count {
                let r = rgb[s], g = rgb[s + 1], b = rgb[s + 2]
                let brightest = max(r, g, b)
                if brightest == 0 {
                    target[t] = 255; target[t + 1] = 255; target[t + 2] = 255; target[t + 3] = 0
                } else {
                    let scale = UInt32(brightest)
                    target[t] = UInt8((UInt32(r) * 255 + scale / 2) / scale)
                    target[t + 1] = UInt8((UInt32(g) * 255 + scale / 2) / scale)
                    target[t + 2] = UInt8((UInt32(b) * 255 + scale / 2) / scale)
                    target[t + 3] = brightest
                }
                s += 3
                t += 4
            }
        }
    }
}
