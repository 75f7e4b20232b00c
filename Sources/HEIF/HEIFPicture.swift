import CHEIF
import Imaging

/// One decoded image from libheif, 8-bit interleaved RGB or RGBA; `deinit` releases it.
final class HEIFPicture {
    private let image: OpaquePointer
    let width: Int, height: Int
    /// 3 (RGB) or 4 (RGBA, straight or premultiplied alpha as `premultiplied` says).
    let channels: Int
    let premultiplied: Bool
    let stride: Int
    let pixels: UnsafePointer<UInt8>

    /// Takes ownership of `image`, which must be interleaved RGB or RGBA with 8 bits a sample.
    init?(_ image: OpaquePointer, premultiplied: Bool) {
        self.image = image
        self.premultiplied = premultiplied
        let chroma = heif_image_get_chroma_format(image)
        channels = chroma == heif_chroma_interleaved_RGBA ? 4 : 3
        var stride: Int32 = 0
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        guard chroma == heif_chroma_interleaved_RGB || chroma == heif_chroma_interleaved_RGBA,
              heif_image_get_bits_per_pixel(image, heif_channel_interleaved) == Int32(channels * 8),
              width > 0, height > 0,
              let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
              Int(stride) >= width * channels else {
            heif_image_release(image)
            return nil
        }
        self.width = width
        self.height = height
        self.stride = Int(stride)
        pixels = plane
    }

    deinit { heif_image_release(image) }

    /// Row `y`'s columns `x ..< x + count` as RGB into `rgb`, composited over white when there is alpha.
    func row(_ y: Int, from x: Int, count: Int, into rgb: UnsafeMutableBufferPointer<UInt8>) {
        precondition(y >= 0 && y < height && x >= 0 && x + count <= width && rgb.count >= count * 3,
                     "HEIF row out of range")
        let source = pixels + y * stride + x * channels
        if channels == 3 {
            rgb.baseAddress!.update(from: source, count: count * 3)
            return
        }
        AlphaComposite.overWhite(source, into: rgb.baseAddress!, count: count, premultiplied: premultiplied)
    }
}
