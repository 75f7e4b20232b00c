import Colour
import CTIFF
import ImageCodec

/// Turns rows of a page's stored samples (1 to 16 bits; grey, RGB, palette or CMYK; chunky or one
/// plane per sample; an alpha sample or not) into 8-bit RGB, alpha composited over white.
///
/// Two steps a row: every sample is unpacked to 8 bits (scaled: a 16-bit 65535 is 255, a 4-bit 15 is 255,
/// palette indices stay indices), then the pixel's colour is made from them. One converter serves one decode.
final class TIFFRowConverter {
    enum Colour {
        case grey(minIsWhite: Bool)
        case rgb
        /// Three bytes a palette entry.
        case palette([UInt8])
        /// Through the picture's ICC profile when it has one (Little CMS), else the naive device formula.
        case cmyk(ConversionToSRGB?)
    }

    /// The page's samples as stored; with an alpha sample, the last sample unpacked is alpha, premultiplied
    /// into the colour or not.
    let format: TIFFPage.PixelFormat
    /// The samples read of a stored pixel's: the colour samples, then alpha (a file may declare thousands of
    /// extra samples; only these cost anything).
    let used: [Int]
    let colour: Colour
    /// `used.count` 8-bit values a pixel, for the widest row converted.
    private var unpacked: [UInt8]
    /// Four bytes a pixel when CMYK comes with extra samples that Little CMS must not see.
    private var inks: [UInt8]
    /// 2^bits entries: a stored value scaled to 0...255 (for 1, 2 and 4 bits).
    private let scaleTable: [UInt8]

    /// Whether this converter takes a page of this format as libtiff hands its samples out; otherwise libtiff's
    /// RGBA reader must. `jpegAsRGB`: libtiff's JPEG codec has been told to turn YCbCr into RGB.
    static func handles(_ format: TIFFPage.PixelFormat, jpegAsRGB: Bool) -> Bool {
        guard format.sampleFormat == SAMPLEFORMAT_UINT || format.sampleFormat == SAMPLEFORMAT_VOID else { return false }
        let bits = format.bitsPerSample, samples = format.samplesPerPixel
        let colourSamples = samples - (format.alpha == nil ? 0 : 1)
        switch Int32(format.photometric) {
        case PHOTOMETRIC_MINISBLACK, PHOTOMETRIC_MINISWHITE:
            return (1...16).contains(bits) && samples >= 1
        case PHOTOMETRIC_RGB:
            // libtiff's RGBA reader takes only 8 and 16 bits of RGB: 2, 4, 10, 12 or 14 bits are read here.
            return (1...16).contains(bits) && colourSamples >= 3
        case PHOTOMETRIC_YCBCR:
            return jpegAsRGB && bits == 8 && samples >= 3
        case PHOTOMETRIC_PALETTE:
            return [1, 2, 4, 8].contains(bits) && samples >= 1
        case PHOTOMETRIC_SEPARATED:
            return format.isCMYK && (1...16).contains(bits) && colourSamples == 4
        default:
            return false
        }
    }

    /// A converter for rows of up to `maxWidth` pixels of the current page of `file`, whose format is `format`
    /// (which `handles` takes).
    init(format: TIFFPage.PixelFormat, file: TIFFFile, profile: [UInt8]?, maxWidth: Int) throws(CodecError) {
        self.format = format
        let bits = format.bitsPerSample
        switch Int32(format.photometric) {
        case PHOTOMETRIC_MINISBLACK, PHOTOMETRIC_MINISWHITE:
            colour = .grey(minIsWhite: format.photometric == PHOTOMETRIC_MINISWHITE)
        case PHOTOMETRIC_PALETTE:
            guard let map = file.colorMap(entries: 1 << bits) else {
                throw .corrupt("corrupt TIFF (a palette picture without a colour map)")
            }
            // Some old writers put 8-bit values in the 16-bit map; libtiff's RGBA reader guesses the same way.
            let eightBit = (map.red + map.green + map.blue).allSatisfy { $0 < 256 }
            func scale(_ value: UInt16) -> UInt8 { eightBit ? UInt8(value) : UInt8((UInt32(value) + 128) / 257) }
            var table = [UInt8](repeating: 0, count: 3 << bits)
            for entry in 0..<(1 << bits) {
                table[entry * 3] = scale(map.red[entry])
                table[entry * 3 + 1] = scale(map.green[entry])
                table[entry * 3 + 2] = scale(map.blue[entry])
            }
            colour = .palette(table)
        case PHOTOMETRIC_SEPARATED:
            // A profile Little CMS cannot use still leaves a CMYK picture worth printing: the naive formula.
            colour = .cmyk(profile.flatMap { try? ConversionToSRGB(profile: $0, layout: .cmyk(inverted: false)) })
        default:
            colour = .rgb
        }
        let colourCount: Int
        switch colour {
        case .grey, .palette: colourCount = 1
        case .rgb: colourCount = 3
        case .cmyk: colourCount = 4
        }
        used = Array(0..<colourCount) + (format.alpha.map { [$0.index] } ?? [])
        let (count, overflow) = maxWidth.multipliedReportingOverflow(by: used.count)
        guard !overflow, count <= TIFFFile.maxSingleAllocation else {
            throw .unsupported("unsupported TIFF (rows of \(maxWidth) pixels)")
        }
        unpacked = [UInt8](repeating: 0, count: count)
        inks = format.isCMYK && used.count != 4 ? [UInt8](repeating: 0, count: maxWidth * 4) : []
        let top = (1 << min(bits, 8)) - 1
        if bits > 8 || 8 % bits != 0 {
            scaleTable = []
        } else if case .palette = colour {
            scaleTable = (0...top).map { UInt8($0) }
        } else {
            scaleTable = (0...top).map { UInt8(($0 * 255 + top / 2) / top) }
        }
    }

    /// Converts `count` pixels from pixel `first` of one row into `rgb` (3 bytes a pixel). `planes` holds the
    /// row's start: one pointer for chunky samples; for planar ones, one for each sample of `used`, in its order.
    func convert(planes: UnsafeBufferPointer<UnsafeRawPointer>, first: Int, count: Int,
                 into rgb: UnsafeMutablePointer<UInt8>) {
        let stride = used.count, samples = format.samplesPerPixel, bits = format.bitsPerSample
        let isPlanar = format.isPlanar
        precondition(count * stride <= unpacked.count, "row wider than the converter was made for")
        unpacked.withUnsafeMutableBufferPointer { out in
            for (slot, sample) in used.enumerated() {
                let plane = planes[isPlanar ? slot : 0]
                let step = isPlanar ? 1 : samples, offset = isPlanar ? 0 : sample
                var e = first * step + offset
                var o = slot
                switch bits {
                case 8:
                    let bytes = plane.assumingMemoryBound(to: UInt8.self)
                    for _ in 0..<count { out[o] = bytes[e]; e += step; o += stride }
                case 16:
                    for _ in 0..<count {
                        let value = UInt32(plane.loadUnaligned(fromByteOffset: e * 2, as: UInt16.self))
                        out[o] = UInt8((value + 128) / 257)
                        e += step; o += stride
                    }
                case 1, 2, 4:
                    let bytes = plane.assumingMemoryBound(to: UInt8.self)
                    let mask = (1 << bits) - 1
                    scaleTable.withUnsafeBufferPointer { table in
                        for _ in 0..<count {
                            let bit = e * bits
                            let value = Int(bytes[bit >> 3]) >> (8 - bits - (bit & 7)) & mask
                            out[o] = table[value]
                            e += step; o += stride
                        }
                    }
                default:
                    // 3, 5...7 and 9...15 bits: packed most significant bit first across bytes, never swapped
                    // by libtiff (it swaps 16-bit samples only). Only the bytes a sample touches are read.
                    let bytes = plane.assumingMemoryBound(to: UInt8.self)
                    let top = (1 << bits) - 1
                    for _ in 0..<count {
                        let bit = e * bits, first = bit >> 3, used = (bit & 7) + bits
                        var window = 0
                        for i in 0..<((used + 7) >> 3) { window = window << 8 | Int(bytes[first + i]) }
                        let value = window >> (((used + 7) >> 3) * 8 - used) & top
                        out[o] = UInt8((value * 255 + top / 2) / top)
                        e += step; o += stride
                    }
                }
            }
            colourise(out, count: count, into: rgb)
        }
    }

    private func colourise(_ u: UnsafeMutableBufferPointer<UInt8>, count: Int, into rgb: UnsafeMutablePointer<UInt8>) {
        let samples = used.count
        switch colour {
        case .grey(let minIsWhite):
            var s = 0, d = 0
            for _ in 0..<count {
                let g = minIsWhite ? 255 - u[s] : u[s]
                rgb[d] = g; rgb[d + 1] = g; rgb[d + 2] = g
                s += samples; d += 3
            }
        case .rgb:
            var s = 0, d = 0
            for _ in 0..<count {
                rgb[d] = u[s]; rgb[d + 1] = u[s + 1]; rgb[d + 2] = u[s + 2]
                s += samples; d += 3
            }
        case .palette(let table):
            table.withUnsafeBufferPointer { table in
                let top = table.count / 3 - 1
                var s = 0, d = 0
                for _ in 0..<count {
                    let entry = min(Int(u[s]), top) * 3
                    rgb[d] = table[entry]; rgb[d + 1] = table[entry + 1]; rgb[d + 2] = table[entry + 2]
                    s += samples; d += 3
                }
            }
        case .cmyk(let conversion):
            if samples == 4 {
                Self.cmykToRGB(UnsafePointer(u.baseAddress!), count: count, conversion: conversion, into: rgb)
            } else {
                inks.withUnsafeMutableBufferPointer { inks in
                    for i in 0..<count {
                        for c in 0..<4 { inks[i * 4 + c] = u[i * samples + c] }
                    }
                    Self.cmykToRGB(UnsafePointer(inks.baseAddress!), count: count, conversion: conversion, into: rgb)
                }
            }
        }
        if let alpha = format.alpha {
            var s = samples - 1, d = 0
            for _ in 0..<count {
                let a = UInt32(u[s])
                if a != 255 {
                    for c in 0..<3 {
                        let value = UInt32(rgb[d + c])
                        // Premultiplied colour only needs the white that shows through added.
                        rgb[d + c] = alpha.associated ? UInt8(min(255, value + 255 - a))
                                                      : UInt8((value * a + 255 * (255 - a) + 127) / 255)
                    }
                }
                s += samples; d += 3
            }
        }
    }

    private static func cmykToRGB(_ source: UnsafePointer<UInt8>, count: Int, conversion: ConversionToSRGB?,
                                  into rgb: UnsafeMutablePointer<UInt8>) {
        if let conversion {
            conversion.convert(source, into: rgb, pixels: count)
            return
        }
        // TIFF stores ink amounts (255 = full ink): R = (1 - C)(1 - K), as libtiff's RGBA reader does.
        var s = 0, d = 0
        for _ in 0..<count {
            let k = 255 - UInt32(source[s + 3])
            rgb[d] = UInt8(((255 - UInt32(source[s])) * k + 127) / 255)
            rgb[d + 1] = UInt8(((255 - UInt32(source[s + 1])) * k + 127) / 255)
            rgb[d + 2] = UInt8(((255 - UInt32(source[s + 2])) * k + 127) / 255)
            s += 4; d += 3
        }
    }

    /// Converts `count` of libtiff's RGBA pixels (ABGR in a 32-bit word, colour premultiplied by alpha, as
    /// `TIFFReadRGBAStrip` gives them) into RGB over white.
    static func convertRGBA(_ raster: UnsafePointer<UInt32>, count: Int, into rgb: UnsafeMutablePointer<UInt8>) {
        var d = 0
        for i in 0..<count {
            let pixel = raster[i]
            let white = 255 - (pixel >> 24)
            rgb[d] = UInt8(min(255, (pixel & 0xFF) + white))
            rgb[d + 1] = UInt8(min(255, (pixel >> 8 & 0xFF) + white))
            rgb[d + 2] = UInt8(min(255, (pixel >> 16 & 0xFF) + white))
            d += 3
        }
    }
}
