import CJPEGShim
import ImageCodec
import Imaging

/// A JPEG's picture at 1/8 of its size made from the DC coefficients a lossless crop has read anyway: each pixel
/// one luma block's mean (DC x quantiser / 8 + 128), its chroma the covering chroma block's, converted as JFIF
/// says. libjpeg's own 1/8 decode computes the same means (its 1x1 IDCT) and differs only in how it upsamples
/// the chroma, so a map measured on either is nearly the same, at no entropy decoding of its own.
enum JPEGBlockMeans {
    /// The picture of `transcoder`'s coefficients (read already), for a layout `unsuitability` accepted (grey,
    /// or YCbCr with luma at full resolution).
    static func picture(_ transcoder: TranscoderHandle, layout: pb_jpeg_header) throws(JPEGError) -> RGBImage {
        // Each component's block means, and for each luma block the chroma block that covers it.
        var means: [[Float]] = [], widths: [Int] = [], heights: [Int] = []
        for index in 0..<Int(layout.components) {
            let (info, _) = try transcoder.component(index, copyBlocks: false)
            let width = Int(info.width_in_blocks), height = Int(info.height_in_blocks)
            let quantiser = Float(info.quantization.0) / 8
            means.append(try transcoder.dcTerms(index, count: width * height).map { Float($0) * quantiser + 128 })
            widths.append(width)
            heights.append(height)
        }
        let width = widths[0], height = heights[0]
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        // Trap: Float.rounded() is a call to libm's roundf on baseline x86-64 (no SSE4.1), three per pixel; a
        // half added and the integer clamped rounds the same for the finite means here, and is inlined.
        @inline(__always) func byte(_ value: Float) -> UInt8 { UInt8(clamping: Int(value + 0.5)) }
        if means.count == 1 {
            for (i, luma) in means[0].enumerated() {
                let value = byte(luma)
                pixels[3 * i] = value; pixels[3 * i + 1] = value; pixels[3 * i + 2] = value
            }
            return RGBImage(width: width, height: height, pixels: pixels)
        }
        // A chroma block covers (luma blocks / chroma blocks) luma blocks along each side.
        // Cb and Cr may be sampled differently from each other, too.
        let columnsB = (0..<width).map { min(widths[1] - 1, $0 * widths[1] / width) }
        let columnsR = (0..<width).map { min(widths[2] - 1, $0 * widths[2] / width) }
        // Through raw buffers: indexing nested arrays here was most of a lossless page's attention time.
        pixels.withUnsafeMutableBufferPointer { out in
            means[0].withUnsafeBufferPointer { luma in
                means[1].withUnsafeBufferPointer { cb in
                    means[2].withUnsafeBufferPointer { cr in
                        columnsB.withUnsafeBufferPointer { columnsB in
                            columnsR.withUnsafeBufferPointer { columnsR in
                                for y in 0..<height {
                                    let rowB = min(heights[1] - 1, y * heights[1] / height) * widths[1]
                                    let rowR = min(heights[2] - 1, y * heights[2] / height) * widths[2]
                                    for x in 0..<width {
                                        let i = y * width + x
                                        let l = luma[i], b = cb[rowB + columnsB[x]] - 128, r = cr[rowR + columnsR[x]] - 128
                                        out[3 * i] = byte(l + 1.402 * r)
                                        out[3 * i + 1] = byte(l - 0.344136 * b - 0.714136 * r)
                                        out[3 * i + 2] = byte(l + 1.772 * b)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}

extension JPEGCodec {
    /// The picture of `source`'s block means (`JPEGBlockMeans`), read on their own: the same picture a lossless
    /// crop's `place` is shown, so that a map measured before the render (the dry run, a photo whose pixels are
    /// decoded) is the one the render would measure. Any libjpeg warning fails, as when decoding.
    public func blockMeans(_ source: any ByteSource, maxPixels: Int, pool: BufferPool,
                           shouldCancel: () -> Bool) throws(CodecError) -> RGBImage {
        let data = try source.readAll()
        return try CodecError.converting { () throws(JPEGError) in
            try withJPEGBytes(data, shouldCancel: shouldCancel) { (bytes, probe) throws(JPEGError) in
                let (transcoder, layout) = try JPEGLosslessCrop.opened(bytes, maxPixels: maxPixels, probe: probe,
                                                                       pool: pool)
                if let reason = JPEGLosslessCrop.unsuitability(layout) { throw .unsupported(reason) }
                try transcoder.readCoefficients()
                return try JPEGBlockMeans.picture(transcoder, layout: layout)
            }
        }
    }
}
