import CHEIF
import CHEIFDecoders
import ImageCodec
import Imaging

extension HEIFCodec {
    /// The primary image's thumbnail item (`thmb`: phones write a 320x240 or 384x512 HEVC picture beside the
    /// 12-megapixel one), decoded with its own rotation, mirror and crop as the photo's are, composited over white;
    /// the smallest when there are several. Nil when there is none, it is larger than `maxPixels`, or anything
    /// fails: the caller then does without.
    public func thumbnail(_ source: any ByteSource, maxPixels: Int) -> RGBImage? {
        guard let kind = try? Self.kind(of: source), let file = try? HEIFFile(source, kind: kind) else { return nil }
        // Trap: libheif 1.15 allocates a derived image's canvas (a grid thumbnail, a thumbnail's grid alpha) at the
        // size its item data says, checked against its side limit alone: a 1 KB file's grid thumbnail with an
        // 8x4 ispe asked for 4.2 GB. Every derived image but the primary (never decoded here) must fit.
        let primary = file.primaryItemID
        guard case .sizes(let canvases) = HEIFBoxes.derivedCanvases(of: file.source),
              canvases.allSatisfy({ $0.item == primary || $0.fits(maxPixels) }) else { return nil }
        return file.smallestThumbnail(maxPixels: maxPixels)
    }
}

extension HEIFFile {
    /// See `HEIFCodec.thumbnail`.
    func smallestThumbnail(maxPixels: Int) -> RGBImage? {
        let count = Int(heif_image_handle_get_number_of_thumbnails(handle))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(count)))
        var best: (handle: OpaquePointer, pixels: Int)?
        for id in ids.prefix(listed) {
            var thumbnail: OpaquePointer?
            guard heif_image_handle_get_thumbnail(handle, id, &thumbnail).code == heif_error_Ok, let thumbnail else { continue }
            let width = Int(heif_image_handle_get_width(thumbnail)), height = Int(heif_image_handle_get_height(thumbnail))
            let ispe = Int(heif_image_handle_get_ispe_width(thumbnail)) * Int(heif_image_handle_get_ispe_height(thumbnail))
            let pixels = max(width * height, ispe)
            if width > 0, height > 0, pixels <= maxPixels, pixels < (best?.pixels ?? Int.max) {
                if let best { heif_image_handle_release(best.handle) }
                best = (thumbnail, pixels)
            } else {
                heif_image_handle_release(thumbnail)
            }
        }
        guard let best else { return nil }
        defer { heif_image_handle_release(best.handle) }
        return Self.decodeWhole(best.handle, maxPixels: maxPixels)
    }

    /// A small image `handle` decoded on this thread (it is too small to be worth a cancellable job), as RGB.
    private static func decodeWhole(_ handle: OpaquePointer, maxPixels: Int) -> RGBImage? {
        guard let options = heif_decoding_options_alloc() else { return nil }
        defer { heif_decoding_options_free(options) }
        var call = pbheif_call()
        var image: OpaquePointer?
        let error = withUnsafeMutablePointer(to: &call) { call in
            pbheif_arm(call, UInt64(max(0, maxPixels)))
            defer { pbheif_disarm(call) }
            return heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_444, options)
        }
        guard error.code == heif_error_Ok, let image else {
            if let image { heif_image_release(image) }
            return nil
        }
        // HEIFPicture owns `image` from here, released or not.
        guard let picture = HEIFPicture(image, premultiplied: heif_image_handle_is_premultiplied_alpha(handle) != 0),
              picture.width > 0, picture.height > 0, picture.width * picture.height <= maxPixels else { return nil }
        var pixels = [UInt8](repeating: 0, count: picture.width * picture.height * 3)
        pixels.withUnsafeMutableBufferPointer { rgb in
            for y in 0..<picture.height {
                let start = y * picture.width * 3
                picture.row(y, from: 0, count: picture.width,
                            into: UnsafeMutableBufferPointer(rebasing: rgb[start..<start + picture.width * 3]))
            }
        }
        return RGBImage(width: picture.width, height: picture.height, pixels: pixels)
    }
}
