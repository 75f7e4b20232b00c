import COpenJPEG
import ImageCodec
import Imaging

/// OpenJPEG's decoded components (an `Int32` plane each, at its own sub-sampling and the reduced level) as
/// 8-bit RGB on the reference grid of that level: samples brought to 8 bits (signed ones shifted up first),
/// sub-sampled components repeated over the pixels they cover, YCbCr and CMYK converted, alpha over white.
enum JPEG2000Pixels {
    /// The pixels of `area` (full-resolution reference grid) at 1/2^`factor`, in a buffer from `pool`.
    static func rgb(_ image: opj_image_t, layout: Layout, factor: Int, area: (x0: Int, y0: Int, x1: Int, y1: Int),
                    pool: BufferPool, shouldCancel: () -> Bool) throws(CodecError) -> RGBImage {
        let left = JPEG2000Codec.reduced(area.x0, by: factor), top = JPEG2000Codec.reduced(area.y0, by: factor)
        let width = JPEG2000Codec.reduced(area.x1, by: factor) - left
        let height = JPEG2000Codec.reduced(area.y1, by: factor) - top
        guard width > 0, height > 0, let comps = image.comps else {
            throw .corrupt("corrupt JPEG 2000 (nothing was decoded)")
        }
        let used = layout.channels + (layout.alpha.map { [$0] } ?? [])
        // Per channel: where each output column and row finds its sample, and how to bring it to 8 bits.
        var planes: [Plane] = []
        for index in used {
            let comp = comps[index]
            guard let data = comp.data, comp.w > 0, comp.h > 0 else {
                throw .corrupt("corrupt JPEG 2000 (component \(index) was not decoded)")
            }
            let dx = Int(comp.dx), dy = Int(comp.dy)
            // Trap: after opj_decode a component's x0/y0 are at full resolution (ceil(area.x0 / dx)), its w/h at
            // the reduced level: the first sample of the plane is x0 reduced, rounded up as OpenJPEG rounds.
            let originX = JPEG2000Codec.reduced(Int(comp.x0), by: factor)
            let originY = JPEG2000Codec.reduced(Int(comp.y0), by: factor)
            let columns = (0..<width).map { min(Int(comp.w) - 1, max(0, (left + $0) / dx - originX)) }
            let rows = (0..<height).map { min(Int(comp.h) - 1, max(0, (top + $0) / dy - originY)) }
            planes.append(Plane(data: data, stride: Int(comp.w), columns: columns, rows: rows,
                                precision: Int(comp.prec), signed: comp.sgnd != 0))
        }
        var pixels = pool.take(width * height * 3)
        var samples = [[UInt8]](repeating: [UInt8](repeating: 0, count: width), count: planes.count)
        for y in 0..<height {
            if y % 64 == 0 && shouldCancel() {
                pool.giveBack(pixels)
                throw .cancelled
            }
            for p in planes.indices { planes[p].row(y, into: &samples[p]) }
            let base = y * width * 3
            pixels.withUnsafeMutableBufferPointer { out in
                for x in 0..<width {
                    var r: Int, g: Int, b: Int
                    switch layout.colour {
                    case .grey:
                        r = Int(samples[0][x]); g = r; b = r
                    case .rgb:
                        r = Int(samples[0][x]); g = Int(samples[1][x]); b = Int(samples[2][x])
                    case .ycc:
                        let luma = Int(samples[0][x]) << 16, cb = Int(samples[1][x]) - 128, cr = Int(samples[2][x]) - 128
                        // ITU-R BT.601 full range (sYCC), in 16-bit fixed point.
                        r = clamp((luma + 91881 * cr + 32768) >> 16)
                        g = clamp((luma - 22554 * cb - 46802 * cr + 32768) >> 16)
                        b = clamp((luma + 116130 * cb + 32768) >> 16)
                    case .cmyk:
                        let k = 255 - Int(samples[3][x])
                        r = (255 - Int(samples[0][x])) * k / 255
                        g = (255 - Int(samples[1][x])) * k / 255
                        b = (255 - Int(samples[2][x])) * k / 255
                    }
                    if layout.alpha != nil {
                        let a = Int(samples[planes.count - 1][x]), white = 255 * (255 - a)
                        r = (r * a + white + 127) / 255
                        g = (g * a + white + 127) / 255
                        b = (b * a + white + 127) / 255
                    }
                    out[base + x * 3] = UInt8(r)
                    out[base + x * 3 + 1] = UInt8(g)
                    out[base + x * 3 + 2] = UInt8(b)
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    private static func clamp(_ value: Int) -> Int { min(255, max(0, value)) }

    /// One component's plane as OpenJPEG left it, read a row of output pixels at a time.
    struct Plane {
        let data: UnsafeMutablePointer<Int32>
        let stride: Int
        let columns: [Int], rows: [Int]
        let precision: Int
        let signed: Bool

        func row(_ y: Int, into out: inout [UInt8]) {
            let line = data + rows[y] * stride
            let offset = signed ? Int64(1) << (precision - 1) : 0
            let maximum = (Int64(1) << precision) - 1
            for x in columns.indices {
                let value = min(maximum, max(0, Int64(line[columns[x]]) + offset))
                out[x] = precision == 8 ? UInt8(value) : UInt8((value * 255 + maximum / 2) / maximum)
            }
        }
    }
}
