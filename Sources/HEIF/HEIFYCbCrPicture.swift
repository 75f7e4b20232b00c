import CHEIFDecoders

/// One decoded 8-bit YCbCr picture, kept as the HEVC or AV1 decoder's own planes and turned into RGB a row at a time as
/// it is copied out, with libheif 1.15's arithmetic to the last bit; `deinit` releases the planes.
///
/// Why: for an image it would only convert, libheif 1.15 copies the decoder's picture (1.5 bytes a pixel for
/// 4:2:0) and converts the copy to planar RGB (3 bytes a pixel) while the copy is alive: 54 MB held at once for
/// 12 megapixels, per worker, where this holds the 18 MB of the decoder's planes. Only such an image comes here
/// (HEIFDecodeJob: one coded picture, no grid, alpha, irot, imir or clap); libheif does everything for the rest.
/// The conversion is libheif's `Op_YCbCr_to_RGB<uint8_t>` (heif_colorconversion.cc) with its coefficients
/// (nclx.cc): nearest chroma sample, no filter; the matrix and range are the file's `colr` nclx when it has one,
/// else the bitstream's, as libheif takes them. `HEIFDecoderPluginTests` compares the pictures with heif-convert's.
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
        conversion = Conversion(matrix: codes.matrix, primaries: codes.primaries, fullRange: codes.fullRange)
    }

    deinit { pbheif_release_planes(&planes) }

    func row(_ y: Int, from x: Int, count: Int, into rgb: UnsafeMutableBufferPointer<UInt8>) {
        precondition(y >= 0 && y < height && x >= 0 && x + count <= width && rgb.count >= count * 3,
                     "HEIF row out of range")
        let shiftX = Int(planes.chroma_shift_x), shiftY = Int(planes.chroma_shift_y)
        let luma = planes.data.0! + y * Int(planes.stride.0)
        let cb = planes.data.1! + (y >> shiftY) * Int(planes.stride.1)
        let cr = planes.data.2! + (y >> shiftY) * Int(planes.stride.2)
        conversion.convert(luma: luma, cb: cb, cr: cr, shiftX: shiftX, from: x, count: count, into: rgb.baseAddress!)
    }

    /// libheif 1.15's YCbCr to RGB for 8-bit samples, as tables of the very products it computes.
    struct Conversion {
        enum Kind { case identity, yCgCo, matrix }
        let kind: Kind
        let fullRange: Bool
        /// By sample value: Y as libheif scales it, and each chroma coefficient times the scaled chroma sample.
        private var y = [Float](repeating: 0, count: 256)
        private var rCr = [Float](repeating: 0, count: 256), gCb = [Float](repeating: 0, count: 256)
        private var gCr = [Float](repeating: 0, count: 256), bCb = [Float](repeating: 0, count: 256)

        init(matrix: Int, primaries: Int, fullRange: Bool) {
            self.fullRange = fullRange
            kind = matrix == 0 ? .identity : matrix == 8 ? .yCgCo : .matrix
            let k = Self.coefficients(matrix: matrix, primaries: primaries)
            for v in 0..<256 {
                var luma = Float(v), chroma = Float(v - 128)
                if !fullRange {
                    luma = (luma - 16) * 1.1689
                    chroma = chroma * 1.1429
                }
                y[v] = luma
                rCr[v] = k.rCr * chroma
                gCb[v] = k.gCb * chroma
                gCr[v] = k.gCr * chroma
                bCb[v] = k.bCb * chroma
            }
        }

        func convert(luma: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>, shiftX: Int,
                     from x: Int, count: Int, into out: UnsafeMutablePointer<UInt8>) {
            switch kind {
            case .identity:
                // libheif's GBR: limited range scaled down once more (its `(v * 219 + 128) >> 8) + 16`).
                for i in 0..<count {
                    let c = (x + i) >> shiftX
                    out[3 * i] = scaled(cr[c])
                    out[3 * i + 1] = scaled(luma[x + i])
                    out[3 * i + 2] = scaled(cb[c])
                }
            case .yCgCo:
                for i in 0..<count {
                    let c = (x + i) >> shiftX
                    let yv = Int(luma[x + i]), u = Int(cb[c]) - 128, v = Int(cr[c]) - 128
                    out[3 * i] = Self.clip(yv - u + v)
                    out[3 * i + 1] = Self.clip(yv + u)
                    out[3 * i + 2] = Self.clip(yv - u - v)
                }
            case .matrix:
                y.withUnsafeBufferPointer { y in
                rCr.withUnsafeBufferPointer { rCr in
                gCb.withUnsafeBufferPointer { gCb in
                gCr.withUnsafeBufferPointer { gCr in
                bCb.withUnsafeBufferPointer { bCb in
                    for i in 0..<count {
                        let c = (x + i) >> shiftX
                        let yv = y[Int(luma[x + i])], u = Int(cb[c]), v = Int(cr[c])
                        out[3 * i] = Self.round(yv + rCr[v])
                        out[3 * i + 1] = Self.round(yv + gCb[u] + gCr[v])
                        out[3 * i + 2] = Self.round(yv + bCb[u])
                    }
                }}}}}
            }
        }

        private func scaled(_ v: UInt8) -> UInt8 {
            fullRange ? v : UInt8(truncatingIfNeeded: ((Int(v) * 219 + 128) >> 8) + 16)
        }

        private static func clip(_ v: Int) -> UInt8 { UInt8(clamping: v) }

        /// libheif's `clip_f_u16(f, 255)`: `(long)(f + 0.5f)`, truncated towards zero, then clipped.
        private static func round(_ f: Float) -> UInt8 { UInt8(clamping: Int(f + 0.5)) }

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
