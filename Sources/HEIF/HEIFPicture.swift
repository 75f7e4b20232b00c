import CHEIF
import Imaging

/// One decoded image from libheif as planes of R, G and B (and alpha), 8 to 16 bits a sample; `deinit` releases
/// it.
///
/// Planar, not interleaved: libheif 1.15 always converts a picture to planar RGB 4:4:4 first (`decode_image_planar`,
/// even when YCbCr is asked for), and an interleaved request then copies it once more, a second 36 MB for 12
/// megapixels held beside the first. The planes are interleaved here a row at a time instead. Above 8 bits the
/// planes keep their depth (libheif's `convert_hdr_to_8bit` acts only when it converts anyway); each sample is
/// brought to 8 bits as libheif would (`>> (bits - 8)`, no rounding: its `Op_to_sdr_planes`).
final class HEIFPicture: HEIFRows {
    private let image: OpaquePointer
    let width: Int, height: Int
    let hasAlpha: Bool
    let premultiplied: Bool
    /// Bits a sample, 8 to 16; above 8 each sample takes two bytes.
    let bits: Int
    /// How many of a grid's tiles were not decoded (HEIFGridTiles): their part of the picture is unwritten.
    var tilesLeftOut = 0
    private let planes: [(pixels: UnsafePointer<UInt8>, stride: Int)]
    /// One row of RGBA, for the composite over white.
    private var rgba: [UInt8]

    /// Takes ownership of `image`, which must be planar RGB 4:4:4 (with or without alpha) of one depth; nil (and
    /// `image` released) when it is not.
    init?(_ image: OpaquePointer, premultiplied: Bool) {
        self.image = image
        self.premultiplied = premultiplied
        let width = Int(heif_image_get_width(image, heif_channel_R))
        let height = Int(heif_image_get_height(image, heif_channel_R))
        let bits = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_R))
        let hasAlpha = heif_image_has_channel(image, heif_channel_Alpha) != 0
        var planes: [(pixels: UnsafePointer<UInt8>, stride: Int)] = []
        let channels = hasAlpha ? [heif_channel_R, heif_channel_G, heif_channel_B, heif_channel_Alpha]
                                : [heif_channel_R, heif_channel_G, heif_channel_B]
        let bytes = bits > 8 ? 2 : 1
        for channel in channels {
            var stride: Int32 = 0
            guard heif_image_get_width(image, channel) == width, heif_image_get_height(image, channel) == height,
                  heif_image_get_bits_per_pixel_range(image, channel) == bits,
                  let plane = heif_image_get_plane_readonly(image, channel, &stride), Int(stride) >= width * bytes
            else { break }
            planes.append((plane, Int(stride)))
        }
        guard heif_image_get_colorspace(image) == heif_colorspace_RGB,
              heif_image_get_chroma_format(image) == heif_chroma_444,
              width > 0, height > 0, (8...16).contains(bits), planes.count == channels.count else {
            heif_image_release(image)
            return nil
        }
        self.width = width
        self.height = height
        self.bits = bits
        self.hasAlpha = hasAlpha
        self.planes = planes
        rgba = hasAlpha ? [UInt8](repeating: 0, count: width * 4) : []
    }

    deinit { heif_image_release(image) }

    func row(_ y: Int, from x: Int, count: Int, into rgb: UnsafeMutableBufferPointer<UInt8>) {
        precondition(y >= 0 && y < height && x >= 0 && x + count <= width && rgb.count >= count * 3,
                     "HEIF row out of range")
        guard hasAlpha else {
            interleave(y, from: x, count: count, into: rgb.baseAddress!, channels: 3)
            return
        }
        rgba.withUnsafeMutableBufferPointer { rgba in
            interleave(y, from: x, count: count, into: rgba.baseAddress!, channels: 4)
            AlphaComposite.overWhite(rgba.baseAddress!, into: rgb.baseAddress!, count: count, premultiplied: premultiplied)
        }
    }

    private func interleave(_ y: Int, from x: Int, count: Int, into out: UnsafeMutablePointer<UInt8>, channels: Int) {
        for c in 0..<channels {
            let (pixels, stride) = planes[c]
            if bits == 8 {
                let source = pixels + y * stride + x
                for i in 0..<count { out[i * channels + c] = source[i] }
            } else {
                let shift = UInt16(bits - 8)
                let source = UnsafeRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt16.self) + x
                for i in 0..<count { out[i * channels + c] = UInt8(truncatingIfNeeded: source[i] >> shift) }
            }
        }
    }
}
