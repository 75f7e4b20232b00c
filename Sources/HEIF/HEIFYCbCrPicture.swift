import CHEIFDecoders

/// One decoded YCbCr picture of 8, 10 or 12 bits, kept as the HEVC or AV1 decoder's own planes and turned into
/// 8-bit RGB a row at a time as it is copied out, with libheif 1.15's arithmetic to the last bit; `deinit`
/// releases the planes.
///
/// Why: for an image it would only convert, libheif 1.15 copies the decoder's picture (1.5 bytes a pixel for
/// 4:2:0, 3 above 8 bits) and converts the copy to planar RGB (3 bytes a pixel, 6 above 8 bits) while the copy is
/// alive: 54 MB held at once for 12 megapixels, 180 MB for a 20-megapixel 10-bit AVIF, per worker, where this
/// holds the decoder's planes (18 MB, 60 MB). Only such an image comes here (HEIFDecodeJob: one coded picture,
/// no grid, alpha, irot, imir or clap); libheif does everything for the rest. The conversion is libheif's
/// `Op_YCbCr_to_RGB<Pixel>` (heif_colorconversion.cc) with its coefficients (nclx.cc): nearest chroma sample, no
/// filter, at the samples' own depth, clipped to it; then, above 8 bits, `>> (bits - 8)` as HEIFPicture brings
/// libheif's deep RGB to 8 bits. The matrix and range are the file's `colr` nclx when it has one, else the
/// bitstream's, as libheif takes them. `HEIFDecoderPluginTests` compares the pictures with heif-convert's and
/// with libheif's own conversion.
final class HEIFYCbCrPicture: HEIFRows {
    private var planes: pbheif_planes
    let width: Int, height: Int
    private let conversion: Conversion

    /// Takes ownership of `planes`, converted with `nclx` (matrix, primaries, full range) when the file has one.
    init(_ planes: pbheif_planes, nclx: (matrix: Int, primaries: Int, fullRange: Bool)?) {
        self.planes = planes
        width = Int(planes.width)
        height = Int(planes.height)
        let codes = nclx ?? (Int(planes.matrix_coefficients), Int(planes.color_primaries), planes.full_range != 0)
        conversion = Conversion(matrix: codes.matrix, primaries: codes.primaries, fullRange: codes.fullRange,
                                bits: Int(planes.bits))
    }

    deinit { pbheif_release_planes(&planes) }

    /// Bits a sample: 8, 10 or 12.
    var bits: Int { conversion.bits }

    func row(_ y: Int, from x: Int, count: Int, into rgb: UnsafeMutableBufferPointer<UInt8>) {
        precondition(y >= 0 && y < height && x >= 0 && x + count <= width && rgb.count >= count * 3,
                     "HEIF row out of range")
        let shiftX = Int(planes.chroma_shift_x), shiftY = Int(planes.chroma_shift_y)
        let luma = UnsafeRawPointer(planes.data.0! + y * Int(planes.stride.0))
        let cb = UnsafeRawPointer(planes.data.1! + (y >> shiftY) * Int(planes.stride.1))
        let cr = UnsafeRawPointer(planes.data.2! + (y >> shiftY) * Int(planes.stride.2))
        if conversion.bits == 8 {
            conversion.convert(luma: luma.assumingMemoryBound(to: UInt8.self), cb: cb.assumingMemoryBound(to: UInt8.self),
                               cr: cr.assumingMemoryBound(to: UInt8.self), shiftX: shiftX, from: x, count: count,
                               into: rgb.baseAddress!)
        } else {
            // Trap: above 8 bits dav1d and libavcodec give native 16-bit words (little-endian here; HEVC's big-endian
            // formats are never kept), their rows `stride` bytes apart.
            conversion.convert(luma: luma.assumingMemoryBound(to: UInt16.self), cb: cb.assumingMemoryBound(to: UInt16.self),
                               cr: cr.assumingMemoryBound(to: UInt16.self), shiftX: shiftX, from: x, count: count,
                               into: rgb.baseAddress!)
        }
    }

    /// libheif 1.15.1's YCbCr to RGB (Debian 12's), as tables of the very products it computes for each sample value, and its
    /// clipping to the samples' depth; the result brought to 8 bits.
    struct Conversion {
        enum Kind { case identity, yCgCo, matrix }
        let kind: Kind
        let fullRange: Bool
        /// 8, 10 or 12.
        let bits: Int
        /// By sample value: Y as libheif scales it, and each chroma coefficient times the scaled chroma sample.
        private var y: [Float], rCr: [Float], gCb: [Float], gCr: [Float], bCb: [Float]

        init(matrix: Int, primaries: Int, fullRange: Bool, bits: Int = 8) {
            self.fullRange = fullRange
            self.bits = [8, 10, 12].contains(bits) ? bits : 8
            kind = matrix == 0 ? .identity : matrix == 8 ? .yCgCo : .matrix
            let k = Self.coefficients(matrix: matrix, primaries: primaries)
            let values = 1 << self.bits, half = values / 2
            (y, rCr, gCb, gCr, bCb) = ([], [], [], [], [])
            for v in 0..<values {
                // libheif 1.15.1's limited range: its black (16 << (bits - 8)) taken off, its scale by 1.1689 and
                // 1.1429 whatever the depth.
                var luma = Float(v), chroma = Float(v - half)
                if !fullRange {
                    luma = (luma - Float(16 << (self.bits - 8))) * 1.1689
                    chroma = chroma * 1.1429
                }
                y.append(luma)
                rCr.append(k.rCr * chroma)
                gCb.append(k.gCb * chroma)
                gCr.append(k.gCr * chroma)
                bCb.append(k.bCb * chroma)
            }
        }

        func convert<Sample: FixedWidthInteger & UnsignedInteger>(
            luma: UnsafePointer<Sample>, cb: UnsafePointer<Sample>, cr: UnsafePointer<Sample>, shiftX: Int,
            from x: Int, count: Int, into out: UnsafeMutablePointer<UInt8>) {
            let top = (1 << bits) - 1, shift = bits - 8
            // A sample beyond the depth (a decoder never gives one) is read as the largest.
            func at(_ plane: UnsafePointer<Sample>, _ index: Int) -> Int { min(Int(plane[index]), top) }
            switch kind {
            case .identity:
                // libheif's GBR: limited range scaled down once more (its `(v * 219 + 128) >> 8) + 16`).
                for i in 0..<count {
                    let c = (x + i) >> shiftX
                    out[3 * i] = scaled(at(cr, c), shift)
                    out[3 * i + 1] = scaled(at(luma, x + i), shift)
                    out[3 * i + 2] = scaled(at(cb, c), shift)
                }
            case .yCgCo:
                // libheif clips to 8 bits whatever the depth (`clip_int_u8`), then the depth is brought down.
                let half = 1 << (bits - 1)
                for i in 0..<count {
                    let c = (x + i) >> shiftX
                    let yv = at(luma, x + i), u = at(cb, c) - half, v = at(cr, c) - half
                    out[3 * i] = Self.clip(yv - u + v) >> shift
                    out[3 * i + 1] = Self.clip(yv + u) >> shift
                    out[3 * i + 2] = Self.clip(yv - u - v) >> shift
                }
            case .matrix:
                y.withUnsafeBufferPointer { y in
                rCr.withUnsafeBufferPointer { rCr in
                gCb.withUnsafeBufferPointer { gCb in
                gCr.withUnsafeBufferPointer { gCr in
                bCb.withUnsafeBufferPointer { bCb in
                    for i in 0..<count {
                        let c = (x + i) >> shiftX
                        let yv = y[at(luma, x + i)], u = at(cb, c), v = at(cr, c)
                        out[3 * i] = Self.round(yv + rCr[v], top: top, shift: shift)
                        out[3 * i + 1] = Self.round(yv + gCb[u] + gCr[v], top: top, shift: shift)
                        out[3 * i + 2] = Self.round(yv + bCb[u], top: top, shift: shift)
                    }
                }}}}}
            }
        }

        private func scaled(_ v: Int, _ shift: Int) -> UInt8 {
            UInt8(truncatingIfNeeded: (fullRange ? v : ((v * 219 + 128) >> 8) + (16 << shift)) >> shift)
        }

        private static func clip(_ v: Int) -> UInt8 { UInt8(clamping: v) }

        /// libheif's `clip_f_u16(f, top)`: `(long)(f + 0.5f)`, truncated towards zero, clipped to 0...top; then
        /// brought to 8 bits.
        private static func round(_ f: Float, top: Int, shift: Int) -> UInt8 {
            UInt8(truncatingIfNeeded: min(max(Int(f + 0.5), 0), top) >> shift)
        }

        /// libheif 1.15's `get_YCbCr_to_RGB_coefficients`: from Kr and Kb, or its defaults (BT.601) when the
        /// matrix gives none.
        static func coefficients(matrix: Int, primaries: Int) -> (rCr: Float, gCb: Float, gCr: Float, bCb: Float) {
            let (kr, kb) = krKb(matrix: matrix, primaries: primaries)
            guard kr != 0 || kb != 0 else { return (1.402, -0.344136, -0.714136, 1.772) }
            return (2 * (-kr + 1), 2 * kb * (-kb + 1) / (kb + kr - 1), 2 * kr * (-kr + 1) / (kb + kr - 1), 2 * (-kb + 1))
        }

        /// libheif 1.15's `get_Kr_Kb`: fixed for matrices 1, 4, 5, 6, 7, 9 and 10, derived from the primaries
        /// for 12 and 13 (chromaticity-derived), 0 and 0 for every other.
        static func krKb(matrix: Int, primaries: Int) -> (Float, Float) {
            switch matrix {
            case 12, 13:
                guard let p = Self.primaries[primaries] else { return (0, 0) }
                let (rx, ry, gx, gy, bx, by, wx, wy) = (p[4], p[5], p[0], p[1], p[2], p[3], p[6], p[7])
                let zr = 1 - (rx + ry), zg = 1 - (gx + gy), zb = 1 - (bx + by), zw = 1 - (wx + wy)
                let denom = wy * (rx * (gy * zb - by * zg) + gx * (by * zr - ry * zb) + bx * (ry * zg - gy * zr))
                guard denom != 0 else { return (0, 0) }
                let kr = (ry * (wx * (gy * zb - by * zg) + wy * (bx * zg - gx * zb) + zw * (gx * by - bx * gy))) / denom
                let kb = (by * (wx * (ry * zg - gy * zr) + wy * (gx * zr - rx * zg) + zw * (rx * gy - gx * ry))) / denom
                return (kr, kb)
            case 1: return (0.2126, 0.0722)
            case 4: return (0.30, 0.11)
            case 5, 6: return (0.299, 0.114)
            case 7: return (0.212, 0.087)
            case 9, 10: return (0.2627, 0.0593)
            default: return (0, 0)
            }
        }

        /// libheif 1.15's `get_colour_primaries`, in its order: green x, y, blue x, y, red x, y, white x, y.
        static let primaries: [Int: [Float]] = [
            1: [0.300, 0.600, 0.150, 0.060, 0.640, 0.330, 0.3127, 0.3290],
            4: [0.21, 0.71, 0.14, 0.08, 0.67, 0.33, 0.310, 0.316],
            5: [0.29, 0.60, 0.15, 0.06, 0.64, 0.33, 0.3127, 0.3290],
            6: [0.310, 0.595, 0.155, 0.070, 0.630, 0.340, 0.3127, 0.3290],
            7: [0.310, 0.595, 0.155, 0.070, 0.630, 0.340, 0.3127, 0.3290],
            8: [0.243, 0.692, 0.145, 0.049, 0.681, 0.319, 0.310, 0.316],
            9: [0.170, 0.797, 0.131, 0.046, 0.708, 0.292, 0.3127, 0.3290],
            10: [0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.333333, 0.33333],
            11: [0.265, 0.690, 0.150, 0.060, 0.680, 0.320, 0.314, 0.351],
            12: [0.265, 0.690, 0.150, 0.060, 0.680, 0.320, 0.3127, 0.3290],
            22: [0.295, 0.605, 0.155, 0.077, 0.630, 0.340, 0.3127, 0.3290],
        ]
    }
}
